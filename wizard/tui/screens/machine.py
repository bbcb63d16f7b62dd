"""The first screen: what this machine has, problems first. Detection runs after the first frame."""

from __future__ import annotations

import threading

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Static

from wizard.errors import UserError
from wizard.flows.options import slurm_target_from_words
from wizard.tui.messages import FactsReady, JobStateChanged
from wizard.tui.problems import error_text, problem_text
from wizard.tui.screens.prompt import PromptScreen
from wizard.tui.widgets.footer import WrappingFooter
from wizard.tui.widgets.more_below import MoreBelow
from wizard.tui.widgets.shown import Shown


def waiting_text(slurm, state) -> str:
    """What detection through srun is doing now, and the keys that stop it (the job is cancelled)."""
    head = f"Detecting on a GPU node of {slurm.where()} through srun…"
    now = state.describe() if state is not None else "asking Slurm for a node"
    now = now[0].upper() + now[1:]
    return (f"{head}\n\n{now}.\n\nEscape cancels the job · ctrl+q or Ctrl-C cancels it and quits"
            + (" · o changes the partition or srun options" if state is not None and state.phase == "queued" else ""))


class MachineScreen(Screen[str]):
    """Shows the detected facts; dismisses with "next" or "history"."""

    forecast_env: str | None = None
    """The current environment a forecast can run in (`flows.history.forecast_env`), read with the facts; a class
    default, as `check_action` is asked before `__init__` has run."""

    BINDINGS = [
        Binding("enter", "next", "Next: recipes", id="next", tooltip="Choose a recipe for this machine"),
        Binding("h", "history", "History", id="history", tooltip="Previous installs and rollback"),
        # Walk 28 #16: after a CLI install the app's forecast was on no screen but an install's Done.
        Binding("f", "forecast", "Forecast", id="forecast",
                tooltip="Run the demo notebook's forecast in your current environment: real weights, one rollout"),
        Binding("r", "redetect", "Detect again", id="redetect", tooltip="Run detection again"),
        Binding("s", "report", "Report", id="report", tooltip="Preview a support report for your admin"),
        # Walk 26 #12: a lab-mate's log, not only the wizard's own runs (History).
        Binding("d", "diagnose", "Diagnose a log", id="diagnose",
                tooltip="Name the root cause in any failed run's log, as `gc-wizard diagnose` does"),
        Binding("g", "gpu_node", "GPU node (Slurm)", id="gpu_node",
                tooltip="Detect and verify on a GPU node through srun; the install still runs here"),
        Binding("o", "slurm_options", "Partition/srun", id="slurm_options",
                tooltip="Change the Slurm partition and srun options (e.g. gpu --gpus=1), then detect again"),
        Binding("escape", "cancel_wait", "Cancel the job", id="cancel_wait",
                tooltip="Stop waiting for a node: the Slurm job is cancelled"),
        Binding("ctrl+c", "cancel_and_quit", "Cancel job, quit", id="cancel_and_quit", priority=True, show=False,
                tooltip="Cancel the Slurm job and leave"),
    ]

    def __init__(self, recipes_dirs: tuple[str, ...] | list[str], slurm=None) -> None:
        super().__init__()
        self.recipes_dirs = recipes_dirs
        self.facts = None
        self.matches: list = []
        self.pythons: tuple = ()
        self.slurm = slurm
        """A `SlurmTarget` once detection runs on a GPU node through srun (--slurm, or key g)."""
        self.partitions: list[str] | None = None
        """Slurm's partitions when this node has no GPU but Slurm answers: the offer of key g."""
        self.stop_event: threading.Event | None = None
        """Set to stop the running detection; through srun its job is cancelled (Escape, ctrl+q, Ctrl-C, signals)."""
        self.job = None
        """The Slurm job detection waits on (a `JobState`), while it runs through srun."""
        self.detecting = False
        """Detection (here or through srun) runs now: no answer has come back yet."""

    def compose(self) -> ComposeResult:
        yield Shown("gc-wizard · Step 1 of 5 · This machine", classes="title")
        with VerticalScroll(id="facts-pane"):
            yield Shown("", id="problems", markup=False)
            yield Shown("Detecting the NVIDIA driver, GPUs and CUDA libraries…", id="facts", markup=False)
        yield MoreBelow("facts-pane", "PgDn or ↓ scrolls", "facts", id="facts-more")  # walk 21 #13
        # Outside the scrolling pane: on a small terminal (60×20) the memory figures and the
        # recommendation stay in view, and "Press Enter" is the last line, next to the keys.
        yield Shown("", id="memory", markup=False)
        yield Shown("", id="recommended", markup=False)
        yield WrappingFooter()  # with d (walk 26 #12) the keys no longer fit one row at 60 columns


    def detect(self) -> None:
        """Start detection (here, or on a node through srun) with a fresh stop event."""
        self.stop_event = threading.Event()
        self.job = None
        self.detecting = True
        self._detect(self.stop_event, self.slurm)

    def detecting_via_srun(self) -> bool:
        """Detection through srun runs now (and has not been told to stop)."""
        return self.slurm is not None and self.detecting and self.stop_event is not None and \
            not self.stop_event.is_set()

    def stop_detection(self) -> bool:
        """Stop detection through srun (its job is cancelled by the worker); True if it was running."""
        if not self.detecting_via_srun():
            return False
        self.stop_event.set()
        return True

    @work(thread=True, exclusive=True, exit_on_error=False, group="detect", description="Detecting the machine")
    def _detect(self, stop: threading.Event, slurm) -> None:
        # The same survey as `gc-wizard recipes`; each failure says what failed, because a broken
        # recipe file is not a detection problem. Deferred for start-up time: detection starts after the
        # first frame, and these modules are not needed to draw it.
        from wizard.flows.machine import machine_facts, slurm_offer
        from wizard.flows.session import RecipesUnreadable, survey

        try:
            facts = None
            if slurm is not None:
                facts = machine_facts(slurm, cancel=stop,
                                      on_state=lambda state: self.post_message(JobStateChanged(state)))
            found = survey(self.recipes_dirs, facts=facts, local=True)
            if self.slurm is None:
                self.partitions = slurm_offer(found.facts)
        except RecipesUnreadable as exc:  # a bad recipe file or --recipes-dir: its one sentence names it
            self.post_message(FactsReady(None, [], error=problem_text("load the recipes", exc), token=stop))
            return
        except Exception as exc:  # shown on the screen, never a crash or a traceback
            if stop.is_set():
                self.post_message(FactsReady(None, [], error=error_text(exc), stopped=True, token=stop))
                return
            where = " on a GPU node through srun" if slurm is not None else ""
            self.post_message(FactsReady(None, [], error=problem_text(f"finish detection{where}", exc), token=stop))
            return
        self.post_message(FactsReady(found.facts, list(found.matches), pythons=found.pythons, token=stop))

    def on_job_state_changed(self, message: JobStateChanged) -> None:
        message.stop()  # the app's handler is for the check's job
        if self.facts is not None or self.stop_event is None or self.stop_event.is_set():
            return
        self.job = message.state
        self.query_one("#facts", Static).update(waiting_text(self.slurm, message.state))

    def on_facts_ready(self, message: FactsReady) -> None:
        if message.token is not None and message.token is not self.stop_event:
            return  # a detection stopped for a new one (o): only the new one's answer counts
        widget = self.query_one("#facts", Static)
        self.detecting = False
        self.refresh_bindings()
        if message.error:
            if message.stopped:
                widget.update(f"{message.error}\n\nr detects again · o changes the partition or srun options.")
            elif self.slurm is not None:
                widget.update(f"{message.error}\n\nPress o to change the partition or srun options, or fix that "
                              "and press r to try again.")
            else:
                widget.update(f"{message.error}\n\nFix that, then press r to try again.")
            widget.add_class("error")
            return
        widget.remove_class("error")
        self.facts, self.matches, self.pythons = message.facts, message.matches, message.pythons
        self.show_facts()

    def show_facts(self) -> None:
        # Deferred for start-up time: the app loads this module before its first frame.
        # Deferred for start-up time, as above.
        from wizard.flows.describe_machine import (
            fact_lines,
            memory_table_lines,
            next_step_text,
            problem_lines,
            where_sentence,
        )
        from wizard.flows.history import (
            current_env_text,
            forecast_env,
            history_once,
            installed_recipes,
            last_failed_checks,
            returning_user_line,
            unreachable_page_seen,
        )

        history = history_once()  # one read of history.json for every line below (30th pass leftovers, item 4)
        problems = problem_lines(self.facts)
        box = self.query_one("#problems", Static)
        box.update("\n".join(problems))
        box.display = bool(problems)
        where = where_sentence(self.facts)
        # the pane's padding (2) and its scrollbar (2): lines cut for 78 columns wrapped their last word to column 0
        # in 76 (walk 28 #18)
        facts = fact_lines(self.facts, current_env_text(history), columns=self.app.size.width - 4)
        self.query_one("#facts", Static).update("\n".join([where, *facts] if where else facts))
        self.query_one("#memory", Static).update("\n".join(memory_table_lines(self.facts, self.app.size.width)) + "\n")
        recommended = next((m for m in self.matches if m.recommended), None)
        self.forecast_env = forecast_env(history)
        text = next_step_text(
            self.facts, recommended, offer=self.partitions if self.slurm is None else None,
            through_srun=self.slurm is not None, returning=returning_user_line(history),
            installed=installed_recipes(history).get(recommended.recipe.id) if recommended else None,
            unreachable=unreachable_page_seen(recommended.recipe, history) if recommended else None,
            failed=last_failed_checks(history).get(recommended.recipe.id) if recommended else None)
        self.query_one("#recommended", Static).update(text)
        self.refresh_bindings()

    def take_survey(self, other: MachineScreen) -> None:
        """Carry what `other` (the screen this one replaces) found: the facts, the matches, the Pythons it looked at
        and Slurm's offer of a GPU node. Why all in one place: walk 28 #2 — coming back (Escape) to this screen
        carried the facts but not the offer, so its paragraph and the key g were gone until r."""
        self.facts, self.matches, self.pythons = other.facts, other.matches, other.pythons
        self.partitions = other.partitions

    def on_mount(self) -> None:
        self.query_one("#problems", Static).display = False
        if self.facts is None:
            if self.slurm is not None:
                self.query_one("#facts", Static).update(waiting_text(self.slurm, None))
            # After the first frame: the worker's imports and probes would otherwise share the GIL with
            # the first paint, and the screen already says "Detecting…" (or which node it waits for).
            self.call_after_refresh(self.detect)
        else:
            self.show_facts()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "next":
            return self.facts is not None
        if action == "gpu_node":
            return bool(self.slurm is None and self.partitions)
        if action == "slurm_options":  # before g, g is the offer (and the footer has room for one of them)
            return self.slurm is not None
        if action in ("cancel_wait", "cancel_and_quit"):
            return self.detecting_via_srun()
        if action == "redetect":
            return not self.detecting_via_srun()
        if action == "forecast":
            return self.forecast_env is not None
        return True

    def action_cancel_wait(self) -> None:
        if self.stop_detection():
            self.query_one("#facts", Static).update("Cancelling the Slurm job…")
            self.refresh_bindings()

    def action_cancel_and_quit(self) -> None:
        self.app.action_quit_now_cancelled()

    def action_slurm_options(self) -> None:
        """Ask for the partition and srun options ("gpu --gpus=1"), then detect there again."""
        if self.partitions is None:
            # Deferred for start-up time: the app loads this module before its first frame.
            from wizard.flows.machine import slurm_partitions

            self.partitions = slurm_partitions()  # sinfo answers in well under a second
        current = " ".join(filter(None, [self.slurm.partition if self.slurm else None,
                                         *(self.slurm.srun_args if self.slurm else ())]))
        self.app.push_screen(PromptScreen(
            "Slurm partition, then any srun options (e.g. gpu --gpus=1 or --gres=gpu:1 --time=0:30:00). Empty: "
            "the cluster's default partition." + (f" Partitions: {', '.join(self.partitions[:8])}."
                                                  if self.partitions else ""),
            value=current, hint="Enter detects there again · Escape keeps the current ones"), self._slurm_chosen)

    def _slurm_chosen(self, text: str | None) -> None:
        if text is None:
            return
        try:
            target = slurm_target_from_words(text, wait=self.slurm.wait if self.slurm else None)
        except UserError as exc:
            self.notify(str(exc), severity="error", timeout=10)
            return
        self.stop_detection()
        self.slurm = target
        self.facts = None
        self.query_one("#problems", Static).display = False
        self.query_one("#facts", Static).update(waiting_text(target, None))
        self.query_one("#recommended", Static).update("")
        self.refresh_bindings()
        self.detect()

    def action_gpu_node(self) -> None:
        if self.slurm is not None or not self.partitions:
            return
        self.slurm = slurm_target_from_words("", default=True)
        self.facts = None
        self.refresh_bindings()
        self.query_one("#problems", Static).display = False
        self.query_one("#facts", Static).update(waiting_text(self.slurm, None))
        self.query_one("#recommended", Static).update("")
        self.detect()

    def action_next(self) -> None:
        if self.facts is not None:
            self.dismiss("next")

    def action_history(self) -> None:
        self.dismiss("history")

    def action_forecast(self) -> None:
        """The forecast screen for the current environment, as the Done screen's f opens it (on the GPU node after g)."""
        if self.forecast_env is None:
            return
        # Deferred for start-up time: the app loads this module before its first frame.
        from wizard.tui.screens.forecast import ForecastScreen

        self.app.push_screen(ForecastScreen(self.forecast_env, getattr(self.app, "assets", None), self.slurm))

    def action_diagnose(self) -> None:
        # Deferred for start-up time: the app loads this module before its first frame.
        from wizard.tui.screens.diagnose import DiagnoseScreen

        self.app.push_screen(DiagnoseScreen())

    def action_report(self) -> None:
        # Deferred for start-up time: the app loads this module before its first frame.
        from wizard.tui.screens.report import ReportScreen

        self.app.push_screen(ReportScreen(self.facts))

    def action_redetect(self) -> None:
        if self.detecting_via_srun():
            return  # the job already asked for stays; Escape cancels it
        self.facts = None
        self.refresh_bindings()
        self.query_one("#facts", Static).update(waiting_text(self.slurm, None) if self.slurm else "Detecting…")
        self.detect()
