"""The Plan screen works the plan out in a worker: while an interpreter on PATH never answers (a Python on a
hung NFS mount), the screen still takes keys, Enter installs nothing, and Escape leaves."""

from __future__ import annotations

import os
import sys

from tests.fixtures.pilot import SIZE, until
from wizard.install.options import InstallOptions
from wizard.recipes.loader import get_recipe
from wizard.tui.app import WizardApp
from wizard.tui.screens.machine import MachineScreen
from wizard.tui.screens.plan import PlanScreen


def _text(app) -> str:
    found = app.screen.query("#plan")
    return str(found.first().render()) if found else ""


async def test_keys_and_escape_work_while_an_interpreter_hangs(tiny, tmp_path, monkeypatch, only_the_wizards_python):
    fake = tmp_path / "hung-nfs-bin"
    fake.mkdir()
    hung = fake / "python3.12"
    hung.write_text(f"#!{sys.executable}\nimport time\ntime.sleep(300)\n")
    hung.chmod(0o755)
    monkeypatch.setenv("PATH", f"{fake}{os.pathsep}{os.environ['PATH']}")
    # A recipe only a Python 3.12 fits, so planning asks every interpreter on PATH, the hung one too.
    (tiny.recipes / "tiny-new.yaml").write_text(
        (tiny.recipes / "tiny-a.yaml").read_text().replace("id: tiny-a", "id: tiny-new")
        .replace('">=3.10,<3.13"', '">=3.12,<3.13"'))
    dirs = (str(tiny.recipes),)
    recipe = get_recipe("tiny-new", list(dirs))
    app = WizardApp(list(dirs))
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, MachineScreen) and app.screen.facts is not None)
        app.push_screen(PlanScreen(recipe, InstallOptions(recipe_id="tiny-new", recipes_dirs=dirs)))
        await until(pilot, lambda: isinstance(app.screen, PlanScreen) and "Working out the plan" in _text(app))
        screen = app.screen
        await pilot.press("i")  # handled at once, while the probe still hangs
        await until(pilot, lambda: screen.options.installer == "pip", timeout=3)
        await pilot.press("enter")  # no plan yet: nothing is approved
        await pilot.pause(0.2)
        assert screen.plan is None and app.screen is screen
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is not screen, timeout=3)


async def test_enter_pressed_while_planning_installs_once_the_plan_is_there(tiny, tmp_path, monkeypatch,
                                                                           only_the_wizards_python):
    """Enter on a plan still being worked out (an interpreter that takes two seconds to answer) is kept and
    carried out when the plan arrives, as it was when planning blocked the screen."""
    fake = tmp_path / "slow-bin"
    fake.mkdir()
    slow = fake / "python3.12"
    slow.write_text(f"#!{sys.executable}\nimport os, sys, time\ntime.sleep(2)\n"
                    f"os.execv({sys.executable!r}, [{sys.executable!r}, *sys.argv[1:]])\n")
    slow.chmod(0o755)
    monkeypatch.setenv("PATH", f"{fake}{os.pathsep}{os.environ['PATH']}")
    dirs = (str(tiny.recipes),)
    recipe = get_recipe("tiny-a", list(dirs))
    app = WizardApp(list(dirs))
    approved = []
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, MachineScreen) and app.screen.facts is not None)
        options = InstallOptions(recipe_id="tiny-a", recipes_dirs=dirs, python=str(slow),
                                 graphcast_src=str(tiny.graphcast))
        app.push_screen(PlanScreen(recipe, options), approved.append)
        await until(pilot, lambda: isinstance(app.screen, PlanScreen) and "Working out the plan" in _text(app))
        await pilot.press("enter")
        await until(pilot, lambda: approved, timeout=30)
        (plan,) = approved
        assert plan is not None and plan.plan.recipe.id == "tiny-a" and plan.plan.python.executable == str(slow)


async def test_enter_asks_first_when_the_graphcast_host_cannot_be_reached(tiny):
    """The recipe's GraphCast on github.invalid (a host no resolver knows): the plan marks the source ✗ and
    says why; Enter asks before an install that would download everything and then fail; n stays."""
    (tiny.recipes / "tiny-a.yaml").write_text((tiny.recipes / "tiny-a.yaml").read_text()
                                             .replace("github.com", "github.invalid"))
    from wizard.tui.screens.confirm import ConfirmScreen

    dirs = (str(tiny.recipes),)
    app = WizardApp(list(dirs))
    approved = []
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, MachineScreen) and app.screen.facts is not None)
        app.push_screen(PlanScreen(get_recipe("tiny-a", list(dirs)), InstallOptions(recipe_id="tiny-a",
                                                                                     recipes_dirs=dirs)), approved.append)
        await until(pilot, lambda: isinstance(app.screen, PlanScreen) and app.screen.plan is not None)
        text = " ".join(_text(app).split())
        assert "GraphCast ✗ graphcast" in text and "github.invalid cannot be reached from here" in text
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("n")
        await until(pilot, lambda: isinstance(app.screen, PlanScreen))
        assert approved == []
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("y")
        await until(pilot, lambda: approved)
        assert approved[0].plan.unreachable_source.startswith("github.invalid cannot be reached")



async def test_enter_asks_first_when_the_recipes_wheel_page_cannot_be_reached(tiny):
    """Walk 24 #1: the recipe's find-links page on wheels.invalid is marked ✗ on the Plan screen as GitHub is, with
    the alternative's key; Enter asks "Install anyway?" first; a (Alt src) plans without the page and asks nothing."""
    from tests.cli.test_unreachable_links import with_page
    from wizard.tui.screens.confirm import ConfirmScreen

    with_page(tiny)
    dirs = (str(tiny.recipes),)
    app = WizardApp(list(dirs))
    approved = []
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, MachineScreen) and app.screen.facts is not None)
        options = InstallOptions(recipe_id="tiny-a", recipes_dirs=dirs, graphcast_src=str(tiny.graphcast))
        app.push_screen(PlanScreen(get_recipe("tiny-a", list(dirs)), options), approved.append)
        await until(pilot, lambda: isinstance(app.screen, PlanScreen) and app.screen.plan is not None)
        text = " ".join(_text(app).split())
        assert "find-links ✗" in text and "wheels.invalid cannot be reached from here" in text
        assert "--alternative from-index (a on the Plan screen;" in text
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("n")
        await until(pilot, lambda: isinstance(app.screen, PlanScreen))
        await pilot.press("a")
        await until(pilot, lambda: app.screen.plan is not None and app.screen.options.alternative == "from-index"
                    and "wheels.invalid cannot be reached" not in _text(app))  # the closed index is marked too
        await pilot.press("enter")
        await until(pilot, lambda: approved)
        assert approved[0].plan.unreachable_links == () and approved[0].options.alternative == "from-index"
