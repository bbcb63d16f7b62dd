"""Walk 24 #8: History said "verified" in its list but "error: the GraphCast check was stopped by you; … not
checked" in the entry's detail; and a `--slurm-wait` queue timeout read as a failed verify although the check never
started. Both faces take the words from `flows.history` (`env_status`, `status_cell`, `error_words`)."""

from __future__ import annotations

import dataclasses
import json

from textual.app import App
from textual.widgets import DataTable

from tests.fixtures.cli import run_inproc
from wizard.history.store import VerifySummary, load_history, now, record_verify
from wizard.install import envs
from wizard.lock import StateLock
from wizard.tui.screens.history import HistoryScreen

STOPPED = ("the GraphCast check was stopped by you; the new environment stays at {env}, installed but not checked "
           "and not current: `gc-wizard verify --env {env}` checks it")


class _HistoryHost(App):
    def on_mount(self) -> None:
        self.push_screen(HistoryScreen())


def _kept_then_verified_and_a_queue_timeout(tiny) -> tuple[str, str]:
    """A real install kept unchecked (its entry's error as the stop writes it), verified since (the marker's date,
    as a passing `verify --env` writes it), another install made current, then a check that waited for a node in vain."""
    proc, result = tiny.install("tiny-a")
    assert proc.returncode == 0, proc.stderr
    env = result["env"]
    with StateLock("test"):
        history = load_history(locked=True)
        history.entries[0].error = STOPPED.format(env=env)
        history.save()
    envs.write_marker(env, dataclasses.replace(envs.read_marker(env), verified=now()))
    assert tiny.install("tiny-b")[0].returncode == 0  # the current one now: the kept one is not (as walked)
    timeout = VerifySummary(ok=False, findings=("slurm_queue_timeout",), finding_details=(
        {"id": "slurm_queue_timeout", "title": "The GraphCast check never started: no node was free in time",
         "fix": "..."},))
    entry = record_verify(env, timeout)
    assert entry is not None
    return env, entry.id


def test_the_cli_history_says_verified_since_and_not_run(tiny, isolated_state):
    env, _ = _kept_then_verified_and_a_queue_timeout(tiny)
    out = run_inproc("history", env={"COLUMNS": "200"}).stdout
    said = " ".join(out.split())
    assert "verified since (20" in said and "by a later check; at install, the GraphCast check was stopped by you." \
        in said, out
    assert "not checked and not current" not in said and "! the GraphCast check was stopped" not in said
    verify_row = next(line for line in out.splitlines() if " verify " in line)
    assert "not run" in verify_row and "failed" not in verify_row, out
    rows = json.loads(run_inproc("history", "--json").stdout)
    assert rows[2]["status"] == "failed" and rows[2]["env_status"].startswith("not run")  # the record is unchanged


async def test_the_app_history_detail_says_verified_since_and_the_timeout_not_run(tiny, isolated_state):
    _kept_then_verified_and_a_queue_timeout(tiny)
    app = _HistoryHost()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        table = app.screen.query_one(DataTable)
        assert str(table.get_row_at(2)[3]) == "not run"
        table.move_cursor(row=0)
        await pilot.pause()
        detail = " ".join(str(app.screen.query_one("#history-note").render()).split())
        assert "note: verified since (20" in detail and "at install, the GraphCast check was stopped by you." in detail
        assert "error:" not in detail and "not checked" not in detail, detail
