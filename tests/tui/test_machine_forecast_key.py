"""Walk 28 #16: after a CLI install, the app's forecast was on no screen but the Done screen of an install made in the
app. The first screen offers f for the current environment (and says so in the returning user's line); with no
environment that could run one, there is no f."""

from __future__ import annotations

from tests.fixtures.pilot import SIZE, read_when_shown, until
from wizard.tui.app import WizardApp
from wizard.tui.screens.forecast import ForecastScreen
from wizard.tui.screens.machine import MachineScreen


async def test_f_on_the_first_screen_runs_the_forecast_in_the_current_environment(gpu_server, tiny):
    gpu_server("no-nvidia")
    proc, installed = tiny.install("tiny-a")
    assert proc.returncode == 0, proc.stderr
    app = WizardApp([str(tiny.recipes)])
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, MachineScreen) and app.screen.facts is not None)
        machine = app.screen
        assert machine.forecast_env == installed["env"]
        await read_when_shown(pilot, MachineScreen, "f: a forecast with it", timeout=60)  # painted, not just set
        await pilot.press("f")
        await until(pilot, lambda: isinstance(app.screen, ForecastScreen))
        assert str(app.screen.env) == installed["env"]


async def test_no_f_without_an_environment(gpu_server, isolated_state):
    gpu_server("no-nvidia")
    app = WizardApp([])
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, MachineScreen) and app.screen.facts is not None)
        assert app.screen.forecast_env is None and app.screen.check_action("forecast", ()) is False
        await pilot.press("f")
        await pilot.pause(0.2)
        assert isinstance(app.screen, MachineScreen)
