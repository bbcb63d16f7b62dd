"""The app on a GPU-less "login node" of a real Slurm cluster, in tmux at 80×24: it offers the GPU node,
detects there through srun, installs here, and runs the GraphCast check on the node."""

from __future__ import annotations

import json
import shutil
import sys
import time
from pathlib import Path

import pytest

from tests.fixtures.frame import screen_words
from tests.fixtures.gpu import host_has_nvidia_driver
from tests.fixtures.jaxenv import graphcast_src
from tests.fixtures.state import last_json, run_cli
from tests.fixtures.tmux import Tmux, wait_gone, wizard_env
from tests.fixtures.wheels import build_wheel

# Timing-sensitive (a real terminal or real signals on a loaded 2-core machine): a failure is retried twice.
pytestmark = [pytest.mark.flaky(reruns=2, reruns_delay=2), pytest.mark.tmux, pytest.mark.slow,
              pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux")]

TINY = """\
schema: 1
id: tiny-node
title: Tiny stack checked on a node
description: Tiny local wheels; GraphCast from a local wheel.
backend: cpu
preference: 0
requirements: [pkg-a==1.0]
find_links: [{house}]
extra_index_urls: []
graphcast:
  source: graphcast @ file://{graphcast}
  revision: 97d1ad50b0b7af4aaed7790167dffa769bae1f2c
  version: 0.1.1
machine: {{os: [linux], arch: [x86_64, aarch64], python: ">=3.10,<3.13"}}
runtime_env: {{}}
prompts: []
notes: []
disk_gib: 0.01
"""


def _app(tmux: Tmux, tmp_path: Path, slurm, recipes: Path, *extra: str) -> dict[str, str]:
    if host_has_nvidia_driver():
        pytest.skip("this host has a real NVIDIA driver, so the 'login node' would not be GPU-less")
    env = {**wizard_env(tmp_path, "xterm-256color", profile="no-nvidia"), **slurm.env}
    tmux.app([sys.executable, "-m", "wizard", "--recipes-dir", str(recipes), *extra], env)
    screen = " ".join(tmux.wait_for("but Slurm is here", timeout=60).split())
    assert "but Slurm is here (partitions: gpu, cpu). Press g to detect" in screen
    tmux.keys("g")
    screen = tmux.wait_for("(through srun, job", timeout=120)
    assert f"Detected on node {slurm.node} (through srun" in screen and "A100-SXM4-80GB" in screen
    return env


def _pick(tmux: Tmux, recipes: Path, env: dict[str, str], recipe_id: str) -> None:
    ids = [r["id"] for r in last_json(run_cli("--recipes-dir", str(recipes), "recipes", "--slurm", "--json",
                                              env=env, timeout=120))]
    tmux.keys("Enter")
    tmux.wait_for("Choose a recipe")
    tmux.keys("Home", *(["Down"] * ids.index(recipe_id)))
    time.sleep(0.5)
    tmux.keys("Enter")
    tmux.wait_for(f"{recipe_id} · The plan: what will run")
    # The source's caution (the tiny wheel is not the release) and the recipe's own find-links folder fill the
    # first page: page down until the srun step shows.
    for _ in range(4):
        tmux.keys("PageDown")
        time.sleep(0.5)
        if "then the GraphCast check on a GPU node of the default partition" in tmux.screen():
            break
    tmux.wait_for("then the GraphCast check on a GPU node of the default partition")
    tmux.keys("Enter")


def test_the_app_offers_the_gpu_node_and_runs_the_check_there(tmux, tmp_path, slurm):
    house = tmp_path / "house"
    build_wheel(house, "pkg-a", "1.0")
    graphcast = build_wheel(house, "graphcast", "0.1.1")
    recipes = tmp_path / "recipes"
    recipes.mkdir()
    (recipes / "tiny-node.yaml").write_text(TINY.format(house=house, graphcast=graphcast))
    # Offline: the tiny wheels are all in the recipe's own find-links folder (every test not marked `network`
    # has the package index closed, and a login node may have none).
    env = _app(tmux, tmp_path, slurm, recipes, "--offline")
    _pick(tmux, recipes, env, "tiny-node")
    # The tiny stack has no JAX: the check, run on the node, says so — and says where it ran, on which node and job
    # (walk 28 #7: the failure did not; the pane's closing words may then be below its first screen).
    screen = tmux.wait_for(f"The GraphCast check ran on node {slurm.node} (Slurm job ", timeout=240)
    assert "✗" in screen or "FAILED" in screen.upper()
    history = json.loads(run_cli("history", "--json", env=env).stdout.splitlines()[-1])
    (entry,) = [e for e in history if e["recipe"] == "tiny-node"]
    assert entry["verify"]["node"] == slurm.node and entry["status"] == "failed"
    assert "--job-name=gc-wizard-verify" in Path(entry["log"]).read_text()


@pytest.mark.network
def test_the_app_installs_here_and_verifies_on_the_node(tmux, tmp_path, slurm):
    """The real CPU stack (a copy of the built-in recipe whose GraphCast is the local checkout)."""
    src = graphcast_src()
    if src is None:
        pytest.skip("needs GraphCast's source: set GC_WIZARD_GRAPHCAST_SRC to a GraphCast v0.1.1 checkout")
    from wizard.paths import builtin_recipes_dir

    recipes = tmp_path / "recipes"
    recipes.mkdir()
    text = (builtin_recipes_dir() / "jax0.4.23-cpu.yaml").read_text()
    pinned = "graphcast @ git+https://github.com/google-deepmind/graphcast@97d1ad50b0b7af4aaed7790167dffa769bae1f2c"
    assert pinned in text
    (recipes / "jax0.4.23-cpu.yaml").write_text(text.replace(pinned, f"graphcast @ file://{src}"))
    env = _app(tmux, tmp_path, slurm, recipes)
    _pick(tmux, recipes, env, "jax0.4.23-cpu")
    screen = tmux.wait_for(f"GraphCast runs on node {slurm.node} (checked through srun)", timeout=900)
    tmux.keys("Enter")
    screen = tmux.wait_for("gc-wizard · Done", timeout=30)
    assert f"(checked on node {slurm.node} through srun)" in screen
    tmux.keys("m")
    tmux.wait_for("Module written", timeout=30)
    assert list((Path(env["GC_WIZARD_HOME"]) / "modules" / "graphcast").glob("jax0.4.23-cpu.lua"))


@pytest.mark.parametrize("key", ["C-q", "C-c"])
def test_a_queued_detection_is_shown_and_ctrl_q_or_ctrl_c_leave_at_once_cancelling_the_job(tmux, tmp_path, slurm,
                                                                                         key):
    """The walk's worst moment: on a busy partition the app said only "Detecting…", ctrl+q blanked the screen
    and the process stayed, and the pending job ran later. Now the queue is on screen within seconds and
    either key leaves at once, with no job of the wizard's left in `squeue`."""
    if host_has_nvidia_driver():
        pytest.skip("this host has a real NVIDIA driver")
    env = {**wizard_env(tmp_path, "xterm-256color", profile="no-nvidia"), **slurm.env}
    with slurm.busy():
        pid = tmux.app([sys.executable, "-m", "wizard", "--slurm", slurm.partition], env)
        screen = tmux.wait_for("queued (Resources", timeout=30)
        assert "Waiting for a node: job " in screen and "Escape cancels the job" in screen
        assert slurm.jobs("gc-wizard-detect"), "the job is pending while the screen says so"
        tmux.keys(key)
        assert wait_gone(pid, 10), "the app must leave at once"
        assert slurm.jobs("gc-wizard-detect") == []


def test_escape_cancels_the_wait_and_o_moves_to_another_partition_without_a_restart(tmux, tmp_path, slurm):
    if host_has_nvidia_driver():
        pytest.skip("this host has a real NVIDIA driver")
    env = {**wizard_env(tmp_path, "xterm-256color", profile="no-nvidia"), **slurm.env}
    with slurm.busy():
        tmux.app([sys.executable, "-m", "wizard", "--slurm", slurm.partition], env)
        tmux.wait_for("queued (Resources", timeout=30)
        tmux.keys("Escape")
        tmux.wait_for("was cancelled", timeout=15)
        assert slurm.jobs("gc-wizard-detect") == []
    tmux.type_into_dialog("o", f"{slurm.cpu_partition} --time=5", "Slurm partition, then any srun options")
    # The problem box leads with the warning's id ("! [slurm_node_no_gpu] …"), so the sentence wraps elsewhere.
    screen = tmux.wait_for("shows this job no NVIDIA", timeout=60)
    # (read without the frame: the box's scrollbar thumb can stand between two of the sentence's words)
    assert f"Node {slurm.node} (partition cpu) shows this job no NVIDIA GPU" in screen_words(screen)
