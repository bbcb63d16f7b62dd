"""Walk 29 N2: once an environment was current, the first screen's recommendation paragraph was cut at eight rows —
"! Your last install of it failed its GraphCast check on node vm (at JAX" and the Enter line were lost, at 80×24 and
at 80×40 alike (the facts above scroll; this paragraph does not). The whole paragraph is in view."""

from __future__ import annotations

from dataclasses import replace

from tests.fixtures.pilot import SIZE, facts_shown, screen_text
from tests.fixtures.results import FAILED_CHECK
from tests.fixtures.results import install_entry as _install
from tests.fixtures.state import save_entries
from wizard.tui.app import WizardApp


async def test_a_returning_user_with_a_failed_check_sees_the_whole_recommendation(gpu_server, isolated_state):
    gpu_server("no-nvidia")  # jax0.4.23-cpu is recommended here
    save_entries([replace(_install(5, "installed", recipe="jax0.4.23-cpu"), current=True),
                  _install(6, "failed", FAILED_CHECK)])
    app = WizardApp()
    async with app.run_test(size=SIZE) as pilot:
        await facts_shown(pilot)
        await pilot.pause(0.3)
        box = app.screen.query_one("#recommended")
        shown = " ".join(screen_text(app).split())
        assert "Your GraphCast environment: jax0.4.23-cpu" in shown
        assert "failed its GraphCast check on node vm" in shown and "CUDA found no usable GPU" in shown, shown
        assert "Press Enter" in shown, shown  # the paragraph's last line
        assert box.outer_size.height >= len(str(box.render()).splitlines()), box.outer_size
