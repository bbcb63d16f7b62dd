"""Saves an SVG of every wizard screen at 80×24 (and the Plan screen at 60×20), from the real app, on a
stand-in GPU server.

Run: `.venv/bin/python screenshots/make_screenshots.py` (about a minute; needs PyPI only to learn
that the slow test package is not there). Detection sees two A100s on driver 535 through the stand-in
NVML library (tests/standins), and a server whose driver is not loaded for the problems-first view.
The installs are real ones of tiny local wheels: one dribbled out by a slow local index (so the
install screen is caught mid-step, then stopped with Ctrl-C), and one through pip from a local index
that asks for a password (the dialog). The Verify screen is fed the tiers of a real
`gc-wizard verify --json` run captured on a lent H100 (tests/data/real/h100/verify.json: GraphCast and
GenCast on the GPU), since no GPU JAX runs here.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(REPO))

SIZE = (80, 24)


async def wait_for(pilot, condition, timeout: float = 120.0) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not condition():
        if loop.time() > deadline:
            raise RuntimeError(f"timed out on {type(pilot.app.screen).__name__}")
        await pilot.pause(0.05)


def save(app, name: str) -> None:
    app.save_screenshot(filename=f"{name}.svg", path=str(HERE))
    print(f"screenshots/{name}.svg")


async def main() -> None:
    from tests.fixtures.index import PASSWORD, USER, SlowHouse, serve_with_password
    from tests.fixtures.tiny import RECIPE
    from tests.fixtures.wheels import build_wheel
    from tests.standins import standin_env

    work = Path(tempfile.mkdtemp(prefix="gcw-shots-"))
    os.environ.update(standin_env("a100x2-535", work))
    os.environ["GC_WIZARD_HOME"] = str(work / "home")
    os.environ["XDG_CONFIG_HOME"] = str(work / "config")
    house, slow_house = work / "wheels", work / "slow-wheels"
    build_wheel(house, "pkg-a", "1.0")
    build_wheel(house, "pkg-b", "2.0")
    graphcast = build_wheel(house, "graphcast", "0.1.1")
    slow = SlowHouse(slow_house, chunk=16)  # the tests' slow index: a download still running
    slow.add("pkg-slow", "1.0")
    slow_url, (_, auth_url) = slow.url, serve_with_password(house)
    recipes = work / "recipes"
    recipes.mkdir()
    for recipe_id, requirement in (("tiny-a", "pkg-a==1.0"), ("tiny-b", "pkg-b==2.0"), ("tiny-slow", "pkg-slow==1.0")):
        (recipes / f"{recipe_id}.yaml").write_text(RECIPE.format(id=recipe_id, requirements=f"  - {requirement}"))
    subprocess.run([sys.executable, "-m", "wizard", "install", "tiny-b", "--yes", "--recipes-dir", str(recipes),
                    "--find-links", str(house), "--offline", "--graphcast-src", str(graphcast), "--no-verify"],
                   check=True, capture_output=True, cwd=REPO)

    from wizard.tui.app import WizardApp
    from wizard.tui.screens.confirm import ConfirmScreen
    from wizard.tui.screens.done import DoneScreen
    from wizard.tui.screens.history import HistoryScreen
    from wizard.tui.screens.install import InstallScreen
    from wizard.tui.screens.machine import MachineScreen
    from wizard.tui.screens.plan import PlanScreen
    from wizard.tui.screens.prompt import PromptScreen
    from wizard.tui.screens.recipe import RecipeScreen
    from wizard.tui.screens.verify import VerifyScreen
    from wizard.verify.check import VerifyResult

    async def choose(pilot, app, recipe_id: str) -> None:
        await wait_for(pilot, lambda: isinstance(app.screen, RecipeScreen))
        index = app.screen.index_of(recipe_id)  # the list has a heading per GraphCast version
        app.screen.query_one("OptionList").highlighted = index
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, PlanScreen) and app.screen.plan is not None)

    # 1. Machine, the shipped recipes, the recommended plan: what a user on this server sees.
    app = WizardApp()
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, MachineScreen) and app.screen.facts is not None)
        await pilot.pause(0.3)
        save(app, "01-machine")
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, RecipeScreen))
        await pilot.pause(0.2)
        save(app, "02-recipe")
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, PlanScreen) and app.screen.plan is not None)
        await pilot.pause(0.2)
        save(app, "03-plan")

    # 2. A slow install caught mid-step, then stopped with Ctrl-C.
    app = WizardApp([str(recipes)], find_links=[str(house), slow_url], graphcast_src=str(graphcast), verify=False)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, MachineScreen) and app.screen.facts is not None)
        await pilot.press("enter")
        await choose(pilot, app, "tiny-slow")
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, InstallScreen)
                       and app.screen.step_list.state.get("install-requirements") == "running")
        await pilot.pause(3.2)
        save(app, "04-install")
        await pilot.press("ctrl+c")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.pause(0.2)
        save(app, "05-stop-install")
        await pilot.press("y")
        await wait_for(pilot, lambda: isinstance(app.screen, DoneScreen))

    # 3. The check (captured tiers), a pip install whose index asks for a password, Done, History, rollback.
    app = WizardApp([str(recipes)], find_links=[auth_url], offline=True, graphcast_src=str(graphcast),
                    verify=False)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, MachineScreen) and app.screen.facts is not None)
        verify = VerifyResult.from_dict(json.loads((REPO / "tests" / "data" / "real" / "h100" / "verify.json").read_text()))
        screen = VerifyScreen()
        app.push_screen(screen)
        await pilot.pause(0.1)
        for tier in verify.tiers[:3]:
            screen.add_tier(tier)
        await pilot.pause(0.2)
        save(app, "06a-verify-running")
        screen.show_result(verify)
        await pilot.pause(0.2)
        save(app, "06-verify")
        app.pop_screen()
        await pilot.press("enter")
        await choose(pilot, app, "tiny-a")
        await pilot.press("i")
        await wait_for(pilot, lambda: app.screen.plan is not None and app.screen.plan.installer == "pip")
        await pilot.press("enter")
        while not isinstance(app.screen, DoneScreen):
            await wait_for(pilot, lambda: isinstance(app.screen, (PromptScreen, DoneScreen)))
            if isinstance(app.screen, PromptScreen):
                dialog = app.screen
                secret = "Password" in dialog.question
                if not secret:
                    await pilot.pause(0.2)
                    save(app, "09-installer-question")
                await pilot.press(*(PASSWORD if secret else USER), "enter")
                await wait_for(pilot, lambda d=dialog: app.screen is not d)
        await pilot.pause(0.3)
        save(app, "07-done")
        await pilot.press("h")
        await wait_for(pilot, lambda: isinstance(app.screen, HistoryScreen))
        history = app.screen
        await pilot.pause(0.3)
        save(app, "08-history")
        row = next(i for i, e in enumerate(history.entries) if e.recipe == "tiny-b")
        history.query_one("DataTable").move_cursor(row=row)
        await pilot.press("r")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.pause(0.2)
        save(app, "10-rollback")

    # 4. A server without GitHub: GraphCast source and wheelhouse chosen on the Plan screen (g, w), a
    #    wrong checkout refused there, the check stopped, and an unreachable host's fix on Done.
    checkout = work / "graphcast-v0.1.1"
    checkout.mkdir()
    (checkout / "setup.py").write_text('from setuptools import setup\nsetup(name="graphcast", version="0.1.1")\n')
    weathernext = work / "graphcast-main"
    weathernext.mkdir()
    (weathernext / "setup.py").write_text('from setuptools import setup\nsetup(name="weathernext", version="0.3.1.dev")\n')
    app = WizardApp()
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, MachineScreen) and app.screen.facts is not None)
        await pilot.press("enter")
        await choose(pilot, app, "jax0.4.23-cpu")
        plan_screen = app.screen
        await pilot.press("g")
        await wait_for(pilot, lambda: isinstance(app.screen, PromptScreen))
        app.screen.query_one("Input").value = str(checkout)
        await pilot.pause(0.2)
        save(app, "12-plan-graphcast-source")
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.screen is plan_screen)
        await pilot.press("w")
        await wait_for(pilot, lambda: isinstance(app.screen, PromptScreen))
        app.screen.query_one("Input").value = str(house)
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.screen is plan_screen and plan_screen.wheelhouses)
        await wait_for(pilot, lambda: plan_screen.download is not None, timeout=30)
        await pilot.pause(3.0)  # the toasts fade
        save(app, "13-plan-sources")
        await pilot.press("g")
        await wait_for(pilot, lambda: isinstance(app.screen, PromptScreen))
        app.screen.query_one("Input").value = str(weathernext)
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.screen is plan_screen and plan_screen.verdict is not None
                       and not plan_screen.verdict.ok)
        await pilot.pause(0.3)
        save(app, "14-plan-refused")

    from wizard.tui.screens.install import STOP_CHECK_QUESTION, stop_question
    from wizard.verify.check import VerifyResult
    from wizard.verify.protocol import Tier

    app = WizardApp()
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, MachineScreen) and app.screen.facts is not None)
        verify = json.loads((REPO / "tests" / "data" / "verify-cpu-notebook.json").read_text())
        screen = VerifyScreen()
        app.push_screen(screen)
        await pilot.pause(0.1)
        for tier in verify["tiers"][:3]:
            screen.add_tier(Tier.from_probe(tier))
        app.push_screen(ConfirmScreen(STOP_CHECK_QUESTION, yes="Stop", no="Keep going"))
        await pilot.pause(0.3)
        save(app, "15-stop-check")
        app.pop_screen()
        # ctrl+q (or q) while the check runs asks as well, before leaving.
        app.push_screen(ConfirmScreen(stop_question(True, leaving=True), yes="Stop and quit", no="Keep going"))
        await pilot.pause(0.3)
        save(app, "18-quit-during-check")
        app.pop_screen()
        cancelled = {**verify, "ok": False, "cancelled": True, "findings": [],
                     "tiers": verify["tiers"][:3] + [{"name": "graphcast_jit_init", "ok": False, "status": "cancelled",
                                                      "seconds": None, "error": {"type": "Cancelled"}}]}
        env = str(work / "home" / "envs" / "jax0.4.23-cpu-20261122-211500")
        screen.show_result(VerifyResult.from_dict(cancelled),
                           stopped=app._stopped_text({"cancelled": True, "verify": cancelled, "env": env, "mode": "new",
                                                      "kept": False}))
        await pilot.pause(0.3)
        save(app, "16-check-stopped")

    app = WizardApp([str(recipes)], find_links=[str(house)], verify=False,
                    graphcast_src="graphcast @ git+https://github.invalid/google-deepmind/graphcast@v0.1.1")
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, MachineScreen) and app.screen.facts is not None)
        await pilot.press("enter")
        await choose(pilot, app, "tiny-a")
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, DoneScreen), timeout=180)
        await pilot.pause(0.3)
        save(app, "17-done-unreachable-host")

    # The CUDA 12 recipe's plan in a 60×20 window: the keys wrap onto a second footer row, none cut off.
    app = WizardApp()
    async with app.run_test(size=(60, 20)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, MachineScreen) and app.screen.facts is not None)
        await pilot.press("enter")
        await choose(pilot, app, "jax0.4.23-cuda12-cudnn89")
        await wait_for(pilot, lambda: app.screen.download is not None, timeout=30)
        await pilot.pause(0.5)
        save(app, "19-plan-60x20")

    # 5. A server whose NVIDIA driver is installed but not loaded: problems first.
    os.environ.update(standin_env("driver-not-loaded", work / "not-loaded"))
    app = WizardApp()
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, MachineScreen) and app.screen.facts is not None)
        await pilot.pause(0.3)
        save(app, "11-machine-problems")


if __name__ == "__main__":
    asyncio.run(main())
