"""The History screen's line about an entry's GraphCast check: words a newcomer reads, not tier ids."""

from __future__ import annotations

from textual.app import App
from textual.widgets import DataTable

from tests.fixtures.state import save_entries
from wizard import paths
from wizard.commands.history import history_table
from wizard.flows.history import history_rows
from wizard.history.store import Entry, VerifySummary
from wizard.tui.screens.history import HistoryScreen, check_line


class _HistoryHost(App):
    """The History screen alone, on the test's state folder."""

    def on_mount(self) -> None:
        self.push_screen(HistoryScreen())


def _entry(status: str, summary: VerifySummary | None) -> Entry:
    return Entry(id="20261122-215244-abcd", kind="install", recipe="jax0.4.23-cpu", env="/e", status=status,
                 verify=summary)


def test_a_stopped_check_says_stopped_and_where():
    line = check_line(_entry("cancelled", VerifySummary(ok=False, failed_tier="graphcast_jit_init")))
    assert line == "check: stopped during GraphCast jit init (the notebook's cell)"


def test_a_failed_check_names_the_tier_and_the_finding():
    summary = VerifySummary(ok=False, failed_tier="backend", findings=("cuda_driver_too_old",),
                            finding_details=({"id": "cuda_driver_too_old", "title": "The NVIDIA driver is too old",
                                              "fix": "..."},))
    assert check_line(_entry("failed", summary)) == ("check: failed at JAX backend and devices — "
                                                    "The NVIDIA driver is too old")
    bare = VerifySummary(ok=False, failed_tier="backend")
    assert check_line(_entry("failed", bare)) == "check: failed at JAX backend and devices"


def test_a_passed_check_gives_what_initialised():
    summary = VerifySummary(ok=True, backend="cpu", param_count=70739, gencast=True, gencast_param_count=57492612)
    assert check_line(_entry("verified", summary)) == ("check: GraphCast initialised 70,739 parameters and "
                                                      "GenCast 57,492,612 on cpu")
    assert check_line(_entry("installed", None)) is None


async def test_the_history_table_fits_80_columns_with_the_longest_recipe_id(isolated_state):
    """At 80×24 every column shows without scrolling sideways (the ● marker never scrolls away)."""
    save_entries([Entry(id=f"20261122-21524{n}-abcd", kind="rollback" if n == 1 else "install", recipe=recipe, env=f"/e{n}",
                 status=status, current=n == 2, started="2026-11-22T21:52:44+00:00",
                 error="cancelled by the user; the new environment /e1 was removed" if n == 1 else None)
           for n, (recipe, status) in enumerate([("jax0.4.23-cuda11-cudnn86", "failed"),
                                                 ("jax0.4.23-cuda12-cudnn89", "cancelled"),
                                                 ("jax0.4.23-cpu", "verified")])])
    app = _HistoryHost()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        table = app.screen.query_one(DataTable)
        assert table.row_count == 3
        assert table.virtual_size.width <= table.size.width, (table.virtual_size, table.size)
        note = str(app.screen.query_one("#history-note").render())
        assert "started 2026-11-22 21:52" in note
        table.move_cursor(row=1)  # the stopped one: said as a stop, its folder as gone
        await pilot.pause()
        note = str(app.screen.query_one("#history-note").render())
        assert "stopped: cancelled by the user" in note and "env: /e1 (removed)" in note, note


def test_a_check_on_a_node_names_the_node_and_one_that_never_started_says_why():
    passed = VerifySummary(ok=True, backend="cpu", param_count=70739, node="gpu07")
    assert check_line(_entry("verified", passed)) == "check: GraphCast initialised 70,739 parameters on cpu, node gpu07"
    failed = VerifySummary(ok=False, failed_tier="backend", node="gpu07")
    assert check_line(_entry("failed", failed)) == "check on node gpu07: failed at JAX backend and devices"
    never = VerifySummary(ok=False, findings=("srun_failed",), finding_details=(
        {"id": "srun_failed", "title": "The GraphCast check never started on a GPU node", "fix": "..."},))
    assert check_line(_entry("failed", never)) == "check: The GraphCast check never started on a GPU node"


async def test_the_history_screen_shows_each_envs_disk_use_and_the_total_measured_off_the_event_loop(isolated_state):
    """Walk 18 #12: the app's History lacked what `gc-wizard history` shows, the disk each environment takes and
    all of them together. The same cells and line (`flows.history`), filled in by a worker once measured."""
    env = paths.state_dir() / "envs" / "tiny-a-1"
    env.mkdir(parents=True)
    (env / "blob").write_bytes(b"x" * (3 * 2**20))  # 3 MiB of real blocks
    save_entries([Entry(id="20261122-215240-abcd", kind="install", recipe="tiny-a", env=str(env), status="verified",
                 current=True, started="2026-11-22T21:52:44+00:00")])
    app = _HistoryHost()
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(100):
            await pilot.pause(0.05)
            note = str(app.screen.query_one("#history-note").render())
            if "for all environments together" in note:
                break
        assert "disk: 3.0 MiB" in note, note
        assert "Disk: 3.0 MiB for all environments together" in " ".join(note.split()), note
    rows, total, _ = history_rows()
    assert "3.0 MiB" in history_table(rows, total, 80)[1]  # the CLI's disk column: the same words


async def test_r_is_offered_only_on_a_row_it_can_roll_back_to_and_the_row_says_why_not(isolated_state):
    """Walk 17: the footer offered "Roll back to selected" on a stopped install and on the current one, and r then
    answered with a refusal. The row now says why (the core's words) and r is shown disabled there."""
    for n in range(3):  # managed envs, under envs/ as the wizard makes them (a state holds nothing else of its own)
        (isolated_state / "envs" / f"e{n}").mkdir(parents=True)
    save_entries([Entry(id=f"20261122-21524{n}-abcd", kind="install", recipe="tiny-a", env=str(isolated_state / "envs" / f"e{n}"),
                 status=status, current=current, started="2026-11-22T21:52:44+00:00")
           for n, (status, current) in enumerate([("verified", False), ("cancelled", False), ("verified", True)])])
    app = _HistoryHost()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        table = screen.query_one(DataTable)
        seen = {}
        for row in range(3):
            table.move_cursor(row=row)
            await pilot.pause()
            note = " ".join(str(screen.query_one("#history-note").render()).split())
            seen[row] = (screen.check_action("rollback", ()), note)
        assert seen[0][0] is True and "r: " not in seen[0][1]
        assert seen[1][0] is None and ("r: Entry 20261122-215241-abcd cancelled; only an installed or verified "
                                       "environment can be rolled back to.") in seen[1][1]
        assert seen[2][0] is None and "is already the current environment" in seen[2][1]


def test_a_check_the_user_stopped_reads_stopped_even_when_the_install_was_kept():
    """Walk 19 #2: Ctrl-C in the check, then k (keep it unchecked): the entry is `installed`, and its line read
    "check: failed at GraphCast jit init"."""
    kept = VerifySummary(ok=False, failed_tier="graphcast_jit_init", stopped=True)
    assert check_line(_entry("installed", kept)) == "check: stopped during GraphCast jit init (the notebook's cell)"


async def test_the_detail_names_the_graphcast_source_and_the_disk_line_names_uv_only_for_uv_installs(isolated_state):
    """Walk 21 #11: a pip install's detail said "hardlinked from uv's cache" and did not show the local GraphCast
    checkout it was built from. Both views say the same (`flows.history`)."""
    env = paths.state_dir() / "envs" / "tiny-a-20261127-183400"
    env.mkdir(parents=True)
    (env / "blob").write_bytes(b"x" * 2**20)
    save_entries([Entry(id="20261127-183400-abcd", kind="install", recipe="tiny-a", env=str(env), status="verified",
                 current=True, started="2026-11-27T18:34:09+00:00", installer="pip", graphcast_given="/work/gc/v011")])
    app = _HistoryHost()
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(100):
            await pilot.pause(0.05)
            note = " ".join(str(app.screen.query_one("#history-note").render()).split())
            if "for all environments together" in note:
                break
        assert "GraphCast from /work/gc/v011" in note and "uv" not in note.split("Disk:")[1], note
    rows, total, _ = history_rows()
    table = " ".join(history_table(rows, total, 80))
    assert "GraphCast from /work/gc/v011" in table and "uv's cache" not in table

