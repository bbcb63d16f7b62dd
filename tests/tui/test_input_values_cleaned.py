"""37th hostile pass (part A) P2: a value from the state that the app puts into an input box is cleaned as every
`Shown` text is (`widgets.shown.input_value`): Textual's `Input` draws control characters as they are, and a forged
history entry's `log` given to the Diagnose screen's path box (History, d) set the terminal's title (OSC 2) and made
the row blink. The same holds for every dialog's first value (`PromptScreen`: the Done screen's assets folder from
last-assets.json, the plan's sources, the report's path) and every notification. A clean path stays as it was."""

from __future__ import annotations

import ast
import sys
import time
from pathlib import Path

from textual.app import App

import wizard
from tests.fixtures.pilot import SIZE, HistoryHost, diagnose_from_history, until
from tests.fixtures.state import save_entries
from tests.fixtures.tmux import tmux_run, wizard_env
from wizard.history.store import Entry
from wizard.tui.screens.prompt import PromptScreen

FORGED = "x\x1b]2;PWNED-TITLE\x07\x1b[5mblink\x9b31m\r\nrow.log"


def _clean(value: str) -> bool:
    return all(" " <= char and not "\x7f" <= char <= "\x9f" for char in value)


def _forged_entry(log: str) -> Entry:
    return Entry(id="20261129-090000-1111", kind="install", recipe="tiny-a", env="/e", status="failed",
                 started="2026-11-29T09:00:00+00:00", log=log)


async def test_a_forged_log_reaches_the_diagnose_box_cleaned(isolated_state, tmp_path):
    save_entries([_forged_entry(str(tmp_path / FORGED))])

    app = HistoryHost()
    async with app.run_test(size=SIZE) as pilot:
        screen = await diagnose_from_history(pilot, app)
        value = screen.query_one("#log-path").value
        assert _clean(value), repr(value)
        assert "\\u001b]2;PWNED-TITLE\\u0007" in value and value.startswith(str(tmp_path))  # shown, as text


async def test_every_dialogs_first_value_is_cleaned_and_a_clean_path_kept(isolated_state, tmp_path):
    """`PromptScreen` is every dialog's input (the Done screen's remembered assets folder, the forecast's, the plan's
    sources, the machine's, the report's); a clean path is left whole, usable as the path it is."""
    answers = []

    class _Host(App):
        def on_mount(self) -> None:
            self.push_screen(PromptScreen("Where are the files?", value=str(tmp_path / FORGED)))

    app = _Host()
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, PromptScreen), settle=0.1)
        value = app.screen.query_one("#answer").value
        assert _clean(value) and "\\u001b[5m" in value, repr(value)
        app.screen.dismiss(None)
        clean = tmp_path / "assets folder é"
        app.push_screen(PromptScreen("Where are the files?", value=str(clean)), answers.append)
        await until(pilot, lambda: isinstance(app.screen, PromptScreen), settle=0.1)
        assert app.screen.query_one("#answer").value == str(clean)
        await pilot.press("enter")
        await until(pilot, lambda: answers)
    assert answers == [str(clean)]


def test_no_input_box_of_the_app_starts_uncleaned():
    """The class, not the cases: the app's input boxes are `ShownInput`s (the one `Input(` call is its own), and no
    screen sets an input's `.value` itself."""
    root = Path(wizard.__file__).parent / "tui"
    wrong = []
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", "")) in (
                    "Input", "TextArea") and path.name != "shown.py" and (node.args or node.keywords and any(
                    k.arg in ("value", "text") for k in node.keywords)):
                wrong.append(f"{path.name}:{node.lineno}")
            if isinstance(node, ast.Assign) and any(isinstance(t, ast.Attribute) and t.attr in ("value", "text")
                                                    and not (isinstance(t.value, ast.Name) and t.value.id == "self")
                                                    for t in node.targets):
                wrong.append(f"{path.name}:{node.lineno}")
    assert wrong == []


def test_the_terminal_title_is_not_changed_from_history_d(tmux, tmp_path, isolated_state):
    """The tester's route in a real terminal: History, d, with the forged entry; tmux's pane title stays."""
    home = Path(wizard_env(tmp_path, "xterm-256color")["GC_WIZARD_HOME"])
    save_entries([_forged_entry(str(home / "logs" / FORGED))])
    env = wizard_env(tmp_path, "xterm-256color")
    tmux.app([sys.executable, "-m", "wizard"], env)
    tmux_run("select-pane", "-t", tmux.name, "-T", "clean")
    tmux.wait_for("535.104.05", timeout=60)
    tmux.keys("h")
    tmux.wait_for("History", timeout=30)
    time.sleep(0.5)
    tmux.keys("d")
    tmux.wait_for("Diagnose a log", timeout=30)
    time.sleep(1.0)  # the box drawn
    title = tmux_run("display-message", "-p", "-t", tmux.name, "#{pane_title}").stdout.strip()
    drawn = tmux.screen(escapes=True)
    tmux.keys("Escape")
    tmux.keys("C-q")
    assert title == "clean", drawn
    assert "\x1b[5m" not in drawn and "PWNED-TITLE" in tmux_run("capture-pane", "-p", "-t", tmux.name,
                                                                 check=False).stdout + drawn


async def test_a_notification_is_cleaned_as_shown_text(gpu_server, isolated_state):
    from wizard.tui.app import WizardApp

    gpu_server("no-nvidia")
    app = WizardApp()
    async with app.run_test(size=SIZE) as pilot:
        app.notify(f"cannot read {FORGED}", severity="error")
        await until(pilot, lambda: list(app._notifications), settle=0.1)
        said = [note.message for note in app._notifications]
    assert all(_clean(text.replace("\r\n", " ").replace("\n", " ")) for text in said) and any("\\u001b]2;" in text for text in said), said
