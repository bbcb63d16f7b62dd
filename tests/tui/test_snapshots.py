"""SVG snapshots of screens whose content is deterministic (no paths, no free-disk figures)."""

from __future__ import annotations

import asyncio

from wizard.tui.app import WizardApp
from wizard.tui.screens.machine import MachineScreen
from wizard.tui.screens.recipe import RecipeScreen

SIZE = (80, 24)


async def _to_recipes(pilot) -> None:
    app = pilot.app
    deadline = asyncio.get_running_loop().time() + 30
    while not (isinstance(app.screen, MachineScreen) and app.screen.facts is not None):
        assert asyncio.get_running_loop().time() < deadline
        await pilot.pause(0.05)
    await pilot.press("enter")
    while not isinstance(app.screen, RecipeScreen):
        await pilot.pause(0.05)
    await pilot.pause(0.3)


def test_recipe_screen_on_a_two_a100_server(snap_compare, gpu_server):
    gpu_server("a100x2-535")
    assert snap_compare(WizardApp(), terminal_size=SIZE, run_before=_to_recipes)


def test_recipe_screen_on_a_machine_with_the_driver_not_loaded(snap_compare, gpu_server):
    gpu_server("driver-not-loaded")

    async def to_cpu_recipe(pilot) -> None:
        await _to_recipes(pilot)  # the CPU recipe is recommended, and says loudly why

    assert snap_compare(WizardApp(), terminal_size=SIZE, run_before=to_cpu_recipe)
