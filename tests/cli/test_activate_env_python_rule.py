"""`activate` and `module install` hold the env they export to the rule of every run of an env's python
(`paths.guard_env_python`), as verify, forecast and rollback do.

Known limit after pass 24: activate and the module file only used `guard_env` (the swap rule), so an env whose
`bin/python` led to a script (which may exec any Python), or whose python, with no `pyvenv.cfg`, starts as the
machine's own installation, was exported first on PATH without a word, while verify and forecast refused it. Real
files, the real CLI in-process; the script is never run.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tests.fixtures.cli import run_inproc


def _env(tmp_path: Path, *, script: bool, venv_cfg: bool) -> tuple[Path, Path, Path]:
    ran = tmp_path / "ran"
    env = tmp_path / "env"
    (env / "bin").mkdir(parents=True)
    target = Path(sys.executable)
    if script:
        target = tmp_path / "wrap" / "python"
        target.parent.mkdir()
        target.write_text(f"#!/bin/sh\ntouch {ran}\nexec {sys.executable} \"$@\"\n")
        target.chmod(0o755)
    (env / "bin" / "python").symlink_to(target)
    if venv_cfg:
        (env / "pyvenv.cfg").write_text(f"home = {Path(sys.executable).parent}\n")
    return env, target, ran


@pytest.mark.parametrize("command", [("activate",), ("module", "install")])
@pytest.mark.parametrize("script, venv_cfg, words", [(True, True, "a script"), (False, False, "pyvenv.cfg is missing")])
def test_an_env_python_that_is_not_the_envs_own_is_never_exported(tmp_path, command, script, venv_cfg, words):
    env, target, ran = _env(tmp_path, script=script, venv_cfg=venv_cfg)
    extra = ("--dir", str(tmp_path / "modules")) if command[0] == "module" else ()
    proc = run_inproc(*command, "--env", str(env), *extra)
    error = " ".join(proc.stderr.split())
    assert proc.returncode == 1 and words in error and "nothing was run" in error, proc.stderr
    assert str(env) in error and "Traceback" not in proc.stderr and "export" not in proc.stdout
    assert not ran.exists() and not (tmp_path / "modules").exists()


@pytest.mark.parametrize("command", [("activate",), ("module", "install")])
def test_a_venv_whose_python_is_its_own_is_exported(tmp_path, command):
    env, _, _ = _env(tmp_path, script=False, venv_cfg=True)
    extra = ("--dir", str(tmp_path / "modules")) if command[0] == "module" else ()
    proc = run_inproc(*command, "--env", str(env), *extra)
    assert proc.returncode == 0, proc.stderr
