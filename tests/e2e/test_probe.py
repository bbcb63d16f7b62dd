"""The verify probe, run for real by a real jax 0.4.23 CPU environment's Python.

The GraphCast runs need its source (`GC_WIZARD_GRAPHCAST_SRC`, a v0.1.1 checkout) and skip with that
reason otherwise; the failure paths that need no GraphCast always run.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import tarfile
from pathlib import Path

import pytest

from tests.fixtures.jaxenv import require_graphcast_src
from wizard.verify.diagnose import diagnose_text
from wizard.verify.probe import PROBE_PATH

pytestmark = [pytest.mark.network, pytest.mark.slow]

TIERS = ["jax_import", "backend", "cudnn_op", "graphcast_jit_init"]
GENCAST_COMMIT = "bf9785fa72a0f5c3eec5b516d5ea154ab07f12ab"


def run_probe(env: Path, *args: str, platforms: str | None = "cpu", timeout: float = 600):
    """Run the probe as verify does (own Python, own session); return (proc, result, tier progress)."""
    child = {k: v for k, v in os.environ.items() if k not in ("JAX_PLATFORMS", "LD_LIBRARY_PATH")}
    if platforms:
        child["JAX_PLATFORMS"] = platforms
    proc = subprocess.run([str(env / "bin" / "python"), str(PROBE_PATH), *args], capture_output=True, text=True,
                          env=child, timeout=timeout)
    lines = [line for line in proc.stdout.splitlines() if line.strip()]
    result = json.loads(lines[-1]) if lines else None
    progress = [json.loads(line.split(": ", 1)[1]) for line in proc.stderr.splitlines()
                if line.startswith("gc-wizard-tier: ")]
    starts = [json.loads(line.split(": ", 1)[1])["name"] for line in proc.stderr.splitlines()
              if line.startswith("gc-wizard-tier-start: ")]
    return proc, result, progress, starts


def tier(result, name):
    return next(t for t in result["tiers"] if t["name"] == name)


def test_notebook_level_initialises_the_notebook_model(jax_cpu_env):
    require_graphcast_src()
    proc, result, progress, starts = run_probe(jax_cpu_env, "--level", "notebook")
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert result["ok"] is True and result["level"] == "notebook"
    assert [t["name"] for t in result["tiers"]] == TIERS
    # Progress: a start line and a finish line per tier, in order, the same dicts as the result.
    assert starts == TIERS and [t["name"] for t in progress] == TIERS
    assert progress == result["tiers"]

    imported = tier(result, "jax_import")
    assert imported["versions"]["jax"] == "0.4.23" and imported["versions"]["numpy"] == "1.26.4"
    assert imported["versions"]["graphcast"] and imported["jaxlib_build_tag"] is None
    assert imported["gpu_build"] is False and result["backend"] == "cpu"  # auto: a CPU jaxlib expects cpu

    backend = tier(result, "backend")
    assert backend["default_backend"] == "cpu" and backend["devices"][0]["platform"] == "cpu"
    assert tier(result, "cudnn_op")["status"] == "skipped"

    init = tier(result, "graphcast_jit_init")
    assert init["param_count"] == 70739  # the demo notebook's random-weights model on a 1-degree grid
    assert init["param_arrays"] == 118 and init["param_modules"] == 59
    assert init["params_finite"] is True
    assert init["grid"] == {"lat": 181, "lon": 360, "levels": 13}
    assert 0 < init["trace_seconds"] < init["init_seconds"]
    assert 0 < init["compile_seconds"] < init["init_seconds"]
    assert init["peak_rss_mib"] > 100
    # The harmless noise stays on stderr for the log, and gives no finding.
    assert "Skipping gradient checkpointing for sequence length of 1" in proc.stderr
    assert diagnose_text(proc.stderr) == []


def test_gpu_expected_on_a_cpu_machine_fails_at_backend(jax_cpu_env_without_graphcast):
    proc, result, progress, _ = run_probe(jax_cpu_env_without_graphcast, "--backend", "gpu", "--level", "quick",
                                          platforms=None)
    assert proc.returncode == 1
    assert result["ok"] is False and result["backend"] == "gpu"
    statuses = [t["status"] for t in result["tiers"]]
    assert statuses == ["passed", "failed", "not_run", "not_run"]
    failed = tier(result, "backend")
    assert failed["default_backend"] == "cpu"
    assert "CPU-only build" in failed["error"]["message"]
    findings = diagnose_text(proc.stderr)
    assert [f.id for f in findings] == ["cpu_only_jaxlib"]


def test_graphcast_missing_fails_the_graphcast_tier(jax_cpu_env_without_graphcast):
    proc, result, _, _ = run_probe(jax_cpu_env_without_graphcast, "--level", "quick")
    assert proc.returncode == 1
    assert [t["status"] for t in result["tiers"]] == ["passed", "passed", "skipped", "failed"]
    error = tier(result, "graphcast_jit_init")["error"]
    assert error["type"] == "ModuleNotFoundError" and "graphcast" in error["message"]
    assert [f.id for f in diagnose_text(proc.stderr)] == ["graphcast_missing"]


def _gencast_checkout(dest: Path) -> Path:
    """GraphCast at the GenCast commit (uses jax.tree.map), exported from the checkout's own history."""
    src = require_graphcast_src()
    show = subprocess.run(["git", "-C", src, "cat-file", "-e", f"{GENCAST_COMMIT}^{{commit}}"], capture_output=True)
    if show.returncode != 0:
        pytest.skip(f"GC_WIZARD_GRAPHCAST_SRC ({src}) is not a git checkout that has commit {GENCAST_COMMIT[:8]}")
    archive = subprocess.run(["git", "-C", src, "archive", "--format=tar", GENCAST_COMMIT, "graphcast"],
                             capture_output=True, check=True)
    with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
        tar.extractall(dest, filter="data")
    return dest


def test_graphcast_needing_newer_jax_is_named(jax_cpu_env, tmp_path):
    gencast = _gencast_checkout(tmp_path / "gencast")
    proc, result, _, _ = run_probe(jax_cpu_env, "--level", "quick", "--graphcast-src", str(gencast))
    assert proc.returncode == 1
    init = tier(result, "graphcast_jit_init")
    assert init["status"] == "failed"
    assert init["graphcast_path"] == str(gencast / "graphcast")  # the checkout, not the installed v0.1.1
    assert init["error"]["type"] == "AttributeError"
    assert init["error"]["message"] == "module 'jax' has no attribute 'tree'"
    assert [f.id for f in diagnose_text(proc.stderr)] == ["jax_too_old_for_graphcast"]


def test_bad_arguments_exit_2(jax_cpu_env_without_graphcast, tmp_path):
    proc, result, _, _ = run_probe(jax_cpu_env_without_graphcast, "--graphcast-src", str(tmp_path / "nope"))
    assert proc.returncode == 2 and result is None
    assert "is not a folder" in proc.stderr
    proc, _, _, _ = run_probe(jax_cpu_env_without_graphcast, "--level", "huge")
    assert proc.returncode == 2 and "invalid choice" in proc.stderr
