"""The same kind of H100 server a day later, with this tree's hardened code (state-folder guards, bounded reads,
redaction on every stream): the captures under tests/data/real/h100/recheck-2026-11-27/ are read back as the
first ones are, so a change that only the real hardware would have shown breaks here, not on a user's node."""

from __future__ import annotations

from tests.fixtures.real_gpu import H100, capture, passed_on_gpu
from wizard.detect.facts import Facts
from wizard.detect.preflight import assess
from wizard.verify.check import VerifyResult

RECHECK = H100 / "recheck-2026-11-27"


def test_detection_saw_the_same_kind_of_server_and_no_longer_calls_its_toolkit_old():
    first, again = capture("detect.json"), capture("detect.json", RECHECK)
    assert again["driver"] == first["driver"]
    keys = ("name", "memory_total_mib", "compute_capability", "source")  # another card of the same kind (uuid)
    assert [{k: g[k] for k in keys} for g in again["gpus"]] == [{k: g[k] for k in keys} for g in first["gpus"]]
    # The image's /usr/local/cuda 13.0 on PATH under a CUDA 13.0 driver: the first capture warned; now none.
    assert [w["id"] for w in first["warnings"]] == ["path_cuda_toolkit"] and again["warnings"] == []
    verdicts = {fit.need.id: fit.verdict for fit in assess(Facts.from_dict(again))}
    assert verdicts["gencast-0p25deg"] == "host_too_small" and verdicts["graphcast-1deg"] == "fits"


def test_both_inits_passed_on_the_gpu_and_the_toolkit_was_moved_aside():
    passed_on_gpu(RECHECK)
    removed = capture("verify.json", RECHECK)["removed_paths"]
    assert [(r["variable"], r["dir"]) for r in removed] == [("PATH", "/usr/local/cuda/bin")]


def test_the_env_read_from_disk_and_the_gencast_forecast_agree_with_the_first_day():
    assert capture("diagnose-env.json", RECHECK)["findings"] == capture("diagnose-env.json")["findings"] == []
    forecast = capture("forecast-gencast.json", RECHECK)
    assert forecast["ok"] and forecast["finite"] and forecast["backend"] == "gpu"
    assert forecast["devices"] == ["NVIDIA H100 80GB HBM3"] and not forecast["findings"]


H200 = H100.parent / "h200"


def test_an_h200_ran_every_tier_and_a_graphcast_forecast_with_the_same_renderer():
    """Another card of the same generation (the device pool lent an H200 for the session's last check): the GPU
    result and the forecast read back whole, named by the card's own name."""
    result = VerifyResult.from_dict(capture("verify.json", H200))
    assert result.ok and result.backend == "gpu" and not result.findings
    cudnn = result.tier("cudnn_op")
    assert cudnn is not None and cudnn.status == "passed"
    assert capture("verify.json", H200)["tiers"][2]["cudnn_loaded"] == "9.19.0"
    assert result.tier("gencast_jit_init").status == "passed"
    forecast = capture("forecast-graphcast.json", H200)
    assert forecast["ok"] and forecast["finite"] and forecast["devices"] == ["NVIDIA H200"] and forecast["steps"] == 2
