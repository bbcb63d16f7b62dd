"""The login-node flow on a real single-node Slurm cluster (tests/fixtures/slurm.py).

The wizard's own process is the "login node": it sees no GPU. Tasks that `srun` starts see the
stand-in A100 server through the node's TaskProlog, as a GPU node sees its driver. So every GPU fact
in these tests can only have come through srun.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.fixtures.cli import run_inproc
from tests.fixtures.gpu import host_has_nvidia_driver
from tests.fixtures.jaxenv import require_graphcast_src
from tests.fixtures.state import last_json

pytestmark = pytest.mark.slow


def test_detect_through_srun_reads_the_gpu_node_and_says_which(slurm):
    if host_has_nvidia_driver():
        pytest.skip("this host has a real NVIDIA driver, so the 'login node' would not be GPU-less")
    here = last_json(run_inproc("detect", "--json"))
    assert here["driver"] is None and here["gpus"] == [] and here["slurm"] is None

    proc = run_inproc("detect", "--slurm", slurm.partition, "--srun-arg=--time=5", "--json", timeout=120)
    assert proc.returncode == 0, proc.stderr
    node = last_json(proc)
    assert node["driver"] == {"version": "535.104.05", "cuda_driver_version": "12.2", "source": "nvml"}
    assert [g["name"] for g in node["gpus"]] == ["NVIDIA A100-SXM4-80GB"] * 2
    assert node["host"] == slurm.node and node["slurm"]["node"] == slurm.node
    assert node["slurm"]["partition"] == slurm.partition and node["slurm"]["job_id"].isdigit()
    assert "--time=5" in node["slurm"]["srun"] and "--export=ALL" in node["slurm"]["srun"]

    text = run_inproc("detect", "--slurm", timeout=120)  # the cluster's default partition
    assert text.returncode == 0, text.stderr
    assert f"Detected on node {slurm.node} (through srun" in text.stdout
    assert "NVIDIA A100-SXM4-80GB, 80 GiB, compute capability 8.0" in text.stdout


def test_recipes_through_srun_recommend_what_fits_the_node_not_the_login_node(slurm):
    if host_has_nvidia_driver():
        pytest.skip("this host has a real NVIDIA driver")
    here = last_json(run_inproc("recipes", "--json"))
    node = last_json(run_inproc("recipes", "--slurm", "--json", timeout=120))
    assert next(r["id"] for r in here if r["recommended"]) == "jax0.4.23-cpu"
    assert next(r["id"] for r in node if r["recommended"]) == "jax0.4.23-cuda12-cudnn89"


def test_bad_partition_and_stray_srun_args_are_plain_sentences(slurm):
    proc = run_inproc("detect", "--slurm", "nosuchpartition", timeout=120)
    assert proc.returncode == 2
    assert "srun refused partition nosuchpartition" in proc.stderr and "Traceback" not in proc.stderr
    proc = run_inproc("detect", "--srun-arg=--gpus=1")
    assert proc.returncode == 2 and "--srun-arg needs --slurm" in proc.stderr
    proc = run_inproc("detect", "--slurm", "--srun-arg", "hostname")
    assert proc.returncode == 2 and "is not an srun option" in proc.stderr


def test_install_through_slurm_detects_on_the_node_and_runs_the_check_there(slurm, tiny):
    """A tiny offline recipe installs here; its GraphCast check runs on the node through srun (and
    fails there, honestly: the tiny stack has no JAX) — the probe's own answer names the node."""
    args = ["--recipes-dir", str(tiny.recipes), "--find-links", str(tiny.house.path), "--offline",
            "--graphcast-src", str(tiny.graphcast), "--level", "quick"]
    proc = run_inproc("install", "tiny-a", "--yes", "--json", "--slurm", "--srun-arg=--time=5", *args, timeout=300)
    assert proc.returncode == 1, proc.stderr[-3000:]
    result = last_json(proc)
    assert f"Detected on node {slurm.node} (through srun" in proc.stderr
    where = result["verify"]["where"]
    assert where["via"] == "srun" and where["node"] == slurm.node and "--time=5" in where["srun"]
    first = result["verify"]["tiers"][0]
    assert first["name"] == "jax_import" and not first["ok"]
    log = Path(result["log"]).read_text()
    assert "the GraphCast check runs on a GPU node: " in log and "--job-name=gc-wizard-verify" in log

    # verify --slurm on a partition that does not exist: srun's own words, as a finding
    proc = run_inproc("verify", "--env", result["env"], "--slurm", "nosuchpartition", "--json", timeout=120)
    assert proc.returncode == 1
    finding = last_json(proc)["findings"][0]
    assert finding["id"] == "srun_failed" and "invalid partition" in finding["explanation"].lower()


@pytest.mark.network
def test_cpu_recipe_installs_here_and_verifies_on_the_node(slurm, isolated_state):
    """From a node without a GPU: detect on the GPU node, install here, verify there — the real stack."""
    src = require_graphcast_src()
    proc = run_inproc("install", "jax0.4.23-cpu", "--yes", "--json", "--slurm", "--srun-arg=--time=15",
                   "--graphcast-src", src, "--level", "quick", timeout=1500)
    assert proc.returncode == 0, proc.stderr[-3000:]
    result = last_json(proc)
    assert result["status"] == "verified" and result["verify"]["where"]["node"] == slurm.node
    assert [t["name"] for t in result["verify"]["tiers"] if t["ok"]][-1] == "graphcast_jit_init"
    history = json.loads(run_inproc("history", "--json").stdout.splitlines()[-1])
    (entry,) = [e for e in history if e["id"] == result["entry_id"]]
    assert entry["current"] and entry["verify"]["node"] == slurm.node

    again = run_inproc("verify", "--slurm", "--level", "quick", "--json", timeout=900)
    assert again.returncode == 0, again.stderr[-2000:]
    assert last_json(again)["where"]["node"] == slurm.node


def test_the_plain_flow_offers_slurm_and_then_uses_it(slurm):
    if host_has_nvidia_driver():
        pytest.skip("this host has a real NVIDIA driver")
    plain = run_inproc("--no-tui", timeout=120)
    assert plain.returncode == 0, plain.stderr
    assert "but Slurm is here (partitions: gpu): run `gc-wizard --slurm`" in plain.stdout
    node = run_inproc("--no-tui", "--slurm", "gpu", timeout=120)
    assert node.returncode == 0, node.stderr
    assert f"Detected on node {slurm.node} (through srun" in node.stdout
    assert "install jax0.4.23-cuda12-cudnn89 --yes --slurm gpu" in node.stdout
