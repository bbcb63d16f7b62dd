"""Exactly what will run: target environment, every step and pin, disk needed — and where to change it."""

from __future__ import annotations

from types import SimpleNamespace

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Header, Static

from wizard.tui.screens.prompt import PromptScreen


class PlanScreen(Screen):
    """Dismisses with the settings to install with (a dict), or None for Back."""

    BINDINGS = [
        Binding("enter", "install", "Install", id="next", tooltip="Run these steps", priority=True),
        Binding("escape", "back", "Back", id="back"),
        Binding("e", "edit_env", "Env path", id="env", tooltip="Install into another folder"),
        Binding("i", "toggle_installer", "uv/pip", id="installer", tooltip="Switch the installer"),
    ]

    def __init__(self, recipe, options: dict) -> None:
        super().__init__()
        self.recipe = recipe
        self.settings = {"env": None, "installer": "uv", **options}
        self.plan = None

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static("Step 3 of 5 · What will run", classes="title")
        with VerticalScroll(id="plan-pane"):
            yield Static("", id="plan", markup=False)
        yield Footer()

    def on_screen_resume(self) -> None:
        self.app.sub_title = "plan"

    def on_mount(self) -> None:
        self.refresh_plan()

    def refresh_plan(self) -> None:
        from wizard.commands.recipes import make_plan, render_plan

        args = SimpleNamespace(recipe=self.recipe.id, recipes_dir=self.settings.get("recipes_dirs") or [],
                               env=self.settings["env"], installer=self.settings["installer"],
                               find_links=self.settings.get("find_links") or [],
                               offline=self.settings.get("offline", False),
                               graphcast_src=self.settings.get("graphcast_src"))
        widget = self.query_one("#plan", Static)
        try:
            self.plan = make_plan(args)
        except Exception as exc:  # no fitting Python, bad env path: say it, stay here
            self.plan = None
            widget.update(f"This plan cannot run:\n\n{exc}\n\nPress e to pick another folder, Escape to go back.")
            return
        widget.update(render_plan(self.plan) + "\n\nEnter installs · e changes the folder · i switches uv/pip")

    def action_install(self) -> None:
        if self.plan is not None:
            self.dismiss({**self.settings, "env": str(self.plan.env_dir) if self.settings["env"] else None})

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

        current = str(self.plan.env_dir) if self.plan is not None else ""
        self.app.push_screen(PromptScreen("Install into which folder? (empty = a new managed environment)",
                                          value=current), chosen)
