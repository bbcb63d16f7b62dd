"""A yes/no dialog (stop the install? roll back?)."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button

from wizard.tui.widgets.shown import ShownLabel


class ConfirmScreen(ModalScreen[bool]):
    """y/Enter on Yes confirms; n/Escape declines."""

    BINDINGS = [
        Binding("y", "yes", "Yes", id="yes", tooltip="Go ahead"),
        Binding("n,escape", "no", "No", id="no", tooltip="Leave things as they are"),
    ]

    def __init__(self, question: str, yes: str = "Yes", no: str = "No") -> None:
        super().__init__()
        self.question, self.yes_label, self.no_label = question, yes, no

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield ShownLabel(self.question, id="question", markup=False)
            with Horizontal(id="buttons"):
                yield Button(f"{self.yes_label} (y)", id="yes", variant="error")
                yield Button(f"{self.no_label} (n)", id="no", variant="primary")

    def on_mount(self) -> None:
        self.query_one("#no", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")

    def action_yes(self) -> None:
        self.dismiss(True)

    def action_no(self) -> None:
        self.dismiss(False)
