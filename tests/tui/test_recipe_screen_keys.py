"""Walk 26 #13, the Recipe screen's keys: v pressed twice stacked its toasts ("Matching the recipes again…",
"Recommending for …") over the right half of the recipe text for seconds, and PageDown moved the list's selection
while the text pane scrolled only after Tab, which the footer did not say. The real app on a stand-in server."""

from __future__ import annotations

from textual.containers import VerticalScroll

from tests.fixtures.pilot import SIZE, screen_rows, until
from wizard.tui.app import WizardApp
from wizard.tui.screens.machine import MachineScreen
from wizard.tui.screens.recipe import RecipeScreen


async def _recipe_screen(pilot, app) -> RecipeScreen:
    await until(pilot, lambda: isinstance(app.screen, MachineScreen) and app.screen.facts is not None)
    await pilot.press("enter")
    await until(pilot, lambda: isinstance(app.screen, RecipeScreen), settle=0.3)  # drawn and focused first
    return app.screen


async def test_v_pressed_twice_shows_one_notice_at_a_time(gpu_server, isolated_state):
    gpu_server("no-nvidia")
    app = WizardApp()
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        screen = await _recipe_screen(pilot, app)
        await pilot.press("v")  # any -> v0.1.1: its "Recommending for …" shows for seconds
        await until(pilot, lambda: screen.graphcast_version == "0.1.1", timeout=30, settle=0.2)
        assert any(str(note.message).startswith("Recommending for GraphCast v0.1.1") for note in app._notifications)
        await pilot.press("v")  # -> v0.2 while that notice is still up
        await until(pilot, lambda: screen.graphcast_version == "0.2", timeout=30, settle=0.2)
        shown = [str(note.message) for note in app._notifications]
        assert len(shown) == 1 and shown[0].startswith("Recommending for GraphCast v0.2"), shown
        app.notify("an untitled notice")  # one without a title (a warning, a source checked) still stacks
        await pilot.pause()
        assert len(list(app._notifications)) == 2


async def test_page_keys_scroll_the_recipe_text_and_the_footer_says_so(gpu_server, isolated_state):
    gpu_server("no-nvidia")
    app = WizardApp()
    async with app.run_test(size=SIZE) as pilot:
        screen = await _recipe_screen(pilot, app)
        pane = screen.query_one("#recipe-detail", VerticalScroll)
        highlighted = screen.query_one("#recipes").highlighted
        assert screen.focused is screen.query_one("#recipes") and pane.max_scroll_y > 0, pane.max_scroll_y
        # the footer, once painted (it is composed again when the keys change: a read can catch it empty)
        await until(pilot, lambda: "PgDn/PgUp Scroll text" in " ".join(screen_rows(app)[-2:]), timeout=60)
        await pilot.press("pagedown")
        await until(pilot, lambda: pane.scroll_y > 0)
        assert screen.query_one("#recipes").highlighted == highlighted  # the list's selection stays
        await pilot.press("pageup")
        await until(pilot, lambda: pane.scroll_y == 0)


async def test_each_recipe_text_starts_at_its_top_and_home_shows_the_first_heading(gpu_server, isolated_state):
    """Walk 33 #7: after PgDn on one recipe's text, ↓ opened the next one's mid-way (`     0.12, NumPy 2)`), its name
    and header scrolled away; Home highlighted the first recipe with its `── GraphCast …` heading out of view."""
    gpu_server("a100x2-535")
    app = WizardApp()
    async with app.run_test(size=SIZE) as pilot:
        screen = await _recipe_screen(pilot, app)
        pane = screen.query_one("#recipe-detail", VerticalScroll)
        recipes = screen.query_one("#recipes")
        await pilot.press("pagedown")
        await until(pilot, lambda: pane.scroll_y > 0)
        before = recipes.highlighted
        await pilot.press("down")
        await until(pilot, lambda: recipes.highlighted != before, settle=0.2)
        assert pane.scroll_y == 0, pane.scroll_y
        await pilot.press("end")
        await until(pilot, lambda: recipes.scroll_y > 0, settle=0.2)
        await pilot.press("home")
        await until(pilot, lambda: recipes.highlighted == 1, settle=0.3)
        assert recipes.scroll_y == 0, recipes.scroll_y
        assert any("── GraphCast" in row for row in screen_rows(app)), screen_rows(app)
