"""The app when the core cannot give a screen its data (GC_WIZARD_HOME a file, a full disk): every screen says the
CLI's sentence where its data would be, and an error that still escapes a screen ends the app with that sentence
and a non-zero status — never Textual's traceback (fourteenth hostile pass Q1: `h` with the state folder a file
printed the traceback with every local variable, then exited 0)."""

from __future__ import annotations

import asyncio
import errno
import os
import shutil
import sys
from pathlib import Path

import pytest
from textual.screen import Screen

from tests.fixtures.pilot import SIZE, facts_shown, screen_rows
from tests.fixtures.tmux import exit_code, wizard_env
from wizard.tui.app import WizardApp
from wizard.tui.screens.history import HistoryScreen
from wizard.tui.screens.machine import MachineScreen
from wizard.tui.screens.report import ReportScreen


async def _shown(pilot, text: str, timeout: float = 30) -> str:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        screen = " ".join(" ".join(row.strip() for row in screen_rows(pilot.app)).split())
        if text in screen:
            return screen
        assert loop.time() < deadline, f"{text!r} never shown; the screen:\n" + "\n".join(screen_rows(pilot.app))
        await pilot.pause(0.05)


@pytest.fixture
def state_a_file(tmp_path, monkeypatch) -> Path:
    state = tmp_path / "statefile"
    state.write_text("x\n")
    monkeypatch.setenv("GC_WIZARD_HOME", str(state))
    return state


async def test_history_with_the_state_folder_a_file_says_so_and_the_app_goes_on(gpu_server, state_a_file):
    gpu_server("a100x2-535")
    app = WizardApp()
    async with app.run_test(size=SIZE) as pilot:
        await facts_shown(pilot)
        await pilot.press("h")
        screen = await _shown(pilot, "Could not read the history:")
        said = f"cannot use the state folder {state_a_file}: it is a file, not a folder."
        assert "".join(said.split()) in "".join(screen.split())  # a long path wraps anywhere on the screen
        assert isinstance(app.screen, HistoryScreen) and app.return_code is None
        await pilot.press("r")  # nothing to roll back to: nothing happens, nothing breaks
        await pilot.press("escape")
        await _shown(pilot, "Press Enter to choose a recipe")
        assert isinstance(app.screen, MachineScreen)
    assert app.failure is None and not app.return_code


async def test_report_with_the_state_folder_a_file_says_so(gpu_server, state_a_file):
    gpu_server("a100x2-535")
    app = WizardApp()
    async with app.run_test(size=SIZE) as pilot:
        await facts_shown(pilot)
        await pilot.press("s")
        screen = await _shown(pilot, "Could not collect")
        assert "is not a folder" in screen and isinstance(app.screen, ReportScreen)
        await pilot.press("escape")
    assert app.failure is None


class _FailingScreen(Screen):
    """A screen whose loading meets what the core can raise anywhere (the app must not let it through)."""

    def __init__(self, error: Exception) -> None:
        super().__init__()
        self.error = error

    def on_mount(self) -> None:
        raise self.error


async def test_an_os_error_that_escapes_a_screen_ends_the_app_with_its_sentence(gpu_server, tmp_path):
    gpu_server("a100x2-535")
    home = Path(os.environ["GC_WIZARD_HOME"])
    error = OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(home / "history.json"))
    app = WizardApp()
    with pytest.raises(OSError):  # Pilot hands the error on, so a test that meets one fails
        async with app.run_test(size=SIZE) as pilot:
            await facts_shown(pilot)
            app.push_screen(_FailingScreen(error))
            await pilot.pause(0.5)
    assert app.failure == (f"cannot use the state folder {home}: the disk is full ({home / 'history.json'}). "
                           "To go on, free some space there, or point GC_WIZARD_HOME at another disk.")
    assert app.exit_status == 1 and app.return_code == 1
    assert not app._exit_renderables  # Textual's traceback (with its locals) is never printed


async def test_an_unexpected_error_ends_the_app_with_the_bug_sentence_and_a_log(gpu_server, tmp_path):
    gpu_server("a100x2-535")
    app = WizardApp()
    with pytest.raises(RuntimeError):
        async with app.run_test(size=SIZE) as pilot:
            await facts_shown(pilot)
            app.push_screen(_FailingScreen(RuntimeError("token ghp_abcdefghijklmnopqrstuvwxyz0123456789 lost")))
            await pilot.pause(0.5)
    assert app.failure.startswith("gc-wizard stopped on an error of its own (RuntimeError: token <redacted> lost); "
                                  "this is a bug")
    log = Path(app.failure.split("The details are in ")[1].split(".log")[0] + ".log")
    assert "Traceback" in log.read_text() and "ghp_" not in log.read_text()
    assert app.exit_status == 1 and not app._exit_renderables


@pytest.mark.tmux
@pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux")
def test_tmux_history_with_the_state_folder_a_file(tmux, tmp_path, state_a_file):
    env = {**wizard_env(tmp_path, "xterm-256color"), "GC_WIZARD_HOME": str(state_a_file)}
    exit_file = tmp_path / "exit"
    tmux.shell()
    tmux.type_line([sys.executable, "-m", "wizard"], env, exit_file)
    tmux.wait_for("535.104.05", timeout=60)
    tmux.keys("h")
    screen = tmux.wait_for("Could not read the history:")
    assert "it is a file, not a folder." in " ".join(screen.split())
    assert "Traceback" not in screen
    tmux.keys("Escape")
    tmux.wait_for("Press Enter to choose a recipe")
    tmux.keys("C-q")

    assert exit_code(exit_file) == "EXIT=0"
    assert "Traceback" not in tmux.screen()
