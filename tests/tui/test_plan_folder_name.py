"""Walk 28 #19: the Plan screen's new-environment folder (`envs/<recipe>-<YYYYmmdd-HHMMSS>`) got a new name each time
a key planned again (g, a, p, i …), which read as a different plan. One Plan screen names its folder once."""

from __future__ import annotations

import time

from tests.fixtures.pilot import SIZE, choose, until
from wizard.tui.app import WizardApp


async def test_planning_again_keeps_the_folder_name_shown(tiny, isolated_state):
    app = WizardApp([str(tiny.recipes)], graphcast_src=str(tiny.graphcast), find_links=[str(tiny.house.path)],
                    offline=True)
    async with app.run_test(size=SIZE) as pilot:
        await choose(pilot, app, "tiny-a")
        first = app.screen.plan
        time.sleep(1.1)  # the name carries the second: a new plan a second later would name another folder
        await pilot.press("i")
        await until(pilot, lambda: app.screen.plan is not None and app.screen.plan.installer != first.installer)
        assert app.screen.plan.env_dir == first.env_dir
        assert str(first.env_dir) in " ".join(str(app.screen.query_one("#plan").render()).split())
