"""`plan`/`install --python X.Y|PATH`: the interpreter a new environment is built on, chosen by the user.

A version is looked up on the machine (PATH, pyenv, uv) and else offered as a uv download; a path must run and
fit the recipe. Every refusal is one sentence naming the value and what the recipe needs (exit 2).
"""

from __future__ import annotations

import sys

import pytest

from tests.fixtures.cli import run_inproc
from tests.fixtures.pythons import has_python_for_jax012
from tests.fixtures.state import last_json


def _plan(*args: str):
    return run_inproc("plan", *args, "--json")


def test_a_found_version_is_used(isolated_state):
    if not has_python_for_jax012():
        pytest.skip("needs a Python 3.12 or 3.13 on this machine (PATH, pyenv or uv)")
    python = last_json(_plan("jax0.12.0.1-cpu", "--python", "3.13" if _has("3.13") else "3.12"))["python"]
    assert python["version"].startswith(("3.13.", "3.12.")) and python["source"] in ("path", "pyenv", "uv")


def _has(minor: str) -> bool:
    from wizard.recipes.pythons import find_pythons

    return any(p.version.startswith(minor + ".") for p in find_pythons())


def test_the_wizards_own_path_is_taken_where_it_fits(isolated_state):
    python = last_json(_plan("jax0.10.2-cpu", "--python", sys.executable))["python"]
    assert python["executable"] == sys.executable and python["source"] == "given"


def test_a_version_not_on_the_machine_is_a_uv_download_online_and_a_clear_refusal_offline(
        isolated_state, only_the_wizards_python):
    python = last_json(_plan("jax0.12.0.1-cpu", "--python", "3.12"))["python"]
    assert python == {"executable": "3.12", "version": "3.12", "source": "uv-download", "has_venv": True}
    proc = run_inproc("plan", "jax0.12.0.1-cpu", "--python", "3.12", "--offline")
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert "no Python 3.12 was found" in proc.stderr and "`uv python install 3.12`" in proc.stderr


@pytest.mark.parametrize("value, says", [
    (sys.executable, f"is Python {sys.version.split()[0]}, but recipe jax0.12.0.1-cpu needs Python >=3.12,<3.14"),
    ("3.11", "recipe jax0.12.0.1-cpu needs Python >=3.12,<3.14, and 3.11 is outside it"),
    ("/etc/passwd", "not a Python interpreter that runs"),
    ("python3", "give a version such as 3.12 or the path of an interpreter"),
])
def test_a_python_that_cannot_build_the_recipe_is_refused_by_name(isolated_state, value, says):
    proc = run_inproc("plan", "jax0.12.0.1-cpu", "--python", value)
    assert proc.returncode == 2 and says in proc.stderr and "Traceback" not in proc.stderr
    assert not (isolated_state / "envs").exists() or not any((isolated_state / "envs").iterdir())
