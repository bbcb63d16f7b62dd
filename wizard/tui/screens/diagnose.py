"""Diagnose a log that is not the wizard's own (a lab-mate's failed run, a notebook cell's output): a path, or text
pasted into the box, read by the same operation `gc-wizard diagnose` runs, with the same findings in the same words.

Why: walk 26 #12 — the app diagnosed only its own runs (History), and a newcomer handed a lab-mate's log found no key
for it. The reading (bounded pieces, any size) runs in a thread worker that posts `LogDiagnosed`. Imported when the
key is pressed (machine screen, History): TextArea stays off the first frame.
"""

from __future__ import annotations

import os

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Input, TextArea

from wizard.security import expand_home
from wizard.tui.messages import LogDiagnosed
from wizard.tui.problems import error_text
from wizard.tui.widgets.commands import COPY_COMMAND, CopiesCommands, ShownCommands
from wizard.tui.widgets.shown import Shown, ShownInput

#: The findings' width on an 80-column screen (the pane's border and scroll bar take the rest).
WIDTH = 76


class DiagnoseScreen(CopiesCommands, Screen):
    BINDINGS = [
        Binding("escape", "back", "Back", id="back", tooltip="The previous screen"),
        Binding("ctrl+d", "diagnose_pasted", "Diagnose the pasted text", id="pasted", priority=True,
                tooltip="Read the text pasted into the box, as `gc-wizard diagnose -` does"),
        COPY_COMMAND,
    ]

    def __init__(self, path: str = "") -> None:
        super().__init__()
        self.path = path
        self.lines: list[str] | None = None
        self.error: str | None = None

    def compose(self) -> ComposeResult:
        yield Shown("gc-wizard · Diagnose a log (any run's, not only this wizard's)", classes="title")
        with VerticalScroll(id="diagnose-pane"):
            yield Shown("A log file's path, then Enter (as `gc-wizard diagnose LOGFILE`):", markup=False)
            yield ShownInput(value=self.path, id="log-path", placeholder="/path/to/failed-run.log")
            yield Shown("Or paste the log into this box, then ctrl+d:", markup=False)
            yield TextArea(id="log-text")
            yield ShownCommands("", id="diagnosis")  # a command to run again stands whole on its row (walk 38 #1)
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self.query_one("#log-text", TextArea).styles.height = 6
        self.query_one("#log-path", Input).focus()
        if self.path and os.path.isfile(expand_home(self.path)):  # a log handed in (History's d): read it now
            self._show(["Reading…"])
            self.diagnose(expand_home(self.path), None)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        path = event.value.strip()
        if not path:
            self._show(["Give a log file's path, or paste the log into the box and press ctrl+d."])
            return
        self._show(["Reading…"])
        self.diagnose(expand_home(path), None)

    def action_diagnose_pasted(self) -> None:
        text = self.query_one("#log-text", TextArea).text
        self._show(["Reading…"])
        self.diagnose(None, text)

    @work(thread=True, exclusive=True, exit_on_error=False, group="diagnose", description="Reading the log")
    def diagnose(self, path: str | None, text: str | None) -> None:
        # Deferred: the diagnosis catalogue loads only when a log is given.
        from wizard.flows.diagnosis import diagnose_file, diagnose_pasted

        notes: list[str] = []
        try:
            found = diagnose_file(path, on_note=notes.append) if path is not None else diagnose_pasted(text or "")
        except Exception as exc:  # one sentence naming the file, as the CLI says it
            self.post_message(LogDiagnosed([], error=error_text(exc)))
            return
        partial = [f"! {found.partial}.", ""] if found.partial else []
        self.post_message(LogDiagnosed([*notes, *partial, *found.lines(WIDTH)]))

    def on_log_diagnosed(self, message: LogDiagnosed) -> None:
        self.lines, self.error = message.lines, message.error
        self._show([message.error] if message.error else message.lines)

    def _show(self, lines: list[str]) -> None:
        self.query_one("#diagnosis", ShownCommands).update("\n".join(lines))
        self.query_one("#diagnose-pane", VerticalScroll).scroll_end(animate=False)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return self.copy_offered() if action == "copy_command" else True

    def action_back(self) -> None:
        self.dismiss(None)
