"""The verify probe as real runs in a real jax 0.4.23 CPU environment (no mocks).

The GraphCast runs need its source (CI cannot reach GitHub): they read `GC_WIZARD_GRAPHCAST_SRC`
and skip with that reason when it is unset. The failure paths (GraphCast missing, a GPU recipe on
this CPU-only machine) need only the pinned packages from PyPI.
"""

from __future__ import annotations

import math
import shutil
import subprocess

import pytest

from tests.fixtures.jaxenv import require_graphcast_src
from tests.fixtures.state import last_json, run_cli
from wizard.verify import verify_env

pytestmark = [pytest.mark.network, pytest.mark.slow]

TIER_ORDER = ["jax_import", "backend", "cudnn_op", "graphcast_jit_init"]


def test_notebook_level_jit_init_passes_with_70739_parameters(jax_cpu_env):
    require_graphcast_src()
    proc = run_cli("verify", "--env", str(jax_cpu_env), "--json", timeout=900)
    assert proc.returncode == 0, proc.stderr[-3000:]
    result = last_json(proc)
    assert result["ok"] and result["backend"] == "cpu"
    assert [t["name"] for t in result["tiers"]] == TIER_ORDER
    init = result["tiers"][-1]
    assert init["param_count"] == 70739
    assert init["params_finite"] is True
    assert init["init_seconds"] > 0 and math.isfinite(init["init_seconds"])
    assert init["peak_rss_mib"] > 100
    assert result["tiers"][0]["versions"]["jax"] == "0.4.23"
    assert result["tiers"][0]["versions"]["numpy"].startswith("1.")
    assert result["findings"] == []


def test_quick_level_reports_tiers_live(jax_cpu_env, tmp_path):
    src = require_graphcast_src()
    seen: list[str] = []
    result = verify_env(jax_cpu_env, backend="cpu", level="quick", graphcast_src=src,
                        log_path=tmp_path / "verify.log", on_tier=lambda tier: seen.append(tier["name"]))
    assert result.ok, result.to_dict()
    assert seen == TIER_ORDER
    assert 0 < result.tier("graphcast_jit_init")["param_count"] < 70739
    assert "graphcast_jit_init" in (tmp_path / "verify.log").read_text()


def test_graphcast_missing_fails_its_tier_with_a_finding(jax_cpu_env_without_graphcast, tmp_path):
    result = verify_env(jax_cpu_env_without_graphcast, backend="cpu", level="quick", log_path=tmp_path / "v.log")
    assert not result.ok
    tiers = {t["name"]: t for t in result.to_dict()["tiers"]}
    assert tiers["jax_import"]["ok"] and tiers["backend"]["ok"]
    assert not tiers["graphcast_jit_init"]["ok"]
    assert result.to_dict()["findings"][0]["id"] == "graphcast_missing"


def test_gpu_recipe_on_this_cpu_only_machine_fails_at_backend(jax_cpu_env_without_graphcast, tmp_path):
    result = verify_env(jax_cpu_env_without_graphcast, backend="gpu", level="quick", log_path=tmp_path / "v.log")
    assert not result.ok
    backend = result.tier("backend")
    assert backend is not None and not backend["ok"], "a GPU recipe must never pass on the CPU"
    ids = [f["id"] for f in result.to_dict()["findings"]]
    assert ids and ids[0] in ("cpu_only_jaxlib", "cpu_fallback", "no_cuda_device")


def test_graphcast_after_v011_needs_jax_tree(jax_cpu_env_without_graphcast, tmp_path):
    """The GenCast commit uses `jax.tree`, which jax 0.4.23 lacks: diagnosed as such, not a crash."""
    src = require_graphcast_src()
    if shutil.which("git") is None or subprocess.run(["git", "-C", src, "cat-file", "-e", "bf9785fa^{commit}"],
                                                     capture_output=True).returncode != 0:
        pytest.skip("GC_WIZARD_GRAPHCAST_SRC is not a git checkout with the GenCast commit bf9785fa")
    newer = tmp_path / "graphcast-gencast"
    subprocess.run(["git", "clone", "-q", src, str(newer)], check=True)
    subprocess.run(["git", "-C", str(newer), "checkout", "-q", "bf9785fa"], check=True)
    result = verify_env(jax_cpu_env_without_graphcast, backend="cpu", level="quick", graphcast_src=newer,
                        log_path=tmp_path / "v.log")
    assert not result.ok
    assert result.to_dict()["findings"][0]["id"] == "jax_too_old_for_graphcast"


def test_verify_without_env_or_current_is_a_clear_user_error():
    proc = run_cli("verify", "--json")
    assert proc.returncode == 2
    assert "install" in proc.stderr and "Traceback" not in proc.stderr
