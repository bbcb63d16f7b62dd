"""The app's forecast stopped mid-download says the `.part` it keeps to resume (38th hostile pass (part A) P1): it
said "the forecast was stopped; nothing was changed." whatever the download left. The core's stop carries what it
kept (`wizard.errors.note_left`, as `assets._download` notes it); here the forecast is that stop, under Pilot."""

from __future__ import annotations

from textual.app import App

from tests.fixtures.pilot import SIZE, screen_text, until
from wizard.errors import note_left
from wizard.tui.screens import forecast as forecast_screen


class _Host(App):
    CSS_PATH = "../../wizard/tui/app.tcss"

    def __init__(self, screen) -> None:
        super().__init__()
        self.first = screen

    def on_mount(self) -> None:
        self.push_screen(self.first)


async def test_a_forecast_stopped_mid_download_names_the_part_it_kept(tmp_path, monkeypatch, isolated_state):
    part = tmp_path / "model.npz.part"

    def stopped_mid_download(*args, **kwargs):
        stop = KeyboardInterrupt()
        note_left(stop, f"kept to resume: {part}, 5.0 MB")
        raise stop

    monkeypatch.setattr(forecast_screen, "run_forecast", stopped_mid_download)
    screen = forecast_screen.ForecastScreen(tmp_path / "env")
    app = _Host(screen)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: screen.ended, timeout=60)
        await until(pilot, lambda: "kepttoresume" in "".join(screen_text(app).split()), timeout=30)
        text = "".join(screen_text(app).split())
        assert "nothingwaschanged" not in text and "".join(f"kept to resume: {part}, 5.0 MB".split()) in text, text
