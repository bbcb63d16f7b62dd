"""Exactly what will run: target environment, sources, every step and pin, cost — and where to change it.

The plan comes from the core (`wizard.flows.session.plan_for`, the same call `gc-wizard plan` makes), and the
plan shown here is the very object the install runs. This screen lays it out for 80 columns: what matters for the decision first (a refused GraphCast source at the very
top; where, which installer, disk and download size; where GraphCast and the packages come from),
then every step, every pin, and the exact commands, which scroll.

On a server without GitHub the GraphCast source and a wheelhouse are set right here: g and w ask for a
path, check it on the spot (does it exist, which GraphCast version is it, how many of the pins does
the wheelhouse hold) and the steps below change with it; o switches to offline (the wheelhouse and
the installer's cache only).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime
from typing import TYPE_CHECKING

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen

from wizard.flows.options import InstallOptions
from wizard.security import redact_secrets
from wizard.tui.messages import DownloadMeasured, PlanComputed
from wizard.tui.problems import error_text
from wizard.tui.screens.confirm import ConfirmScreen
from wizard.tui.screens.prompt import PromptScreen
from wizard.tui.widgets.commands import COPY_COMMAND, CopiesCommands, ShownCommands
from wizard.tui.widgets.footer import WrappingFooter
from wizard.tui.widgets.shown import Shown

if TYPE_CHECKING:
    from wizard.flows.review import PlanReview
    from wizard.flows.types import Plan


@dataclass(frozen=True)
class ApprovedPlan:
    """What the Plan screen hands the install: the plan shown, the options it was made from, and its
    measured download size (for the install screen's progress)."""

    plan: Plan
    options: InstallOptions
    download_bytes: int | None = None


#: The keys that change each part of the plan, after the core's words (`flows.describe_plan.PlanHints`).
_KEY_HINTS = dict(folder=" (e changes the folder)", installer=" (i switches)",
                  sources=" (g GraphCast source, w wheelhouse, o offline)",
                  refusal="  g: another source (a checkout of the right tag) · f: install it anyway")


def _editable(current: str | None) -> str:
    """What a g or w dialog starts with: the current source, unless it holds a secret (a URL's password, a
    signed query), which the dialog's input would show in clear; then it starts empty (Escape keeps it)."""
    return current if current and redact_secrets(current) == current else ""


class PlanScreen(CopiesCommands, Screen["ApprovedPlan | None"]):
    """Dismisses with the approved plan, or None for Back."""

    BINDINGS = [
        Binding("enter", "install", "Install", id="next", priority=True, tooltip="Run these steps"),
        Binding("escape", "back", "Back", id="back", tooltip="Choose another recipe"),
        Binding("e", "edit_env", "Folder", id="env", tooltip="Install into another folder"),
        Binding("i", "toggle_installer", "uv/pip", id="installer", tooltip="Switch the installer (uv or pip)"),
        Binding("g", "graphcast_src", "GraphCast", id="graphcast-src",
                tooltip="Install GraphCast from a local checkout, wheel or sdist (no GitHub needed)"),
        Binding("w", "wheelhouse", "Wheels", id="wheelhouse",
                tooltip="Add a folder of wheels (made with pip download on a machine with internet)"),
        Binding("o", "toggle_offline", "Offline", id="offline",
                tooltip="Use only the wheelhouse and the installer's cache (no package index)"),
        # shown only while the GraphCast source is refused (`check_action` hides it otherwise): the refusal's own
        # line names f, and a key the footer left out was not found (walk 19 #15)
        Binding("f", "force", "Install anyway", id="force",
                tooltip="Install with a GraphCast source that is not the recipe's"),
        Binding("n", "toggle_notebook", "Notebook", id="notebook",
                tooltip="Add what the demo notebook's imports cell needs (google-cloud-storage, ipywidgets)"),
        Binding("a", "toggle_alternative", "Alt src", id="alternative",
                tooltip="The recipe's alternative source (e.g. JAX's CUDA plugin from PyPI); needs a GPU check"),
        COPY_COMMAND,
    ]

    def __init__(self, recipe, options: InstallOptions) -> None:
        super().__init__()
        self.recipe = recipe
        # one folder name for this screen's plans: g, a, p … plan again, and the name shown stays (walk 28 #19)
        self.options = replace(options, recipe_id=recipe.id, planned_at=options.planned_at or datetime.now())
        self.plan: Plan | None = None
        self.download_bytes: int | None = None
        self.verdict = None
        """The GraphCast source's check (wizard.install.sources.SourceVerdict) for the shown plan."""
        self.error: str | None = None
        """Why the current settings give no plan (shown in place of the plan)."""
        self.download: str | None = None
        self.index_down: str | None = None
        """The index that did not answer the download measurement: the Sources mark it ✗ (walk 26 #7)."""
        self.review: PlanReview | None = None
        """The plan shown and what was checked on it (`flows.review.PlanReview`)."""
        self.planning = False
        """A plan is being worked out (Enter then waits for it: `_install_when_ready`)."""
        self._install_when_ready: bool | None = None
        """Enter (False) or f (True) pressed while planning; None: nothing pending."""

    def compose(self) -> ComposeResult:
        # the recipe first: a narrow terminal cuts the title's end, and the id is what says which plan (walk 20 #3)
        yield Shown(f"gc-wizard · Step 3 of 5 · {self.recipe.id} · The plan: what will run", classes="title", markup=False)
        with VerticalScroll(id="plan-pane"):
            yield ShownCommands("", id="plan")
        yield WrappingFooter()  # all of its keys stay visible at 60 columns (and with "a Alt src" at 80)

    def on_mount(self) -> None:
        self.refresh_plan()

    def refresh_plan(self, *, revert: InstallOptions | None = None, announce_source: bool = False) -> None:
        """Work the plan out again for `self.options`, in a worker: until it is there, Enter installs
        nothing (no plan) and every other key still works."""
        self.plan = None
        self.planning = True
        self._install_when_ready = None  # a settings change since: that Enter was for another plan
        self.query_one("#plan", ShownCommands).update("Working out the plan… (Escape: back)")
        self.query_one("#plan-pane", VerticalScroll).scroll_home(animate=False)  # the changed lines are near the top
        self.refresh_bindings()
        self.compute_plan(self.options, revert, announce_source)

    @work(thread=True, exclusive=True, exit_on_error=False, group="plan", description="Planning")
    def compute_plan(self, options: InstallOptions, revert: InstallOptions | None, announce_source: bool) -> None:
        # Deferred for start-up time: the app loads this module before its first frame.
        from wizard.flows.review import review

        try:  # the recipe list judged the fit already; the rest is what `gc-wizard plan` checks
            checked = review(options, check_fit=False)
        except Exception as exc:  # no fitting Python, a bad folder: said on the screen, never a crash
            self.post_message(PlanComputed(options, error=error_text(exc), revert=revert,
                                           announce_source=announce_source))
            return
        self.post_message(PlanComputed(options, checked, announce_source=announce_source))

    def on_plan_computed(self, message: PlanComputed) -> None:
        if message.options is not self.options:
            return  # the settings changed again meanwhile: a newer plan is on its way
        self.planning = False
        pending, self._install_when_ready = self._install_when_ready, None
        if message.error is not None:
            self.verdict = None
            self.error = message.error
            if message.revert is not None:  # not a folder, file or URL: the previous source stays, and
                typed = message.options.graphcast_src or ""
                self.options = message.revert
                self.refresh_plan()
                if message.announce_source:  # the g dialog comes back with the typed text and why, to correct
                    self.action_graphcast_src(value=_editable(typed), error=message.error)
                else:
                    self.notify(message.error, severity="error", timeout=10)
                return
            from wizard.flows.describe_plan import with_keys  # deferred for start-up time, as plan_lines

            self.query_one("#plan", ShownCommands).update(
                f"This plan cannot run:\n\n{with_keys(message.error)}\n\nPress g for another GraphCast source, w for "
                "another wheelhouse, o to switch offline, e for another folder, i to switch the installer, or "
                "Escape to choose another recipe.")
            self.refresh_bindings()
            return
        self.review = message.review
        self.plan, self.verdict = message.review.plan, message.review.verdict
        self.download = None
        self.index_down = None
        self._render_plan()
        self.measure_download(self.plan)
        self.refresh_bindings()
        if message.announce_source and self.verdict is not None:
            self.notify(("GraphCast source: " + self.verdict.identity.describe()) if self.verdict.ok
                        else self.verdict.problem.replace("pass --force", "press f"),
                        severity="information" if self.verdict.ok else "error", timeout=8)
        if pending is not None and self.check_action("force" if pending else "install", ()):
            self.action_install(force=pending)  # Enter (or f) pressed while the plan was worked out

    def _render_plan(self) -> None:
        if self.plan is None or self.review is None:
            return
        # Deferred for start-up time: the app loads this module before its first frame.
        from wizard.flows.describe_plan import PlanHints, plan_lines

        lines = plan_lines(self.review, download=self.download, slurm=self.options.slurm,
                           hints=PlanHints(**_KEY_HINTS, keys=True), width=self._text_width(), commands_last=True,
                           index_down=self.index_down)
        self.query_one("#plan", ShownCommands).update("\n".join(lines))

    def _text_width(self) -> int:
        """The columns the plan's text gets: the screen's, less the pane's padding (2) and a scroll bar (2) —
        76 at 80 columns. The core wraps to it; a wider line would be wrapped again by the widget, its tail
        unindented. Counted from the screen, not the pane: the pane's own width changes when its scroll bar
        appears, after the text that made it appear was already wrapped."""
        width = self.size.width - 4
        return width if width >= 40 else 76

    def on_resize(self) -> None:
        self._render_plan()

    @work(thread=True, exclusive=True, exit_on_error=False, group="plan-cost", description="Download size")
    def measure_download(self, plan) -> None:
        # Deferred for start-up time: the app loads this module before its first frame.
        from wizard.flows.review import download_size

        try:
            size = download_size(plan, timeout=4.0, budget=8.0)
            text, total, down = size.describe(), size.bytes, size.index_down
        except Exception as exc:  # the size is a help, never a reason to stop
            text, total, down = f"download size unknown ({exc})", None, None
        self.post_message(DownloadMeasured(plan, text, total, down))

    def on_download_measured(self, message: DownloadMeasured) -> None:
        if message.plan is self.plan and self.is_mounted:
            self.download = message.text
            self.download_bytes = message.total
            self.index_down = message.index_down
            self._render_plan()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "copy_command":
            return self.copy_offered()
        if action in ("install", "force") and self.planning:
            return True  # taken now, carried out once the plan is there (if it may be)
        if action == "install":
            return self.plan is not None and (self.verdict is None or self.verdict.ok)
        if action == "force":
            return self.plan is not None and self.verdict is not None and not self.verdict.ok
        if action == "toggle_alternative":
            return bool(getattr(self.recipe, "alternatives", ()))
        if action == "toggle_notebook":
            return bool(getattr(self.recipe, "notebook", ()))
        return True

    def action_toggle_alternative(self) -> None:
        alternatives = getattr(self.recipe, "alternatives", ())
        if not alternatives:
            return
        current = self.options.alternative
        ids = [None, *(a.id for a in alternatives)]
        self.options = replace(self.options,
                               alternative=ids[(ids.index(current) + 1) % len(ids)] if current in ids else None)
        self.refresh_plan()

    def action_install(self, force: bool = False) -> None:
        if self.planning:  # what the key asked is done when the plan arrives, as if it had been there
            self._install_when_ready = force
            return
        if self.plan is None:
            return
        options = replace(self.options, force=force or self.options.force)
        approved = ApprovedPlan(self.plan, options, self.download_bytes)
        reasons = [self.verdict.unreachable] if self.verdict is not None and self.verdict.unreachable else []
        reasons += [text for text in self.plan.unreachable_reasons() if text != self.plan.unreachable_source]
        if reasons:
            # Asked first: every package would download, then the GraphCast step fail (or the packages' own page
            # not answer: walk 24 #1).
            from wizard.flows.describe_plan import (
                with_keys,  # deferred, as plan_lines: loaded once a plan is shown
            )

            question = f"{with_keys(' '.join(reasons))}\n\nInstall anyway?"

            def answered(yes: bool | None) -> None:
                if yes:  # asked and answered: the install does not refuse it again
                    self.dismiss(replace(approved, options=replace(approved.options, despite_unreachable=True)))

            self.app.push_screen(ConfirmScreen(question, yes="Install anyway", no="Back to the plan"), answered)
            return
        self.dismiss(approved)

    def action_force(self) -> None:
        self.action_install(force=True)

    def action_toggle_notebook(self) -> None:
        if getattr(self.recipe, "notebook", ()):
            self.options = replace(self.options, with_notebook=not self.options.with_notebook)
            self.refresh_plan()

    def action_toggle_offline(self) -> None:
        self.options = replace(self.options, offline=not self.options.offline)
        self.refresh_plan()

    def action_graphcast_src(self, value: str | None = None, error: str | None = None) -> None:
        """g: ask for a GraphCast source. `value`, `error`: the answer just refused and why (asked again)."""

        def chosen(path: str | None) -> None:
            if path is not None:
                previous = self.options
                self.options = replace(self.options, graphcast_src=path.strip() or None)
                self.refresh_plan(revert=previous, announce_source=True)

        self.app.push_screen(PromptScreen(
            "GraphCast source: a checkout folder (git clone … && git checkout v"
            f"{self.recipe.graphcast.version}), a wheel or sdist, or a pip URL. Empty: the recipe's own.",
            value=_editable(self.options.graphcast_src) if value is None else value,
            hint="Enter checks it · Escape keeps the current one", error=error), chosen)

    def action_wheelhouse(self, value: str | None = None, error: str | None = None) -> None:
        """w: ask for a wheelhouse folder. `value`, `error`: the answer just refused and why (asked again)."""
        # Deferred for start-up time: the app loads this module before its first frame.
        from wizard.flows.review import look_at_wheelhouse

        def chosen(path: str | None) -> None:
            if path is None:
                return
            path = path.strip()
            if not path:
                self.options = replace(self.options, find_links=())
                self.refresh_plan()
                return
            try:
                house = look_at_wheelhouse(path, self.recipe)
            except Exception as exc:  # a missing folder: asked again with the typed text and why; nothing changes
                self.action_wheelhouse(value=_editable(path), error=str(exc))
                return
            if house.folder not in self.options.find_links:
                self.options = replace(self.options, find_links=(*self.options.find_links, house.folder))
            self.notify(f"Wheelhouse {house.describe()}", timeout=8)
            self.refresh_plan()

        self.app.push_screen(PromptScreen(
            "Wheelhouse folder (from `pip download -d wheels …` on a machine with internet). "
            "Empty: no wheelhouse.", value=_editable((self.options.find_links or ("",))[-1]) if value is None else value,
            hint="Enter checks it · Escape keeps the current ones", error=error), chosen)

    def action_back(self) -> None:
        self.dismiss(None)

    def action_toggle_installer(self) -> None:
        # from the installer the plan shows: with none chosen the plan picked it (pip where uv fails on TLS,
        # walk 27 #2), so switching from the option's None would switch to what is already shown
        shown = self.plan.installer if self.plan is not None else self.options.installer
        self.options = replace(self.options, installer="uv" if shown == "pip" else "pip")
        self.refresh_plan()

    def action_edit_env(self) -> None:
        def chosen(path: str | None) -> None:
            if path is not None:
                self.options = replace(self.options, env=path.strip() or None)
                self.refresh_plan()

        current = self.options.env or ""
        self.app.push_screen(PromptScreen("Install into which folder? Empty: a new managed environment.",
                                          value=current), chosen)
