"""Walk 39 #1: ctrl+y did nothing on the Done screen, whose activate, kernel and module lines are the commands users
most want to copy: they were plain indented rows, not command rows (`wizard.wrap.command_row` / `lone_command`). Now
each is a `CommandRow`, the footer offers ^y, and ctrl+y with no row focused copies the activate command exactly.

Real parts: the real Done screen and its summary, the core's activate/kernel/module lines, Textual's Pilot."""

from __future__ import annotations

from tests.fixtures.pilot import SIZE, StyledDoneApp, read_when_shown, until
from tests.fixtures.results import install_result
from wizard.after.next_steps import activate_lines, wizard_lines
from wizard.tui.screens.done import DoneScreen
from wizard.tui.widgets.commands import CommandRow
from wizard.wrap import command_row, lone_command


def test_a_command_line_laid_out_as_a_row_reads_back_whole():
    for line in ['eval "$(/a b/gc-wizard activate)"', "module use /x/modules", "export GC_WIZARD_HOME=/s"]:
        assert lone_command(command_row(line)) == line
    assert lone_command(command_row("# the module folder is odd; `module use` that DIR")) is None


async def test_ctrl_y_on_done_copies_the_activate_command(isolated_state, tmp_path):
    env = tmp_path / "envs" / "jax0.4.23-cpu-1"
    env.mkdir(parents=True)
    app = StyledDoneApp(str(tmp_path), install_result(ok=True, env=str(env), log="/l"))  # local: no host asked
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, DoneScreen), settle=0.3)
        commands = [row.command for row in app.screen.query(CommandRow)]
        assert activate_lines()[-1] in commands and wizard_lines("kernel install")[-1] in commands, commands
        assert wizard_lines("module install")[-1] in commands, commands
        # the footer offers ^y: read once painted, and only then (it is composed again when the keys change, so a
        # second read can catch it empty)
        await read_when_shown(pilot, DoneScreen, "Copy the command", timeout=60)
        await pilot.press("ctrl+y")
        await pilot.pause()
        assert app.clipboard == activate_lines()[-1]
