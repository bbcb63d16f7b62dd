"""Every action a screen offers has its key in the footer, at 80×24, at each step of a real flow.

A widget's own binding for the same key can shadow a screen's in the footer (the focused `Log`
binds End to a hidden "Scroll End"), so this reads the footer the user sees, not the BINDINGS lists.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from tests.fixtures.pilot import SIZE, screen_rows, until
from wizard.tui.app import WizardApp
from wizard.tui.screens.confirm import ConfirmScreen
from wizard.tui.screens.done import DoneScreen
from wizard.tui.screens.history import HistoryScreen
from wizard.tui.screens.install import InstallScreen
from wizard.tui.screens.machine import MachineScreen
from wizard.tui.screens.plan import PlanScreen
from wizard.tui.screens.recipe import RecipeScreen
from wizard.tui.screens.verify import VerifyScreen
from wizard.verify.check import VerifyResult

VERIFY_RESULT = Path(__file__).parents[1] / "data" / "verify-cpu-notebook.json"


def _offered(screen) -> list[str]:
    """The descriptions of the screen's shown bindings that its check_action allows now."""
    return [b.description for b in screen.BINDINGS
            if b.show and screen.check_action(b.action, ()) is not False] + ["Quit"]


def _footer_rows(app) -> str:
    """The footer's rows as drawn, joined: a `WrappingFooter` takes a second row when its keys need it (the Plan
    screen's, when a command row adds ctrl+y)."""
    from textual.widgets import Footer

    rows = screen_rows(app)
    footers = [one for one in app.screen.query(Footer) if one.region.height]
    if not footers:
        return rows[-1]
    region = footers[-1].region
    return " ".join(rows[region.y:region.y + region.height])


async def _footer(pilot, *, has: tuple[str, ...] = (), lacks: tuple[str, ...] = ()) -> str:
    """The footer row once it lists every offered action (and `has`, and none of `lacks`).

    Polled: the footer redraws a frame or two after the bindings change, later on a loaded machine.
    """
    app = pilot.app
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 10
    while True:
        footer = _footer_rows(app)
        missing = [d for d in (*_offered(app.screen), *has) if d not in footer]
        present = [d for d in lacks if d in footer]
        if not missing and not present:
            return footer
        assert loop.time() < deadline, (f"{type(app.screen).__name__}: {missing} missing from, {present} "
                                        f"wrongly in the footer {footer!r}")
        await pilot.pause(0.05)


async def test_each_screen_footer_shows_every_action_it_offers(gpu_server, tiny, slow_index):
    gpu_server("no-nvidia")
    tiny.write("tiny-slow", ["pkg-slow==1.0"])
    app = WizardApp([str(tiny.recipes)], find_links=[slow_index], offline=False,
                    graphcast_src=str(tiny.graphcast), verify=False)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, MachineScreen) and app.screen.facts is not None, settle=0.2)
        await _footer(pilot, has=("⏎ Next: recipes", "^q Quit"))
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, RecipeScreen), settle=0.2)
        await _footer(pilot)
        index = app.screen.index_of("tiny-slow")
        app.screen.query_one("OptionList").highlighted = index
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, PlanScreen) and app.screen.plan is not None, settle=0.2)
        await _footer(pilot)
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, InstallScreen)
                    and app.screen.step_list.state.get("install-requirements") == "running", settle=0.2)
        await _footer(pilot, has=("^c Stop install", "end Follow log"))
        await pilot.press("ctrl+c")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), settle=0.2)
        # The dialog has no footer: its keys are on its buttons.
        dialog = "\n".join(screen_rows(app))
        assert "Stop (y)" in dialog and "Keep going (n)" in dialog
        await pilot.press("y")
        await until(pilot, lambda: isinstance(app.screen, DoneScreen), timeout=60, settle=0.2)
        await _footer(pilot, lacks=("Jupyter kernel",))  # nothing was installed to register
        await pilot.press("h")
        await until(pilot, lambda: isinstance(app.screen, HistoryScreen), settle=0.2)
        await _footer(pilot)
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, DoneScreen), settle=0.2)
        await pilot.press("escape")  # back to the stopped install: now Enter goes on, ctrl+c is gone
        await until(pilot, lambda: isinstance(app.screen, InstallScreen), settle=0.2)
        await _footer(pilot, has=("⏎ Next",), lacks=("Stop install",))


async def test_verify_screen_footer_while_checking_and_after(gpu_server):
    """Fed the tiers of a real `verify --json` run: ctrl+c while it runs, then Enter and Escape."""
    gpu_server("no-nvidia")
    result = VerifyResult.from_dict(json.loads(VERIFY_RESULT.read_text()))
    app = WizardApp()
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, MachineScreen) and app.screen.facts is not None, settle=0.2)
        screen = VerifyScreen()
        app.push_screen(screen)
        await until(pilot, lambda: app.screen is screen, settle=0.2)
        screen.add_tier(result.tiers[0])
        await _footer(pilot, has=("^c Stop check",), lacks=("Next",))
        screen.show_result(result)
        await _footer(pilot, has=("⏎ Next", "esc Back: log"), lacks=("Stop check",))


async def _plan_footer(size: tuple[int, int], recipe_id: str) -> tuple[list[str], list[str]]:
    """(the screen's rows, the keys the Plan screen offers) once every offered key is in the footer rows."""
    app = WizardApp()
    async with app.run_test(size=size) as pilot:
        await until(pilot, lambda: isinstance(app.screen, MachineScreen) and app.screen.facts is not None, settle=0.2)
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, RecipeScreen) and bool(app.screen.query("OptionList")),
                    settle=0.2)
        app.screen.query_one("OptionList").highlighted = app.screen.index_of(recipe_id)
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, PlanScreen) and app.screen.plan is not None, settle=0.2)
        offered = _offered(app.screen)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 10
        while True:
            rows = screen_rows(app)[: size[1]]  # (it lays out 24 rows)
            missing = [d for d in offered if d not in " ".join(rows[-2:])]
            if not missing and any("Into a new environment" in row for row in rows):  # the body painted too
                return rows, offered
            assert loop.time() < deadline, (size, recipe_id, missing, rows[-2:])
            await pilot.pause(0.05)


async def test_the_plan_footer_keeps_every_key_at_60x20_and_with_the_alternative_at_80x24(gpu_server):
    """The Plan screen's keys wrap onto a second footer row rather than being cut ("^q Qu" at 60×20; the CUDA
    12 recipe's "a Alt src" pushed "^q Quit" off at 80×24), and the plan's first rows stay above them."""
    gpu_server("a100x2-535")
    for size, recipe_id in (((60, 20), "jax0.4.23-cpu"), ((80, 24), "jax0.4.23-cuda12-cudnn89"),
                            ((60, 20), "jax0.4.23-cuda12-cudnn89")):
        rows, offered = await _plan_footer(size, recipe_id)
        assert ("Alt src" in offered) == (recipe_id != "jax0.4.23-cpu")
        footer = " ".join(rows[-2:])
        assert "^q Quit" in footer and "⏎ Install" in footer
        assert all(len(row) <= size[0] for row in rows)
        assert any(recipe_id in row for row in rows[:1]), rows[:2]  # the id first: a cut title keeps it (walk 20 #3)
        assert size[0] < 80 or "The plan: what will run" in rows[0]  # at 60 columns a long id leaves no room for it
        assert any("Into a new environment" in r for r in rows)
