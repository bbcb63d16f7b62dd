"""The core's callbacks for the app's live screens, called on the worker thread of an install or a rollback.

They only post messages or feed the screen's thread-safe log (Harlequin's rule: a worker never touches a
widget). One class for what both a rollback and an install show (steps, lines, the check's tiers, the
wizard's messages); the install's adds what only it has: the installer's questions, the check on its own
screen, and a Slurm job's state.

Imported by the workers, not at the app's start: it brings the install transaction's module.
"""

from __future__ import annotations

import queue
import threading

from textual.message_pump import MessagePump

from wizard.flows.transaction import InstallEvents, await_answer
from wizard.flows.types import Tier
from wizard.tui.hold import StepHold
from wizard.tui.messages import (
    JobStateChanged,
    PromptAsked,
    StepFinished,
    StepStarted,
    VerifyStarted,
    VerifyTier,
    VerifyTierStarted,
)
from wizard.tui.screens.install import InstallScreen


class LiveScreenEvents(InstallEvents):
    """Steps, lines, tiers and messages, posted to `target` (the app, or a screen that handles them itself)
    and fed to `screen`'s live log. With a `hold` (and the run's `cancel`), each step waits to start while
    the app's stop question is open."""

    def __init__(self, target: MessagePump, screen: InstallScreen, hold: StepHold | None = None,
                 cancel: threading.Event | None = None) -> None:
        self.target = target
        self.screen = screen
        self.hold = hold
        self.cancel = cancel if cancel is not None else threading.Event()

    def _wait_for_answer(self) -> None:
        if self.hold is not None:
            self.hold.wait(self.cancel)

    def step_started(self, step) -> None:
        self._wait_for_answer()
        self.target.post_message(StepStarted(step.name, step.title))

    def line(self, step, text: str) -> None:
        self.screen.feed_line(text)

    def live(self, step, text: str) -> None:
        self.screen.live_log.set_live(text)

    def step_finished(self, step, result) -> None:
        self.target.post_message(StepFinished(step.name, result.ok, result.seconds, result.cancelled))

    def verify_started(self) -> None:
        self._wait_for_answer()  # the check is a step too: it waits while the stop question is open
        self.target.post_message(VerifyStarted())

    def verify_tier(self, tier: Tier) -> None:
        self.target.post_message(VerifyTier(tier))

    def verify_tier_start(self, words: str) -> None:
        """A slow tier began: the rollback's screen shows it with its usual time in its log (walk 27: rollback's check time)."""
        self.target.post_message(VerifyTierStarted(words))

    def message(self, text: str) -> None:
        self.screen.live_log.add_line(f"[gc-wizard] {text}")


class InstallScreenEvents(LiveScreenEvents):
    """An install's: the installer's questions become a dialog (waited for until `cancel`), the check gets
    its own screen, and its Slurm job's state is shown as it changes."""

    def __init__(self, target: MessagePump, screen: InstallScreen, cancel: threading.Event,
                 hold: StepHold | None = None) -> None:
        super().__init__(target, screen, hold, cancel)

    def prompt(self, step, text: str) -> str | None:
        reply: queue.Queue = queue.Queue()
        self.target.post_message(PromptAsked(text, reply))
        return await_answer(reply, self.cancel)

    def job_state(self, state) -> None:
        self.target.post_message(JobStateChanged(state))

    def verify_tier_start(self, words: str) -> None:
        """Nothing: the install's check has a screen of its own, whose clock says the usual time beside it
        (`describe_check.running_estimate`)."""
