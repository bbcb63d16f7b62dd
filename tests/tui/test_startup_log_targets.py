"""The app's start-up line (`first_frame_seconds=…`) goes to the state's `logs/tui.log` and to
`GC_WIZARD_STARTUP_LOG` through the logs' one opener (`security.open_private_append`): a FIFO there froze the app
before its first frame, past q, Ctrl-C and SIGTERM, and a link there, or in a folder another user could swap, was
written through into another file (30th hostile pass (part A) P6, (part B) P11)."""

from __future__ import annotations

import asyncio
import os

from tests.fixtures.pilot import SIZE
from wizard.paths import app_log
from wizard.tui.app import WizardApp


async def _first_frame(app: WizardApp) -> None:
    async with app.run_test(size=SIZE) as pilot:
        await asyncio.wait_for(_until_ready(pilot), 30)


async def _until_ready(pilot) -> None:
    while getattr(pilot.app, "first_frame_seconds", None) is None:
        await pilot.pause(0.05)


async def test_a_fifo_at_tui_log_is_passed_over_and_the_app_draws(isolated_state, monkeypatch):
    monkeypatch.delenv("GC_WIZARD_STARTUP_LOG", raising=False)
    log = app_log()
    log.parent.mkdir(parents=True, exist_ok=True)
    os.mkfifo(log)
    await _first_frame(WizardApp([]))  # never waits for a reader: the FIFO is not a log
    assert log.is_fifo()


async def test_a_link_at_tui_log_is_not_written_through(isolated_state, tmp_path, monkeypatch):
    monkeypatch.delenv("GC_WIZARD_STARTUP_LOG", raising=False)
    victim = tmp_path / "victim.txt"
    victim.write_text("mine\n")
    log = app_log()
    log.parent.mkdir(parents=True, exist_ok=True)
    log.symlink_to(victim)
    await _first_frame(WizardApp([]))
    assert victim.read_text() == "mine\n"


async def test_the_startup_log_in_a_folder_every_user_can_write_is_passed_over(isolated_state, tmp_path, monkeypatch):
    shared = tmp_path / "everyone"
    shared.mkdir()
    shared.chmod(0o777)  # no sticky bit: any user could swap what is in it
    monkeypatch.setenv("GC_WIZARD_STARTUP_LOG", str(shared / "startup.log"))
    await _first_frame(WizardApp([]))
    assert not (shared / "startup.log").exists()
    assert app_log().read_text().startswith("first_frame_seconds=")  # the state's own log still has it


async def test_a_plain_startup_log_gets_the_line(isolated_state, tmp_path, monkeypatch):
    target = tmp_path / "startup.log"
    monkeypatch.setenv("GC_WIZARD_STARTUP_LOG", str(target))
    await _first_frame(WizardApp([]))
    assert target.read_text().startswith("first_frame_seconds=") and oct(target.stat().st_mode & 0o777) == "0o600"
