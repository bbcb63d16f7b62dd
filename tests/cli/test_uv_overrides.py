"""uv variables that would change WHAT an install puts in the environment are set back for every uv step, and named
(`install.uv_overrides`).

Before (31st hostile pass, part B, P10): `UV_VENV_SEED=1` reached `uv venv`, which offline failed "No solution found
when resolving: pip, setuptools, wheel" (online it added three packages no recipe pins); the plan was silent and
`diagnose` called it a conflict between the recipe's pins. The real CLI in this process, on the tiny recipes."""

from __future__ import annotations

import glob

from tests.fixtures.cli import run_inproc


def test_uv_venv_seed_is_set_back_and_named_by_plan_and_install(tiny, monkeypatch):
    monkeypatch.setenv("UV_VENV_SEED", "1")
    plan = run_inproc("plan", "tiny-a", *tiny.args()[:-1])
    assert plan.returncode == 0, (plan.stdout, plan.stderr)
    assert "UV_VENV_SEED=1 in your environment" in plan.stdout and "UV_VENV_SEED=0 for uv" in plan.stdout, plan.stdout
    proc, result = tiny.install("tiny-a")
    assert proc.returncode == 0, (proc.stdout, proc.stderr)
    env = result["env"]
    assert not glob.glob(f"{env}/lib/python*/site-packages/pip"), "uv venv seeded pip into the environment"
    assert "UV_VENV_SEED=0 for uv" in proc.stdout + proc.stderr
