"""Inputs that cannot work are refused up front; races between wizards lose nothing; verify is recorded.

- `--env` paths no shell, PATH or kernelspec can hold (':', a newline), in every command that takes one;
- `--timeout` that cannot time anything (0, negative, NaN, infinity, text);
- two installs in the same second in one state folder, and two state folders installing into one `--env`;
- an installer that waits on a question under `--yes` fails the step at once; one that goes silent is
  stopped by the inactivity limit, which says so;
- `gc-wizard verify` lands in history, and the report shows the last verify and its findings.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.fixtures.cli import run_inproc
from tests.fixtures.processes import SLEEPY_JAX, spawn
from tests.fixtures.state import REPO, last_json

BAD_ENVS = {"colon": "/tmp/gc:env", "newline": "/tmp/gc\nenv", "carriage-return": "/tmp/gc\renv"}
ENV_COMMANDS = {
    "plan": ["plan", "jax0.4.23-cpu", "--json", "--env"],
    "install": ["install", "jax0.4.23-cpu", "--yes", "--json", "--env"],
    "verify": ["verify", "--json", "--env"],
    "kernel": ["kernel", "install", "--json", "--env"],
    "activate": ["activate", "--env"],
}


@pytest.mark.parametrize("bad", list(BAD_ENVS))
@pytest.mark.parametrize("command", list(ENV_COMMANDS))
def test_an_env_path_no_shell_can_hold_is_refused_up_front(command, bad, isolated_state):
    proc = run_inproc(*ENV_COMMANDS[command], BAD_ENVS[bad])
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr and "--env" in proc.stderr
    if "--json" in ENV_COMMANDS[command]:
        assert last_json(proc)["ok"] is False and last_json(proc)["exit"] == 2
    assert not (isolated_state / "envs").exists()


@pytest.mark.parametrize("value", ["0", "-5", "nan", "inf", "-inf", "soon"])
def test_a_timeout_that_cannot_time_anything_is_refused(value):
    proc = run_inproc("verify", "--timeout", value, "--json")
    assert proc.returncode == 2 and "--timeout" in proc.stderr and "Traceback" not in proc.stderr
    assert last_json(proc) == {"ok": False, "error": last_json(proc)["error"], "exit": 2}


def test_two_installs_in_the_same_second_lose_nothing(tiny, isolated_state):
    first = spawn("install", "tiny-a", "--yes", "--json", *tiny.args())
    second = spawn("install", "tiny-b", "--yes", "--json", *tiny.args())
    outs = [p.communicate(timeout=300) for p in (first, second)]
    codes = sorted(p.returncode for p in (first, second))
    for out, err in outs:
        assert "Traceback" not in err
        json.loads(out.splitlines()[-1])
    assert codes[0] == 0, outs  # one got the state folder; the other was refused or waited its turn
    if codes[1] != 0:
        assert any("Another gc-wizard" in err for _, err in outs), outs
    # Back to back within one second: the second must never reuse (and then delete) the first's folder.
    a = run_inproc("install", "tiny-a", "--yes", "--json", *tiny.args())
    b = run_inproc("install", "tiny-a", "--yes", "--json", *tiny.args())
    for proc in (a, b):
        assert "Traceback" not in proc.stderr
    envs = [last_json(p)["env"] for p in (a, b) if last_json(p)["ok"]]
    assert envs, (a.stderr, b.stderr)
    for entry in tiny.history():
        if entry["status"] in ("verified", "installed"):
            assert Path(entry["env"], "bin", "python").exists(), f"{entry['env']} was lost"


def test_two_state_folders_installing_into_one_env_at_once(tiny, tmp_path, slow_house):
    """The second wizard (another state folder) is refused while the first builds --env DIR."""
    slow_house.add("pkg-slow", "1.0")
    tiny.write("tiny-slow", ["pkg-slow==1.0"])
    target = tmp_path / "shared-env"
    slow_args = ["--recipes-dir", str(tiny.recipes), "--find-links", str(tiny.house.path), "--find-links",
                 slow_house.url, "--graphcast-src", str(tiny.graphcast), "--no-verify"]
    first = spawn("install", "tiny-slow", "--yes", "--json", "--env", str(target), *slow_args,
                  env={**slow_house.env(), "GC_WIZARD_HOME": str(tmp_path / "state-1")})
    try:
        deadline = time.monotonic() + 60
        while not (target / "bin" / "python").exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        second = run_inproc("install", "tiny-a", "--yes", "--json", "--env", str(target), *tiny.args(),
                         env={"GC_WIZARD_HOME": str(tmp_path / "state-2")})
        assert second.returncode == 1, second.stderr
        assert "already installing into" in second.stderr and str(target) in second.stderr
        assert last_json(second)["ok"] is False
    finally:
        first.kill()
        first.communicate(timeout=60)


def test_under_yes_an_installer_question_fails_the_step_at_once(tmp_path):
    """`uv venv` over an existing environment asks "replace it? [y/n]"; the plan's rule answers no."""
    from uv import find_uv_bin

    from wizard.install.plan import NO_REPLACE, Step
    from wizard.install.runner import run_step

    env = tmp_path / "existing"
    subprocess.run([find_uv_bin(), "venv", "-q", str(env)], check=True)
    before = sorted(p.name for p in env.iterdir())
    step = Step(name="create-env", title="create", argv=(find_uv_bin(), "venv", str(env)), prompts=(NO_REPLACE,))
    started = time.monotonic()
    result = run_step(step, log=None)
    assert not result.ok and time.monotonic() - started < 15
    assert any("'n'" in note for note in result.answered), result
    assert sorted(p.name for p in env.iterdir()) == before  # nothing replaced


def test_a_silent_step_is_stopped_by_the_inactivity_limit_which_says_so(tmp_path, monkeypatch):
    from wizard.install.plan import Step
    from wizard.install.runner import INACTIVITY_ENV, StepLog, run_step

    monkeypatch.setenv(INACTIVITY_ENV, "2")
    step = Step(name="silent", title="hangs without a word", argv=(sys.executable, "-c", "import time; time.sleep(60)"))
    started = time.monotonic()
    with StepLog(tmp_path / "log") as log:
        result = run_step(step, log=log)
    assert not result.ok and time.monotonic() - started < 15
    assert "inactivity limit" in result.error and INACTIVITY_ENV in result.error
    assert "inactivity limit" in (tmp_path / "log").read_text()


@pytest.mark.parametrize("value", ["0", "-1", "nan", "inf", "abc", "30s"])
def test_an_inactivity_limit_that_is_no_number_of_seconds_is_refused_before_anything_runs(tiny, isolated_state,
                                                                                            value):
    """Eleventh hostile pass #208: `0`, `-1`, `nan` and `abc` were taken without a word (the default, half an hour,
    applied). Install and rollback now refuse them, naming the variable, before an environment is made."""
    from wizard.install.runner import INACTIVITY_ENV

    for argv in (("install", "tiny-a", "--yes", "--json", *tiny.args()), ("rollback", "--yes", "--json")):
        proc = run_inproc(*argv, env={INACTIVITY_ENV: value})
        assert proc.returncode == 2 and f"{INACTIVITY_ENV}={value!r}" in proc.stderr, proc.stderr
        assert "Traceback" not in proc.stderr and last_json(proc)["ok"] is False
    assert not (isolated_state / "envs").exists() or not list((isolated_state / "envs").iterdir())


def test_verify_is_recorded_and_the_report_shows_it(tiny, isolated_state):
    tiny.house.add("jax", "0.4.23", module_source="raise ImportError('libcudnn.so.8: cannot open shared object file')\n")
    tiny.write("tiny-jax", ["jax==0.4.23"])
    proc, result = tiny.install("tiny-jax")
    assert proc.returncode == 0, proc.stderr
    verify = run_inproc("verify", "--env", result["env"], "--level", "quick", "--json")
    assert verify.returncode == 1
    entries = tiny.history()
    last = entries[-1]
    assert last["kind"] == "verify" and last["status"] == "failed" and last["env"] == result["env"]
    assert last["verify"]["findings"]
    report = run_inproc("report")
    assert report.returncode == 0, report.stderr
    section = report.stdout.split("## Last verify", 1)[1].split("\n## ", 1)[0]
    assert "FAILED" in section and last["verify"]["findings"][0] in section


def test_a_probe_hanging_past_verify_timeout_is_stopped_and_said(tiny, isolated_state):
    tiny.house.add("jax", "0.4.23", module_source=SLEEPY_JAX)
    tiny.write("tiny-jax", ["jax==0.4.23"])
    proc, result = tiny.install("tiny-jax")
    assert proc.returncode == 0, proc.stderr
    started = time.monotonic()
    verify = run_inproc("verify", "--env", result["env"], "--level", "quick", "--timeout", "3", "--json")
    assert verify.returncode == 1 and time.monotonic() - started < 30
    out = last_json(verify)
    assert out["timed_out"] and out["findings"][0]["id"] == "verify_timeout"
    leftovers = subprocess.run(["pgrep", "-f", f"{result['env']}/bin/python"], capture_output=True, text=True)
    assert leftovers.stdout.strip() == ""


def test_the_wizard_started_by_a_dead_parent_never_waits(tmp_path):
    """stdin closed, no terminal: bare `gc-wizard` runs the plain flow and exits; it never asks."""
    proc = subprocess.run([sys.executable, "-m", "wizard"], cwd=REPO, stdin=subprocess.DEVNULL, capture_output=True,
                          text=True, timeout=120, env={**os.environ, "TERM": "dumb"})
    assert proc.returncode == 0 and "Traceback" not in proc.stderr
