"""Walk 25 #8: after a forecast had run from the Done screen, it went back to "First forecast: press f (real weights,
one rollout)" and the footer to "f First forecast". The app keeps the output of the forecast that ran for the
environment (`ForecastScreen` records it; the real run is tests/tui/test_forecast_screen.py), and the Done screen
offers it again, naming where it went, in the core's words (`after.next_steps.forecast_offer`)."""

from __future__ import annotations

from textual.screen import Screen

from tests.fixtures.pilot import SIZE, DoneApp, read_when_shown, screen_text, until
from tests.fixtures.results import install_result
from wizard.tui.screens.done import DoneScreen, summary_text


def test_the_summary_offers_the_forecast_again_with_its_output():
    result = install_result(ok=True, recipe="jax0.4.23-cpu", env="/e", log="/l")
    text = summary_text(result, None, None, "/s/forecasts/graphcast-1.nc")
    assert "Forecast again: press f. The last one wrote:\n    /s/forecasts/graphcast-1.nc" in text  # whole, alone
    assert "First forecast" not in text
    remembered = summary_text(result, None, "storage.googleapis.com", "")
    assert "Forecast again: press f" in remembered and "First forecast" not in remembered


async def test_the_done_screen_and_its_footer_say_forecast_again_once_one_ran(isolated_state, tmp_path):
    app = DoneApp(str(tmp_path))  # a local folder: the files' host is not asked
    app.forecast_outputs = {}
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, DoneScreen) and app.assets_reach is not None, settle=0.1)
        done = app.screen
        assert "First forecast: press f" in screen_text(app)
        assert done.check_action("forecast", ()) and not done.check_action("forecast_again", ())  # the footer's f
        app.forecast_outputs["/envs/a"] = "/s/forecasts/graphcast-1.nc"  # what the forecast screen records
        app.push_screen(Screen())
        await pilot.pause()
        app.pop_screen()
        await until(pilot, lambda: app.screen is done, settle=0.1)
        # The screen repaints after it is back on top: read it once it has (CI run 46 read it first, under load).
        text = " ".join((await read_when_shown(pilot, DoneScreen, "Forecast again", timeout=60)).split())
        assert "Forecast again: press f. The last one wrote: /s/forecasts/graphcast-1.nc" in text, text
        assert "First forecast" not in text, text
        assert done.check_action("forecast_again", ()) and not done.check_action("forecast", ())
