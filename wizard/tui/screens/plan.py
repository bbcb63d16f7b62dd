"""Exactly what will run: target environment, every step and pin, disk needed — and where to change it.

The plan comes from the core (`wizard.session.plan_for`, the same call `gc-wizard plan` makes), and the
plan shown here is the very object the install runs. This screen lays it out for 80 columns: what matters for the decision (where, which installer, how much disk) first,
then every step, every pin, and the exact commands, which scroll.
"""

from __future__ import annotations

import shlex
from dataclasses import replace
from typing import TYPE_CHECKING

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Static

from wizard.install.options import InstallOptions
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


if TYPE_CHECKING:
    from wizard.install.plan import Plan


class PlanScreen(Screen["tuple[Plan, InstallOptions] | None"]):
    """Dismisses with the shown plan and the options it was made from, or None for Back."""

    BINDINGS = [
        Binding("enter", "install", "Install", id="next", priority=True, tooltip="Run these steps"),
        Binding("escape", "back", "Back", id="back", tooltip="Choose another recipe"),
        Binding("e", "edit_env", "Env folder", id="env", tooltip="Install into another folder"),
        Binding("i", "toggle_installer", "uv/pip", id="installer", tooltip="Switch the installer (uv or pip)"),
    ]

    def __init__(self, recipe, options: InstallOptions) -> None:
        super().__init__()
        self.recipe = recipe
        self.options = replace(options, recipe_id=recipe.id)
        self.plan: Plan | None = None

    def compose(self) -> ComposeResult:
        yield Static(f"gc-wizard · Step 3 of 5 · What will run · {self.recipe.id}", classes="title", markup=False)
        with VerticalScroll(id="plan-pane"):
            yield Static("", id="plan", markup=False)
        yield Footer()

    def on_mount(self) -> None:
        self.refresh_plan()

    def refresh_plan(self) -> None:
        from wizard.install.envs import free_gib
        from wizard.session import plan_for

        widget = self.query_one("#plan", Static)
        try:
            self.plan = plan_for(self.options)
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
        return True

    def action_install(self) -> None:
        if self.plan is not None:
            self.dismiss((self.plan, self.options))

    def action_back(self) -> None:
        self.dismiss(None)

    def action_toggle_installer(self) -> None:
        self.options = replace(self.options, installer="pip" if self.options.installer == "uv" else "uv")
        self.refresh_plan()

    def action_edit_env(self) -> None:
        def chosen(path: str | None) -> None:
            if path is not None:
                self.options = replace(self.options, env=path.strip() or None)
                self.refresh_plan()

        current = self.options.env or ""
        self.app.push_screen(PromptScreen("Install into which folder? Empty: a new managed environment.",
                                          value=current), chosen)
