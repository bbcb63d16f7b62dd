"""Forecasts with GraphCast v0.2 (the jax0.10.2 recipes): GraphCast rolls out; GenCast's sampler meets the
xarray_jax/JAX 0.8.2 break, which diagnosis names with its fix — and with that fix (JAX 0.8.1) the same GenCast
forecast runs. Real environments; GraphCast v0.2 from GC_WIZARD_GRAPHCAST_V02_SRC (skipped without it)."""

from __future__ import annotations

import shutil

import pytest
from uv import find_uv_bin

from tests.fixtures.forecast import GENCAST_MODEL, MODEL
from tests.fixtures.state import last_json, run_cli

pytestmark = [pytest.mark.network, pytest.mark.slow]


def test_graphcast_forecasts_with_the_v02_stack(forecast_v02_env, gencast_assets):
    result = last_json(run_cli("forecast", "--env", str(forecast_v02_env), "--assets", str(gencast_assets),
                               "--model", MODEL, "--json"))
    assert result["ok"] and result["graphcast_version"] == "0.2", result


def test_gencast_on_jax_0_10_2_is_named_with_its_fix(forecast_v02_env, gencast_assets):
    proc = run_cli("forecast", "--env", str(forecast_v02_env), "--assets", str(gencast_assets), "--model",
                   GENCAST_MODEL, "--json")
    result = last_json(proc)
    assert proc.returncode == 1 and not result["ok"]
    assert result["findings"][0]["id"] == "xarray_jax_tracer_incompatible", result["findings"]
    assert "0.8.1" in result["findings"][0]["fix"]


def test_gencast_forecasts_with_jax_0_8_1_and_graphcast_v02(forecast_v02_env, gencast_assets, tmp_path):
    import subprocess

    env = tmp_path / "jax081"
    shutil.copytree(forecast_v02_env, env, symlinks=True)
    subprocess.run([find_uv_bin(), "pip", "install", "-q", "--python", str(env / "bin" / "python"), "jax==0.8.1",
                    "jaxlib==0.8.1"], check=True, capture_output=True)
    proc = run_cli("forecast", "--env", str(env), "--assets", str(gencast_assets), "--model", GENCAST_MODEL, "--json")
    result = last_json(proc)
    assert proc.returncode == 0 and result["ok"] and result["finite"], result
    assert result["dataset"].startswith("source-era5_date-2019-03-29")  # GenCast's own 12-hourly batch
