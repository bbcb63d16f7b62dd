"""The Plan screen prints the core's plan lines (`flows.describe_plan`, the ones `gc-wizard plan` prints) with
only the app's key hints added after them: one wording, styled or hinted by the face, never reworded."""

from __future__ import annotations

from tests.fixtures.pilot import SIZE, until
from wizard.flows.describe_plan import PlanHints, plan_lines
from wizard.install.options import InstallOptions
from wizard.recipes.loader import get_recipe
from wizard.tui.app import WizardApp
from wizard.tui.screens.machine import MachineScreen
from wizard.tui.screens.plan import _KEY_HINTS, PlanScreen


async def _plan_screen(pilot, app, tiny) -> None:
    """From the Machine screen to tiny-a's Plan screen (offline, the tiny wheelhouse and checkout), its review made."""
    dirs = (str(tiny.recipes),)
    options = InstallOptions(recipe_id="tiny-a", recipes_dirs=dirs, find_links=(str(tiny.house.path),), offline=True,
                             graphcast_src=str(tiny.graphcast))
    await until(pilot, lambda: isinstance(app.screen, MachineScreen) and app.screen.facts is not None)
    app.push_screen(PlanScreen(get_recipe("tiny-a", list(dirs)), options))
    await until(pilot, lambda: isinstance(app.screen, PlanScreen) and app.screen.review is not None, timeout=30)


async def test_the_plan_screen_shows_the_core_lines_with_its_key_hints(tiny, isolated_state, only_the_wizards_python):
    app = WizardApp([str(tiny.recipes)])
    async with app.run_test(size=SIZE) as pilot:
        await _plan_screen(pilot, app, tiny)
        await until(pilot, lambda: app.screen.download is not None, timeout=30)
        screen = app.screen
        shown = str(screen.query_one("#plan").render()).splitlines()
        width = screen._text_width()  # the pane's columns, which the screen wraps the core's words to
        expected = plan_lines(screen.review, download=screen.download, slurm=None, hints=PlanHints(**_KEY_HINTS, keys=True),
                              width=width, commands_last=True)
    assert shown == expected
    assert "Into a new environment (e changes the folder):" in shown
    assert "Sources (g GraphCast source, w wheelhouse, o offline):" in shown
    core = plan_lines(screen.review, download=screen.download, width=width, commands_last=True)
    for hint in _KEY_HINTS.values():
        shown = [line.replace(hint, "") for line in shown]
    assert shown == core  # without its key hints, the screen says what `gc-wizard plan` says
    # The step titles stay together on a 24-row screen; the exact commands come last, each under its step.
    steps, commands = shown.index("Steps (nothing has run yet):"), shown.index("Exactly what runs:")
    assert shown[steps + 1].startswith("  1. ") and not shown[steps + 2].startswith("     $ ")
    assert shown[commands + 1].startswith("  1. ") and shown[commands + 2].startswith(("     with ", "     $ "))


async def test_the_plan_screen_says_a_download_cache_turned_off(tiny, isolated_state, only_the_wizards_python,
                                                                monkeypatch):
    """`UV_NO_CACHE` set: the app's plan says every package is downloaded again, with the `unset` (as `plan` does,
    tests/cli/test_no_download_cache.py)."""
    monkeypatch.setenv("UV_NO_CACHE", "1")
    app = WizardApp([str(tiny.recipes)])
    async with app.run_test(size=SIZE) as pilot:
        await _plan_screen(pilot, app, tiny)
        shown = " ".join(str(app.screen.query_one("#plan").render()).split())
    assert ("Download cache: none. UV_NO_CACHE=1 turns uv's download cache off, so this install downloads every "
            "package again") in shown and "`unset UV_NO_CACHE` before starting gc-wizard keeps them." in shown, shown
