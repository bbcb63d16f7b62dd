"""Bad input in the terminal app: one sentence naming the file and line on the screen, never a crash."""

from __future__ import annotations

import asyncio
import subprocess
import sys

from tests.fixtures.pilot import SIZE, screen_rows
from tests.fixtures.tiny import RECIPE
from wizard.tui.app import WizardApp
from wizard.tui.screens.done import DoneScreen
from wizard.tui.screens.machine import MachineScreen
from wizard.tui.screens.plan import PlanScreen
from wizard.tui.screens.recipe import RecipeScreen


async def _shown(pilot, text: str, timeout: float = 30) -> str:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        screen = "\n".join(row.strip() for row in screen_rows(pilot.app))
        if text in " ".join(screen.split()):
            return screen
        assert loop.time() < deadline, f"{text!r} never shown; the screen:\n{screen}"
        await pilot.pause(0.05)


def _facts_text(app) -> str:
    return str(app.screen.query_one("#facts").render())


async def test_a_broken_recipe_file_is_named_and_r_tries_again_once_fixed(gpu_server, tmp_path):
    gpu_server("a100x2-535")
    recipes = tmp_path / "recipes"
    recipes.mkdir()
    broken = recipes / "lab.yaml"
    broken.write_text("schema: 1\nid: lab\ntitle: [unclosed\n")
    app = WizardApp([str(recipes)])
    async with app.run_test(size=SIZE) as pilot:
        screen = await _shown(pilot, "Fix that, then press r to try again.")
        text = _facts_text(app)  # the widget's text: a long path wraps anywhere on the screen
        assert text.startswith("Could not load the recipes:\n\n")
        assert f"recipe file {broken}, line 4: not valid YAML" in text
        assert "Traceback" not in screen and "detection" not in text
        await pilot.press("enter")  # nothing to choose from: Enter stays here
        await pilot.pause(0.3)
        assert isinstance(app.screen, MachineScreen) and app.screen.facts is None
        assert "Next: recipes" not in screen_rows(app)[-1]

        broken.write_text(RECIPE.format(id="lab", requirements="  - pkg-a==1.0"))
        await pilot.press("r")
        await _shown(pilot, "Press Enter to choose a recipe.")
        await pilot.press("enter")
        while not isinstance(app.screen, RecipeScreen):
            await pilot.pause(0.05)
        assert "lab" in [m.recipe.id for m in app.screen.matches]


async def test_a_missing_recipes_folder_is_named(gpu_server, tmp_path):
    gpu_server("a100x2-535")
    missing = tmp_path / "no-such-folder"
    app = WizardApp([str(missing)])
    async with app.run_test(size=SIZE) as pilot:
        await _shown(pilot, "Could not load the recipes:")
        assert f"recipe folder {missing} (from --recipes-dir) does not exist" in _facts_text(app)


async def test_another_wizard_holding_the_state_lock_is_named_on_done(gpu_server, tiny):
    """A second wizard (a real process holding the real lock) is working: the install says who, and stops."""
    gpu_server("no-nvidia")
    holder = subprocess.Popen(
        [sys.executable, "-c", "import time; from wizard.lock import StateLock; "
         "StateLock('install other-recipe').acquire(); print('held', flush=True); time.sleep(120)"],
        stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        app = WizardApp([str(tiny.recipes)], find_links=[str(tiny.house.path)], offline=True,
                        graphcast_src=str(tiny.graphcast), verify=False)
        async with app.run_test(size=SIZE) as pilot:
            await _shown(pilot, "Press Enter to choose a recipe.")
            await pilot.press("enter")
            while not isinstance(app.screen, RecipeScreen):
                await pilot.pause(0.05)
            app.screen.query_one("OptionList").highlighted = app.screen.index_of("tiny-a")
            await pilot.press("enter")
            while not (isinstance(app.screen, PlanScreen) and app.screen.plan is not None):
                await pilot.pause(0.05)
            await pilot.press("enter")
            await _shown(pilot, "gc-wizard · Not done")
            assert isinstance(app.screen, DoneScreen)
            summary = str(app.screen.query_one("#summary").render())
            assert "Another gc-wizard is already working in" in summary
            assert f"pid {holder.pid} " in summary and "install other-recipe" in summary
            assert "Press r to try again" in summary and "Log: None" not in summary
            # The other wizard finishes; r tries the same install again, and now it runs.
            holder.kill()
            holder.wait(timeout=10)
            await pilot.press("r")
            while not (isinstance(app.screen, DoneScreen) and app.install_result
                       and not app.install_result.lock_held):
                await pilot.pause(0.1)
            assert app.install_result.ok, app.install_result
            await pilot.press("enter")
        assert app.exit_status == 0
    finally:
        holder.kill()
        holder.wait()
    # Only the retried install ran: the refused attempt left no entry behind.
    assert [(e["recipe"], e["status"], e["current"]) for e in tiny.history()] == [("tiny-a", "installed", True)]


def test_a_refused_option_ends_the_app_with_the_clis_one_sentence(capsys):
    """`gc-wizard --graphcast-src BAD` (the app's path) refuses before a frame, in the same `gc-wizard: …` sentence
    the CLI ends with (`wizard.errors.say_on_stderr`, shared by both faces): a right-to-left override the value
    carries is shown as its escape, never sent to the terminal, and nothing reaches stdout."""
    import argparse

    from wizard.tui import run_tui

    code = run_tui(argparse.Namespace(graphcast_src="/src/gc\u202eyp.txt", find_links=None))
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert err.startswith("gc-wizard: The GraphCast source (--graphcast-src) ") and err.count("\n") == 1, err
    assert "\u202e" not in err and "\\u202e" in err, err
