"""Walk 24 #9: after a rollback the lines left on quitting named the install's old log, and after three forecasts
they still offered "a first real forecast"; the Done screen said the forecast's files "must be brought here first"
beside the folder f then offered ("Enter takes it")."""

from __future__ import annotations

from pathlib import Path

from tests.fixtures.results import install_result
from wizard.after.assets_memory import remember_assets
from wizard.after.next_steps import next_step_lines
from wizard.tui.leaving import farewell
from wizard.tui.screens.done import summary_text


def test_quitting_after_a_rollback_names_the_rollbacks_log(isolated_state):
    result = install_result(ok=True, recipe="jax0.4.23-cpu", env="/envs/a", log="/logs/install.log", verify={})
    assert farewell(result)[-1] == "Log:  /logs/install.log"
    assert farewell(result, rollback_log="/logs/rollback.log")[-1] == "Log:  /logs/rollback.log"


def test_next_lines_offer_another_forecast_once_one_ran(isolated_state):
    before = " ".join(next_step_lines("jax0.4.23-cpu"))
    assert "a first real forecast" in before
    forecasts = Path(isolated_state) / "forecasts"
    forecasts.mkdir()
    (forecasts / "20261128-052000-GraphCast_small.nc").write_bytes(b"CDF")
    after = " ".join(next_step_lines("jax0.4.23-cpu"))
    assert "a first real forecast" not in after and "another forecast: real weights, one rollout" in after


def test_the_done_screen_names_the_remembered_assets_folder(isolated_state, tmp_path):
    result = install_result(ok=True, recipe="jax0.4.23-cpu", env="/e", log="/l")
    assert "its files must be brought here first" in summary_text(result, None, "storage.googleapis.com")
    folder = tmp_path / "lab-assets"
    folder.mkdir()
    remember_assets(str(folder))
    text = summary_text(result, None, "storage.googleapis.com")
    assert f"press f; Enter takes {folder.resolve()}, the folder your last forecast used." in text
    assert "must be brought here first" not in text
