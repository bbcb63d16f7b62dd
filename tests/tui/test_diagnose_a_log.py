"""Walk 26 #12: the app can diagnose a log that is not its own. d on the machine screen (and on History) opens a
screen that takes a path or pasted text and runs the operation `gc-wizard diagnose` runs (`flows.diagnosis`: the
bounded reader, the same findings in the same words), in a worker; a bad path gets one sentence naming it.

Real parts: a captured log from tests/logs, the real CLI run in this process for the comparison, the real app."""

from __future__ import annotations

from pathlib import Path

from tests.fixtures.cli import run_inproc
from tests.fixtures.pilot import (
    SIZE,
    HistoryHost,
    diagnose_from_history,
    facts_shown,
    read_when_shown,
    screen_text,
    until,
    wait_for,
)
from wizard.tui.app import WizardApp
from wizard.tui.screens.diagnose import WIDTH, DiagnoseScreen
from wizard.tui.screens.history import HistoryScreen
from wizard.wrap import hanging

LOG = Path(__file__).resolve().parents[1] / "logs" / "graphcast_not_installed.log"


async def _diagnosed(pilot, screen) -> None:
    await until(pilot, lambda: screen.lines is not None or screen.error is not None, timeout=60, settle=0.1)


async def test_d_on_the_machine_screen_diagnoses_a_log_file_as_the_cli_does(gpu_server, isolated_state, tmp_path,
                                                                          monkeypatch):
    gpu_server("no-nvidia")
    app = WizardApp()
    async with app.run_test(size=SIZE) as pilot:
        await facts_shown(pilot)
        # the footer names the key (drawn after the facts: waited for, as a loaded CI machine drew it late)
        await read_when_shown(pilot, None, "d Diagnose a log", timeout=30, settle=0)
        await pilot.press("d")
        await wait_for(pilot, lambda: isinstance(app.screen, DiagnoseScreen))
        screen = app.screen
        await until(pilot, lambda: screen.query_one("#log-path").has_focus, settle=0.1)  # the path box takes Enter
        screen.query_one("#log-path").value = str(LOG)
        await pilot.press("enter")
        await _diagnosed(pilot, screen)
        shown = screen.lines
        # A path that is not there: one sentence naming it, and the screen stays for another try.
        screen.lines = None
        screen.query_one("#log-path").value = str(tmp_path / "no-such.log")
        await pilot.press("enter")
        await _diagnosed(pilot, screen)
        assert screen.error == f"cannot read the log file {tmp_path / 'no-such.log'}: there is no such file."
        assert "Traceback" not in screen_text(app)
        # Pasted text, as `diagnose -` reads it.
        screen.lines, screen.error = None, None
        screen.query_one("#log-text").text = LOG.read_text()
        await pilot.press("ctrl+d")
        await _diagnosed(pilot, screen)
        pasted = screen.lines
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, DiagnoseScreen))
    monkeypatch.setenv("COLUMNS", str(WIDTH + 1))  # the CLI wraps to the same width
    cli = run_inproc("diagnose", str(LOG))
    assert cli.returncode == 1, cli.stderr
    assert "\n".join(shown) == cli.stdout.rstrip("\n")  # the same findings in the same words
    assert shown[0].startswith("Found 1 problem in ")
    head = shown.index("")  # the heading's rows: wrapped anew for the pasted text's shorter name
    assert pasted == [*hanging(" ".join(shown[:head]).replace(str(LOG), "the pasted text"), WIDTH), *shown[head:]]


async def test_d_on_history_opens_the_same_screen(isolated_state):
    app = HistoryHost()
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, HistoryScreen), settle=0.2)
        await read_when_shown(pilot, HistoryScreen, "d Diagnose a log", timeout=30, settle=0)
        await pilot.press("d")
        await until(pilot, lambda: isinstance(app.screen, DiagnoseScreen), settle=0.1)


async def test_d_on_history_reads_the_highlighted_entrys_log(isolated_state, tmp_path):
    """Walk 33 #10: "(in the app: History, d)" opened an empty path box (`/path/to/failed-run.log`), and the ~60-
    character log path had to be typed from another screen. d now fills in the highlighted entry's log and reads it."""
    from tests.fixtures.state import save_entries
    from wizard.history.store import Entry

    log = tmp_path / "install-20261129-004501-9d5f.log"
    log.write_text(LOG.read_text())
    save_entries([Entry(id="20261129-004501-9d5f", kind="install", recipe="jax0.4.23-cpu", env="/e", status="failed",
                        started="2026-11-29T00:45:01+00:00", log=str(log))])

    app = HistoryHost()
    async with app.run_test(size=SIZE) as pilot:
        screen = await diagnose_from_history(pilot, app)
        assert screen.query_one("#log-path").value == str(log)
        await _diagnosed(pilot, screen)
        assert " ".join(screen.lines[:2]).startswith(f"Found 1 problem in {log}"), screen.lines
