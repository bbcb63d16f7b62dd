"""A yes/no dialog (stop the install? roll back?), with an optional third answer (stop the check but keep
the environment)."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button

from wizard.tui.widgets.shown import ShownLabel


class ConfirmScreen(ModalScreen["bool | str"]):
    """y confirms (True); n/Escape declines (False); with `other` = (key, label, answer), that key (or its
    button) dismisses with `answer`. Focus starts on No: Enter alone never stops or removes anything."""

    #: Under 76 columns the buttons are stacked (`-narrow`, app.tcss): three side by side cut the last one,
    #: "Keep going (n)", to "Keep" at 60 columns.
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (76, "-wide")]

    BINDINGS = [
        Binding("y", "yes", "Yes", id="yes", tooltip="Go ahead"),
        Binding("n,escape", "no", "No", id="no", tooltip="Leave things as they are"),
        # ↓/↑ scroll a long question while focus stays on No (walk 27 #7: ↓ did nothing)
        Binding("down", "scroll_question(1)", show=False),
        Binding("up", "scroll_question(-1)", show=False),
        Binding("pagedown", "scroll_question(10)", show=False),
        Binding("pageup", "scroll_question(-10)", show=False),
    ]

    def __init__(self, question: str, yes: str = "Yes", no: str = "No",
                 other: tuple[str, str, str] | None = None) -> None:
        super().__init__()
        self.question, self.yes_label, self.no_label, self.other = question, yes, no, other
        if other is not None:
            key, label, _answer = other
            self._bindings.bind(key, "other", label, show=True)

    def compose(self) -> ComposeResult:
        # The buttons are docked at the dialog's foot and the question scrolls above them: at 80×24 History's rollback
        # question filled the dialog and pushed its buttons off, with no key hint left on screen (walk 27 #7).
        with Vertical(id="dialog"):
            with Horizontal(id="buttons"):
                yield Button(f"{self.yes_label} (y)", id="yes", variant="error")
                if self.other is not None:
                    yield Button(f"{self.other[1]} ({self.other[0]})", id="other", variant="warning")
                yield Button(f"{self.no_label} (n)", id="no", variant="primary")
            with VerticalScroll(id="question-pane", can_focus=False):
                yield ShownLabel(self.question, id="question", markup=False)

    def on_mount(self) -> None:
        self.query_one("#no", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "other" and self.other is not None:
            self.dismiss(self.other[2])
        else:
            self.dismiss(event.button.id == "yes")

    def action_scroll_question(self, rows: int) -> None:
        self.query_one("#question-pane", VerticalScroll).scroll_relative(y=rows, animate=False)

    def action_other(self) -> None:
        if self.other is not None:
            self.dismiss(self.other[2])

    def action_yes(self) -> None:
        self.dismiss(True)

    def action_no(self) -> None:
        self.dismiss(False)
