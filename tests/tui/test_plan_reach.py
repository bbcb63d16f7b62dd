"""The Plan screen looks ahead at a remote GraphCast source before anything runs (firewalled servers)."""

from __future__ import annotations

import socket

from tests.tui.test_flow import SIZE, _choose, screen_text, wait_for
from wizard.tui.app import WizardApp


async def test_an_unreachable_graphcast_host_is_said_on_the_plan(gpu_server, tiny):
    gpu_server("no-nvidia")
    with socket.socket() as probe:  # a port nothing listens on: the "GitHub" of a firewalled node
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    recipe = tiny.recipes / "tiny-a.yaml"
    recipe.write_text(recipe.read_text().replace("https://github.com/google-deepmind/graphcast",
                                                 f"https://127.0.0.1:{port}/graphcast"))
    app = WizardApp([str(tiny.recipes)], find_links=[str(tiny.house.path)], verify=False)
    async with app.run_test(size=SIZE) as pilot:
        await _choose(pilot, app, "tiny-a")
        await wait_for(pilot, lambda: app.screen.reach not in (None, "checking"), timeout=20)
        text = " ".join(screen_text(app).split())
        assert "GraphCast ? graphcast" in text
        assert "127.0.0.1 cannot be reached from here (connection refused): the install would fail there." in text
        assert "Press g and give a GraphCast 0.1.1 checkout" in text
        await pilot.press("g")  # the fix the line names: a local source, and the warning goes
        await wait_for(pilot, lambda: app.screen.__class__.__name__ == "PromptScreen")
        app.screen.query_one("Input").value = str(tiny.graphcast)
        await pilot.press("enter")
        await wait_for(pilot, lambda: getattr(app.screen, "options", None) is not None
                       and app.screen.options.graphcast_src == str(tiny.graphcast))
        assert app.screen.reach is None and "cannot be reached" not in screen_text(app)
