"""Walk 24 #6: environments a session left on disk (a failed check keeps its environment, a stopped check can keep
it unchecked) are named where the user looks last, each with the `remove` line that deletes it — never "nothing was
installed" while gigabytes stay behind."""

from __future__ import annotations

from textual.app import App

from tests.fixtures.pilot import SIZE, screen_text, until
from tests.fixtures.results import install_result
from wizard.tui.leaving import farewell
from wizard.tui.screens.done import DoneScreen
from wizard.tui.widgets.commands import CommandRow


def _one_line(lines: list[str]) -> str:
    return " ".join(line.strip() for line in lines)


def _failed_check(env: str, entry_id: str):
    return install_result(ok=False, status="failed", env=env, entry_id=entry_id, mode="new", kept=True,
                          log="/logs/f.log", error="installed, but no GPU was visible.",
                          verify={"ok": False, "env": env})


def test_quitting_names_the_environments_the_session_left_and_how_to_remove_them(tmp_path, monkeypatch):
    monkeypatch.setenv("GC_WIZARD_HOME", str(tmp_path / "state"))
    monkeypatch.setattr("wizard.paths.program_command", lambda: "gc-wizard")
    failed, kept, removed = tmp_path / "cuda-env", tmp_path / "cpu-env", tmp_path / "removed-since"
    failed.mkdir()
    kept.mkdir()
    made = [(str(failed), "e1"), (str(kept), "e2"), (str(removed), "e3")]
    said = _one_line(farewell(None, made=made))
    assert "nothing was installed" not in said, said
    assert said.startswith("gc-wizard: no environment was made current; 2 environments were left on disk, not "
                           "current:"), said
    assert f"{failed} (entry e1), {kept} (entry e2); `" in said and " gc-wizard remove ENTRY_ID` deletes one." in said, said
    assert str(removed) not in said  # deleted since: not left
    # The lines after a failed check say the same of its environment, and of the session's others.
    failed_lines = _one_line(farewell(_failed_check(str(failed), "e1"), made=made))
    assert "2 environments were left on disk, not current" in failed_lines and f"{kept} (entry e2)" in failed_lines
    # Nothing left: the old words stand.
    assert farewell(None, made=[(str(removed), "e3")]) == ["gc-wizard: nothing was installed; no environment is "
                                                           "current yet."]


class _FailedCheckApp(App):
    def __init__(self, result) -> None:
        super().__init__()
        self.result = result
        self.assets = None
        self.assets_reach = None

    def on_mount(self) -> None:
        self.push_screen(DoneScreen(self.result))


async def test_the_failed_check_screen_says_the_environment_stays_and_how_to_remove_it(tmp_path, monkeypatch):
    monkeypatch.setenv("GC_WIZARD_HOME", str(tmp_path / "state"))
    monkeypatch.setattr("wizard.paths.program_command", lambda: "gc-wizard")
    env = tmp_path / "env"
    env.mkdir()
    app = _FailedCheckApp(_failed_check(str(env), "20261128-051003-ab12"))
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, DoneScreen), settle=0.1)
        text = " ".join(screen_text(app).split())
        assert "Installed, but the GraphCast check failed." in text
        summary = " ".join(str(app.screen.query_one("#summary").render()).split())
        assert f"{env} was left on disk, not current: `" in summary, summary
        assert " gc-wizard remove 20261128-051003-ab12` deletes it." in summary, summary
        # The command on a row of its own, whole, which ctrl+y copies (walk 39, the Not-done screen).
        rows = [row.command for row in app.screen.query(CommandRow)]
        assert len(rows) == 1 and rows[0].endswith(" gc-wizard remove 20261128-051003-ab12"), rows
