"""On a node without a GPU where Slurm answers, the Machine screen offers a GPU node (key g) first, and keeps the
offer however it is reached again. Walk 28 #2: back (Escape) from the recipes, the offer and g were gone until r;
#3: "Recommended: jax0.4.23-cpu" and "Press Enter" read as the first step while the GPU node was one key away."""

from __future__ import annotations

import pytest

from tests.fixtures.pilot import screen_text, until
from wizard.tui.app import WizardApp
from wizard.tui.screens.machine import MachineScreen
from wizard.tui.screens.recipe import RecipeScreen


@pytest.fixture
def login_node(gpu_server, isolated_state, monkeypatch):
    """This node has no GPU; Slurm answers with partitions gpu and cpu (no srun is run: g is not pressed)."""
    gpu_server("no-nvidia")
    monkeypatch.setattr("wizard.flows.machine.slurm_offer", lambda facts: ["gpu", "cpu"] if facts.driver is None else None)


def _offer_shown(app) -> bool:
    text = " ".join(screen_text(app).split())
    return (isinstance(app.screen, MachineScreen) and app.screen.facts is not None
            and "Slurm is here (partitions: gpu, cpu). Press g" in text and "GPU node (Slurm)" in text)


async def test_the_gpu_node_comes_first_and_the_cpu_recipe_is_the_choice_without_one(login_node):
    app = WizardApp()
    async with app.run_test(size=(80, 50)) as pilot:
        await until(pilot, lambda: _offer_shown(app), settle=0.2)
        text = " ".join(screen_text(app).split())
        assert "Press g to detect on a GPU node through srun: the first step for GraphCast on a GPU" in text
        assert "Recommended:" not in text and "Press Enter to choose a recipe" not in text
        # The CPU recipe stays available, said as what it is: the choice for this node without a GPU node.
        assert "Without a GPU node, for this node itself: jax0.4.23-cpu" in text
        assert text.index("Press g") < text.index("Without a GPU node") < text.index("Enter chooses a recipe")


async def test_back_from_the_recipes_the_offer_and_g_are_still_there(login_node):
    app = WizardApp()
    async with app.run_test(size=(80, 50)) as pilot:
        await until(pilot, lambda: _offer_shown(app), settle=0.2)
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, RecipeScreen), settle=0.2)
        await pilot.press("escape")
        await until(pilot, lambda: _offer_shown(app), settle=0.2)
        assert app.screen.check_action("gpu_node", ()) is True
