"""`--python` given a wrapper that starts a background helper, then runs the real Python (hostile pass 19 P6): the
interpreter answered at once, but the helper held its output open, and `plan` waited 590 s (after its timeout it
waited again without one). The wizard takes the answer once the interpreter has ended and stops what it left
behind; a helper of its own group never outlives the probe."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

from tests.fixtures.state import last_json, run_cli


def _helpers(tag: str) -> list[str]:
    proc = subprocess.run(["pgrep", "-f", tag], capture_output=True, text=True)
    return proc.stdout.split()


def test_a_wrapper_whose_helper_holds_the_output_is_answered_at_once_and_its_helper_stopped(tiny, tmp_path):
    tag = "sleep 307"  # this test's own helper, found by its command line
    wrapper = tmp_path / "pywrap"
    wrapper.write_text(f'#!/bin/sh\n{tag} &\nexec {sys.executable} "$@"\n')
    wrapper.chmod(0o755)
    started = time.monotonic()
    proc = run_cli("plan", "tiny-a", "--python", str(wrapper), "--json", "--recipes-dir", str(tiny.recipes),
                   "--find-links", str(tiny.house.path), "--offline", "--graphcast-src", str(tiny.graphcast),
                   timeout=120)
    took = time.monotonic() - started
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert last_json(proc)["python"]  # the wrapper is the environment's interpreter, as asked
    assert took < 60, took  # not the helper's 307 s
    deadline = time.monotonic() + 10
    while _helpers(tag) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not _helpers(tag), "the wrapper's helper outlived the probe"


def test_an_install_through_such_a_wrapper_makes_the_env_from_the_python_it_runs_and_does_not_hang(tiny, tmp_path):
    """37th hostile pass (part A) P3: `plan` answered at once, but install's `uv venv --python WRAPPER` waited for the
    helper's held output, silently, until the 30-minute inactivity limit. The step is handed the interpreter file
    the wrapper ran (its own `sys.executable`): the environment is made from that file whichever is named."""
    tag = "sleep 311"
    real = os.path.realpath(getattr(sys, "_base_executable", sys.executable))
    wrapper = tmp_path / "pywrap"
    wrapper.write_text(f'#!/bin/sh\n{tag} &\nexec {real} "$@"\n')
    wrapper.chmod(0o755)
    try:
        proc, result = tiny.install("tiny-a", "--python", str(wrapper), timeout=240)
        assert proc.returncode == 0, proc.stdout + proc.stderr
        assert result["ok"], result
        log = Path(result["log"]).read_text()
        create = next(line for line in log.splitlines() if line.startswith("$ ") and " venv --python " in line)
        assert f"--python {real} " in create + " " and str(wrapper) not in create, create
    finally:
        subprocess.run(["pkill", "-f", tag], capture_output=True)
