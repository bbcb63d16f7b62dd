"""Walk 39 (w40a, not done): the Not-done screen said its commands inside sentences ("… not current: `gc-wizard
remove ID` deletes it.", "`gc-wizard verify --env DIR` checks it; then `gc-wizard rollback ID` …"), so ctrl+y had
nothing to copy there. Now each is a command row of its own (`wizard.wrap.commands_apart`, read back by
`lone_command`), shown whole by `ShownCommands`, and ctrl+y copies it.

Real parts: the real Not-done screen and its summary, the core's words, Textual's Pilot at 80 columns."""

from __future__ import annotations

from textual.app import App

from tests.fixtures.pilot import SIZE, until
from tests.fixtures.results import install_result
from wizard.tui.screens.done import DoneScreen
from wizard.tui.widgets.commands import CommandRow
from wizard.wrap import commands_apart, lone_command

ID = "20261129-114133-09cb"


def test_each_quoted_command_gets_a_row_of_its_own_and_the_words_stay():
    text = ("/e/x was left on disk, not current: `/p/gc-wizard remove ID` deletes it.\n"
            "  Fix: run `gc-wizard verify --env /e/y`; then `gc-wizard rollback ID`, or use `--graphcast-src DIR`.\n"
            "    `/p/gc-wizard install x`")
    apart = commands_apart(text, ("/p/gc-wizard", "gc-wizard"))
    rows = apart.split("\n")
    assert [lone_command(row) for row in rows if lone_command(row)] == [
        "/p/gc-wizard remove ID", "gc-wizard verify --env /e/y", "gc-wizard rollback ID", "/p/gc-wizard install x"]
    assert " ".join(apart.split()) == " ".join(text.split())  # every word kept, in order
    assert "`--graphcast-src DIR`" in apart and lone_command("  or use `--graphcast-src DIR`.") is None
    assert all(row.startswith("  ") for row in rows[4:])  # the Fix line's rows keep its indent
    assert commands_apart("No command here.") == "No command here."


class _NotDoneApp(App):
    CSS_PATH = "../../wizard/tui/app.tcss"

    def __init__(self, result) -> None:
        super().__init__()
        self.result, self.assets, self.assets_reach = result, None, None

    def on_mount(self) -> None:
        self.push_screen(DoneScreen(self.result))


async def _copied(result) -> tuple[list[str], str]:
    app = _NotDoneApp(result)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, DoneScreen) and bool(app.screen.query(CommandRow)),
                    settle=0.3)
        commands = [row.command for row in app.screen.query(CommandRow)]
        assert app.screen.check_action("copy_command", ()) is True  # the footer offers ^y
        await pilot.press("ctrl+y")
        await pilot.pause()
        return commands, app.clipboard


async def test_a_failed_checks_remove_command_is_a_row_ctrl_y_copies(isolated_state, tmp_path, monkeypatch):
    monkeypatch.setattr("wizard.paths.program_command", lambda: "gc-wizard")
    env = tmp_path / "env"
    env.mkdir()
    result = install_result(ok=False, status="failed", env=str(env), entry_id=ID, mode="new", kept=True,
                            log="/logs/f.log", error="installed, but no GPU was visible.",
                            verify={"ok": False, "env": str(env)})
    commands, copied = await _copied(result)
    assert len(commands) == 1 and commands[0].endswith(f"gc-wizard remove {ID}"), commands  # after the state
    assert copied == commands[0]  # folder's GC_WIZARD_HOME=…, as the program is named for a new shell


async def test_a_kept_unchecked_environments_commands_are_rows_ctrl_y_copies_the_first(isolated_state, tmp_path,
                                                                                      monkeypatch):
    monkeypatch.setattr("wizard.paths.program_command", lambda: "gc-wizard")
    env = tmp_path / "env"
    env.mkdir()
    result = install_result(ok=False, cancelled=True, status="installed", env=str(env), entry_id=ID, mode="new",
                            log="/logs/s.log", verify={"ok": False, "env": str(env), "cancelled": True})
    commands, copied = await _copied(result)
    assert len(commands) == 2 and commands[0].endswith(f"gc-wizard verify --env {env}"), commands
    assert commands[1].endswith(f"gc-wizard rollback {ID}"), commands
    assert copied == commands[0]
