"""Walk 22 #10: a toast from the Plan screen ("GraphCast source: graphcast 0.1.1 (a source checkout)") stayed up
over the Installing screen, covering the right half of its log for seconds. The install starts with none."""

from __future__ import annotations

from tests.fixtures.pilot import SIZE, choose, tiny_app, wait_for
from wizard.tui.screens.install import InstallScreen


async def test_the_plan_screens_toasts_do_not_follow_onto_the_install(gpu_server, tiny):
    gpu_server("no-nvidia")
    app = tiny_app(tiny)
    async with app.run_test(size=SIZE) as pilot:
        await choose(pilot, app, "tiny-a")
        await wait_for(pilot, lambda: app.screen.plan is not None)
        app.screen.notify("GraphCast source: graphcast 0.1.1 (a source checkout)", timeout=30)
        await wait_for(pilot, lambda: len(app._notifications) == 1)
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, InstallScreen))
        assert not any("GraphCast source" in str(note.message) for note in app._notifications)
