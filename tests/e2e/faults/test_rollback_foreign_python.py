"""A rollback to an environment whose `bin/python` leads to a script that starts another venv's Python (24th hostile
pass (part B) P7): before, rollback ran that script (its freeze), and its re-sync ("putting its package set back")
uninstalled and put back the packages of whatever venv the script exec'd — in the tester's first run, root's base
Python. Now every run of an env's python and every installer step pointed at an env go through one guard
(`paths.guard_env_python`): refused before anything runs, the script never started, the victim untouched.

The victim is a scratch venv under tmp (never a real Python); everything else is the real CLI and real uv."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.fixtures.envs import python_link_env
from tests.fixtures.state import run_cli
from wizard import paths
from wizard.install.plan import Step
from wizard.install.runner import StepSetupError, check_step, installer_env
from wizard.uv_tool import uv_bin


def _victim(tmp_path: Path, wheelhouse) -> Path:
    """A scratch venv holding pkg-b (the tiny wheelhouse's), outside the state."""
    victim = tmp_path / "victim"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(victim)], check=True)
    subprocess.run([uv_bin(), "pip", "install", "-q", "--python", str(victim / "bin" / "python"), "--find-links",
                    str(wheelhouse.path), "--offline", "pkg-b==2.0"], check=True)
    return victim


def _wrapper(tmp_path: Path, victim: Path) -> tuple[Path, Path]:
    """A script of the reader's own (so no other user is involved: the swap rule passes it) that marks it ran and
    execs the victim's python."""
    ran = tmp_path / "wrapper-ran"
    script = tmp_path / "wrap" / "python"
    script.parent.mkdir()
    script.write_text(f"#!/bin/sh\ntouch {ran}\nexec {victim}/bin/python \"$@\"\n")
    script.chmod(0o755)
    return script, ran


def _victim_set(victim: Path) -> list[str]:
    return sorted(p.name for p in (victim / "lib").glob("python*/site-packages/*") if not p.name.startswith("_"))


def test_a_rollback_never_runs_an_env_python_that_leads_to_a_script_nor_syncs_another_venv(tiny, tmp_path):
    victim = _victim(tmp_path, tiny.house)
    before = _victim_set(victim)
    assert any(name.startswith("pkg_b") for name in before)
    _, a = tiny.install("tiny-a")
    _, b = tiny.install("tiny-b")
    env = Path(a["env"])
    script, ran = _wrapper(tmp_path, victim)
    (env / "bin" / "python").unlink()
    (env / "bin" / "python").symlink_to(script)
    proc = run_cli("rollback", a["entry_id"], "--yes", "--no-verify", "--json")
    out = proc.stdout + proc.stderr
    assert proc.returncode != 0 and "Traceback" not in out, out
    error = json.loads(proc.stdout.splitlines()[-1])["error"]
    assert f"the environment {env}" in error and f"{script}, a script" in error and "nothing was run" in error, error
    assert not ran.exists(), "the env's python (a script) was run"
    assert f"environment at: {victim}" not in out
    assert _victim_set(victim) == before
    assert next(e for e in tiny.history() if e["current"])["id"] == b["entry_id"]


def test_the_guard_reads_the_env_without_running_it(tmp_path):
    """The rule itself, on scratch folders only: a `pyvenv.cfg` of the env's own and a python that is no script."""
    env = python_link_env(tmp_path / "env", to=os.path.realpath(sys.executable))  # an interpreter: never run here
    assert "pyvenv.cfg is missing" in paths.env_python_problem(env)  # it would run as its base installation
    (env / "pyvenv.cfg").write_text("home = /usr/bin\n")
    assert paths.env_python_problem(env) is None
    assert paths.guard_env_python(env) == env / "bin" / "python"
    (env / "bin" / "pyvenv.cfg").write_text("home = /usr/bin\n")
    assert "makes its python take" in paths.env_python_problem(env)
    (env / "bin" / "pyvenv.cfg").unlink()
    script = tmp_path / "other" / "python"
    script.parent.mkdir()
    script.write_text("#!/bin/sh\nexit 99\n")
    script.chmod(0o755)
    (env / "bin" / "python").unlink()
    (env / "bin" / "python").symlink_to(script)
    with pytest.raises(paths.ForeignFolder, match="a script"):
        paths.guard_env_python(env)
    # A whole installation (a conda env) has no pyvenv.cfg: its own binary, inside it, makes it its own prefix.
    whole = tmp_path / "conda"
    (whole / "bin").mkdir(parents=True)
    shutil.copy(os.path.realpath(sys.executable), whole / "bin" / "python3.11")
    (whole / "bin" / "python").symlink_to("python3.11")
    assert paths.env_python_problem(whole) is None
    (whole / "bin" / "python").unlink()
    shutil.copy(script, whole / "bin" / "python")  # a script inside it is still refused
    assert "a script" in paths.env_python_problem(whole)


@pytest.mark.parametrize("argv", [
    ("uv", "pip", "sync", "--python", "{env}/bin/python", "req.txt"),
    ("uv", "pip", "install", "--python={env}/bin/python", "pkg-a"),
    ("{env}/bin/python", "-m", "pip", "install", "pkg-a"),
])
def test_the_runner_checks_every_installer_step_pointed_at_an_env(tmp_path, argv):
    env = tmp_path / "env"
    (env / "bin").mkdir(parents=True)
    script = tmp_path / "python-wrapper"
    script.write_text("#!/bin/sh\nexit 99\n")
    script.chmod(0o755)
    (env / "bin" / "python").symlink_to(script)
    (env / "pyvenv.cfg").write_text("home = /usr/bin\n")
    argv = tuple(word.format(env=env) for word in argv)
    argv = (uv_bin(), *argv[1:]) if argv[0] == "uv" else argv
    assert installer_env(argv) == env
    with pytest.raises(StepSetupError, match=f"Step sync: the environment {env}: .* a script"):
        check_step(Step(name="sync", title="sync", kind="sync", argv=argv), {"PATH": os.environ.get("PATH", "")})
    assert installer_env((uv_bin(), "venv", "--python", str(env / "bin" / "python"), str(tmp_path / "new"))) is None


def test_verify_runs_no_env_python_that_leads_to_a_script(tiny, tmp_path):
    """verify runs the env's python (its probe): the same guard as rollback, not only activate's swap rule."""
    victim = _victim(tmp_path, tiny.house)
    _, a = tiny.install("tiny-a")
    env = Path(a["env"])
    script, ran = _wrapper(tmp_path, victim)
    (env / "bin" / "python").unlink()
    (env / "bin" / "python").symlink_to(script)
    proc = run_cli("verify", "--env", str(env))
    assert proc.returncode != 0 and "Traceback" not in proc.stdout + proc.stderr, proc.stdout + proc.stderr
    assert f"{script}, a script" in " ".join(proc.stderr.split()) and not ran.exists(), proc.stderr


def test_an_in_place_install_never_runs_an_env_python_that_leads_to_a_script(tiny, tmp_path):
    """`install --env ENV` into an existing env asks its python its version (a run), then installs into it: the
    plan refuses a bin/python leading to a script before either, and nothing is installed anywhere."""
    victim = _victim(tmp_path, tiny.house)
    before = _victim_set(victim)
    env = tmp_path / "inplace"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(env)], check=True)
    script, ran = _wrapper(tmp_path, victim)
    (env / "bin" / "python").unlink()
    (env / "bin" / "python").symlink_to(script)
    proc, _ = tiny.install("tiny-a", "--env", str(env))
    out = proc.stdout + proc.stderr
    assert proc.returncode != 0 and "Traceback" not in out, out
    assert f"{script}, a script" in " ".join(out.split()) and not ran.exists(), out
    assert _victim_set(victim) == before
