"""A rollback, live: the install screen's step list and log for its `uv venv` / `uv pip sync` steps and
its GraphCast check, then its result; Ctrl-C asks, then stops it like an install.

Why the install screen: a rebuild or re-sync runs the same installer for minutes, so the user needs the
same view of it (and the same way to stop it). The rollback runs in the app's worker; the worker posts
`StepStarted`/`StepFinished`/`VerifyTier`/`RollbackDone` to this screen, which handles them itself.
"""

from __future__ import annotations

import threading
import time

from textual.binding import Binding
from textual.widgets import Static

from wizard.flows.describe import rollback_lines
from wizard.flows.describe_check import CHECK_TITLE, TIER_TITLES
from wizard.flows.results import RollbackResult
from wizard.tui.messages import (
    RollbackDone,
    StepFinished,
    StepStarted,
    VerifyStarted,
    VerifyTier,
    VerifyTierStarted,
)
from wizard.tui.screens.confirm import ConfirmScreen
from wizard.tui.screens.install import InstallScreen

STOP_ROLLBACK_QUESTION = ("Stop the rollback? The current environment stays current; a folder being rebuilt "
                          "is removed again.")


def result_lines(result: RollbackResult | None, error: str | None = None) -> list[str]:
    """What the rollback did, in the words `gc-wizard rollback` prints, marked ✓ or ✗."""
    lines = rollback_lines(result, error)
    mark = "✓" if result is not None and result.ok else "✗"
    return [f"{mark} {lines[0]}", *lines[1:]]


class RollbackScreen(InstallScreen):
    """Dismissed (Enter, once it is over) with the rollback's result, or None when it did not run."""

    BINDINGS = [
        Binding("ctrl+c", "stop", "Stop rollback", id="stop", priority=True,
                tooltip="Ask, then stop cleanly; the current environment stays current"),
        Binding("end", "follow", "Follow log", id="follow", priority=True,
                tooltip="Scroll to the newest line and keep following"),
        Binding("enter", "next", "Back to History", id="next", tooltip="Shown when the rollback is over"),
    ]

    def __init__(self, entry_id: str, cancel: threading.Event) -> None:
        super().__init__(None)
        self.entry_id = entry_id
        self.cancel = cancel
        self.result: RollbackResult | None = None

    def _title(self) -> str:
        return f"gc-wizard · Rolling back to {self.entry_id}"

    def on_mount(self) -> None:
        super().on_mount()
        self.step_list.display = False  # a plain switch runs no step: no empty row for it

    def _draw_overall(self) -> None:
        if self.finished:
            return
        seconds = time.monotonic() - self.started
        self.query_one("#overall", Static).update(f"Rolling back… {seconds:.0f} s so far · Ctrl-C stops it")

    # --- what the worker reports ---------------------------------------------------------------
    def on_step_started(self, message: StepStarted) -> None:
        message.stop()
        self.step_list.display = True
        self.step_list.start(message.name, message.title)

    def on_step_finished(self, message: StepFinished) -> None:
        message.stop()
        # The offline try failing only means the cache lacks something; the online one comes next.
        note = "not all cached" if message.name.endswith("-offline") and not message.ok else None
        self.step_list.finish(message.name, message.ok, message.seconds, message.cancelled, note=note)

    def on_verify_started(self, message: VerifyStarted) -> None:
        """The check gets a row of its own, as the install's steps do (walk 18: a switch showed nothing but a
        counter for the minute its check ran)."""
        message.stop()
        self.step_list.display = True
        self.step_list.start("check", CHECK_TITLE)

    def on_verify_tier(self, message: VerifyTier) -> None:
        message.stop()
        tier = message.tier
        count = tier.details.get("param_count")
        extra = f", {count:,} parameters" if count else ""
        self.live_log.add_line(f"[gc-wizard] check {tier.name}: {tier.status} ({tier.seconds or 0:.1f} s{extra})")
        if self.step_list.state.get("check") == "running" and tier.status == "passed":
            # the last tier passed so far, its mark first: a narrow row cut "JAX backend and devices ✓" to "JAX backend
            # and devi…", which read as that tier still running through the whole jit init (walk 20 #4)
            self.step_list.progress = f"✓ {TIER_TITLES.get(tier.name, tier.name)} · more running"

    def on_verify_tier_started(self, message: VerifyTierStarted) -> None:
        """A slow tier began: its usual time in the screen's log, in the words the CLI prints (walk 27, rollback's check time: the
        rollback's check ran a minute with no word of how long it takes); the check's row keeps its own clock."""
        message.stop()
        self.live_log.add_line(f"[gc-wizard] {message.words}")

    def on_rollback_done(self, message: RollbackDone) -> None:
        message.stop()
        self.result = message.result
        self.finished = True
        if self.step_list.state.get("check") == "running":
            check = message.result.verify if message.result is not None else None
            self.step_list.finish("check", bool(check is not None and check.ok),
                                  time.monotonic() - self.step_list.started.get("check", time.monotonic()),
                                  cancelled=bool(message.result is not None and message.result.cancelled))
        self.live_log.flush()
        if isinstance(self.app.screen, ConfirmScreen):
            self.app.pop_screen()  # "Stop the rollback?" asked too late: it is over anyway
        overall = self.query_one("#overall", Static)
        overall.styles.height = "auto"  # the result and its log path, wrapped at 80 columns
        overall.styles.max_height = 8
        overall.update("\n".join(result_lines(message.result, message.error)))
        self.refresh_bindings()

    # --- keys ----------------------------------------------------------------------------------
    def action_stop(self) -> None:
        selected = self.get_selected_text()
        if selected:
            self.app.copy_to_clipboard(selected)
            self.notify("Copied.")
            return
        self.ask_to_stop()

    def ask_to_stop(self, *, leaving: bool = False) -> None:
        """Ctrl-C (and ctrl+q or q, `leaving`): ask, then stop the rollback through its cancel event (and
        leave once the core has recorded it)."""
        if self.finished or self.cancel.is_set() or isinstance(self.app.screen, ConfirmScreen):
            return

        hold = self.app.step_hold  # the rollback starts no new step while this is asked

        def answered(stop: bool | None) -> None:
            if not stop or self.finished:
                hold.open()
                return
            self.cancel.set()
            hold.open()
            self.notify("Stopping the rollback…")
            if leaving:
                self.app.call_next(self.app.stop_rollback_and_leave)

        question = STOP_ROLLBACK_QUESTION.replace("?", " and leave gc-wizard?", 1) if leaving else STOP_ROLLBACK_QUESTION
        hold.close()
        self.app.push_screen(ConfirmScreen(question, yes="Stop and quit" if leaving else "Stop", no="Keep going"),
                             answered)

    def action_next(self) -> None:
        self.dismiss(self.result)
