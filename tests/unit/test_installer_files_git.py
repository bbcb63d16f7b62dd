"""git's own settings files (`~/.gitconfig`, `$XDG_CONFIG_HOME/git/config`, a `GIT_CONFIG_GLOBAL` file) are held to
the swap rule uv.toml and pip.conf are: with HOME at another user's folder, the git uv ran for a git GraphCast source
read their `~/.gitconfig`, and its `core.fsmonitor` ran as root (34th hostile pass (part B) P1). A user's own
gitconfig (a proxy, credentials) stays as it is: refused only where another user could swap it."""

from __future__ import annotations

import os

import pytest

from wizard.installer_files import settings_problem
from wizard.installer_settings import git_files


def _open(path):
    path.mkdir(parents=True)
    os.chmod(path, 0o777)  # every user can write it, no sticky bit
    return path


def _own_uv_config(tmp_path):
    config = tmp_path / "own" / "uv.toml"
    config.parent.mkdir(exist_ok=True)
    config.write_text("")
    return str(config)


@pytest.mark.parametrize("installer", ["uv", "pip"])
def test_a_gitconfig_in_a_home_another_user_could_swap_is_refused(tmp_path, installer):
    home = _open(tmp_path / "theirs")
    (home / ".gitconfig").write_text("[core]\n\tfsmonitor = /x/hook.sh\n")
    env = {"HOME": str(home), "XDG_CONFIG_HOME": str(tmp_path / "xdg"), "XDG_CONFIG_DIRS": str(tmp_path / "etc"),
           "UV_CONFIG_FILE": _own_uv_config(tmp_path), "PIP_CONFIG_FILE": os.devnull,
           # uv's own default folders under that HOME are named first (their test is elsewhere): set to one's own
           "UV_PYTHON_INSTALL_DIR": str(tmp_path / "pythons"), "XDG_DATA_HOME": str(tmp_path / "data")}
    said = settings_problem(installer, env, tmp_path)
    assert said and f"git's settings file {home / '.gitconfig'}" in said and "core.fsmonitor" in said


def test_the_xdg_git_config_and_a_named_global_file_are_judged_too(tmp_path):
    xdg = _open(tmp_path / "xdg")
    env = {"HOME": str(tmp_path / "home"), "XDG_CONFIG_HOME": str(xdg), "XDG_CONFIG_DIRS": str(tmp_path / "etc"),
           "UV_CONFIG_FILE": _own_uv_config(tmp_path)}
    said = settings_problem("uv", env, tmp_path)  # not there yet: whoever may make it is judged
    assert said and f"git's settings file {xdg / 'git' / 'config'}" in said
    named = _open(tmp_path / "open") / "gitconfig"
    env = {"HOME": str(tmp_path / "home"), "XDG_CONFIG_HOME": str(tmp_path / "own"), "GIT_CONFIG_GLOBAL": str(named),
           "UV_CONFIG_FILE": _own_uv_config(tmp_path), "XDG_CONFIG_DIRS": str(tmp_path / "etc")}
    assert f"git's settings file {named}" in settings_problem("uv", env, tmp_path)
    assert git_files({**env, "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}) == []


def test_the_users_own_gitconfig_keeps_working(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    (home / ".gitconfig").write_text("[http]\n\tproxy = http://proxy:3128\n")
    env = {"HOME": str(home), "XDG_CONFIG_HOME": str(tmp_path / "xdg"), "XDG_CONFIG_DIRS": str(tmp_path / "etc"),
           "UV_CONFIG_FILE": _own_uv_config(tmp_path)}
    assert home / ".gitconfig" in git_files(env)
    assert settings_problem("uv", env, tmp_path) is None
