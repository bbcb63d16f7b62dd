"""`PIP_PYTHON` and `PIP_DRY_RUN` are refused by the plan ("!") and the install before anything runs: the program
`PIP_PYTHON` names never runs, and no install that installed nothing is recorded (35th hostile pass (part A) P3, P5)."""

from __future__ import annotations

import pytest

from tests.fixtures.state import last_json, run_cli


@pytest.mark.parametrize("variable", ["PIP_PYTHON", "PIP_DRY_RUN"])
def test_the_install_refuses_it_and_runs_nothing(tiny, tmp_path, variable):
    marker = tmp_path / "ran"
    program = tmp_path / "fakepy"
    program.write_text(f"#!/bin/sh\ntouch {marker}\nexit 1\n")
    program.chmod(0o755)
    value = str(program) if variable == "PIP_PYTHON" else "1"
    proc = run_cli("install", "tiny-a", "--installer", "pip", "--yes", "--json", *tiny.args(),
                   env={variable: value})
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert last_json(proc)["error"].startswith(f"{variable}={value} in the environment would make pip")
    assert not marker.exists() and tiny.history() == []
    args = [arg for arg in tiny.args() if arg != "--no-verify"]
    plan = run_cli("plan", "tiny-a", "--installer", "pip", "--json", *args, env={variable: value})
    assert f"{variable}={value}" in plan.stdout, plan.stdout + plan.stderr
    assert not marker.exists()
