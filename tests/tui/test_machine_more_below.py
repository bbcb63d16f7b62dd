"""The Machine screen says when some of its facts are below the fold (walk 21 #13: Python, the environment, disk and
host RAM were hidden at 80×24, and only a scrollbar's thumb said so)."""

from __future__ import annotations

from tests.fixtures.pilot import facts_shown, screen_text, until
from wizard.tui.app import WizardApp


async def test_a_line_says_how_many_facts_are_below_until_they_are_scrolled_to(gpu_server, isolated_state):
    gpu_server("no-nvidia")
    app = WizardApp()
    async with app.run_test(size=(80, 20)) as pilot:
        await facts_shown(pilot)
        await until(pilot, lambda: "more line" in screen_text(app), timeout=10)
        assert "of facts below: PgDn or ↓ scrolls" in screen_text(app)
        assert "Host RAM" not in screen_text(app)
        for _ in range(4):
            await pilot.press("pagedown")
        await until(pilot, lambda: "Host RAM" in screen_text(app), timeout=10, settle=0.2)
        assert "more line" not in screen_text(app)
    roomy = WizardApp()
    async with roomy.run_test(size=(80, 60)) as pilot:  # everything in view: nothing to say
        await facts_shown(pilot)
        await pilot.pause(0.2)
        assert "Host RAM" in screen_text(roomy) and "more line" not in screen_text(roomy)
