"""Walk 38 #1: a command the app shows in prose (Diagnose's "to install, run `… install X --graphcast-src DIR` again")
was folded by the app at the pane's edge, so a terminal's selection of the two rows pasted as two commands. Now a row
that is one command (`wizard.wrap.lone_command`) is a `CommandRow`: the whole command on one row that scrolls
sideways, and ctrl+y copies exactly that command through the terminal's clipboard (`App.copy_to_clipboard`).

Real parts: the real Diagnose screen reading a stopped install's log, the core's diagnosis, Textual's Pilot, and the
real app in tmux at 80×24."""

from __future__ import annotations

import shutil
import sys
import time

import pytest

from tests.fixtures.pilot import SIZE, ScreenHost, screen_rows, until
from tests.fixtures.tmux import tmux_run, wizard_env
from wizard import paths
from wizard.tui.screens.diagnose import DiagnoseScreen
from wizard.tui.widgets.commands import CommandRow
from wizard.wrap import lone_command

#: Long enough that the command cannot fit an 80-column row whatever the program's path.
SOURCE = "/home/lab2/a-rather-long-folder-name-for-the-checkout/graphcast-v0.1.1-local-copy"


def _stopped_log(tmp_path):
    log = tmp_path / "install-20261129-052854-c12a.log"
    log.write_text(f"[gc-wizard] to run this install again: gc-wizard install jax0.4.23-cpu --graphcast-src {SOURCE}\n"
                   "[gc-wizard] step deps: uv pip install pkg-a\n"
                   "[gc-wizard] the run was stopped: cancelled by the user\n")
    return log


def test_a_row_that_is_one_backquoted_command_is_a_command_row():
    assert lone_command("`gc-wizard install X --graphcast-src DIR`") == "gc-wizard install X --graphcast-src DIR"
    assert lone_command("        `gc-wizard forecast --assets DIR/assets`.") == "gc-wizard forecast --assets DIR/assets"
    assert lone_command("  run `gc-wizard history` again") is None
    assert lone_command("  Fix: `cd` to a folder") is None


async def test_diagnose_shows_the_command_whole_on_one_row_and_ctrl_y_copies_it(isolated_state, tmp_path):
    log = _stopped_log(tmp_path)
    command = f"{paths.wizard_command()} install jax0.4.23-cpu --graphcast-src {SOURCE}"
    assert len(command) > SIZE[0]
    screen = DiagnoseScreen(str(log))
    app = ScreenHost(screen)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: screen.lines is not None and bool(screen.query(CommandRow)), timeout=60, settle=0.2)
        rows = list(screen.query(CommandRow))
        assert [row.command for row in rows] == [command]
        # Drawn on one row of the screen, not folded: the row holds the command's start, and no row holds its end
        # alone (the rest is reached by scrolling the row sideways).
        drawn = screen_rows(app)
        start = [row for row in drawn if command[:40] in row]
        assert len(start) == 1, drawn
        assert not any(row.strip().startswith(SOURCE[-20:]) or row.strip().endswith(SOURCE[-20:]) for row in drawn)
        assert rows[0].virtual_size.width >= len(command)  # the whole command is in the row
        await pilot.press("ctrl+y")
        await pilot.pause()
        assert app.clipboard == command
        await until(pilot, lambda: "Copy the command" in " ".join(screen_rows(app)), timeout=60)  # the footer, painted


@pytest.mark.tmux
@pytest.mark.flaky(reruns=2, reruns_delay=2)
@pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux")
def test_in_tmux_at_80x24_the_command_row_is_not_folded_and_ctrl_y_copies_it_whole(tmux, tmp_path):
    """A real terminal: the screen's rows never hold the command's end on a row of its own (the row is cropped and
    scrolls sideways), and ctrl+y's OSC 52 reaches the terminal (tmux keeps it as a paste buffer) as the one line."""
    log = _stopped_log(tmp_path)
    clipboard = tmux_run("show-options", "-s", "-v", "set-clipboard", check=False).stdout.strip() or "external"
    tmux.app([sys.executable, "-m", "wizard"], wizard_env(tmp_path, "xterm", profile="no-nvidia"))
    try:
        tmux_run("set-option", "-s", "set-clipboard", "on")  # tmux takes an application's OSC 52 as a buffer
        tmux.wait_for("Diagnose a log")  # the machine screen's footer
        tmux.keys("d")
        tmux.wait_for("A log file's path")
        for _ in range(20):  # the path box takes the focus a moment after the screen is drawn (later under load)
            tmux.keys("C-u")
            tmux.keys("-l", str(log))
            time.sleep(0.3)
            if log.name in tmux.screen():
                break
        tmux.keys("Enter")
        screen = tmux.wait_for("again (in the app", timeout=60)
        rows = screen.splitlines()
        assert not any(SOURCE[-25:] in row for row in rows), screen  # not folded onto a row of its own
        # The command's row: the last row with words above the prose that goes on, full to the edge (cropped there).
        after = next(i for i, row in enumerate(rows) if row.startswith("  again (in the app"))
        above = [row for row in rows[:after] if set(row.strip()) - set("▏▎▍▌▋▊▉█▐▕▁▂▃▄▅▆▇▔")][-1]
        assert len(above) >= 79 and not above.startswith(" ") and "run" not in above.split(), screen  # cut at the edge
        tmux.keys("C-y")
        tmux.wait_for("Copied to the clipboard")
        copied = tmux_run("show-buffer", check=False).stdout
        assert copied.endswith(f" install jax0.4.23-cpu --graphcast-src {SOURCE}"), copied
        assert "\n" not in copied and "`" not in copied
    finally:
        tmux_run("set-option", "-s", "set-clipboard", clipboard, check=False)
