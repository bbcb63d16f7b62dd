"""The support report, previewed before it is saved: what an admin needs, with names and IDs redacted.

Imported when the report is asked for (`machine.py`, `done.py`): Textual's Markdown widget and its parser stay off the
first frame."""

from __future__ import annotations

from pathlib import Path

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Markdown

from wizard.errors import OperationFailed, UserError
from wizard.flows.after_install import report_preview, support_report
from wizard.outputs import write_output_file
from wizard.security import expand_home, known_home
from wizard.tui.messages import ReportBuilt
from wizard.tui.problems import problem_text
from wizard.tui.screens.prompt import PromptScreen
from wizard.tui.widgets.shown import Shown


class ReportScreen(Screen):
    BINDINGS = [
        Binding("escape", "back", "Back", id="back", tooltip="The previous screen"),
        Binding("s", "save", "Save report", id="save", tooltip="Write the report to a file"),
    ]

    def __init__(self, facts=None) -> None:
        """`facts`: the app's detected facts (after --slurm, the GPU node's), so the report describes them."""
        super().__init__()
        self.text: str | None = None
        self.facts = facts

    def compose(self) -> ComposeResult:
        yield Shown("gc-wizard · Support report preview · user, host, home, GPU IDs redacted", classes="title")
        with VerticalScroll(id="report-pane"):
            # the report is Markdown (it is sent as a .md file): shown with its headings and tables drawn, not as
            # raw `| … |` rows wrapped across lines (walk 19 #14)
            yield Markdown("Collecting…", id="report")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self.build()

    @work(thread=True, exclusive=True, exit_on_error=False, group="report", description="Building the report")
    def build(self) -> None:
        try:
            text = support_report(self.facts)
        except Exception as exc:  # the report collects what it can; what stops it is said where it would be
            text = problem_text("build the report", exc)
        self.post_message(ReportBuilt(text))

    def on_report_built(self, message: ReportBuilt) -> None:
        self.text = message.text
        # Lists instead of wide tables, and long headings split: what reads at 80 columns (walk 21 #9); the saved
        # file keeps its tables.
        self.query_one("#report", Markdown).update(report_preview(message.text, self.app.size.width))

    def action_back(self) -> None:
        self.dismiss(None)

    def action_save(self) -> None:
        if self.text is None:
            return

        def chosen(path: str | None) -> None:
            if not path:
                return
            target = Path(expand_home(path))
            try:
                write_output_file(target, self.text, what="the report to")
            except (OperationFailed, UserError) as exc:  # a full disk; a link it will not write through
                self.notify(str(exc), severity="error")
                return
            self.notify(f"Saved {target}; read it, then send it to your admin.")

        self.app.push_screen(PromptScreen("Save the report as:", value=str((known_home() or Path.cwd()) / "gc-wizard-report.md")),
                             chosen)
