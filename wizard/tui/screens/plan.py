"""Exactly what will run: target environment, every step and pin, disk needed — and where to change it.

The plan comes from the core (`make_plan`, the same call `gc-wizard plan` makes); this screen lays it
out for 80 columns: what matters for the decision (where, which installer, how much disk) first,
then every step, every pin, and the exact commands, which scroll.
"""

from __future__ import annotations

import shlex

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Static

from wizard.tui.screens.prompt import PromptScreen


def plan_text(plan, free_gib: float | None = None) -> str:
    recipe = plan.recipe
    where = "existing environment, changed in place" if plan.mode == "in-place" else "a new environment"
    free = f"; {free_gib:.0f} GiB free there" if free_gib is not None else ""
    lines = [
        f"{recipe.title}",
        f"Into {where} (e changes the folder):",
        f"  {plan.env_dir}",
        plan.python.describe(),
        f"Installer {plan.installer}{' (offline)' if plan.offline else ''} (i switches) · "
        f"disk: about {plan.disk_gib:g} GiB needed{free}",
        "",
        "Steps (nothing has run yet):",
    ]
    lines += [f"  {i}. {step.title}" for i, step in enumerate(plan.steps, 1)]
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
        Binding("e", "edit_env", "Env folder", id="env", tooltip="Install into another folder"),
        Binding("i", "toggle_installer", "uv/pip", id="installer", tooltip="Switch the installer (uv or pip)"),
        Binding("a", "toggle_alternative", "Alt. source", id="alternative",
                tooltip="The recipe's alternative source (e.g. JAX's CUDA plugin from PyPI); needs a GPU check"),
    ]

    def __init__(self, recipe, options: dict) -> None:
        super().__init__()
        self.recipe = recipe
        self.settings = {"env": None, "installer": "uv", **options}
        self.plan = None

    def compose(self) -> ComposeResult:
        yield Static(f"gc-wizard · Step 3 of 5 · What will run · {self.recipe.id}", classes="title", markup=False)
        with VerticalScroll(id="plan-pane"):
            yield Static("", id="plan", markup=False)
        yield Footer()

    def on_mount(self) -> None:
        self.refresh_plan()

    def refresh_plan(self) -> None:
        from wizard.install.envs import free_gib
        from wizard.install.plan import plan_install
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
        except Exception as exc:  # no fitting Python, a bad folder: say it, stay here
            self.plan = None
            widget.update(f"This plan cannot run:\n\n{exc}\n\nPress e to pick another folder, i to switch the "
                          "installer, or Escape to choose another recipe.")
            self.refresh_bindings()
            return
        try:
            free = free_gib(self.plan.env_dir)
        except OSError:
            free = None
        widget.update(plan_text(self.plan, free))
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "install":
            return self.plan is not None
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

    def action_install(self) -> None:
        if self.plan is not None:
            self.dismiss({**self.settings, "plan": self.plan,
                          "env": str(self.plan.env_dir) if self.settings["env"] else None})

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
