"""The first screen: what this machine has, problems first. Detection runs after the first frame."""

from __future__ import annotations

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Header, Static

from wizard.tui.messages import FactsReady


def facts_lines(facts) -> list[str]:
    """The facts as short text lines (the CLI's detect renderer, so both faces say the same)."""
    from wizard.commands.detect import render

    return render(facts)


class MachineScreen(Screen[str]):
    """Shows the detected facts; dismisses with "next" or "history"."""

    BINDINGS = [
        Binding("enter", "next", "Next: recipes", id="next", tooltip="Choose a recipe for this machine"),
        Binding("h", "history", "History", id="history", tooltip="Previous installs and rollback"),
        Binding("r", "redetect", "Detect again", id="redetect"),
        Binding("s", "report", "Report", id="report", tooltip="Preview a support report for your admin"),
    ]

    def __init__(self, recipes_dirs: list[str]) -> None:
        super().__init__()
        self.recipes_dirs = recipes_dirs
        self.facts = None
        self.matches: list = []

    def compose(self) -> ComposeResult:
        yield Header(show_clock=False)
        yield Static("Step 1 of 5 · This machine", classes="title")
        with VerticalScroll(id="facts-pane"):
            yield Static("Detecting the NVIDIA driver, GPUs and CUDA libraries…", id="facts", markup=False)
        yield Footer()

    def on_screen_resume(self) -> None:
        self.app.sub_title = "detect"

    def on_mount(self) -> None:
        self.detect()

    @work(thread=True, exclusive=True, exit_on_error=False, group="detect", description="Detecting the machine")
    def detect(self) -> None:
        try:
            from wizard.detect import detect
            from wizard.match import match_recipes
            from wizard.recipes import load_recipes

            facts = detect()
            matches = match_recipes(load_recipes(self.recipes_dirs), facts)
            self.post_message(FactsReady(facts, matches))
        except Exception as exc:  # a bad recipe folder, say: show it, don't crash the app
            self.post_message(FactsReady(None, [], error=str(exc)))

    def on_facts_ready(self, message: FactsReady) -> None:
        widget = self.query_one("#facts", Static)
        if message.error:
            widget.update(f"Could not finish detection:\n\n{message.error}")
            widget.add_class("error")
            return
        self.facts, self.matches = message.facts, message.matches
        recommended = next((m for m in self.matches if m.recommended), None)
        lines = facts_lines(self.facts)
        if recommended is not None:
            lines += ["", f"Recommended: {recommended.recipe.title} ({recommended.recipe.id})"]
        lines += ["", "Press Enter to choose a recipe."]
        widget.update("\n".join(lines))

    def action_next(self) -> None:
        if self.facts is not None:
            self.dismiss("next")

    def action_history(self) -> None:
        self.dismiss("history")

    def action_report(self) -> None:
        from wizard.tui.screens.report import ReportScreen

        self.app.push_screen(ReportScreen())

    def action_redetect(self) -> None:
        self.query_one("#facts", Static).update("Detecting…")
        self.detect()
