"""WeatherNext v0.3.0 as a lab member on a server without GitHub gets it: a local WeatherNext checkout and a
wheel of gdm-xarray-jax (built from its checkout, as one would where GitHub answers) given to `gc-wizard install
weathernext0.3.0-cpu`; the environment is built on a Python 3.12+ the wizard finds, and verify runs GraphCast's
and GenCast's inits from the `weathernext.*` layout, then the first forecast of each. Real uv, real PyPI for
the rest; the checkouts come from GC_WIZARD_WEATHERNEXT_SRC and GC_WIZARD_XARRAY_JAX_SRC (skipped without them)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from uv import find_uv_bin

from tests.fixtures.forecast import GENCAST_MODEL, MODEL, make_assets
from tests.fixtures.jaxenv import require_weathernext_srcs
from tests.fixtures.pythons import has_python_for_jax012
from tests.fixtures.state import last_json, run_cli

pytestmark = [pytest.mark.network, pytest.mark.slow]


def test_weathernext_installs_from_a_checkout_and_a_wheelhouse_and_verifies(isolated_state, tmp_path):
    weathernext, xarray_jax = require_weathernext_srcs()
    if not has_python_for_jax012():
        pytest.skip("needs a Python 3.12 or 3.13 on this machine (PATH, pyenv or uv) for WeatherNext")
    house = tmp_path / "wheels"
    subprocess.run([find_uv_bin(), "build", "--wheel", "--out-dir", str(house), xarray_jax], check=True,
                   capture_output=True, timeout=600)
    assert [p.name for p in house.glob("gdm_xarray_jax-*.whl")], "the checkout builds gdm-xarray-jax"

    proc = run_cli("install", "weathernext0.3.0-cpu", "--graphcast-src", weathernext, "--find-links", str(house),
                   "--yes", "--json", timeout=1800)
    result = last_json(proc)
    assert proc.returncode == 0 and result["ok"], proc.stdout[-3000:] + proc.stderr[-3000:]
    tiers = {t["name"]: t for t in result["verify"]["tiers"]}
    assert tiers["jax_import"]["graphcast"]["layout"] == "weathernext"
    assert tiers["graphcast_jit_init"]["layout"] == tiers["gencast_jit_init"]["layout"] == "weathernext"
    assert tiers["graphcast_jit_init"]["graphcast_module"] == "weathernext.weathernext1_graph.graphcast"
    assert tiers["gencast_jit_init"]["ok"]

    # The first forecast runs there too: tiny GraphCast and GenCast checkpoints written by WeatherNext's own
    # code in that environment, each rolled out once with every value finite.
    env = result["env"]
    assets = make_assets(Path(env), tmp_path / "assets")
    make_assets(Path(env), assets, family="gencast")
    for model in (MODEL, GENCAST_MODEL):
        proc = run_cli("forecast", "--env", env, "--assets", str(assets), "--model", model, "--json", timeout=1800)
        forecast = last_json(proc)
        assert proc.returncode == 0 and forecast["ok"] and forecast["finite"], proc.stderr[-3000:]
        assert forecast["graphcast_version"] == "0.3" and forecast["model"] == model
