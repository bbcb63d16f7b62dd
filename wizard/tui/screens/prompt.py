"""A small dialog asking for one line of text: an installer's question, or a folder path."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input

from wizard.tui.widgets.shown import ShownInput, ShownLabel


class PromptScreen(ModalScreen[str | None]):
    """Enter submits the text; Escape dismisses with None.

    Args:
        question: What is asked, shown as is (an installer's own words stay unedited).
        value: The text the input starts with.
        hint: The line under the input saying what the keys do.
        secret: Mask the typing (a password the installer asks for).
        error: Why the last answer was refused, shown above the input, which keeps that answer to correct
            (walk 17: a mistyped path closed the dialog and had to be typed again whole).
    """

    BINDINGS = [Binding("escape", "cancel", "Cancel", id="cancel", tooltip="Close without answering")]

    def __init__(self, question: str, value: str = "", *, hint: str = "Enter to answer · Escape to cancel",
                 secret: bool = False, error: str | None = None) -> None:
        super().__init__()
        self.question = question
        self.value = value
        self.hint = hint
        self.secret = secret
        self.error = error

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield ShownLabel(self.question, id="question", markup=False)
            if self.error:
                yield ShownLabel(f"✗ {self.error}", id="answer-error", markup=False)
            # The text given back after a refusal is there to be corrected: not selected, the cursor after it (walk
            # 19 #6: all selected, one Backspace erased the whole path). A first value (the current source) stays
            # selected, so typing a new one replaces it.
            yield ShownInput(value=self.value, id="answer", password=self.secret, select_on_focus=self.error is None)
            yield ShownLabel(self.hint, classes="hint", markup=False)

    def on_mount(self) -> None:
        answer = self.query_one(Input)
        answer.focus()
        if self.error is not None:
            answer.cursor_position = len(answer.value)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.dismiss(event.value)

    def action_cancel(self) -> None:
        self.dismiss(None)
