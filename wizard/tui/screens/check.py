"""The check of an environment kept unchecked, run from the Not-done screen (its c): the same check `gc-wizard
verify --env` runs, recorded the same way, shown as the install's check is.

Why: walk 26 #9 — after "Stop, keep it unchecked" the app offered only a command to paste later, and the kept
917 MiB environment was forgotten while a third one was built. The check runs in a thread worker that posts
`VerifyTier` and `KeptChecked` to this screen (a worker never touches a widget); Ctrl-C or Escape stops it through
its cancel event, as `verify`'s Ctrl-C does.
"""

from __future__ import annotations

import threading

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Footer, Static

from wizard.flows.results import kept_checked, kept_unchecked
from wizard.paths import wizard_command
from wizard.tui.messages import KeptChecked, VerifyTier
from wizard.tui.problems import error_text
from wizard.tui.screens.verify import VerifyScreen
from wizard.tui.widgets.shown import Shown


class KeptCheckScreen(VerifyScreen):
    """Dismissed with the check's `VerifyResult` (None: it did not run) once it is over."""

    BINDINGS = [
        Binding("enter", "next", "Back", id="next", priority=True, tooltip="Back to the Not-done screen"),
        Binding("escape", "back", "Back", id="back", tooltip="Back to the Not-done screen"),
        Binding("ctrl+c", "stop", "Stop check", id="stop", priority=True,
                tooltip="Stop the check; the environment stays as it is, unchecked"),
        Binding("escape", "stop", "Stop check", id="stop-escape", show=False),
    ]

    def __init__(self, env: str, entry_id: str | None, slurm=None) -> None:
        super().__init__()
        self.env = env
        self.entry_id = entry_id
        self.slurm = slurm
        self.cancel = threading.Event()
        self.result = None
        self.error: str | None = None
        self.not_recorded: str | None = None

    def compose(self) -> ComposeResult:
        yield Shown("gc-wizard · Checking the kept environment", classes="title")
        with VerticalScroll(id="verify-pane"):
            yield Shown(f"Checking {self.env} (a real GraphCast jit init, as `verify --env` does)…", id="tiers",
                        markup=False)
            yield Shown("", id="findings", markup=False)
        yield Footer(compact=True)

    def on_mount(self) -> None:
        super().on_mount()
        self.run_check()

    @work(thread=True, exclusive=True, exit_on_error=False, group="kept-check", description="Checking GraphCast")
    def run_check(self) -> None:
        # Deferred for start-up time: the app loads this module only when c is pressed.
        from wizard.flows.check import check_env, env_to_check, record_or_why
        from wizard.flows.history import now

        started = now()
        try:
            found = env_to_check(self.env)
            result = check_env(found, slurm=self.slurm, cancel=self.cancel,
                               on_tier=lambda tier: self.post_message(VerifyTier(tier)))
        except Exception as exc:  # one sentence, as the CLI's verify says it
            self.post_message(KeptChecked(None, error=error_text(exc)))
            return
        self.post_message(KeptChecked(result, not_recorded=record_or_why(found.path, result, started)))

    def on_verify_tier(self, message: VerifyTier) -> None:
        message.stop()  # this screen's own: the app's handler feeds the install's check screen
        self.add_tier(message.tier)

    def on_kept_checked(self, message: KeptChecked) -> None:
        message.stop()
        self.result, self.error, self.not_recorded = message.result, message.error, message.not_recorded
        self.show_result(message.result, stopped=kept_unchecked(self.env, self.entry_id, wizard_command(), self.slurm))

    def closing(self, verify) -> str:
        if self.error:
            return ""
        lines = []
        if verify is not None and not verify.cancelled:
            lines.append(kept_checked(self.env, self.entry_id, verify.ok, wizard_command()))
        if self.not_recorded and not (verify is not None and verify.cancelled):
            lines.append(f"Not in the history: {self.not_recorded}.")
        return "\n\n" + "\n".join([*lines, "Enter: back"])

    def show_result(self, verify, stopped: str | None = None) -> None:
        super().show_result(verify, stopped)
        if self.error:
            self.query_one("#findings", Static).update(f"{self.error}\n\nEnter: back")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("next", "back"):
            return self.done
        if action == "stop":
            return not self.done and not self.cancel.is_set()
        return True

    def action_next(self) -> None:
        self.dismiss(self.result)

    def action_back(self) -> None:
        self.dismiss(self.result)

    def on_unmount(self) -> None:
        """Leaving the app (ctrl+q) with the check running: its probe is stopped, never left behind."""
        self.cancel.set()

    def action_stop(self) -> None:
        if self.done or self.cancel.is_set():
            return
        self.cancel.set()
        self.stopping = "■ Stopping the check: the environment stays as it is, unchecked…"
        self.refresh_stopping()
        self.refresh_bindings()
