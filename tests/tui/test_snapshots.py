"""How screens look at 80×24: SVG snapshots where the content is deterministic, text layout otherwise.

The recipe screen depends only on the recipes, the stand-in facts and the Pythons found (hidden but the
wizard's own, `only_the_wizards_python`), so it is snapshotted. The
machine screen is not: it shows this host's Python path, free disk and any CUDA libraries in its
ldconfig cache, which differ between machines and checkouts. Its layout is checked on the exported
screen's text instead (row by row, as the terminal would show it).
"""

from __future__ import annotations

import asyncio

from tests.fixtures.pilot import SIZE, read_when_shown, screen_rows
from wizard.tui.app import WizardApp
from wizard.tui.screens.machine import MachineScreen
from wizard.tui.screens.recipe import RecipeScreen


async def _facts(pilot) -> None:
    app = pilot.app
    deadline = asyncio.get_running_loop().time() + 30
    while not (isinstance(app.screen, MachineScreen) and app.screen.facts is not None):
        assert asyncio.get_running_loop().time() < deadline, "detection never finished"
        await pilot.pause(0.05)
    # ...and painted, footer included (a fixed pause read the footer blank under load: tests/tui at -n 4)
    await read_when_shown(pilot, MachineScreen, ["Press Enter to choose a recipe", "Quit"], timeout=60, settle=0.3)


async def _to_recipes(pilot) -> None:
    await _facts(pilot)
    await pilot.press("enter")
    while not isinstance(pilot.app.screen, RecipeScreen):
        await pilot.pause(0.05)
    await pilot.pause(0.3)


def test_recipe_screen_on_a_two_a100_server(snap_compare, gpu_server, only_the_wizards_python):
    gpu_server("a100x2-535")
    assert snap_compare(WizardApp(), terminal_size=SIZE, run_before=_to_recipes)


def test_recipe_screen_on_a_machine_with_the_driver_not_loaded(snap_compare, gpu_server, only_the_wizards_python):
    gpu_server("driver-not-loaded")

    async def to_cpu_recipe(pilot) -> None:
        await _to_recipes(pilot)  # the CPU recipe is recommended, and says loudly why

    assert snap_compare(WizardApp(), terminal_size=SIZE, run_before=to_cpu_recipe)





def _index(rows: list[str], needle: str) -> int:
    return next(i for i, row in enumerate(rows) if needle in row)


async def test_machine_screen_on_a_two_a100_server_fits_80_columns(gpu_server):
    gpu_server("a100x2-535")
    app = WizardApp()
    async with app.run_test(size=SIZE) as pilot:
        await _facts(pilot)
        rows = screen_rows(app)
    assert rows[0] == " gc-wizard · Step 1 of 5 · This machine"
    driver = _index(rows, "535.104.05")
    assert rows[driver].split()[0] == "Driver" and "CUDA up to 12.2" in rows[driver]
    gpus = [row for row in rows if "NVIDIA A100-SXM4-80GB, 80 GiB, compute capability 8.0" in row]
    assert [row.split()[:2] for row in gpus] == [["GPU", "0"], ["GPU", "1"]]
    assert _index(rows, "Recommended: jax0.4.23-cuda12-cudnn89 — the newest GPU stack") > driver
    assert "! " not in "".join(rows[1:driver])  # no problems box on a healthy server
    footer = rows[-1]
    for key in ("⏎ Next: recipes", "h History", "r Detect again", "s Report", "^q Quit"):
        assert key in footer
    assert all(len(row) <= 80 for row in rows)


async def test_machine_screen_shows_problems_first_when_the_driver_is_not_loaded(gpu_server):
    gpu_server("driver-not-loaded")
    app = WizardApp()
    async with app.run_test(size=SIZE) as pilot:
        await _facts(pilot)
        rows = screen_rows(app)
    problem = _index(rows, "! [driver_not_loaded] The NVIDIA driver's libraries")
    driver = _index(rows, "none usable")
    assert problem < driver  # problems first, in their own box, above the facts
    box = " ".join(row.strip(" │▁▂▃▄▅▆▇█") for row in rows[problem:driver])  # its words, whatever rows they wrap to
    assert rows[problem - 1].lstrip().startswith("╭") and "modprobe nvidia" in " ".join(box.split())
    assert _index(rows, "Recommended: jax0.4.23-cpu, but CPU only") > driver


async def test_at_60_by_20_the_footer_and_the_recommendation_stay_visible(gpu_server):
    gpu_server("driver-not-loaded")  # the problems box makes the facts longer than the screen
    app = WizardApp()
    async with app.run_test(size=(60, 20)) as pilot:
        await _facts(pilot)
        rows = screen_rows(app)
    assert any(row.startswith(" Recommended: jax0.4.23-cpu") for row in rows), "\n".join(rows)
    assert "Press Enter to choose a recipe" in "\n".join(rows)
    # What fits in memory: one row per model, none wrapped, above the recommendation.
    models = [row for row in rows if row.startswith(("  GraphCast ", "  GenCast "))]
    assert len(models) == 4 and all(row.split()[-1].count("/") == 1 for row in models), "\n".join(rows)
    footer = " ".join([row for row in rows if row.strip()][-2:])  # two rows at 60 columns since d (walk 26 #12)
    for key in ("⏎ Next: recipes", "h History", "d Diagnose a log", "^q Quit"):
        assert key in footer, footer


def test_the_check_stopped_shows_the_cancelled_tier(snap_compare, gpu_server):
    """Ctrl-C → y during the GraphCast check: the tiers so far, the stopped one marked cancelled."""
    import json
    from pathlib import Path

    from wizard.tui.screens.verify import VerifyScreen
    from wizard.verify.check import VerifyResult
    from wizard.verify.protocol import Tier

    gpu_server("no-nvidia")
    verify = json.loads((Path(__file__).parents[1] / "data" / "verify-cpu-notebook.json").read_text())

    async def stopped(pilot) -> None:
        await _facts(pilot)
        screen = VerifyScreen()
        pilot.app.push_screen(screen)
        await pilot.pause(0.1)
        for tier in verify["tiers"][:3]:
            screen.add_tier(Tier.from_probe(tier))
        screen.show_result(VerifyResult.from_dict({
            **verify, "ok": False, "cancelled": True, "findings": [], "tiers": verify["tiers"][:3] + [
                {"name": "graphcast_jit_init", "ok": False, "status": "cancelled", "seconds": None,
                 "error": {"type": "Cancelled", "message": "verification was cancelled"}}]}))
        await pilot.pause(0.3)

    assert snap_compare(WizardApp(), terminal_size=SIZE, run_before=stopped)
