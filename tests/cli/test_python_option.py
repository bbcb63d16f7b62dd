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


@pytest.mark.parametrize("value", ["/proc/self/exe", "/dev/fd/0", f"/proc/self/root{sys.executable}"])
def test_a_path_whose_meaning_is_the_openers_is_refused_before_it_is_run(isolated_state, value):
    """37th hostile pass (part B) P4: `--python /proc/self/exe` was probed as "Python 3.11.7" (the wizard's own
    Python, in the probe) and handed to uv, where it was uv itself: the plan approved a step that could not run."""
    proc = run_inproc("plan", "jax0.10.2-cpu", "--python", value)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr
    assert f"--python {value}: {value} leads into /proc" in proc.stderr and "it was not run" in proc.stderr


def test_a_relative_path_is_the_file_in_this_folder_for_every_step(isolated_state, tmp_path):
    """37th hostile pass (part B) P4, the class: `--python ./py` was run as `py` (looked up on PATH), and a step in
    another folder would take it from there; the plan names the absolute path the check ran."""
    (tmp_path / "py").symlink_to(sys.executable)
    python = last_json(run_inproc("plan", "jax0.10.2-cpu", "--python", "./py", "--json", cwd=tmp_path))["python"]
    assert python["executable"] == str(tmp_path / "py") and python["source"] == "given"
