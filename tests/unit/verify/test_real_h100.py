"""Verify, diagnosis, history and the forecast's JSON held to what a real H100 server gave.

The captures (tests/data/real/h100) are the wizard's own output there: GraphCast v0.2's and GenCast's 1°
jit inits on the GPU with JAX 0.11.2 and cuDNN 9.19; three real failures met on the way to that environment
(dm-haiku 0.0.16 under JAX 0.11, pandas without pytz, trimesh without rtree); a GraphCast and a GenCast
forecast on the tests' small real assets.
"""

from __future__ import annotations

import pytest

from tests.fixtures.real_gpu import capture, log
from wizard.flows.describe_check import tier_detail
from wizard.history.store import load_history, record_verify
from wizard.verify.check import VerifyResult
from wizard.verify.diagnose import diagnose_text

PASSED = capture("verify.json")


def test_the_real_gpu_result_reads_back_whole():
    result = VerifyResult.from_dict(PASSED)
    assert result.ok and result.backend == "gpu" and not result.findings
    assert [t.name for t in result.tiers] == ["jax_import", "backend", "cudnn_op", "graphcast_jit_init",
                                              "gencast_jit_init"]
    assert VerifyResult.from_dict(result.to_dict()).to_dict() == result.to_dict()


def test_the_real_gpu_result_renders_for_people():
    lines = {t.name: tier_detail(t) for t in VerifyResult.from_dict(PASSED).tiers}
    assert lines["jax_import"] == ("jax 0.11.2, jaxlib 0.11.2 (CUDA plugin), numpy 2.5.2, built for CUDA 13.0 / "
                                   "cuDNN 9.12.0; DeepMind's GraphCast 0.2")  # what the import found: the Verify screen's words too
    assert lines["backend"] == "gpu: 1 device(s) (NVIDIA H100 80GB HBM3)"
    assert lines["cudnn_op"] == "convolution ok on NVIDIA H100 80GB HBM3, cuDNN 9.19.0 loaded"
    assert lines["graphcast_jit_init"].startswith("70,739 parameters, init 12.824 s (trace 2.578 s, compile")
    assert lines["gencast_jit_init"].startswith("57,492,612 parameters, init 56.262 s")


def test_history_keeps_a_real_gpu_check(tmp_path):
    env = tmp_path / "env"
    env.mkdir()
    result = VerifyResult.from_dict(PASSED)
    entry = record_verify(env, result.summary(), log=result.log, recipe="jax0.10.2-cuda13")
    assert entry is not None
    (kept,) = [e for e in load_history().entries if e.id == entry.id]
    assert kept.status == "verified" and kept.verify.ok and kept.verify.backend == "gpu"
    assert (kept.verify.param_count, kept.verify.gencast_param_count) == (70_739, 57_492_612)
    assert kept.verify.gencast and kept.verify.gencast_init_seconds == 56.262


@pytest.mark.parametrize("name, first, evidence", [
    # JAX 0.11 removed jax.core.DropVar, which dm-haiku 0.0.16 reads at import; 0.0.17 fixed it.
    ("verify-haiku-0.0.16-on-jax-0.11.2.log", "jax_too_new", "jax.core.DropVar"),
    ("verify-pandas-without-pytz.log", "python_module_missing", "pytz"),
    ("verify-trimesh-without-rtree.log", "python_module_missing", "rtree"),
])
def test_the_real_failures_are_named(name, first, evidence):
    findings = diagnose_text(log(name))
    assert findings and findings[0].id == first, [f.id for f in findings]
    assert evidence in " ".join(findings[0].evidence) + findings[0].explanation


def test_the_removed_api_is_named_in_the_explanation():
    (finding, *_) = diagnose_text(log("verify-haiku-0.0.16-on-jax-0.11.2.log"))
    assert "`jax.core.DropVar`" in finding.explanation


@pytest.mark.parametrize("name", ["verify-passed.log", "forecast-gencast.log"])
def test_the_real_clean_runs_give_no_finding(name):
    assert diagnose_text(log(name)) == []


def test_the_capture_that_said_no_known_failure_now_names_it():
    # At capture time the wizard called this "matches no known failure" (verify_failed): the two-release
    # wording of JAX's deprecation module was not in its patterns.
    failed = capture("verify-haiku-0.0.16-on-jax-0.11.2.json")
    assert [f["id"] for f in failed["findings"]] == ["verify_failed"]
    tier = next(t for t in failed["tiers"] if t["status"] == "failed")
    assert diagnose_text("\n".join(tier["error"]["traceback_tail"]))[0].id == "jax_too_new"


@pytest.mark.parametrize("name, steps", [("forecast-graphcast.json", 2), ("forecast-gencast.json", 1)])
def test_the_real_forecasts_ran_on_the_gpu(name, steps):
    result = capture(name)
    assert result["ok"] and result["finite"] and result["backend"] == "gpu"
    assert result["devices"] == ["NVIDIA H100 80GB HBM3"] and result["steps"] == steps
    assert result["graphcast_version"] == "0.2" and not result["findings"]
