"""Every child gc-wizard starts gets its environment by one rule (`children.child_environ`): git's command-line
settings (GIT_CONFIG_PARAMETERS, GIT_CONFIG_COUNT/KEY_n/VALUE_n, each able to run a program through
`core.fsmonitor` or `credential.helper=!…`) and the loader's files another user could swap are left out.
`run_capture` and the installer steps took it, while detect's probes, the srun that runs `detect` on a node, its
scancel and verify's probe copied the whole environment."""

from __future__ import annotations

import ast
import subprocess
from pathlib import Path

import pytest

import wizard
from wizard.detect import deadline, slurm, srun_job
from wizard.verify import check

GIT = {"GIT_CONFIG_PARAMETERS": "'core.fsmonitor=/tmp/evil'", "GIT_CONFIG_COUNT": "1",
       "GIT_CONFIG_KEY_0": "credential.helper", "GIT_CONFIG_VALUE_0": "!/tmp/evil"}


class _Started(Exception):
    """Raised by the stand-in for the child's start, once its environment is kept."""


@pytest.fixture
def started(monkeypatch):
    """The environment each child would have been started with (`subprocess.Popen` and `subprocess.run`)."""
    envs: list[dict] = []

    def keep(*args, env=None, **kwargs):
        envs.append(env)
        raise _Started

    monkeypatch.setattr(subprocess, "Popen", keep)
    monkeypatch.setattr(subprocess, "run", keep)
    for name, value in GIT.items():
        monkeypatch.setenv(name, value)
    return envs


def _clean(env) -> bool:
    return env is not None and not set(GIT) & set(env) and env.get("PATH")


def test_detects_probes_get_no_git_settings():
    env = deadline.probe_env({**GIT, "PATH": "/usr/bin:/bin"})
    assert _clean(env) and env["LC_ALL"] == "C"


def test_the_srun_that_runs_detect_on_a_node_gets_no_git_settings(started, monkeypatch):
    monkeypatch.setattr(slurm, "which", lambda name: "/usr/bin/true")
    with pytest.raises(_Started):
        slurm.detect_on_node(slurm.SlurmTarget("gpu"), timeout=1)
    (env,) = started
    assert _clean(env)


def test_scancel_gets_no_git_settings(started, monkeypatch):
    monkeypatch.setattr(srun_job, "which", lambda name: "/usr/bin/true")
    job = srun_job.SrunJob()
    job.state = srun_job.JobState("queued", "17")
    try:
        job.cancel()
    except _Started:
        pass
    (env,) = started
    assert _clean(env)


def test_verifys_probe_gets_no_git_settings(started, tmp_path):
    from wizard.install.runner import StepLog

    child = {**GIT, "PATH": "/usr/bin:/bin", "PYTHONUNBUFFERED": "1"}
    with pytest.raises(_Started):
        check.run_probe(["/usr/bin/true"], child, tmp_path, check.ProbeStream(), StepLog(tmp_path / "log"),
                        timeout=1, cancel=None, listeners=check.ProbeListeners())
    (env,) = started
    assert _clean(env) and env["PYTHONUNBUFFERED"] == "1"


def test_every_child_is_started_under_the_one_rule():
    """The class: each module that starts a child (`Popen`, `subprocess.run`, `pexpect.spawn`) gives it an
    environment, and builds it with `child_environ`."""
    root = Path(wizard.__file__).parent
    wrong = []
    for path in sorted(root.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        for node in ast.walk(ast.parse(text)):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
                continue
            if node.func.attr not in ("Popen", "spawn") and not (
                    node.func.attr == "run" and getattr(node.func.value, "id", "") == "subprocess"):
                continue
            given = any(k.arg == "env" or k.arg is None for k in node.keywords)
            if not given or "child_environ(" not in text:
                wrong.append(f"{path.relative_to(root)}:{node.lineno}")
    assert wrong == []
