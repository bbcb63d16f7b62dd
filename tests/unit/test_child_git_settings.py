"""No child the wizard starts gets git's command-line settings (`git -c`'s `GIT_CONFIG_PARAMETERS`, the
`GIT_CONFIG_COUNT`/`GIT_CONFIG_KEY_<n>`/`GIT_CONFIG_VALUE_<n>` pairs): each sets any key, and several run a program
(`core.fsmonitor`, `core.sshCommand`). Installer steps never got them (`runner.build_env`'s allow-list); a child
started through `children.run_capture` (uv's compile for a lock, its download for a bundle, and the git they start)
got them (fixers' leftover after the 34th hostile pass)."""

from __future__ import annotations

import os
import shutil
import subprocess

import pytest

from wizard.children import run_capture
from wizard.install.runner import build_env

_SETTINGS = {"GIT_CONFIG_PARAMETERS": "'gcw.parameters'='set'", "GIT_CONFIG_COUNT": "1",
             "GIT_CONFIG_KEY_0": "gcw.pair", "GIT_CONFIG_VALUE_0": "set"}


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_a_real_git_under_run_capture_reads_no_command_line_settings(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    for name, value in _SETTINGS.items():
        monkeypatch.setenv(name, value)
    argv = [shutil.which("git"), "config", "--get-regexp", r"^gcw\."]
    direct = subprocess.run(argv, capture_output=True, text=True, cwd=tmp_path)
    assert "gcw.parameters set" in direct.stdout and "gcw.pair set" in direct.stdout, direct  # live as given
    for env in (None, dict(os.environ)):  # this process's environment, and one the caller hands over
        proc = run_capture(argv, timeout=60, cwd=tmp_path, env=env)
        assert proc.returncode == 1 and proc.stdout == "", (proc.returncode, proc.stdout, proc.stderr)


def test_an_installer_step_gets_none_either_not_even_from_its_own_variables():
    env = build_env(dict(_SETTINGS), environ={"PATH": os.defpath, **_SETTINGS})
    assert not [name for name in env if name.startswith("GIT_CONFIG")], env
