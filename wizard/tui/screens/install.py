"""The install, live: the step list, the log following its tail, the unfinished line on its own row.

The install itself runs in the app's worker (so quitting from anywhere can stop it); this screen
only shows what the worker reports. Ctrl-C asks before stopping, and says what stopping means.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Footer, Header, Static

from wizard.tui.screens.confirm import ConfirmScreen
from wizard.tui.widgets.live_log import LiveLog
from wizard.tui.widgets.step_list import StepList

STOP_QUESTION = "Stop the install? Your current environment is untouched."


class InstallScreen(Screen):
    BINDINGS = [
        Binding("ctrl+c", "stop", "Stop install", id="stop", priority=True,
                tooltip="Stop cleanly; nothing becomes current"),
        Binding("end", "follow", "Follow log", id="follow"),
    ]

    def __init__(self, plan) -> None:
        super().__init__()
        self.plan = plan
        self.finished = False
        # Built here, not in compose, so the worker can be handed them before the screen mounts.
        self._step_list = StepList([(s.name, s.title) for s in plan.steps], id="steps")
        self._live_log = LiveLog(id="live-log")

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(f"Step 4 of 5 · Installing {self.plan.recipe.id}", classes="title", markup=False)
        yield self._step_list
        yield self._live_log
        yield Footer()

    def on_screen_resume(self) -> None:
        self.app.sub_title = "install"

    @property
    def live_log(self) -> LiveLog:
        return self._live_log

    @property
    def step_list(self) -> StepList:
        return self._step_list

    def live_log_ref(self) -> LiveLog:
        """The log widget, handed to the worker thread (its feeders are thread-safe)."""
        return self._live_log

    def step_list_ref(self) -> StepList:
        return self._step_list

    def action_stop(self) -> None:
        if self.finished:
            return

        def answered(stop: bool | None) -> None:
            if stop:
                self.app.cancel_install()
                self.notify("Stopping the install…")

        self.app.push_screen(ConfirmScreen(STOP_QUESTION, yes="Stop", no="Keep going"), answered)

    def action_follow(self) -> None:
        self.live_log.action_follow()
