"""A first real forecast, live: which stage it is in, each file's download, then the figures or the fix.

The work runs in a cancellable thread worker that only posts messages (ForecastStage, ForecastDownload,
ForecastDone); this screen owns every widget. The words are the core's (`wizard.flows.forecast.outcome_lines`),
the same the CLI prints. Ctrl-C or Escape while it runs stops the forecast (its whole process tree); nothing
in the environment changes either way.
"""

from __future__ import annotations

import threading
from pathlib import Path

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Static

from wizard.errors import WizardError, left_words
from wizard.flows.describe_check import fix_words
from wizard.flows.forecast import (
    STAGES,
    ForecastEvents,
    ForecastRequest,
    ProgressText,
    env_at,
    outcome_lines,
    run_forecast,
)
from wizard.tui.messages import ForecastDone, ForecastDownload, ForecastStage, JobStateChanged
from wizard.tui.problems import error_text
from wizard.tui.widgets.commands import COPY_COMMAND, CopiesCommands, ShownCommands
from wizard.tui.widgets.footer import WrappingFooter
from wizard.tui.widgets.shown import Shown


def stage_lines(current: str | None, finished: bool, failed: str | None = None) -> list[str]:
    """The stages with their marks: done ✓, running ▶, to come ·; `failed`: the stage that failed, ✗ (walk 18: a
    forecast that could not fetch its files left every stage at ·, and nothing said where it stopped)."""
    names = [name for name, _ in STAGES]
    at = names.index(current) if current in names else -1
    if failed in names:
        at = names.index(failed)
    lines = []
    for index, (_, words) in enumerate(STAGES):
        mark = ("✗" if failed is not None and index == at else "✓" if index < at or (finished and index <= at)
                else "▶" if index == at and failed is None else "·")
        lines.append(f" {mark} {words}")
    return lines


class ForecastScreen(CopiesCommands, Screen[None]):
    """Runs `gc-wizard forecast` for one environment; Escape leaves once it has ended."""

    BINDINGS = [
        Binding("ctrl+c", "stop", "Stop", id="stop", priority=True, tooltip="Stop the forecast"),
        Binding("escape", "back", "Back", id="back", tooltip="The previous screen (stops a running forecast)"),
        # Walk 22 #5: a forecast that could not fetch its files offered only Back; a folder meant a restart.
        Binding("a", "assets", "Run from a folder", id="assets",
                tooltip="Give the folder (or mirror URL) that holds the forecast's files, and run it again"),
        COPY_COMMAND,
    ]

    def __init__(self, env: str | Path, assets: str | None = None, slurm=None) -> None:
        """`slurm` (a `SlurmTarget`, after --slurm or key g): the forecast runs on a GPU node through srun."""
        super().__init__()
        self.env = env_at(env)
        self.assets = assets
        self.slurm = slurm
        self.cancel = threading.Event()
        self.stage: str | None = None
        self.download = ProgressText()
        self.result = None
        self.ended = False

    def compose(self) -> ComposeResult:
        yield Shown("gc-wizard · A first forecast", classes="title")
        with VerticalScroll(id="forecast-pane"):
            yield Shown("\n".join(stage_lines(None, False)), id="stages", markup=False)
            yield Shown("", id="download", markup=False)
            yield ShownCommands(f"In {self.env.path}", id="outcome")
        yield WrappingFooter()

    def on_mount(self) -> None:
        self.run_it()

    @work(thread=True, exclusive=True, exit_on_error=False, group="forecast", description="Forecast")
    def run_it(self) -> None:
        events = ForecastEvents(on_stage=lambda stage: self.post_message(ForecastStage(stage)),
                                on_download=lambda name, done, total: self.post_message(
                                    ForecastDownload(name, done, total)))
        try:
            result = run_forecast(ForecastRequest(env=self.env, assets=self.assets), events=events,
                                  cancel=self.cancel, slurm=self.slurm,
                                  on_job=lambda state: self.post_message(JobStateChanged(state)))
        except (WizardError, OSError) as exc:
            self.post_message(ForecastDone(None, error_text(exc)))
        except KeyboardInterrupt as stop:  # a download's `.part` kept to resume is said (38th hostile pass (A) P1)
            self.post_message(ForecastDone(None, f"the forecast was stopped; {left_words(stop) or 'nothing was changed'}."))
        else:
            self.post_message(ForecastDone(result))

    @on(ForecastStage)
    def _stage(self, message: ForecastStage) -> None:
        self.stage = message.stage
        self.query_one("#stages", Static).update("\n".join(stage_lines(self.stage, False)))

    @on(JobStateChanged)
    def _job(self, message: JobStateChanged) -> None:
        message.stop()
        if not self.ended:
            self.query_one("#download", Static).update(f"   Slurm: {message.state.describe()} · Ctrl-C cancels the job")

    def on_unmount(self) -> None:
        self.cancel.set()  # the app is closing (ctrl+q, a signal): a running forecast and its Slurm job stop

    @on(ForecastDownload)
    def _download(self, message: ForecastDownload) -> None:
        self.query_one("#download", Static).update("   " + self.download(message.name, message.done, message.total))

    @on(ForecastDone)
    def _done(self, message: ForecastDone) -> None:
        self.ended = True
        self.result = message.result
        result = message.result
        ok = result is not None and result.ok
        stopped = result is not None and result.cancelled
        failed = (None if ok or stopped else (result.failed_stage if result is not None else None)
                  or self.stage or STAGES[0][0])
        self.query_one("#stages", Static).update("\n".join(stage_lines(self.stage, ok, failed)))
        outputs = getattr(self.app, "forecast_outputs", None)
        if ok and isinstance(outputs, dict):  # the Done screen then offers it again, naming the output (walk 25 #8)
            outputs[result.env] = result.output or ""
        self.query_one("#download", Static).update("")
        if message.result is None:
            lines = [f"The forecast did not run: {message.error}"]
        else:
            lines = outcome_lines(message.result)
            for finding in message.result.findings[:3]:
                lines += ["", f"▶ {finding.title}", f"  Fix: {fix_words(finding.fix)}"]
        again = ("Press a to give a folder that holds the files and run it again, or Escape to go back."
                 if not ok else "Press Escape to go back.")
        self.query_one("#outcome", ShownCommands).update("\n".join(["", *lines, "", again]))
        self.refresh_bindings()

    def action_stop(self) -> None:
        if not self.ended:
            self.cancel.set()

    def action_back(self) -> None:
        if not self.ended:
            self.cancel.set()
            return  # the worker's ForecastDone follows; then Escape leaves
        self.dismiss(None)

    def action_assets(self) -> None:
        """a, once a forecast has ended without a result: ask for the files' folder (checked as `forecast --assets`
        checks it), keep it for this session, and run the forecast again from it."""
        if not self.ended or (self.result is not None and self.result.ok):
            return
        # Deferred: only a forecast that failed asks.
        from wizard.flows.describe import assets_question
        from wizard.tui.screens.assets import AssetsPromptScreen

        def chosen(location: str | None) -> None:
            if location:
                self.app.assets = self.assets = location  # for a later f, and the lines left after quitting
                self.app.assets_reach = None  # checked: its host (if any) answers
                self.start_again()

        recipe = self.env.marker.recipe if self.env.marker is not None else "RECIPE"
        reach = getattr(self.app, "assets_reach", None)  # the Done screen's question, answered by now if at all
        host = reach.host(0) if reach is not None else None
        self.app.push_screen(AssetsPromptScreen(str(self.env.path), assets_question(host, recipe),
                                                value=self.assets or ""), chosen)

    def start_again(self) -> None:
        """The forecast run again (from `self.assets`), every stage to come."""
        self.cancel = threading.Event()
        self.stage, self.result, self.ended = None, None, False
        self.download = ProgressText()
        self.query_one("#stages", Static).update("\n".join(stage_lines(None, False)))
        self.query_one("#download", Static).update("")
        self.query_one("#outcome", ShownCommands).update(f"In {self.env.path}, files from {self.assets}")
        self.refresh_bindings()
        self.run_it()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "copy_command":
            return self.copy_offered()
        if action == "stop":
            return not self.ended
        if action == "assets":
            return self.ended and not (self.result is not None and self.result.ok)
        return True
