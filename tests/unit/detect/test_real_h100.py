"""Detection held to a real H100 server: the stand-in answers as the hardware did, and what the hardware
showed that the stand-ins had not (a GPU image's own CUDA toolkit on PATH) is judged as it should be."""

from __future__ import annotations

import json

from tests.fixtures.cli import run_inproc
from tests.fixtures.real_gpu import capture
from tests.fixtures.state import last_json
from tests.standins import standin_env
from wizard.detect.chain import detect
from wizard.detect.facts import Facts
from wizard.detect.preflight import assess
from wizard.flows.describe_machine import machine_lines as render

REAL = capture("detect.json")


def test_the_h100_standin_answers_as_the_real_driver_did(gpu_server):
    gpu_server("h100-580")
    facts = detect().to_dict()
    assert facts["driver"] == REAL["driver"] == {"version": "580.159.04", "cuda_driver_version": "13.0",
                                                  "source": "nvml"}
    keys = ("index", "name", "memory_total_mib", "compute_capability", "source", "uuid")
    assert [{k: g[k] for k in keys} for g in facts["gpus"]] == [{k: g[k] for k in keys} for g in REAL["gpus"]]


def test_the_real_capture_reads_back_renders_and_fits():
    facts = Facts.from_dict(REAL)
    text = "\n".join(render(facts))
    assert "580.159.04" in text and "supports CUDA up to 13.0; from nvml" in text
    assert "NVIDIA H100 80GB HBM3, 80 GiB, compute capability 9.0" in text
    verdicts = {fit.need.id: fit.verdict for fit in assess(facts)}
    # 126 GiB of host RAM: every model fits the 80 GB GPU, but 0.25° GenCast cannot compile in that RAM.
    assert verdicts == {"graphcast-1deg": "fits", "graphcast-0p25deg": "fits", "gencast-1deg": "fits",
                        "gencast-0p25deg": "host_too_small"}
    assert Facts.from_dict(json.loads(json.dumps(facts.to_dict()))).to_dict() == facts.to_dict()


def _toolkit(root, version: str):
    bin_dir = root / f"cuda-{version}" / "bin"
    bin_dir.mkdir(parents=True)
    (bin_dir / "ptxas").write_text("#!/bin/sh\n")
    (bin_dir.parent / "version.json").write_text(json.dumps({"cuda": {"version": f"{version}.88"}}))
    return bin_dir


def _toolkit_warnings(gpu_server, monkeypatch, tmp_path, version: str) -> list[str]:
    env = gpu_server("h100-580")
    monkeypatch.setenv("PATH", f"{_toolkit(tmp_path, version)}:{env['PATH']}")
    return [w.message for w in detect().warnings if w.id == "path_cuda_toolkit"]


def test_the_drivers_own_cuda_toolkit_on_path_is_no_problem(gpu_server, monkeypatch, tmp_path):
    # The real server: /usr/local/cuda/bin (CUDA 13.0) on PATH under a CUDA 13.0 driver, and JAX's CUDA 13
    # plugin ran every tier there; the capture still calls it an "old ptxas", which it was not.
    assert [w["id"] for w in REAL["warnings"]] == ["path_cuda_toolkit"]
    assert _toolkit_warnings(gpu_server, monkeypatch, tmp_path, "13.0") == []


def test_an_older_toolkit_on_path_is_named_with_both_versions(gpu_server, monkeypatch, tmp_path):
    (message,) = _toolkit_warnings(gpu_server, monkeypatch, tmp_path, "11.2")
    assert "old ptxas (CUDA 11.2; this driver runs CUDA 13.0)" in message and "gc-wizard activate" in message


def test_a_toolkit_newer_than_the_driver_is_named(gpu_server, monkeypatch, tmp_path):
    (message,) = _toolkit_warnings(gpu_server, monkeypatch, tmp_path, "13.1")
    assert "newer than this driver runs (CUDA up to 13.0)" in message


def test_recipes_on_the_real_h100s_driver(tmp_path):
    by_id = {r["id"]: r for r in last_json(run_inproc("recipes", "--json", env=standin_env("h100-580", tmp_path)))}
    recommended = [rid for rid, r in by_id.items() if r["recommended"]]
    # Hopper (9.0) runs jaxlib 0.4.23's CUDA 12 build under a CUDA 13.0 driver: the notebook's stack is the pick.
    assert recommended == ["jax0.4.23-cuda12-cudnn89"], recommended
    assert by_id["jax0.10.2-cuda13"]["compatible"]
