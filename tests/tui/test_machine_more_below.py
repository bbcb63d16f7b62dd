"""The Machine screen says when some of its facts are below the fold (walk 21 #13: Python, the environment, disk and
host RAM were hidden at 80×24, and only a scrollbar's thumb said so).

Every wait is on the condition it means, within the shared generous limit (`tests.fixtures.pilot.LIMIT`): waits of 10 s
and a fixed 0.2 s pause before an assertion timed out (or read a frame too early) under load (leftovers of the 30th
hostile pass, item 6)."""

from __future__ import annotations

from textual.containers import VerticalScroll

from tests.fixtures.pilot import facts_shown, read_when_shown, screen_text, until
from wizard.tui.app import WizardApp
from wizard.tui.screens.machine import MachineScreen


def _more_line_hidden(app) -> bool:
    """The screen's own state: the line under the facts is hidden (`widgets.more_below.MoreBelow`), and not drawn."""
    return not app.screen.query_one("#facts-more").display and "more line" not in screen_text(app)


async def test_a_line_says_how_many_facts_are_below_until_they_are_scrolled_to(gpu_server, isolated_state):
    gpu_server("no-nvidia")
    app = WizardApp()
    async with app.run_test(size=(80, 20)) as pilot:
        await facts_shown(pilot)
        shown = await read_when_shown(pilot, MachineScreen, "more line", settle=0)
        assert "of facts below: PgDn or ↓ scrolls" in shown
        assert "Host RAM" not in shown
        pane = app.screen.query_one("#facts-pane", VerticalScroll)
        for _ in range(20):  # to the end of the facts, however many pages that takes here
            if pane.scroll_y >= pane.max_scroll_y:
                break
            await pilot.press("pagedown")
        # scrolled to the end: the last fact is drawn and the line is gone
        await until(pilot, lambda: "Host RAM" in screen_text(app) and _more_line_hidden(app))
    roomy = WizardApp()
    async with roomy.run_test(size=(80, 60)) as pilot:  # everything in view: nothing to say
        await facts_shown(pilot)
        pane = roomy.screen.query_one("#facts-pane", VerticalScroll)
        # laid out with every fact in view (nothing to scroll), the line hidden
        await until(pilot, lambda: pane.max_scroll_y == 0 and "Host RAM" in screen_text(roomy)
                    and _more_line_hidden(roomy))
