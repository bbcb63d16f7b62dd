"""A real H200 server read back with this tree's parsers and renderers (captures under
tests/data/real/h200/recheck-2026-11-27b/): detection from NVML, the env read from its files, every verify tier on
the GPU, and both forecasts — so a change that only the real hardware would have shown breaks here."""

from __future__ import annotations

from tests.fixtures.real_gpu import REAL, capture, log, passed_on_gpu
from wizard.detect.facts import Facts
from wizard.detect.preflight import assess

RECHECK = REAL / "h200" / "recheck-2026-11-27b"


def test_nvml_named_the_card_its_memory_and_the_drivers_cuda():
    facts = capture("detect.json", RECHECK)
    assert facts["driver"] == {"version": "580.159.04", "cuda_driver_version": "13.0", "source": "nvml"}
    (gpu,) = facts["gpus"]
    assert (gpu["name"], gpu["memory_total_mib"], gpu["compute_capability"]) == ("NVIDIA H200", 143771, "9.0")
    assert facts["warnings"] == []
    verdicts = {fit.need.id: fit.verdict for fit in assess(Facts.from_dict(facts))}
    assert verdicts["graphcast-0p25deg"] == "fits" and verdicts["gencast-0p25deg"] == "host_too_small"


def test_every_tier_passed_on_the_gpu_and_reads_back_whole():
    passed_on_gpu(RECHECK)
    assert capture("diagnose-env.json", RECHECK)["findings"] == []


def test_both_forecasts_ran_on_the_gpu_and_an_ambiguous_folder_was_refused_with_the_fix():
    for name, steps in (("forecast-graphcast.json", 2), ("forecast-gencast.json", 1)):
        forecast = capture(name, RECHECK)
        assert forecast["ok"] and forecast["finite"] and forecast["backend"] == "gpu", name
        assert forecast["devices"] == ["NVIDIA H200"] and forecast["steps"] == steps and not forecast["findings"]
    refused = capture("forecast-two-params-refused.json", RECHECK)
    assert refused == {"ok": False, "exit": 2, "error": refused["error"]}
    assert "choose one with --model" in refused["error"] and "forecast --list" in refused["error"]
    assert "GraphCast_tiny" in log("forecast-list.txt", RECHECK) and "GenCast_tiny" in log("forecast-list.txt", RECHECK)
