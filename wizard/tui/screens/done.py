"""What next: how to activate, the Jupyter kernel, where the logs are — or what failed and why."""

from __future__ import annotations

from pathlib import Path

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen

from wizard.flows.describe import (
    activate_lines,
    after_rollback_lines,
    forecast_offer,
    install_undone,
    left_on_disk,
    left_words,
    unreachable_lines,
    use_lines,
    wizard_lines,
)
from wizard.flows.describe_check import checked_where, failed_check_lines
from wizard.flows.results import InstallResult, kept_checked
from wizard.paths import wizard_command
from wizard.tui.messages import AfterInstallDone, AssetsHostUnreachable
from wizard.tui.problems import error_text
from wizard.tui.widgets.commands import COPY_COMMAND, CommandRow, CopiesCommands, ShownCommands
from wizard.tui.widgets.footer import WrappingFooter
from wizard.tui.widgets.shown import Shown
from wizard.wrap import command_row, commands_apart


def _without_log_lines(text: str) -> str:
    """The error without its own "Full log: …" line: the summary names the log once, at the end."""
    return "\n".join(line for line in text.splitlines() if not line.strip().startswith("Full log:"))


def _current_env() -> str | None:
    # Deferred for start-up time: the app loads this module before its first frame.
    from wizard.flows.history import current_env

    return current_env()


def _remembered() -> str | None:
    # Deferred for start-up time: the app loads this module before its first frame.
    from wizard.flows.forecast import remembered_assets

    return remembered_assets()


def _use_heads(env: str | None) -> tuple[str, str]:
    # Deferred for start-up time: it reads the user's Jupyter and module folders (`flows.next_lines`).
    from wizard.flows.next_lines import use_heads

    return use_heads(env)


def _commands_apart(lines: list[str] | str) -> str:
    """The Not-done screen's lines (or a key's note) with each `gc-wizard …` they quote on a command row of its own
    (`wrap.commands_apart`), the program spelled as there (`wizard_command`) or bare: shown whole, and ctrl+y copies
    it (Tab picks one)."""
    return commands_apart(lines if isinstance(lines, str) else "\n".join(lines), (wizard_command(), "gc-wizard"))


def kept_to_check(result: InstallResult) -> bool:
    """A new environment kept unchecked after its check was stopped ("Stop, keep it unchecked"), still on disk: the
    Not-done screen's c checks it (walk 26 #9)."""
    return bool(result.cancelled and result.status == "installed" and result.mode != "in-place" and result.env
                and Path(result.env).is_dir())


def summary_text(result: InstallResult, current_env: str | None = None, unreachable: str | None = None,
                 ran: str | None = None) -> str:
    """The outcome in words. `current_env`: the environment current now (None: there is none); `unreachable`: the
    forecast files' host when it does not answer here (walk 21 #4: f was offered as if it would work); `ran`: the
    output of a forecast run from here ("" for none; None: none ran), so f is offered again (walk 25 #8)."""
    verify = result.verify  # the install's GraphCast check (None: it did not run)
    log = result.log
    log_line = [f"Log: {log}"] if log else []
    untouched = (f"Your current environment is untouched: {current_env}" if current_env
                 else "No environment was made current (there was none before either).")
    if result.lock_held:
        return "\n".join([result.error or "Another gc-wizard is working in the state folder.", "",
                          "Press r to try again once it has finished, or Enter to leave."])
    if result.cancelled:
        what = "check" if verify is not None else "install"
        undone = [install_undone(result)] if result.env else []
        # Walk 26 #9: the kept env was forgotten while p built a third one; c checks it here and now.
        check = (["Press c to check it now (the check `verify --env` runs, a few minutes), or p to change the plan "
                  "and go again."] if kept_to_check(result) else ["Press p to change the plan and go again."])
        return _commands_apart([f"The {what} was stopped. Nothing half-built was made current.", *undone, untouched,
                                "", *check, *log_line])
    if not result.ok:
        installed = verify is not None and not verify.ok
        head = ("Installed, but the GraphCast check never ran on a node." if installed and not verify.started
                else f"Installed, but the GraphCast check failed{checked_where(verify.where)}." if installed
                else "The install did not finish.")
        lines = [head, "", *failed_check_lines(_without_log_lines(result.error or ""),
                                               verify.findings if verify is not None else ())]
        # srun refused the check's job, or it waited too long: the partition or srun options are what to change.
        node_hint = (["The check never started on a node: from the plan, Escape twice goes back to the machine "
                      "screen, where o changes the partition and srun options."]
                     if verify is not None and not verify.started else [])
        # A failed check keeps the environment it checked: say where, and how to delete it (walk 24 #6: only "No
        # environment was made current", with 3 GB left on disk).
        own = [(result.env, result.entry_id)] if result.kept and result.mode != "in-place" else []
        kept = left_words(left_on_disk(own, current_env), wizard_command())
        lines += ["", untouched, *([kept] if kept else []), "Press p to change the plan (another GraphCast source, a wheelhouse, offline) and "
                  "go again.", *node_hint, *log_line]
        return _commands_apart(lines)
    verified = verify is not None and verify.ok
    node = verify.node if verify is not None else None
    # A rollback from History (h) since this install made another environment current: say so first, and the
    # keys act on that one (walk 17: this screen still offered the old install's forecast and kernel).
    # What follows the rollback and what stays is read now, and the install's own kernel/module lines are dropped:
    # they said the kernel "now runs" this install's env after it had followed the rollback (walk 27 #8).
    rolled = bool(current_env and current_env != result.env)
    moved = [*after_rollback_lines(current_env, result.env, wizard_command()), ""] if rolled else []
    kernel_head, module_head = _use_heads(current_env if rolled else result.env)  # what k and m act on
    return "\n".join([
        *moved,
        f"{'Verified' if verified else 'Installed'}: {result.recipe}"
        + (f" (checked on node {node} through srun)" if verified and node else ""),
        f"Environment: {result.env}",
        *([] if rolled else result.moved),  # the kernel or module file it moved from another env (walk 24 #7)
        forecast_offer(unreachable, _remembered() if unreachable else None, ran),
        "",
        "Use it in a shell, also a new one (old CUDA/cuDNN folders are dropped from LD_LIBRARY_PATH):",
        *(command_row(line) for line in activate_lines()),
        "",
        kernel_head,
        *(command_row(line) for line in wizard_lines("kernel install")),
        "",
        module_head,
        *(command_row(line) for line in wizard_lines("module install")),
        "then, in any shell:",
        *(command_row(line) for line in use_lines(result.recipe)),
        "",
        # Below the ways to use it, which stay on the first screen: with the five files named, the way to bring the
        # forecast's files is a dozen rows (walk 22 #5).
        # Its indented rows, the gathering command and the five file names, each whole on a row that scrolls
        # sideways, as the commands above (walk 39 #3: a file name with spaces folded onto a row of its own read as
        # a sixth file); ctrl+y copies the one Tab reaches.
        *([*(command_row(line.strip()) if line.startswith("    ") else line
             for line in unreachable_lines(unreachable, result.recipe, then="press f to give it")), ""]
          if unreachable else []),
        *log_line,
    ])


class DoneScreen(CopiesCommands, Screen[str]):
    """Dismisses with "quit", "log" (back to the install screen underneath), "retry" (a held lock), "plan" (a failed
    install's plan again) or "recipes" (another install after a success); History opens on top."""

    BINDINGS = [
        Binding("enter", "finish", "Finish", id="next", priority=True, tooltip="Leave gc-wizard"),
        Binding("escape", "back", "Back: log", id="back", tooltip="The install screen and its full log"),
        Binding("f", "forecast", "First forecast", id="forecast",
                tooltip="Run the demo notebook's forecast here: real weights, the example batch, one rollout"),
        # Once one ran from here: the same key, named for what it is now (walk 25 #8).
        Binding("f", "forecast_again", "Forecast again", id="forecast-again",
                tooltip="Run the forecast again: real weights, the example batch, one rollout"),
        # Where the files' host does not answer, f asks for their folder first (walk 22 #5: it ran, and failed).
        Binding("f", "forecast_from", "Forecast from a folder", id="forecast-from",
                tooltip="Give the folder that holds the forecast's files, then run the forecast"),
        Binding("k", "kernel", "Jupyter kernel", id="kernel", tooltip="Register this env as a Jupyter kernel"),
        Binding("m", "module", "Module file", id="module", tooltip="Write an Lmod module file: module load graphcast/…"),
        Binding("h", "history", "History", id="history", tooltip="Previous installs and rollback"),
        Binding("s", "report", "Support report", id="report", tooltip="Preview a report to send your admin"),
        Binding("r", "retry", "Try again", id="retry", tooltip="Start the same install again"),
        Binding("n", "another", "Another install", id="another",
                tooltip="Back to the recipes: install another one (this environment stays as it is)"),
        Binding("c", "check_kept", "Check it now", id="check-kept",
                tooltip="Run the GraphCast check on the environment kept unchecked (as `verify --env` does)"),
        Binding("p", "plan", "Change the plan", id="plan",
                tooltip="Back to the Plan screen: another GraphCast source (g), a wheelhouse (w), offline (o)"),
        COPY_COMMAND,
    ]

    def __init__(self, result: InstallResult) -> None:
        super().__init__()
        self.result = result
        self.current = _current_env()
        """The environment current when the summary was last drawn: this install's, unless a rollback since."""
        self.unreachable: str | None = None
        """The forecast files' host when it does not answer here (asked once the screen is up)."""
        self._ran_shown: str | None = None
        """The forecast output the summary last named (`forecast_ran`), to redraw it once one has run."""

    @property
    def env(self) -> str:
        """What f, k and m act on: the current environment after a successful install (a rollback from History
        may have changed it since), else this install's."""
        return (self.current or self.result.env) if self.result.ok else self.result.env

    def compose(self) -> ComposeResult:
        yield Shown("gc-wizard · Done" if self.result.ok else "gc-wizard · Not done", classes="title")
        with VerticalScroll(id="done-pane"):
            yield ShownCommands(self._summary(), id="summary")
        yield WrappingFooter()  # its keys stay visible at 80 columns (a second row)

    @property
    def forecast_ran(self) -> str | None:
        """The output of the forecast that ran for this screen's environment in this session ("" for none), or None."""
        outputs = getattr(self.app, "forecast_outputs", None)
        return outputs.get(self.env) if isinstance(outputs, dict) and self.env else None

    def _summary(self) -> str:
        self._ran_shown = self.forecast_ran
        return summary_text(self.result, self.current, self.unreachable, self._ran_shown)

    def main_command_row(self, rows: list[CommandRow]) -> CommandRow:
        """ctrl+y with no row focused copies the activate command, the one most wanted (walk 39 #1); its `export
        GC_WIZARD_HOME=…` row above, when there is one, is reached with Tab."""
        activate = activate_lines()[-1]
        return next((row for row in rows if row.command == activate), rows[0])

    def on_mount(self) -> None:
        if self.result.ok:
            self.ask_assets_reach()

    @work(thread=True, exclusive=True, exit_on_error=False, group="reach", description="Asking the forecast's host")
    def ask_assets_reach(self) -> None:
        """Whether the forecast's files can be fetched here, asked off the screen's path (one HEAD request, a few
        seconds at most); the app keeps the question, so the text left after quitting says the same."""
        # Deferred for start-up time: the app loads this module before its first frame.
        from wizard.flows.forecast_reach import AssetsReach

        reach = getattr(self.app, "assets_reach", None)
        if reach is None:
            reach = self.app.assets_reach = AssetsReach(getattr(self.app, "assets", None), self.env)
        host = reach.host()
        if host:
            self.post_message(AssetsHostUnreachable(host))

    def on_assets_host_unreachable(self, message: AssetsHostUnreachable) -> None:
        self.unreachable = message.host
        self.query_one("#summary", ShownCommands).update(self._summary())
        self.refresh_bindings()

    def on_screen_resume(self) -> None:
        """Back from History (where a rollback may have run): redraw the summary if the current one changed."""
        current = _current_env()
        # A folder given on the forecast screen (a) since: the host's words no longer apply (it dropped the question).
        given = bool(self.unreachable) and getattr(self.app, "assets_reach", None) is None
        if current != self.current or given or self.forecast_ran != self._ran_shown:
            self.current = current
            self.unreachable = None if given else self.unreachable
            self.query_one("#summary", ShownCommands).update(self._summary())
            self.refresh_bindings()

    def action_retry(self) -> None:
        self.dismiss("retry")

    def action_plan(self) -> None:
        self.dismiss("plan")

    def action_another(self) -> None:
        self.dismiss("recipes")

    def action_finish(self) -> None:
        self.dismiss("quit")

    def action_back(self) -> None:
        self.dismiss("log")

    @property
    def needs_assets(self) -> bool:
        """The forecast's files cannot be fetched from here: f asks for their folder first."""
        return bool(self.unreachable)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "copy_command":
            return self.copy_offered()
        if action == "forecast":
            return bool(self.result.ok and self.env) and not self.needs_assets and self.forecast_ran is None
        if action == "forecast_again":
            return bool(self.result.ok and self.env) and not self.needs_assets and self.forecast_ran is not None
        if action == "forecast_from":
            return bool(self.result.ok and self.env) and self.needs_assets
        if action in ("kernel", "module"):
            return bool(self.result.ok and self.env)
        if action == "retry":
            return bool(self.result.lock_held)
        if action == "plan":
            return not self.result.ok and not self.result.lock_held
        if action == "another":  # walk 19 #7: after a success the app had no way to a second install
            return self.result.ok
        if action == "back":
            return not self.result.lock_held  # nothing ran: there is no log to go back to
        if action == "check_kept":
            return kept_to_check(self.result)
        return True

    def action_check_kept(self) -> None:
        """c: the kept environment's check, on its own screen; its outcome stays under the summary (walk 26 #9)."""
        if not kept_to_check(self.result):
            return
        # Deferred for start-up time: the app loads this module before its first frame.
        from wizard.tui.screens.check import KeptCheckScreen

        def checked(verify) -> None:
            if verify is not None and not verify.cancelled:
                self.show_note(kept_checked(self.result.env, self.result.entry_id, verify.ok, wizard_command()))

        self.app.push_screen(KeptCheckScreen(self.result.env, self.result.entry_id, self.result.slurm), checked)

    def action_history(self) -> None:
        # On top of this screen, so Escape on History comes back here (not to the install log).
        from wizard.tui.screens.history import HistoryScreen

        self.app.push_screen(HistoryScreen())

    def action_report(self) -> None:
        # Deferred for start-up time: the app loads this module before its first frame.
        from wizard.tui.screens.report import ReportScreen

        machine = getattr(self.app, "machine", None)  # the facts the app planned with: a GPU node's after --slurm
        self.app.push_screen(ReportScreen(getattr(machine, "facts", None)))

    def action_forecast_again(self) -> None:
        self.action_forecast()

    def action_forecast(self) -> None:
        if self.result.ok and self.env:
            # Deferred for start-up time: the app loads this module before its first frame.
            from wizard.tui.screens.forecast import ForecastScreen

            options = getattr(self.app, "options", None)  # after --slurm (or g): the forecast runs on the node too
            self.app.push_screen(ForecastScreen(self.env, getattr(self.app, "assets", None),
                                                getattr(options, "slurm", None)))

    def action_forecast_from(self) -> None:
        """f where the files' host does not answer: their folder first (checked as `forecast --assets` checks it),
        kept for this session (a later f, and the lines left after quitting), then the forecast."""
        if not (self.result.ok and self.env):
            return
        # Deferred for start-up time: the app loads this module before its first frame.
        from wizard.flows.describe import assets_question
        from wizard.tui.screens.assets import AssetsPromptScreen

        def chosen(location: str | None) -> None:
            if location:
                # Checked where it is: the files come from there now, and the host's words no longer apply (here,
                # to a later f, and in the lines left after quitting).
                self.app.assets, self.app.assets_reach, self.unreachable = location, None, None
                self.query_one("#summary", ShownCommands).update(self._summary())
                self.refresh_bindings()
                self.action_forecast()

        from wizard.flows.forecast import remembered_assets

        last = remembered_assets()  # walk 23 #4: the folder the last forecast used, filled in
        self.app.push_screen(AssetsPromptScreen(self.env, assets_question(self.unreachable, self.result.recipe, last),
                                                last or ""), chosen)

    def show_note(self, text: str) -> None:
        """A key's outcome, kept under the summary (replacing the previous one) and scrolled into view."""
        text = _commands_apart(text)
        notes = self.query("#notes")
        if notes:
            notes.first(ShownCommands).update(text)
        else:
            self.query_one("#done-pane", VerticalScroll).mount(ShownCommands(text, id="notes"))
        self.query_one("#done-pane", VerticalScroll).scroll_end(animate=False)

    def action_kernel(self) -> None:
        """k: asked first, naming where the kernel goes, outside the state folder (walk 22 #10)."""
        if self.result.ok and self.env:
            # Deferred for start-up time: the app loads this module before its first frame.
            from wizard.flows.after_install import kernel_question
            from wizard.tui.screens.confirm import ConfirmScreen

            def answered(yes: bool | None) -> None:
                if yes:
                    self.install_kernel()

            self.app.push_screen(ConfirmScreen(kernel_question(), yes="Register it", no="Not now"), answered)

    def action_module(self) -> None:
        if self.result.ok and self.env:
            self.install_module()

    @work(thread=True, exclusive=True, exit_on_error=False, group="module", description="Writing a module file")
    def install_module(self) -> None:
        # Deferred for start-up time: the app loads this module before its first frame.
        from wizard.flows.after_install import module_install

        try:
            written = module_install(self.env)
            self.post_message(AfterInstallDone(f"Module written. Use it: {written['use']}", seconds=20))
        except Exception as exc:
            self.post_message(AfterInstallDone(error_text(exc), severity="error"))

    @work(thread=True, exclusive=True, exit_on_error=False, group="kernel", description="Registering kernel")
    def install_kernel(self) -> None:
        from pathlib import Path

        # Deferred for start-up time: the app loads this module before its first frame.
        from wizard.flows.after_install import kernel_install

        try:
            spec = kernel_install(Path(self.env))
            # The toast is one short line that fits; the cautions (a paragraph each) go into the pane, where
            # they can be read whole and scrolled to.
            said = f"Kernel registered: {spec.get('display_name', spec)}, in {spec.get('path')}"
            # The notebook's path in the checkout the env came from (walk 23 #6), then the cautions.
            notebooks = [f"Notebook: {path}" for path in spec.get("notebook_paths", [])]
            frozen = [spec["frozen"]] if spec.get("frozen") else []  # PATH/PYTHONPATH kept as now (walk 25 #8)
            self.post_message(AfterInstallDone(said, note="\n".join([said, *notebooks, *frozen,
                                                                     *(f"! {c}" for c in spec.get("cautions", []))])))
        except Exception as exc:
            self.post_message(AfterInstallDone(error_text(exc), severity="error"))

    def on_after_install_done(self, message: AfterInstallDone) -> None:
        self.notify(message.toast, severity=message.severity, timeout=message.seconds)
        if self.result.ok:  # k or m just wrote its file: the words over its command say so now (walk 39 #4)
            self.query_one("#summary", ShownCommands).update(self._summary())
        if message.note is not None:
            self.show_note(message.note)
