"""Saves an SVG of every wizard screen at 80×24, from the real app, on a stand-in GPU server.

Run: `python screenshots/make_screenshots.py`. Detection sees two A100s on driver 535 through the
stand-in NVML library (tests/standins); the install is a real one of tiny local wheels; the Verify
screen is fed the tiers of a real `gc-wizard verify --json` run captured on this project's CPU
machine (tests/data/verify-cpu-notebook.json).
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(REPO))

SIZE = (80, 24)


async def wait_for(pilot, condition, timeout: float = 60.0) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not condition():
        if loop.time() > deadline:
            raise RuntimeError(f"timed out on {type(pilot.app.screen).__name__}")
        await pilot.pause(0.05)


async def main() -> None:
    from tests.fixtures.tiny import RECIPE
    from tests.fixtures.wheels import build_wheel
    from tests.standins import standin_env

    work = Path(tempfile.mkdtemp(prefix="gcw-shots-"))
    os.environ.update(standin_env("a100x2-535", work))
    os.environ["GC_WIZARD_HOME"] = str(work / "home")
    os.environ["XDG_CONFIG_HOME"] = str(work / "config")
    house = work / "wheels"
    build_wheel(house, "pkg-a", "1.0")
    graphcast = build_wheel(house, "graphcast", "0.1.1")
    recipes = work / "recipes"
    recipes.mkdir()
    (recipes / "tiny-a.yaml").write_text(RECIPE.format(id="tiny-a", requirements="  - pkg-a==1.0"))

    from wizard.tui.app import WizardApp
    from wizard.tui.screens.confirm import ConfirmScreen
    from wizard.tui.screens.done import DoneScreen
    from wizard.tui.screens.history import HistoryScreen
    from wizard.tui.screens.install import STOP_QUESTION, InstallScreen
    from wizard.tui.screens.machine import MachineScreen
    from wizard.tui.screens.plan import PlanScreen
    from wizard.tui.screens.recipe import RecipeScreen
    from wizard.tui.screens.verify import VerifyScreen

    def save(app, name: str) -> None:
        app.save_screenshot(filename=f"{name}.svg", path=str(HERE))
        print(f"screenshots/{name}.svg")

    app = WizardApp([str(recipes)], find_links=[str(house)], offline=True, graphcast_src=str(graphcast),
                    verify=False)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, MachineScreen) and app.screen.facts is not None)
        save(app, "01-machine")
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, RecipeScreen))
        await pilot.pause(0.2)
        save(app, "02-recipe")
        recommended = app.screen.query_one("OptionList").highlighted
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, PlanScreen) and app.screen.plan is not None)
        save(app, "03-plan")
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, RecipeScreen))
        index = next(i for i, m in enumerate(app.screen.matches) if m.recipe.id == "tiny-a")
        app.screen.query_one("OptionList").highlighted = index
        del recommended
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, PlanScreen) and app.screen.plan is not None)
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, DoneScreen), timeout=120)
        install = app.install_screen
        app.pop_screen()
        await wait_for(pilot, lambda: app.screen is install)
        await pilot.pause(0.3)
        save(app, "04-install")
        app.push_screen(ConfirmScreen(STOP_QUESTION, yes="Stop", no="Keep going"))
        await pilot.pause(0.3)
        save(app, "05-stop-install")
        app.pop_screen()
        verify = json.loads((REPO / "tests" / "data" / "verify-cpu-notebook.json").read_text())
        screen = VerifyScreen()
        app.push_screen(screen)
        await pilot.pause(0.1)
        for tier in verify["tiers"]:
            screen.add_tier(tier)
        screen.show_result(verify)
        await pilot.pause(0.3)
        save(app, "06-verify")
        app.pop_screen()
        app.push_screen(DoneScreen(app.install_result))
        await pilot.pause(0.3)
        save(app, "07-done")
        app.push_screen(HistoryScreen())
        await pilot.pause(0.5)
        save(app, "08-history")
        assert isinstance(install, InstallScreen)


if __name__ == "__main__":
    asyncio.run(main())
