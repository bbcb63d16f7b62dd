"""Every install, verify and rollback; the current one marked; a guided rollback with confirmation."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Header, Static

from wizard.tui.screens.confirm import ConfirmScreen


class HistoryScreen(Screen):
    """Dismisses with None (Back), or after a rollback with its result dict."""

    BINDINGS = [
        Binding("escape", "back", "Back", id="back"),
        Binding("r", "rollback", "Roll back to selected", id="rollback",
                tooltip="Make the selected environment current again and re-check it"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.entries: list = []

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static("History · ● marks the current environment", classes="title")
        yield DataTable(id="entries", cursor_type="row", zebra_stripes=False)
        yield Static("", id="history-note", markup=False)
        yield Footer()

    def on_screen_resume(self) -> None:
        self.app.sub_title = "history"

    def on_mount(self) -> None:
        self.reload()

    def reload(self) -> None:
        from wizard.history import load_history

        history = load_history()
        self.entries = [e for e in history.entries if getattr(e, "kind", "install") == "install"][::-1]
        table = self.query_one(DataTable)
        table.clear(columns=True)
        table.add_columns(" ", "id", "status", "recipe", "started")
        for entry in self.entries:
            table.add_row("●" if entry.current else " ", entry.id, entry.status, entry.recipe,
                          (entry.started or "")[:16])
        note = "\n".join(getattr(history, "warnings", []) or [])
        if not self.entries:
            note = "Nothing installed yet."
        self.query_one("#history-note", Static).update(note)
        table.focus()

    def action_back(self) -> None:
        self.dismiss(None)

    def action_rollback(self) -> None:
        table = self.query_one(DataTable)
        if not self.entries or table.cursor_row is None:
            return
        entry = self.entries[table.cursor_row]
        if entry.current:
            self.notify("That environment is already the current one.")
            return
        if entry.status not in ("verified", "installed"):
            self.notify(f"Entry {entry.id} {entry.status}; only a working environment can be rolled back to.",
                        severity="warning")
            return
        question = (f"Make {entry.recipe} ({entry.env}) current again and re-check it? "
                    "Nothing is deleted: the current environment stays on disk.")

        def answered(yes: bool | None) -> None:
            if yes:
                self.app.start_rollback(entry.id)

        self.app.push_screen(ConfirmScreen(question, yes="Roll back", no="Cancel"), answered)
