"""`gc-wizard forecast` in a real terminal (tmux, 80×24): the stages as the user sees them, the figures with the
output path whole on its own line, and Ctrl-C in the slowest step — exit 130, one sentence, no traceback, no
process left. A real GraphCast environment (tests/fixtures/forecast); skipped without GC_WIZARD_GRAPHCAST_SRC."""

from __future__ import annotations

import shutil
import subprocess
import sys

import pytest

from tests.fixtures.tmux import exit_code, wizard_env

pytestmark = [pytest.mark.network, pytest.mark.slow, pytest.mark.tmux, pytest.mark.flaky(reruns=2, reruns_delay=2),
              pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux")]


def test_a_forecast_then_ctrl_c_in_its_slowest_step(tmux, tmp_path, forecast_env, forecast_assets):
    env = wizard_env(tmp_path, "xterm", profile="no-nvidia")
    tmux.shell()
    done = tmp_path / "exit-1"
    tmux.type_line([sys.executable, "-m", "wizard", "forecast", "--env", str(forecast_env), "--assets",
                    str(forecast_assets)], env, done)
    # The result's first line may have scrolled above 24 rows (the model's and the paths' rows wrap at 80 columns):
    # read back as a user scrolls back.
    screen = tmux.wait_for("every value finite", timeout=180, history=60)
    assert exit_code(done) == "EXIT=0"
    rows = screen.splitlines()
    assert all(len(row) <= 80 for row in rows)
    assert any(row.startswith(f"    {env['GC_WIZARD_HOME']}/forecasts/") for row in rows)  # whole, to copy
    tmux.keys("clear", "Enter")
    stopped = tmp_path / "exit-2"
    tmux.type_line([sys.executable, "-m", "wizard", "forecast", "--env", str(forecast_env), "--assets",
                    str(forecast_assets), "--steps", "4"], env, stopped)
    tmux.wait_for("Import JAX and GraphCast", timeout=120)
    tmux.keys("C-c")
    assert exit_code(stopped) == "EXIT=130"
    screen = tmux.screen()
    assert "stopped by Ctrl-C (SIGINT); nothing was left half-done." in screen and "Traceback" not in screen
    ps = subprocess.run(["ps", "-eo", "args"], capture_output=True, text=True).stdout
    assert not [line for line in ps.splitlines() if "forecast_probe.py" in line and str(forecast_env) in line]
