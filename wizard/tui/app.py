"""The wizard app: walks a new lab member from "what does this server have" to a verified GraphCast.

The App holds the flow and the two long-running workers (install, rollback); screens render and
return answers. Workers report only through messages (and the LiveLog's thread-safe buffer), and
get a `threading.Event` to stop: Ctrl-C (after confirming), quitting, and a dropped SSH connection
(SIGHUP) all set it, and the core only makes an environment current at the very end.
"""

from __future__ import annotations

import asyncio
import os
import queue
import signal
import threading
import time
from pathlib import Path

from textual import work
from textual.app import App
from textual.binding import Binding
from textual.worker import Worker, WorkerState

from wizard.tui import STARTED
from wizard.tui.messages import (
    FactsReady,
    InstallDone,
    PromptAsked,
    RollbackDone,
    StepFinished,
    StepStarted,
    VerifyStarted,
    VerifyTier,
)
from wizard.tui.screens.done import DoneScreen
from wizard.tui.screens.history import HistoryScreen
from wizard.tui.screens.install import InstallScreen
from wizard.tui.screens.machine import MachineScreen
from wizard.tui.screens.plan import PlanScreen
from wizard.tui.screens.prompt import PromptScreen
from wizard.tui.screens.recipe import RecipeScreen
from wizard.tui.screens.verify import VerifyScreen


def process_age() -> float:
    """Seconds since this process started (from /proc), so start-up cost before Python counts too."""
    try:
        ticks = os.sysconf("SC_CLK_TCK")
        with open("/proc/self/stat") as handle:
            start = int(handle.read().rsplit(")", 1)[1].split()[19]) / ticks
        with open("/proc/uptime") as handle:
            return float(handle.read().split()[0]) - start
    except (OSError, ValueError, IndexError):
        return time.perf_counter() - STARTED


class WizardApp(App):
    CSS_PATH = "app.tcss"
    TITLE = "gc-wizard"
    SUB_TITLE = "GraphCast on this server"
    ENABLE_COMMAND_PALETTE = False
    BINDINGS = [Binding("ctrl+q", "quit", "Quit", id="quit", priority=True, tooltip="Leave gc-wizard")]

    def __init__(self, recipes_dirs: list[str] | None = None, *, find_links: list[str] | None = None,
                 offline: bool = False, graphcast_src: str | None = None, verify: bool = True,
                 level: str = "notebook") -> None:
        super().__init__()
        self.options = {"recipes_dirs": list(recipes_dirs or []), "find_links": list(find_links or []),
                        "offline": offline, "graphcast_src": graphcast_src, "verify": verify, "level": level}
        self.cancel_event = threading.Event()
        self.first_frame_seconds: float | None = None
        self.machine: MachineScreen | None = None
        self.install_screen: InstallScreen | None = None
        self.verify_screen: VerifyScreen | None = None
        self.install_result: dict | None = None
        self.exit_status: int | None = None

    # Flow ---------------------------------------------------------------------------------------
    def on_mount(self) -> None:
        self.machine = MachineScreen(self.options["recipes_dirs"])
        self.push_screen(self.machine, self._machine_done)
        try:
            asyncio.get_running_loop().add_signal_handler(signal.SIGHUP, self._hangup)
        except (NotImplementedError, RuntimeError, ValueError):
            pass

    def on_ready(self) -> None:
        self.first_frame_seconds = round(process_age(), 3)
        log = os.environ.get("GC_WIZARD_STARTUP_LOG")
        if log:
            with open(log, "a") as handle:
                handle.write(f"first_frame_seconds={self.first_frame_seconds}\n")

    def _machine_done(self, answer: str | None) -> None:
        # The machine screen is the base of the flow: whatever it answered, it comes back afterwards.
        machine = self.machine
        self.machine = MachineScreen(self.options["recipes_dirs"])
        if answer == "history":
            self.push_screen(self.machine, self._machine_done)
            self.push_screen(HistoryScreen(), self._history_done)
        elif answer == "next" and machine is not None:
            self.machine.facts, self.machine.matches = machine.facts, machine.matches
            self.push_screen(self.machine, self._machine_done)
            self.show_recipes(machine.matches)

    def on_facts_ready(self, message: FactsReady) -> None:
        """Detection reports to the machine screen; bubbled here only if that screen is gone."""

    def show_recipes(self, matches: list) -> None:
        self.push_screen(RecipeScreen(matches), lambda match: self._recipe_done(matches, match))

    def _recipe_done(self, matches: list, match) -> None:
        if match is None:
            return  # Back: the machine screen is underneath
        self.push_screen(PlanScreen(match.recipe, dict(self.options)),
                         lambda settings: self._plan_done(matches, match, settings))

    def _plan_done(self, matches: list, match, settings: dict | None) -> None:
        if settings is None:
            self.show_recipes(matches)  # Back: choose again
            return
        self.start_install(match.recipe, settings)

    # Install ------------------------------------------------------------------------------------
    def start_install(self, recipe, settings: dict) -> None:
        from types import SimpleNamespace

        from wizard.commands.recipes import make_plan

        plan = make_plan(SimpleNamespace(recipe=recipe.id, recipes_dir=settings.get("recipes_dirs") or [],
                                         env=settings.get("env"), installer=settings.get("installer", "uv"),
                                         find_links=settings.get("find_links") or [],
                                         offline=settings.get("offline", False),
                                         graphcast_src=settings.get("graphcast_src")))
        self.cancel_event = threading.Event()
        self.install_screen = InstallScreen(plan)
        self.verify_screen = None
        self.install_result = None
        self.push_screen(self.install_screen)
        self.install_worker(recipe.id, settings, self.install_screen.live_log_ref())

    @work(thread=True, exclusive=True, exit_on_error=False, group="install", description="Installing a recipe")
    def install_worker(self, recipe_id: str, settings: dict, live_log) -> None:
        from wizard.install import InstallEvents, InstallOptions, run_install

        app, cancel, step_list = self, self.cancel_event, self.install_screen.step_list_ref()

        class Events(InstallEvents):
            def step_started(self, step) -> None:
                app.post_message(StepStarted(step.name, step.title))

            def line(self, step, text: str) -> None:
                live_log.add_line(text)
                step_list.progress_from(text)

            def live(self, step, text: str) -> None:
                live_log.set_live(text)

            def prompt(self, step, text: str) -> str | None:
                reply: queue.Queue = queue.Queue()
                app.post_message(PromptAsked(text, reply))
                while not cancel.is_set():
                    try:
                        return reply.get(timeout=0.2)
                    except queue.Empty:
                        continue
                return None

            def step_finished(self, step, result) -> None:
                app.post_message(StepFinished(step.name, result.ok, result.seconds, result.cancelled))

            def verify_started(self) -> None:
                app.post_message(VerifyStarted())

            def verify_tier(self, tier: dict) -> None:
                app.post_message(VerifyTier(tier))

            def message(self, text: str) -> None:
                live_log.add_line(text)

        options = InstallOptions(
            recipe_id=recipe_id, env=Path(settings["env"]) if settings.get("env") else None,
            installer=settings.get("installer", "uv"), find_links=list(settings.get("find_links") or []),
            offline=bool(settings.get("offline")), graphcast_src=settings.get("graphcast_src"),
            verify=bool(settings.get("verify", True)), level=settings.get("level", "notebook"),
            assume_yes=False, recipes_dirs=list(settings.get("recipes_dirs") or []))
        try:
            result = run_install(options, Events(), cancel)
            self.post_message(InstallDone(result.to_dict()))
        except Exception as exc:  # a lock held by another wizard, a full disk: shown, not a crash
            self.post_message(InstallDone(None, error=str(exc)))

    def on_step_started(self, message: StepStarted) -> None:
        if self.install_screen is not None:
            self.install_screen.step_list.start(message.name, message.title)

    def on_step_finished(self, message: StepFinished) -> None:
        if self.install_screen is not None:
            self.install_screen.step_list.finish(message.name, message.ok, message.seconds, message.cancelled)

    def on_prompt_asked(self, message: PromptAsked) -> None:
        self.push_screen(PromptScreen(f"The installer asks: {message.text}"), message.reply.put)

    def on_verify_started(self, message: VerifyStarted) -> None:
        self.verify_screen = VerifyScreen()
        self.push_screen(self.verify_screen, self._verify_done)

    def on_verify_tier(self, message: VerifyTier) -> None:
        if self.verify_screen is not None:
            self.verify_screen.add_tier(message.tier)

    def on_install_done(self, message: InstallDone) -> None:
        result = message.result or {"ok": False, "error": message.error, "cancelled": False}
        self.install_result = result
        if self.install_screen is not None:
            self.install_screen.finished = True
            self.install_screen.live_log.flush()
        if self.verify_screen is not None and self.screen is self.verify_screen:
            self.verify_screen.show_result(result.get("verify"))
        else:
            self.show_done()

    def _verify_done(self, _answer: str | None) -> None:
        self.show_done()

    def show_done(self) -> None:
        result = self.install_result or {"ok": False, "error": "the install did not report"}
        self.push_screen(DoneScreen(result), self._done_done)

    def _done_done(self, answer: str | None) -> None:
        if answer == "history":
            self.push_screen(HistoryScreen(), self._history_done)
            return
        ok = bool(self.install_result and self.install_result.get("ok"))
        self.exit_status = 0 if ok else 1
        self.exit(self.exit_status)

    def cancel_install(self) -> None:
        self.cancel_event.set()

    def install_running(self) -> bool:
        return any(w.group == "install" and w.state in (WorkerState.PENDING, WorkerState.RUNNING)
                   for w in self.workers)

    # Rollback -----------------------------------------------------------------------------------
    def _history_done(self, _result) -> None:
        """Back from History: whatever is underneath shows again."""

    def start_rollback(self, entry_id: str) -> None:
        self.notify(f"Rolling back to {entry_id}…")
        self.rollback_worker(entry_id)

    @work(thread=True, exclusive=True, exit_on_error=False, group="rollback", description="Rolling back")
    def rollback_worker(self, entry_id: str) -> None:
        from wizard.rollback import rollback

        try:
            result = rollback(entry_id, verify=self.options["verify"], level=self.options["level"],
                              cancel=self.cancel_event)
            self.post_message(RollbackDone(result.to_dict() if hasattr(result, "to_dict") else result))
        except Exception as exc:
            self.post_message(RollbackDone(None, error=str(exc)))

    def on_rollback_done(self, message: RollbackDone) -> None:
        if message.error:
            self.notify(message.error, severity="error", timeout=10)
        else:
            ok = message.result.get("ok")
            self.notify(f"Rolled back: {message.result.get('env')} is current"
                        + ("" if ok else " (its check failed; see History)"), severity="information" if ok else "warning")
        if isinstance(self.screen, HistoryScreen):
            self.screen.reload()

    # Leaving ------------------------------------------------------------------------------------
    async def action_quit(self) -> None:
        if self.install_running():
            self.cancel_event.set()
            self.notify("Stopping the install before leaving…")
            for worker in list(self.workers):
                if worker.group == "install":
                    await worker.wait()
            self.exit_status = 130
            self.exit(130)
            return
        self.exit(self.exit_status or 0)

    def _hangup(self) -> None:
        """The SSH session dropped: stop any install (nothing half-built becomes current) and leave."""
        self.cancel_event.set()
        self.exit_status = 129
        self.exit(129)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.state == WorkerState.ERROR and event.worker.group in ("install", "rollback"):
            self.notify(f"{event.worker.description} failed: {event.worker.error}", severity="error", timeout=15)
