"""28th hostile pass (part A) P4: an empty or relative HOME, with neither GC_WIZARD_HOME nor XDG_DATA_HOME, put the state
at `/.local/share/gc-wizard` (the root of the file system, as root) or under the working folder, and uv's cache at
`/.cache/uv`, without a word. Both are refused up front by one sentence naming HOME and the fix
(`paths.home_problem`, used by `paths.state_dir` and `cache_trust.cache_problem`). Real wizard processes, a real
install of tiny local wheels through the real uv."""

from __future__ import annotations

import os

import pytest

from tests.fixtures.state import run_cli


@pytest.mark.parametrize("home", ["", "rel", "./x", "~nobody-here"])
@pytest.mark.parametrize("command", [("history",), ("activate",), ("install", "tiny-a", "--yes")])
def test_an_empty_or_relative_home_is_refused_before_any_state_is_made(tiny, tmp_path, monkeypatch, home, command):
    for name in ("GC_WIZARD_HOME", "XDG_DATA_HOME"):
        monkeypatch.delenv(name, raising=False)
    work = tmp_path / "work"
    work.mkdir()
    args = [*command, *tiny.args()] if command[0] == "install" else list(command)
    proc = run_cli(*args, env={"HOME": home}, cwd=work)
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    said = " ".join(proc.stderr.split())
    assert "HOME is" in said and "GC_WIZARD_HOME=DIR" in said and "Traceback" not in said, said
    assert len(said.split(". ")) <= 3 and list(work.iterdir()) == []
    assert not os.path.exists("/.local/share/gc-wizard")


def test_an_installer_cache_under_an_empty_home_is_refused_and_named(tiny, monkeypatch):
    monkeypatch.delenv("UV_CACHE_DIR", raising=False)
    proc = run_cli("install", "tiny-a", "--yes", *tiny.args(), env={"HOME": "", "XDG_CACHE_HOME": ""})
    assert proc.returncode == 2, proc.stderr
    said = " ".join(proc.stderr.split())
    assert "HOME is empty" in said and "uv's download cache" in said and "UV_CACHE_DIR=DIR" in said, said
    assert tiny.history() == [] and not os.path.exists("/.cache/uv")


def test_an_absolute_home_or_an_xdg_data_home_is_used_as_before(tiny, tmp_path, monkeypatch):
    monkeypatch.delenv("GC_WIZARD_HOME", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    proc = run_cli("history", env={"HOME": "rel"})
    assert proc.returncode == 0 and "No installs yet" in proc.stdout, proc.stderr
    monkeypatch.delenv("XDG_DATA_HOME")
    proc = run_cli("history", env={"HOME": str(tmp_path / "home")})
    assert proc.returncode == 0 and str(tmp_path / "home") in proc.stdout, proc.stderr
