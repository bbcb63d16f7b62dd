"""The JAX 0.12 stack as a user gets it: `gc-wizard install jax0.12.0.1-cpu` with GraphCast v0.2 from a local
checkout, into a new environment built on a Python 3.12 or 3.13 the wizard finds on the machine (the wizard
itself runs on 3.11), verified with GraphCast's and GenCast's real inits; then GenCast's forecast, which the
jax0.10.2 stack cannot run (xarray_jax_tracer_incompatible names this recipe as the fix), runs there.
Real uv, real PyPI; GraphCast v0.2 from GC_WIZARD_GRAPHCAST_V02_SRC (skipped without it)."""

from __future__ import annotations

import subprocess

import pytest

from tests.fixtures.forecast import GENCAST_MODEL
from tests.fixtures.jaxenv import require_graphcast_v02_src
from tests.fixtures.pythons import has_python_for_jax012
from tests.fixtures.state import REPO, last_json, run_cli

pytestmark = [pytest.mark.network, pytest.mark.slow]


def test_jax012_installs_on_a_found_python_and_runs_gencast(isolated_state, tmp_path):
    src = require_graphcast_v02_src()
    if not has_python_for_jax012():
        pytest.skip("needs a Python 3.12 or 3.13 on this machine (PATH, pyenv or uv) for the JAX 0.12 recipe")
    proc = run_cli("install", "jax0.12.0.1-cpu", "--graphcast-src", src, "--yes", "--json", timeout=1500)
    result = last_json(proc)
    assert proc.returncode == 0 and result["ok"], proc.stdout[-3000:] + proc.stderr[-3000:]
    env = result["env"]
    version = subprocess.run([f"{env}/bin/python", "-c", "import sys; print(sys.version_info[:2] >= (3, 12))"],
                             capture_output=True, text=True).stdout.strip()
    assert version == "True"  # built on a Python the wizard found, not its own 3.11
    tiers = {t["name"]: t for t in result["verify"]["tiers"]}
    assert tiers["graphcast_jit_init"]["ok"] and tiers["gencast_jit_init"]["ok"]
    assert tiers["jax_import"]["versions"]["dm-haiku"] == "0.0.17"

    assets = tmp_path / "assets"
    subprocess.run([f"{env}/bin/python", str(REPO / "tests" / "fixtures" / "forecast" / "make_assets.py"), str(assets),
                    "--family", "gencast"], check=True, capture_output=True, cwd=tmp_path, timeout=900)
    forecast = last_json(run_cli("forecast", "--env", env, "--assets", str(assets), "--model", GENCAST_MODEL, "--json",
                                 timeout=900))
    assert forecast["ok"] and forecast["finite"] and not forecast["findings"], forecast
