"""Every install, verify and rollback; the current one marked; a guided rollback with confirmation."""

from __future__ import annotations

from pathlib import Path

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import DataTable, Footer

from wizard.errors import UserError, WizardError
from wizard.tui.messages import HistorySized, RollbackRequested
from wizard.tui.problems import problem_text
from wizard.tui.screens.confirm import ConfirmScreen
from wizard.tui.screens.verify import TIER_TITLES
from wizard.tui.widgets.commands import COPY_COMMAND, CopiesCommands, ShownCommands
from wizard.tui.widgets.more_below import MoreBelow
from wizard.tui.widgets.shown import Shown, masked


def check_line(entry) -> str | None:
    """How the entry's GraphCast check went, in words: what initialised, or where it failed or was
    stopped and the finding that explains it (the tier's title, not its id)."""
    check = entry.verify
    if check is None:
        return None
    node = f" on node {check.node}" if check.node else ""
    if check.param_count:
        gencast = f" and GenCast {check.gencast_param_count:,}" if check.gencast_param_count else ""
        return (f"check: GraphCast initialised {check.param_count:,} parameters{gencast} on {check.backend or '?'}"
                + (f", node {check.node}" if check.node else ""))
    titles = [str(d.get("title")) for d in check.finding_details if d.get("title")] or list(check.findings)
    if not check.failed_tier:
        if entry.status == "failed" and titles:  # the check never started (srun refused it): say why
            return f"check{node}: {titles[0]}"
        return None
    where = TIER_TITLES.get(check.failed_tier, check.failed_tier)
    if entry.status == "cancelled" or check.stopped:
        return f"check{node}: stopped during {where}"
    return f"check{node}: failed at {where}" + (f" — {titles[0]}" if titles else "")


class HistoryScreen(CopiesCommands, Screen):
    """Dismisses with None (Back), or after a rollback with its result dict."""

    BINDINGS = [
        Binding("escape", "back", "Back", id="back", tooltip="The previous screen"),
        Binding("d", "diagnose", "Diagnose a log", id="diagnose",  # walk 26 #12: any run's log, not only these
                tooltip="Name the root cause in any failed run's log, as `gc-wizard diagnose` does"),
        Binding("r", "rollback", "Roll back to selected", id="rollback",
                tooltip="Make the selected environment current again and re-check it (Enter too)"),
        COPY_COMMAND,
    ]

    def __init__(self) -> None:
        super().__init__()
        self.entries: list = []
        self.warnings: list[str] = []
        self.env_statuses: dict[str, str] = {}
        """Entry id -> its environment's state now (`flows.history.env_status`), read when the table is drawn."""
        self.history = None
        """The history the table shows (for the highlighted row's rollback question)."""
        self.not_a_target: str | None = None
        """Why the highlighted entry is no rollback target (then r is shown disabled), or None."""
        self.disk: dict[str, str] = {}
        """Entry id -> its disk cell, once the worker has measured (until then the lines say "measuring…")."""
        self.disk_total: str = ""

    def compose(self) -> ComposeResult:
        yield Shown("gc-wizard · History · ● marks the current environment", classes="title")
        yield DataTable(id="entries", cursor_type="row", zebra_stripes=False)
        # The selected entry in full, in a pane of its own that scrolls (Tab to it, then ↓): at 80×24 a cancelled
        # entry's "r:" sentence and disk line were cut with nothing to say so (walk 37 #8).
        with VerticalScroll(id="history-pane"):
            yield ShownCommands("", id="history-note")
        yield MoreBelow("history-pane", "Tab, then PgDn or ↓ scrolls", id="history-more")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self.reload()

    def reload(self) -> None:
        # Deferred for start-up time: the app loads this module before its first frame.
        from wizard.flows.history import env_status, read_history, status_cell

        table = self.query_one(DataTable)
        try:
            history = read_history()
        except (WizardError, OSError) as exc:  # a state folder that is a file, an unreadable disk: said, no crash
            self.entries, self.warnings, self.history, self.env_statuses = [], [], None, {}
            table.clear(columns=True)
            self.query_one("#history-note", ShownCommands).update(problem_text("read the history", exc))
            return
        # The same rows in the same order as `gc-wizard history`: every install, verify and rollback,
        # oldest first; the cursor starts on the newest.
        self.history = history
        self.entries = list(history.entries)
        # Read once per drawing (each install's marker), for its row and its lines as the cursor moves.
        self.env_statuses = {entry.id: env_status(entry) for entry in self.entries}
        table.clear(columns=True)
        # Five columns fit 80: the id says when (YYYYMMDD-HHMMSS-…); the time and the installer are in
        # the highlighted entry's lines below, so nothing scrolls the ● marker out of view.
        table.add_columns(" ", "id", "kind", "status", "recipe")
        for entry in self.entries:
            # Each cell as plain Text, masked like every Static: history.json can be edited, and a recipe name
            # holding ESC sequences set the terminal's title and blanked the table (eighth hostile pass U10);
            # a `[` in it is text, not markup.
            cells = ("●" if entry.current else " ", entry.id, entry.kind,
                     status_cell(entry.status, self.env_statuses[entry.id]), entry.recipe)
            table.add_row(*(Text(masked(str(cell))) for cell in cells))
        self.warnings = list(getattr(history, "warnings", []) or [])
        if self.entries:
            table.move_cursor(row=len(self.entries) - 1)
        self.disk, self.disk_total = {}, ""
        self._describe(len(self.entries) - 1 if self.entries else None)
        table.focus()
        if self.entries:
            self.measure_disk()

    @work(thread=True, exclusive=True, exit_on_error=False, group="history-disk", description="Measuring environments")
    def measure_disk(self) -> None:
        """The disk cells and total of `gc-wizard history`, measured off the event loop: walking every env's
        files takes seconds on a big one, and the table is shown at once without them."""
        # Deferred for start-up time: the app loads this module before its first frame.
        from wizard.flows.history import disk_total_words, disk_words, history_rows, installers_of

        try:
            rows, total, _ = history_rows()
        except Exception:  # the history went unreadable meanwhile: the table already says what it could
            return
        self.post_message(HistorySized({row["id"]: disk_words(row) for row in rows}, disk_total_words(total, installers_of(rows))))

    def on_history_sized(self, message: HistorySized) -> None:
        self.disk, self.disk_total = message.sizes, message.total
        self._describe(self.query_one(DataTable).cursor_row if self.entries else None)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "copy_command":
            return self.copy_offered()
        if action == "rollback":
            return None if self.not_a_target or not self.entries else True  # None: shown, dimmed
        return True

    def _describe(self, row: int | None) -> None:
        """The highlighted entry in full: where it lives, how its check went, its log; and whether r can roll
        back to it."""
        # Deferred for start-up time: the app loads this module before its first frame.
        from wizard.flows.history import entry_traits, error_words, no_installs_words
        from wizard.flows.rollback import not_a_target

        self.not_a_target = None
        if row is None or not 0 <= row < len(self.entries):
            lines = [no_installs_words()]  # the folder read and GC_WIZARD_HOME's part (walk 25 #4)
        else:
            entry = self.entries[row]
            self.not_a_target = not_a_target(self.history, entry.id) if self.history is not None else None
            via = getattr(entry, "installer", None)
            when = (entry.started or "")[:16].replace("T", " ")
            lines = [f"{entry.recipe} · {self.env_statuses.get(entry.id, entry.status)}{' · current' if entry.current else ''} · started {when}"
                     + (f" · via {via}" if via else ""),
                     f"env: {entry.env}" + ("" if entry.env and Path(entry.env).exists() else " (removed)")]
            source = entry_traits(entry, when=False)  # the started time is on the row above
            if source:
                lines.append(source)
            check = check_line(entry)
            if check:
                lines.append(check)
            # Both faces' words: an install verified since says so, not its stale error (walk 24 #8).
            error = error_words(entry, self.env_statuses.get(entry.id, entry.status))
            if error:
                since = self.env_statuses.get(entry.id, "").startswith("verified")
                lines.append(f"{'note' if since else 'stopped' if entry.status == 'cancelled' else 'error'}: {error}")
            if entry.log:
                lines.append(f"log: {entry.log}")
            if entry.kind == "install" and Path(entry.env or "").is_dir():
                # The same cell as `gc-wizard history`'s disk column; its folder's absence is said on the env line.
                lines.append(f"disk: {self.disk.get(entry.id, '') or '?'}" if self.disk_total else "disk: measuring…")
            if self.not_a_target:
                lines.append(f"r: {self.not_a_target}")
            if self.disk_total:
                lines.append(self.disk_total)
        self.query_one("#history-note", ShownCommands).update("\n".join(self.warnings + lines))
        self.query_one("#history-pane", VerticalScroll).scroll_home(animate=False)  # another entry: from its top
        self.refresh_bindings()

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        self._describe(event.cursor_row)

    def action_diagnose(self) -> None:
        # Deferred for start-up time: the app loads this module before its first frame.
        from wizard.tui.screens.diagnose import DiagnoseScreen

        # The highlighted entry's log, filled in and read at once (walk 33 #10: "(in the app: History, d)" opened an
        # empty path box, and the ~60-character path had to be typed from another screen); any other log can still
        # be given in its place.
        table = self.query_one(DataTable)
        row = table.cursor_row if self.entries else None
        entry = self.entries[row] if row is not None and 0 <= row < len(self.entries) else None
        self.app.push_screen(DiagnoseScreen(entry.log if entry is not None and entry.log else ""))

    def action_back(self) -> None:
        self.dismiss(None)

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        self.action_rollback()  # Enter on a row: the screen's default action

    def action_rollback(self) -> None:
        # Deferred for start-up time: the app loads this module before its first frame.
        from wizard.flows.history import read_history
        from wizard.flows.rollback import check_target, describe_change

        table = self.query_one(DataTable)
        if not self.entries or table.cursor_row is None:
            return
        entry = self.entries[table.cursor_row]
        try:  # the core's one eligibility rule (an in-place install's "undo" included)
            history = read_history()
            target = check_target(history, entry.id)
        except UserError as exc:
            self.notify(str(exc), severity="warning")
            return
        except (WizardError, OSError) as exc:  # the history went unreadable since the screen showed it
            self.notify(problem_text("read the history", exc), severity="error")
            return
        change = describe_change(history.current(), target)
        question = "\n".join(["Roll back?", *change, "", "The target is checked again before it becomes current."])

        def answered(yes: bool | None) -> None:
            if yes:
                self.post_message(RollbackRequested(entry.id))

        self.app.push_screen(ConfirmScreen(question, yes="Roll back", no="Cancel"), answered)
