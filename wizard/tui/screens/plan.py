"""Exactly what will run: target environment, sources, every step and pin, cost — and where to change it.

The plan comes from the core (`plan_install`, the same call `gc-wizard plan` makes); this screen lays
it out for 80 columns: what matters for the decision first (a refused GraphCast source at the very
top; where, which installer, disk and download size; where GraphCast and the packages come from),
then every step, every pin, and the exact commands, which scroll.

On a server without GitHub the GraphCast source and a wheelhouse are set right here: g and w ask for a
path, check it on the spot (does it exist, which GraphCast version is it, how many of the pins does
the wheelhouse hold) and the steps below change with it; o switches to offline (the wheelhouse and
the installer's cache only).
"""

from __future__ import annotations

import shlex

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Static

from wizard.tui.screens.prompt import PromptScreen


def sources_lines(plan, verdict=None, wheelhouses: list | None = None) -> list[str]:
    """Where GraphCast and the packages come from, each checked (g, w and o change them)."""
    lines = ["Sources (g GraphCast source, w wheelhouse, o offline):"]
    if verdict is not None:
        mark = "✓" if verdict.ok and not verdict.note else ("?" if verdict.ok else "✗")
        where = "the recipe's pinned source" if verdict.identity.kind in ("recipe", "git") and \
            plan.graphcast_src == plan.recipe.graphcast.source else plan.graphcast_src
        lines.append(f"  GraphCast: {mark} {verdict.identity.describe()}")
        if where != "the recipe's pinned source":
            lines.append(f"    from {where}")
        else:
            lines.append(f"    from {plan.graphcast_src.split(' @ ')[-1]}")
    for house in wheelhouses or []:
        lines.append(f"  Wheelhouse: {house.describe()}")
    lines.append("  Packages: " + ("offline: only the wheelhouse and the installer's cache" if plan.offline
                                   else "the package index (PyPI)" + (" and the wheelhouse" if wheelhouses else "")))
    return lines


def plan_text(plan, free_gib: float | None = None, *, verdict=None, wheelhouses: list | None = None,
              download: str | None = None, slurm=None) -> str:
    recipe = plan.recipe
    where = "existing environment, changed in place" if plan.mode == "in-place" else "a new environment"
    free = f"; {free_gib:.0f} GiB free there" if free_gib is not None else ""
    lines = [f"{recipe.title}"]
    if verdict is not None and not verdict.ok:
        lines += ["", f"✗ {verdict.problem}", "  g gives another GraphCast source; f installs it anyway.", ""]
    lines += [
        f"Into {where} (e changes the folder):",
        f"  {plan.env_dir}",
        plan.python.describe(),
        f"Installer {plan.installer}{' (offline)' if plan.offline else ''} (i switches) · "
        f"disk: about {plan.disk_gib:g} GiB needed{free}",
        f"Download: {download or 'checking the size…'}",
        "",
        *sources_lines(plan, verdict, wheelhouses),
        "",
        "Steps (nothing has run yet):",
    ]
    lines += [f"  {i}. {step.title}" for i, step in enumerate(plan.steps, 1)]
    if slurm is not None:
        part = f"partition {slurm.partition}" if slurm.partition else "the default partition"
        lines.append(f"  then the GraphCast check on a GPU node of {part}, through srun")
    lines += ["", f"Pins ({len(recipe.requirements)}):"] + [f"  {req}" for req in recipe.requirements]
    lines.append(f"  GraphCast {recipe.graphcast.version} from {plan.graphcast_src} (--no-deps)")
    if recipe.runtime_env:
        lines += ["", "Set when the environment is activated:"]
        lines += [f"  {key}={value}" for key, value in recipe.runtime_env.items()]
    notes = list(plan.notes) + list(recipe.notes)
    if notes:
        lines += ["", "Notes:"] + [f"  - {note}" for note in notes]
    lines += ["", "Exactly what runs:"]
    for i, step in enumerate(plan.steps, 1):
        env = " ".join(f"{k}={shlex.quote(v)}" for k, v in step.env.items())
        lines.append(f"  {i}. {env + ' ' if env else ''}{shlex.join(step.argv)}")
    return "\n".join(lines)


class PlanScreen(Screen):
    """Dismisses with the settings to install with (a dict, with the shown plan as "plan"), or None for Back."""

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
        Binding("f", "force", "Install anyway", id="force", show=False,
                tooltip="Install with a GraphCast source that is not the recipe's"),
        Binding("a", "toggle_alternative", "Alt src", id="alternative",
                tooltip="The recipe's alternative source (e.g. JAX's CUDA plugin from PyPI); needs a GPU check"),
    ]

    def __init__(self, recipe, options: dict) -> None:
        super().__init__()
        self.recipe = recipe
        self.settings = {"env": None, "installer": "uv", **options}
        self.settings["find_links"] = list(self.settings.get("find_links") or [])
        self.plan = None
        self.verdict = None
        """The GraphCast source's check (wizard.install.sources.SourceVerdict) for the shown plan."""
        self.wheelhouses: list = []
        self.download: str | None = None
        self._free: float | None = None

    def compose(self) -> ComposeResult:
        yield Static(f"gc-wizard · Step 3 of 5 · What will run · {self.recipe.id}", classes="title", markup=False)
        with VerticalScroll(id="plan-pane"):
            yield Static("", id="plan", markup=False)
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self.refresh_plan()

    def refresh_plan(self) -> None:
        from wizard.install.envs import free_gib
        from wizard.install.plan import plan_install
        from wizard.install.sources import check_graphcast_source, look_at_wheelhouse
        from wizard.recipes.loader import get_recipe

        settings = self.settings
        widget = self.query_one("#plan", Static)
        try:
            recipe = get_recipe(self.recipe.id, settings.get("recipes_dirs") or [])
            self.plan = plan_install(recipe, env=settings["env"], installer=settings["installer"],
                                     find_links=tuple(settings.get("find_links") or ()),
                                     offline=bool(settings.get("offline", False)),
                                     graphcast_src=settings.get("graphcast_src"),
                                     alternative=settings.get("alternative"))
            self.verdict = check_graphcast_source(recipe, self.plan.graphcast_src)
            self.wheelhouses = [look_at_wheelhouse(link, recipe) for link in settings["find_links"]
                                if "://" not in link]
        except Exception as exc:  # no fitting Python, a bad folder: say it, stay here
            self.plan = None
            widget.update(f"This plan cannot run:\n\n{exc}\n\nPress g for another GraphCast source, w for "
                          "another wheelhouse, o to switch offline, e for another folder, i to switch the "
                          "installer, or Escape to choose another recipe.")
            self.refresh_bindings()
            return
        try:
            self._free = free_gib(self.plan.env_dir)
        except OSError:
            self._free = None
        self.download = None
        self._render_plan()
        self.measure_download(self.plan)
        self.refresh_bindings()

    def _render_plan(self) -> None:
        if self.plan is None:
            return
        self.query_one("#plan", Static).update(plan_text(self.plan, self._free, verdict=self.verdict,
                                                         wheelhouses=self.wheelhouses, download=self.download,
                                                         slurm=self.settings.get("slurm")))

    @work(thread=True, exclusive=True, exit_on_error=False, group="plan-cost", description="Download size")
    def measure_download(self, plan) -> None:
        from wizard.install.cost import plan_download

        try:
            size = plan_download(plan, timeout=4.0)
            text, total = size.describe(), size.bytes
        except Exception as exc:  # the size is a help, never a reason to stop
            text, total = f"download size unknown ({exc})", None
        try:
            self.app.call_from_thread(self._download_measured, plan, text, total)
        except RuntimeError:  # the app closed meanwhile
            pass

    def _download_measured(self, plan, text: str, total: int | None) -> None:
        if plan is self.plan and self.is_mounted:
            self.download = text
            self.settings["download_bytes"] = total
            self._render_plan()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "install":
            return self.plan is not None and (self.verdict is None or self.verdict.ok)
        if action == "force":
            return self.plan is not None and self.verdict is not None and not self.verdict.ok
        if action == "toggle_alternative":
            return bool(getattr(self.recipe, "alternatives", ()))
        return True

    def action_toggle_alternative(self) -> None:
        alternatives = getattr(self.recipe, "alternatives", ())
        if not alternatives:
            return
        current = self.settings.get("alternative")
        ids = [None, *(a.id for a in alternatives)]
        self.settings["alternative"] = ids[(ids.index(current) + 1) % len(ids)] if current in ids else None
        self.refresh_plan()

    def action_install(self, force: bool = False) -> None:
        if self.plan is not None:
            self.dismiss({**self.settings, "plan": self.plan, "force": force or bool(self.settings.get("force")),
                          "env": str(self.plan.env_dir) if self.settings["env"] else None})

    def action_force(self) -> None:
        self.action_install(force=True)

    def action_toggle_offline(self) -> None:
        self.settings["offline"] = not self.settings.get("offline")
        self.refresh_plan()

    def action_graphcast_src(self) -> None:
        def chosen(path: str | None) -> None:
            if path is not None:
                self.settings["graphcast_src"] = path.strip() or None
                self.refresh_plan()
                if self.verdict is not None:
                    self.notify(("GraphCast source: " + self.verdict.identity.describe()) if self.verdict.ok
                                else self.verdict.problem, severity="information" if self.verdict.ok else "error",
                                timeout=8)

        self.app.push_screen(PromptScreen(
            "GraphCast source: a checkout folder (git clone … && git checkout v"
            f"{self.recipe.graphcast.version}), a wheel or sdist, or a pip URL. Empty: the recipe's own.",
            value=self.settings.get("graphcast_src") or "", hint="Enter checks it · Escape keeps the current one"),
            chosen)

    def action_wheelhouse(self) -> None:
        from wizard.install.sources import look_at_wheelhouse

        def chosen(path: str | None) -> None:
            if path is None:
                return
            path = path.strip()
            if not path:
                self.settings["find_links"] = []
                self.refresh_plan()
                return
            try:
                house = look_at_wheelhouse(path, self.recipe)
            except Exception as exc:  # a missing folder: said, nothing changes
                self.notify(str(exc), severity="error", timeout=8)
                return
            if house.folder not in self.settings["find_links"]:
                self.settings["find_links"].append(house.folder)
            self.notify(f"Wheelhouse {house.describe()}", timeout=8)
            self.refresh_plan()

        self.app.push_screen(PromptScreen(
            "Wheelhouse folder (from `pip download -d wheels …` on a machine with internet). "
            "Empty: no wheelhouse.", value=(self.settings["find_links"] or [""])[-1],
            hint="Enter checks it · Escape keeps the current ones"), chosen)

    def action_back(self) -> None:
        self.dismiss(None)

    def action_toggle_installer(self) -> None:
        self.settings["installer"] = "pip" if self.settings["installer"] == "uv" else "uv"
        self.refresh_plan()

    def action_edit_env(self) -> None:
        def chosen(path: str | None) -> None:
            if path is not None:
                self.settings["env"] = path.strip() or None
                self.refresh_plan()

        current = self.settings["env"] or ""
        self.app.push_screen(PromptScreen("Install into which folder? Empty: a new managed environment.",
                                          value=current), chosen)
