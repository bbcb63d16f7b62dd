"""The login-node flow on a real single-node Slurm cluster (tests/fixtures/slurm.py).

The wizard's own process is the "login node": it sees no GPU. Tasks that `srun` starts see the
stand-in A100 server through the node's TaskProlog, as a GPU node sees its driver. So every GPU fact
in these tests can only have come through srun.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest

from tests.fixtures.cli import bare_program, run_inproc, shell_line
from tests.fixtures.gpu import host_has_nvidia_driver
from tests.fixtures.jaxenv import require_graphcast_src
from tests.fixtures.state import REPO, last_json

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
    assert "Slurm has no partition nosuchpartition. This cluster's partitions: gpu, cpu." in proc.stderr
    assert "Traceback" not in proc.stderr and "srun: error" not in proc.stderr  # srun's lines went to the log
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
    assert finding["id"] == "srun_failed" and "Slurm has no partition nosuchpartition" in finding["fix"]
    assert last_json(proc)["started"] is False and all(t["status"] == "not_run" for t in last_json(proc)["tiers"])
    text = run_inproc("verify", "--env", result["env"], "--slurm", "nosuchpartition", timeout=120)
    assert "The GraphCast check never ran: srun did not start it on a node." in text.stdout
    assert "failed at jax_import" not in text.stdout and "Verification failed at" not in text.stdout


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
    assert "but Slurm is here (partitions: gpu, cpu): run `gc-wizard --slurm`" in bare_program(plain.stdout)
    node = run_inproc("--no-tui", "--slurm", "gpu", timeout=120)
    assert node.returncode == 0, node.stderr
    assert f"Detected on node {slurm.node} (through srun" in node.stdout
    # Walk 24 #2: where JAX's wheel page does not answer, the line takes the PyPI plugin (the plan says why).
    assert re.search(r"install jax0\.4\.23-cuda12-cudnn89 --yes( --alternative pypi-plugin)? --slurm gpu",
                     node.stdout), node.stdout


# --- the moments a real cluster adds (issue 29): a queue, a partition without GPUs, no configuration ---

def _wizard_jobs(slurm) -> list[str]:
    return [*slurm.jobs("gc-wizard-detect"), *slurm.jobs("gc-wizard-verify")]


def test_a_queued_detection_says_so_and_a_bounded_wait_cancels_its_job(slurm):
    with slurm.busy():
        proc = run_inproc("detect", "--slurm", slurm.partition, "--slurm-wait", "3", timeout=120)
        assert proc.returncode == 1, proc.stderr
        assert "waiting for a node: job " in proc.stderr and "queued (Resources: every node it may use is busy" in proc.stderr
        assert "waited 0:03 in the queue of partition gpu (Resources) without getting a node, longer than " \
               "--slurm-wait 3 s, so it was cancelled." in proc.stderr
        assert _wizard_jobs(slurm) == [], "the pending job must not run later"


def test_ctrl_c_while_queued_cancels_the_job_and_leaves_at_once(slurm, tmp_path):
    """A real process, a real SIGINT, as a user's Ctrl-C while srun waits in the queue."""
    env = {**os.environ, **slurm.env, "PYTHONUNBUFFERED": "1"}
    with slurm.busy():
        proc = subprocess.Popen([sys.executable, "-m", "wizard", "detect", "--slurm", slurm.partition],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=REPO)
        line = ""
        while "queued" not in line:
            line = proc.stderr.readline()
            assert line, "srun never said the job was queued"
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=20)
        assert proc.returncode == 130
        said = line + proc.stderr.read()
        assert "stopped by Ctrl-C" in said
        job = re.search(r"job (\d+) queued", said).group(1)
        assert f"gc-wizard: cancelled Slurm job {job} (it never got a node)" in said  # walk 28 #10: said, by its id
        assert _wizard_jobs(slurm) == []


def test_the_cluster_options_before_the_command_reach_the_node(slurm):
    if host_has_nvidia_driver():
        pytest.skip("this host has a real NVIDIA driver")
    before = last_json(run_inproc("--slurm", slurm.partition, "--srun-arg", "--time=5", "detect", "--json", timeout=120))
    assert before["slurm"]["node"] == slurm.node and "--time=5" in before["slurm"]["srun"]
    bare = run_inproc("--slurm", "detect", timeout=120)  # a command name after --slurm is not a partition
    assert bare.returncode == 0 and f"Detected on node {slurm.node}" in bare.stdout, bare.stderr
    plan = run_inproc("--slurm", "plan", "jax0.4.23-cuda12-cudnn89", timeout=120)
    assert plan.returncode == 0 and "DOES NOT FIT" not in plan.stdout, plan.stderr
    # rows joined; `--alternative ID` where the recipe's own wheel page does not answer here (walk 24 #2), and the
    # GraphCast source install needs where github.com does not (walk 38 #3: the remembered one, else DIR)
    assert re.search(r"install jax0\.4\.23-cuda12-cudnn89(?: --alternative \S+)?(?: --graphcast-src \S+)? --slurm\b",
                     shell_line(plan.stdout, "To run it: "))


def test_a_partition_without_gpus_is_named_with_the_fixes(slurm):
    if host_has_nvidia_driver():
        pytest.skip("this host has a real NVIDIA driver")
    facts = last_json(run_inproc("detect", "--slurm", slurm.cpu_partition, "--json", timeout=120))
    first = facts["warnings"][0]
    assert first["id"] == "slurm_node_no_gpu"
    assert first["message"].startswith(f"Node {slurm.node} (partition cpu) shows this job no NVIDIA GPU")
    assert "--srun-arg=--gpus=1" in first["message"] and "partition" in first["message"]
    plan = run_inproc("plan", "jax0.4.23-cuda12-cudnn89", "--slurm", slurm.cpu_partition, timeout=120)
    assert f"DOES NOT FIT NODE {slurm.node}" in plan.stdout


def test_a_gpu_request_the_cluster_cannot_give_is_a_sentence(slurm):
    proc = run_inproc("detect", "--slurm", slurm.partition, "--srun-arg", "--gpus=1", timeout=120)
    assert proc.returncode == 2
    assert ("Slurm refused the GPU request: partition gpu has no GPUs it can hand out, and no partition here lists "
            "any") in proc.stderr
    assert "Invalid generic resource" not in proc.stderr and "Traceback" not in proc.stderr


def test_no_slurm_configuration_is_a_sentence(slurm, monkeypatch):
    if Path("/etc/slurm/slurm.conf").exists() or Path("/etc/slurm-llnl/slurm.conf").exists():
        pytest.skip("this machine has a system-wide Slurm configuration")
    monkeypatch.delenv("SLURM_CONF")
    proc = run_inproc("detect", "--slurm", "gpu", timeout=120)
    assert proc.returncode == 2
    assert "srun cannot find this cluster's Slurm configuration (SLURM_CONF or /etc/slurm/slurm.conf)" in proc.stderr
    assert "resolve_ctls_from_dns_srv" not in proc.stderr


def test_a_check_whose_job_waits_too_long_never_ran_and_history_says_why(slurm, tmp_path):
    env = tmp_path / "env"
    venv.EnvBuilder(with_pip=False, symlinks=True).create(env)
    with slurm.busy():
        proc = run_inproc("verify", "--env", env, "--slurm", slurm.partition, "--slurm-wait", "3", "--json",
                          timeout=120)
        assert _wizard_jobs(slurm) == []
    result = last_json(proc)
    assert proc.returncode == 1 and result["started"] is False
    assert result["findings"][0]["id"] == "slurm_queue_timeout"
    assert "waiting for a node: job " in proc.stderr
    history = last_json(run_inproc("history", "--json"))
    assert "no node was free in time" in history[-1]["error"]


def test_report_slurm_describes_the_gpu_node(slurm):
    if host_has_nvidia_driver():
        pytest.skip("this host has a real NVIDIA driver")
    proc = run_inproc("report", "--slurm", slurm.partition, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "## GPU node " in proc.stdout and "(detected through srun, partition gpu, job " in proc.stdout
    assert "2 × NVIDIA A100-SXM4-80GB" in proc.stdout


def test_a_forecast_through_srun_follows_its_job_and_gives_up_a_long_queue(slurm, tmp_path, isolated_state):
    """The forecast's files are fetched here; the run goes to a node through srun, like the check. On a busy
    partition its job is shown queued and, past --slurm-wait, cancelled with a sentence (nothing is left)."""
    from tests.fixtures.forecast import MODEL
    from wizard.after.forecast import ForecastRequest, run_forecast
    from wizard.detect.slurm import SlurmTarget
    from wizard.install.envs import Env

    env = tmp_path / "env"
    venv.EnvBuilder(with_pip=False, symlinks=True).create(env)
    source = tmp_path / "assets"
    for name in (f"params/{MODEL}", "dataset/source-era5_date-2016-01-01_res-10.0_levels-13_steps-04.nc",
                 "stats/diffs_stddev_by_level.nc", "stats/mean_by_level.nc", "stats/stddev_by_level.nc"):
        (source / name).parent.mkdir(parents=True, exist_ok=True)
        if name.endswith(".npz"):  # the right kinds of file (checked by their first bytes); never read: no node
            with zipfile.ZipFile(source / name, "w") as archive:
                archive.writestr("params.npy", b"")
        else:
            (source / name).write_bytes(b"CDF\x01" + bytes(60))
    states = []
    with slurm.busy():
        result = run_forecast(ForecastRequest(env=Env.at(env), assets=str(source)), slurm=SlurmTarget(
            slurm.partition, wait=3), on_job=states.append)
        assert slurm.jobs("gc-wizard-forecast") == []
    assert not result.ok and "in the queue of partition gpu (Resources)" in result.error, result.error
    assert states and states[0].phase == "queued" and result.where["job_id"] == states[0].job_id
    assert result.output is None


def test_an_install_whose_node_never_frees_up_stops_before_anything_installs(slurm, tiny, isolated_state):
    args = ["--recipes-dir", str(tiny.recipes), "--find-links", str(tiny.house.path), "--offline",
            "--graphcast-src", str(tiny.graphcast), "--level", "quick"]
    with slurm.busy():
        proc = run_inproc("install", "tiny-a", "--yes", "--slurm", "--slurm-wait", "3", *args, timeout=120)
        assert _wizard_jobs(slurm) == []
    assert proc.returncode == 1, proc.stderr
    assert "waiting for a node: job " in proc.stdout and "without getting a node" in proc.stderr
    assert not list((Path(isolated_state) / "envs").glob("tiny-a*")), "nothing may be installed"


def test_a_rollback_checks_on_a_node_as_its_install_was_checked(slurm, tiny):
    """Walk 28 #9: the install recorded its Slurm target, so a plain `rollback` (no --slurm) checks the target on a
    node through the same srun options — never a JAX compile on the login node; `--slurm` given now wins."""
    installed, a = tiny.install("tiny-a", "--slurm", slurm.partition, "--srun-arg=--time=5")
    assert installed.returncode == 0, installed.stderr[-3000:]
    (entry,) = [e for e in tiny.history() if e["id"] == a["entry_id"]]
    assert entry["slurm"] == {"partition": slurm.partition, "srun_args": ["--time=5"], "wait": 600.0}
    assert tiny.install("tiny-b")[0].returncode == 0
    proc = run_inproc("rollback", "--yes", "--json", "--level", "quick", timeout=300)
    result = last_json(proc)
    assert proc.returncode == 1 and result["to"] == a["entry_id"]  # tiny-a has no JAX: the check fails, on the node
    where = result["verify"]["where"]
    assert where["via"] == "srun" and where["node"] == slurm.node and "--time=5" in where["srun"]
    assert (f"on a GPU node of partition {slurm.partition} through srun, as its install's check did"
            in " ".join(proc.stderr.split()))  # the CLI wraps its sentences between words (walk 33 #5)

    proc = run_inproc("rollback", "--yes", "--json", "--level", "quick", "--slurm", "nosuchpartition", timeout=300)
    assert proc.returncode == 1 and last_json(proc)["verify"]["findings"][0]["id"] == "srun_failed"
    assert "--slurm [PARTITION]" in run_inproc("rollback", "--help").stdout
    # walk 28 #7: the failure names the node and the job it ran on
    proc = run_inproc("rollback", "--yes", "--level", "quick", timeout=300)
    assert proc.returncode == 1 and f"The GraphCast check ran on node {slurm.node} (Slurm job " in proc.stderr


def test_install_slurm_refuses_what_this_machine_knows_before_asking_for_a_node(slurm, tiny, isolated_state,
                                                                               monkeypatch):
    """Walk 28 #11: an unreachable GraphCast host (known on the login node) is refused before any job is queued —
    with the partition full, the old order waited for a node first."""
    monkeypatch.delenv("GC_WIZARD_GRAPHCAST_SRC", raising=False)
    (tiny.recipes / "tiny-a.yaml").write_text((tiny.recipes / "tiny-a.yaml").read_text()
                                             .replace("github.com", "github.invalid"))
    with slurm.busy():
        proc = run_inproc("install", "tiny-a", "--yes", "--json", "--recipes-dir", str(tiny.recipes), "--find-links",
                          str(tiny.house.path), "--slurm", slurm.partition, "--slurm-wait", "30", timeout=120)
        assert _wizard_jobs(slurm) == []
    assert proc.returncode == 2, proc.stderr[-2000:]
    assert last_json(proc)["error"].startswith("github.invalid cannot be reached from here")
    assert "Detecting the GPU node" not in proc.stderr and "waiting for a node" not in proc.stderr


def test_install_slurm_refuses_a_held_state_folder_before_asking_for_a_node(slurm, tiny, isolated_state):
    """Walk 29 N1: `install --slurm` ran its detection job on a node, then was refused because another gc-wizard was
    working in the state folder — which the login node knew. The state lock is asked first: no job is queued."""
    from wizard.lock import StateLock

    with StateLock("install tiny-b"), slurm.busy():  # held by "another wizard"; a job asked for would queue
        proc = run_inproc("install", "tiny-a", "--yes", "--json", *tiny.args(), "--slurm", slurm.partition,
                          "--slurm-wait", "30", timeout=120)
        assert _wizard_jobs(slurm) == []
    assert proc.returncode == 1 and "Another gc-wizard is already working" in proc.stderr, proc.stderr[-2000:]
    assert "install tiny-b" in proc.stderr and "waiting for a node" not in proc.stderr


def test_a_forecast_whose_files_cannot_be_had_here_starts_no_job(slurm, tmp_path, isolated_state, monkeypatch):
    """Walk 28 #12: `forecast --slurm` fetches its files here; when their place (no --assets: GC_WIZARD_ASSETS, or the
    bucket) does not answer, it says so before srun is asked for anything — no detection job, no forecast job."""
    env = tmp_path / "env"
    venv.EnvBuilder(with_pip=False, symlinks=True).create(env)
    monkeypatch.setenv("GC_WIZARD_ASSETS", "http://127.0.0.1:9/gc-assets/")  # the bucket, as a server without it
    with slurm.busy():  # a job asked for would queue, and be seen
        proc = run_inproc("forecast", "--env", str(env), "--slurm", slurm.partition, "--slurm-wait", "5", "--json",
                          timeout=120)
        assert slurm.jobs("gc-wizard-detect") == [] and slurm.jobs("gc-wizard-forecast") == []
    assert proc.returncode == 1 and last_json(proc)["ok"] is False, proc.stderr[-2000:]
    assert "cannot reach 127.0.0.1" in last_json(proc)["error"]
    assert "waiting for a node" not in proc.stderr and "running on node" not in proc.stderr
