"""The app's side of two GraphCast versions: grouped recipes, the `v` key, the memory preflight, and the
Plan screen's alternative source — with the real app on stand-in GPU servers."""

from __future__ import annotations

from tests.fixtures.pilot import SIZE, read_when_shown, screen_rows, until
from wizard.tui.app import WizardApp
from wizard.tui.screens.machine import MachineScreen
from wizard.tui.screens.plan import PlanScreen
from wizard.tui.screens.recipe import RecipeScreen


def _text(app, selector: str) -> str:
    return str(app.screen.query_one(selector).render())


async def test_b200_recipe_screen_groups_by_graphcast_and_v_narrows(gpu_server, only_the_wizards_python):
    gpu_server("b200x2-580")
    app = WizardApp()
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, MachineScreen) and app.screen.facts is not None)
        memory = _text(app, "#memory")
        assert "What fits in memory" in memory and "GenCast 0.25°" in memory and "GPUs 0, 1" in memory
        assert "Recommended: jax0.10.2-cuda13" in _text(app, "#recommended")
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, RecipeScreen))
        screen = app.screen
        rows = [None if m is None else m.recipe.id for m in screen.rows]
        assert rows[0] is None and rows[4] is None  # the two group headings
        assert rows[1:4] == ["jax0.4.23-cpu", "jax0.4.23-cuda12-cudnn89", "jax0.4.23-cuda11-cudnn86"]
        assert screen.highlighted_match.recipe.id == "jax0.10.2-cuda13"
        shown = "\n".join(screen_rows(app))
        assert "GraphCast v0.1.1 — the demo notebook" in shown and "GraphCast v0.2 — with GenCast" in shown
        assert "fits, but not recommended on this GPU" in shown  # the CUDA 12 stack on Blackwell
        assert "no GraphCast v0.1.1 recipe fits this machine" in " ".join(_text(app, "#detail").split())

        await pilot.press("v")  # any -> v0.1.1: nothing of the demo notebook's stack runs on a B200
        await until(pilot, lambda: screen.graphcast_version == "0.1.1")
        assert screen.highlighted_match.recipe.id == "jax0.4.23-cpu"
        assert "NO GPU RECIPE FITS" in _text(app, "#detail")
        assert "GraphCast v0.1.1 only" in _text(app, "#graphcast-version")
        await pilot.press("v")  # -> v0.2
        await until(pilot, lambda: screen.graphcast_version == "0.2")
        assert screen.highlighted_match.recipe.id == "jax0.10.2-cuda13"
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, PlanScreen) and app.screen.plan is not None)
        await pilot.press("escape")  # back to the recipes: the chosen version is kept
        await until(pilot, lambda: isinstance(app.screen, RecipeScreen))
        assert app.screen.graphcast_version == "0.2" and app.screen.highlighted_match.recipe.id == "jax0.10.2-cuda13"


async def test_plan_screen_offers_the_pypi_plugin_for_the_old_cuda12_stack(gpu_server):
    gpu_server("h100-535")
    app = WizardApp()
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, MachineScreen) and app.screen.facts is not None)
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, RecipeScreen))
        assert app.screen.highlighted_match.recipe.id == "jax0.4.23-cuda12-cudnn89"
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, PlanScreen) and app.screen.plan is not None)
        plan = " ".join(_text(app, "#plan").split())
        assert "storage.googleapis.com" in plan and "--alternative pypi-plugin" in plan
        # the footer wraps onto two rows here; read once it has painted (under -n 4 it was read blank), and only
        # then: the footer is composed again when the screen's keys change, and a second read can catch it empty
        await read_when_shown(pilot, PlanScreen, "a Alt src", timeout=60)
        await pilot.press("a")
        await until(pilot, lambda: app.screen.options.alternative == "pypi-plugin" and app.screen.plan is not None
                     and "jax-cuda12-plugin==0.4.23" in app.screen.plan.recipe.requirements)
        assert "NEEDS A GPU CHECK" in _text(app, "#plan").splitlines()[0]
        await pilot.press("a")
        await until(pilot, lambda: app.screen.options.alternative is None and app.screen.plan is not None)
        assert "jaxlib==0.4.23+cuda12.cudnn89" in app.screen.plan.recipe.requirements


async def test_v_rematches_with_the_pythons_the_first_survey_found(gpu_server):
    """The `v` key gives the same Python verdicts as the first view and `gc-wizard recipes`: a Python 3.12+ found
    on the machine (pyenv here) is used for the JAX 0.12 and WeatherNext stacks, never "none was found"."""
    import pytest

    from tests.fixtures.pythons import has_python_for_jax012

    if not has_python_for_jax012():
        pytest.skip("needs a Python 3.12 or 3.13 on this machine (PATH, pyenv or uv)")
    gpu_server("no-nvidia")
    app = WizardApp()
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, MachineScreen) and app.screen.facts is not None)
        first = {m.recipe.id: m.warnings for m in app.screen.matches}
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, RecipeScreen))
        screen = app.screen
        for version in ("0.1.1", "0.2", "0.3"):
            await pilot.press("v")
            await until(pilot, lambda v=version: screen.graphcast_version == v)
        assert screen.highlighted_match.recipe.id == "weathernext0.3.0-cpu"
        again = {m.recipe.id: m.warnings for m in screen.matches}
        assert again["weathernext0.3.0-cpu"] == first["weathernext0.3.0-cpu"]
        assert not any("was found" in w for w in again["jax0.12.0.1-cpu"]), again["jax0.12.0.1-cpu"]


async def test_v_matches_again_off_the_screens_thread(gpu_server, monkeypatch):
    """Matching again may ask a host whether it answers (uv's Python download, walk 25 #2), for seconds where it does
    not: `v` runs it in a worker, so the list still moves while it runs, and its answer then replaces the list."""
    import threading

    release = threading.Event()
    real = WizardApp._rematch

    def slow_rematch(self, version):
        assert release.wait(30), "the test never released the matching"
        return real(self, version)

    monkeypatch.setattr(WizardApp, "_rematch", slow_rematch)
    gpu_server("no-nvidia")
    app = WizardApp()
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, MachineScreen) and app.screen.facts is not None)
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, RecipeScreen), settle=0.2)
        screen = app.screen
        from textual.widgets import OptionList

        options = screen.query_one(OptionList)
        before = options.highlighted
        await pilot.press("v")
        await pilot.press("down")  # answered while the matching waits
        await until(pilot, lambda: options.highlighted != before)
        assert screen.graphcast_version is None  # not switched until the new matches arrive
        release.set()
        await until(pilot, lambda: screen.graphcast_version == "0.1.1", timeout=30)
        assert screen.highlighted_match.recipe.graphcast.version == "0.1.1"
