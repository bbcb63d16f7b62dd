"""The files git includes from its settings files (`[include] path`, `[includeIf …] path`) are held to the swap rule
the including file is: root's own `~/.gitconfig` with `[include] path = <another user's file>` had git, run by uv
for a git GraphCast source, run that file's `core.fsmonitor` as root (35th hostile pass (part A) P2)."""

from __future__ import annotations

import os

import pytest

from wizard.installer_files import settings_problem
from wizard.installer_settings import git_files


def _open(path):
    path.mkdir(parents=True)
    os.chmod(path, 0o777)  # every user can write it, no sticky bit
    return path


def _env(tmp_path, home):
    config = tmp_path / "own" / "uv.toml"
    config.parent.mkdir(exist_ok=True)
    config.write_text("")
    return {"HOME": str(home), "XDG_CONFIG_HOME": str(tmp_path / "xdg"), "XDG_CONFIG_DIRS": str(tmp_path / "etc"),
            "UV_CONFIG_FILE": str(config), "PIP_CONFIG_FILE": os.devnull, "GIT_CONFIG_NOSYSTEM": "1",
            "UV_PYTHON_INSTALL_DIR": str(tmp_path / "pythons"), "XDG_DATA_HOME": str(tmp_path / "data")}


@pytest.mark.parametrize("section", ["[include]", '[includeIf "gitdir:/"]', "[Include]", '[includeIf "onbranch:x"]'])
@pytest.mark.parametrize("installer", ["uv", "pip"])
def test_a_file_the_own_gitconfig_includes_from_a_swappable_folder_is_refused(tmp_path, installer, section):
    home = tmp_path / "home"
    home.mkdir()
    theirs = _open(tmp_path / "theirs") / "inc.gitconfig"
    theirs.write_text("[core]\n\tfsmonitor = touch /tmp/x\n")
    (home / ".gitconfig").write_text(f"{section}\n\tPath = \"{theirs}\" ; a comment\n")
    env = _env(tmp_path, home)
    assert theirs in git_files(env)
    said = settings_problem(installer, env, tmp_path)
    assert said and f"git's settings file {theirs}" in said


def test_includes_are_followed_relative_and_under_home_and_in_chains(tmp_path):
    home = tmp_path / "home"
    (home / "conf").mkdir(parents=True)
    (home / ".gitconfig").write_text("[include]\n\tpath = conf/one\n")
    (home / "conf" / "one").write_text("[include]\n\tpath = ~/two\n")
    (home / "two").write_text("[include]\n\tpath = two\n")  # itself: followed once
    env = _env(tmp_path, home)
    assert git_files(env) == [tmp_path / "xdg" / "git" / "config", home / ".gitconfig", home / "conf" / "one",
                              home / "two"]
    assert settings_problem("uv", env, tmp_path) is None  # all the user's own: their includes keep working
    theirs = _open(tmp_path / "theirs")
    (home / "two").write_text(f"[include]\n\tpath = {theirs}/three\n")  # not there yet: whoever may make it
    said = settings_problem("uv", env, tmp_path)
    assert said and f"git's settings file {theirs / 'three'}" in said


def test_an_include_chain_that_cannot_be_read_is_refused(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    os.mkfifo(home / "fifo")
    (home / ".gitconfig").write_text(f"[include]\n\tpath = {home / 'fifo'}\n")
    said = settings_problem("uv", _env(tmp_path, home), tmp_path)
    assert said and "cannot be read to learn which files it includes" in said
    (home / ".gitconfig").write_text("".join(f"[include]\n\tpath = f{n}\n" for n in range(100)))
    said = settings_problem("uv", _env(tmp_path, home), tmp_path)
    assert said and "include more than" in said
