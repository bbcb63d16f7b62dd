"""The install, live: the step list, the log following its tail, the unfinished line on its own row.

The install itself runs in the app's worker (so quitting from anywhere can stop it); this screen
only shows what the worker reports. Ctrl-C asks before stopping, and says what stopping means.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Footer, Static

from wizard.tui.widgets.live_log import LiveLog
from wizard.tui.widgets.shown import Shown
from wizard.tui.widgets.step_list import StepList


def stop_question(checking: bool, *, in_place_env: str | None = None, leaving: bool = False,
                  has_current: bool = True) -> str:
    """What Ctrl-C (and ctrl+q or q, `leaving`) asks before stopping: what stops, and what becomes of the
    environment being built — a new one is removed (it never becomes current), one changed in place is
    put back — while the current environment (`has_current`: there is one) stays as it is."""
    ask = f"Stop the {'check' if checking else 'install'}{' and leave gc-wizard' if leaving else ''}?"
    if in_place_env:
        return f"{ask} {in_place_env} will be put back as it was before; nothing else is touched."
    rest = "your current environment is untouched." if has_current else "no other environment is touched."
    if checking:  # the install is done: it may be kept (KEEP_UNCHECKED, the dialog's k)
        return (f"{ask} y removes the new environment; k keeps it, installed but unchecked, to check later. "
                f"Neither makes it current; {rest}")
    return f"{ask} The new environment will be removed (it never becomes current); {rest}"


#: The stop dialog's third answer during the check of a new environment: stop, but keep what was installed.
KEEP_UNCHECKED = "keep-unchecked"


def stopping_line(checking: bool, *, in_place: bool = False, keep: bool = False) -> str:
    """What the screen says from the "yes" until the stop is done: ending the child and removing (or putting
    back) the environment can take seconds on a busy machine, and a screen that still reads "running" then
    invites a second Ctrl-C. The toast alone was gone before the stop ended."""
    what = ("the environment is being put back" if in_place else "the new environment is kept, unchecked" if keep
            else "the new environment is being removed")
    return f"■ Stopping the {'check' if checking else 'install'}: {what}…"


STOP_QUESTION = stop_question(False)
STOP_CHECK_QUESTION = stop_question(True)


class InstallScreen(Screen):
    """Never dismissed by itself: the app moves on (Verify, Done) when the worker reports."""

    BINDINGS = [
        Binding("ctrl+c", "stop", "Stop install", id="stop", priority=True,
                tooltip="Ask, then stop cleanly; nothing half-built becomes current"),
        Binding("end", "follow", "Follow log", id="follow", priority=True,
                tooltip="Scroll to the newest line and keep following"),
        Binding("enter", "next", "Next", id="next", tooltip="What to do now (shown when the install is over)"),
    ]

    def __init__(self, plan, *, steps: list[tuple[str, str]] | None = None, packages: int = 1) -> None:
        """`plan`: the install's; a screen for other steps (a rollback's) passes None, the (name, title)
        rows it knows up front (more are added as they start) and how many packages it counts."""
        import time

        # Deferred for start-up time: the app loads this module before its first frame.
        from wizard.flows.transaction import InstallProgress, quiet_stretch_words

        super().__init__()
        self.plan = plan
        self.finished = False
        self.started = time.monotonic()
        self.stopping: str | None = None
        """The stopping line (`stopping_line`) once a stop was asked for and answered yes; drawn until the end."""
        total = len(plan.recipe.requirements) + 1 if plan is not None else packages
        self.progress = InstallProgress(total_packages=total)
        self._quiet_words = quiet_stretch_words
        """Overall counters, fed from the worker thread (`feed_line`), drawn by a timer."""
        # Built here, not in compose, so the worker can be handed them before the screen mounts.
        rows = [(s.name, s.title) for s in plan.steps] if plan is not None else list(steps or [])
        self._step_list = StepList(rows, id="steps")
        self._live_log = LiveLog(id="live-log")

    def compose(self) -> ComposeResult:
        yield Shown(self._title(), id="install-title", classes="title", markup=False)
        yield Shown("", id="overall", markup=False)
        yield self._step_list
        yield self._live_log
        yield Footer(compact=True)

    def _title(self) -> str:
        return f"gc-wizard · Step 4 of 5 · Installing {self.plan.recipe.id}"


    def on_mount(self) -> None:
        self.set_interval(0.5, self._draw_overall)
        self._draw_overall()

    def _draw_overall(self) -> None:
        import time

        if self.finished:
            return
        overall = "Overall: " + self.progress.summary(time.monotonic() - self.started)
        self.query_one("#overall", Static).update(f"{self.stopping}\n{overall}" if self.stopping else overall)

    def refresh_stopping(self) -> None:
        """Draw the stopping line now (the timer would, within half a second)."""
        if self.is_mounted:
            self._draw_overall()

    def feed_line(self, text: str) -> None:
        """A clean output line, from the worker thread: counters, step row, and the log or the live row.

        pip's `Progress N of M` lines (hundreds per large wheel) are shown on the live row as one
        updating line, not appended to the log pane; the log file keeps them all.
        """
        self.progress.feed(text)
        self._step_list.progress_from(text, self.progress.current[0] if self.progress.current else None)
        if text.startswith("Progress "):
            if self.progress.current is None:  # that file is complete: the live row empties
                self._live_log.set_live("")
                return
            name, done, total = self.progress.current
            # Deferred for start-up time: the app loads this module before its first frame.
            from wizard.flows.review import human_size as human

            self._live_log.set_live(f"downloading {name}: {100 * done // max(total, 1)}% of {human(total)}")
            return
        self._live_log.add_line(text)
        quiet = self._quiet_words(text)
        if quiet:
            self._live_log.set_live(quiet)

    def set_expected_bytes(self, size: int | None) -> None:
        self.progress.expected_bytes = size or None

    @property
    def live_log(self) -> LiveLog:
        """The log widget; its feeders (`add_line`, `set_live`) may be called from the worker thread."""
        return self._live_log

    @property
    def step_list(self) -> StepList:
        """The step rows; `progress_from` may be called from the worker thread."""
        return self._step_list

    def finish(self) -> None:
        import time

        if self.is_mounted:
            self.query_one("#overall", Static).update(
                "Overall: " + self.progress.summary(time.monotonic() - self.started).replace(" so far", " in all"))
        self.finished = True
        self._live_log.flush()
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "next":
            return self.finished
        if action == "stop":
            return not self.finished
        return True

    def action_stop(self) -> None:
        self.app.action_stop_install()

    def action_next(self) -> None:
        self.app.show_done()

    def action_follow(self) -> None:
        self.live_log.action_follow()
