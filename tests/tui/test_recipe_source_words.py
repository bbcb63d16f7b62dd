"""The recipe screen says where GraphCast itself comes from (walk 23 #3): "fits this machine"
said nothing of GitHub, and the v0.2 plan then asked for a v0.2 checkout on a server without it."""

from __future__ import annotations

from tests.fixtures.pilot import SIZE, until
from wizard.tui.app import WizardApp
from wizard.tui.screens.machine import MachineScreen
from wizard.tui.screens.recipe import RecipeScreen


async def test_the_recipe_detail_says_graphcast_itself_comes_from_github(gpu_server, isolated_state):
    gpu_server("no-nvidia")
    app = WizardApp()
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, MachineScreen) and app.screen.facts is not None)
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, RecipeScreen), settle=0.3)  # drawn and focused first
        screen = app.screen
        await pilot.press("v")  # any -> v0.1.1
        await until(pilot, lambda: screen.graphcast_version == "0.1.1", timeout=30)
        await pilot.press("v")  # -> GraphCast v0.2 only: its recommended recipe is highlighted
        await until(pilot, lambda: screen.graphcast_version == "0.2" and screen.highlighted_match is not None
                    and screen.highlighted_match.recipe.graphcast.version == "0.2", timeout=30, settle=0.2)
        detail = " ".join(str(screen.query_one("#detail").render()).split())
        assert ("GraphCast 0.2 itself is fetched from github.com, not from PyPI: where github.com does not answer, "
                "the plan asks for a local v0.2 checkout (--graphcast-src DIR).") in detail, detail
