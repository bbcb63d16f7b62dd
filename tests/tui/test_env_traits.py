"""Two environments of one recipe are told apart by the same row in History (both faces), the rollback question and
`remove`'s question: notebook-ready or not, GraphCast version and source, when installed (walk 23
#2: a plain and a `--with-notebook` `jax0.4.23-cpu` read the same everywhere)."""

from __future__ import annotations

import venv

from textual.app import App
from textual.widgets import DataTable

from tests.fixtures.cli import run_inproc
from wizard import paths
from wizard.commands.history import history_table
from wizard.flows.history import history_rows
from wizard.flows.rollback import describe_change
from wizard.history.store import Entry, load_history
from wizard.install.envs import write_marker
from wizard.lock import StateLock
from wizard.tui.screens.history import HistoryScreen

PLAIN = "no notebook packages · GraphCast 0.1.1 from /work/gc/v011"
NOTEBOOK = "+ notebook packages · GraphCast 0.1.1 from /work/gc/v011"


class _HistoryHost(App):
    def on_mount(self) -> None:
        self.push_screen(HistoryScreen())


def _two_envs() -> list[Entry]:
    entries = []
    for stamp, notebook in (("023131", False), ("023542", True)):
        env = paths.state_dir() / "envs" / f"jax0.4.23-cpu-20261128-{stamp}"
        venv.create(env, with_pip=False)
        marker = {"recipe": "jax0.4.23-cpu", "backend": "cpu", "graphcast_version": "0.1.1", "notebook": notebook}
        write_marker(env, marker)
        entries.append(Entry(id=f"20261128-{stamp}-ab{stamp[-2:]}", kind="install", recipe="jax0.4.23-cpu",
                             env=str(env), status="verified", started=f"2026-11-28T02:{stamp[2:4]}:{stamp[4:]}",
                             installer="uv", graphcast_given="/work/gc/v011", marker=marker,
                             packages=["jax==0.4.23", "numpy==1.26.4"]))
    with StateLock("test"):
        history = load_history(locked=True)
        for entry in entries:
            history.add(entry)
        history.make_current(entries[0])
        history.save()
    return entries


async def test_both_history_views_the_rollback_and_remove_questions_tell_the_two_apart(isolated_state):
    plain, notebook = _two_envs()
    table = " ".join(" ".join(history_table(*history_rows()[:2], 80)).split())
    assert PLAIN in table and NOTEBOOK in table, table
    app = _HistoryHost()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        notes = []
        for row in range(2):
            app.screen.query_one(DataTable).move_cursor(row=row)
            await pilot.pause()
            notes.append(" ".join(str(app.screen.query_one("#history-note").render()).split()))
        assert any(PLAIN in note for note in notes) and any(NOTEBOOK in note for note in notes), notes
    question = " ".join(" ".join(describe_change(plain, notebook)).split())
    assert f"{PLAIN} · installed 2026-11-28 02:31" in question, question
    assert f"{NOTEBOOK} · installed 2026-11-28 02:35" in question, question
    asked = run_inproc("remove", notebook.id)  # no terminal: the question is shown, nothing deleted
    assert f"({NOTEBOOK} · installed 2026-11-28 02:35)? This frees" in " ".join(asked.stderr.split()), asked.stderr
