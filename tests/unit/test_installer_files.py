"""Settings files an installer would read that are no settings file — a FIFO, /dev/zero, a giant — stop the
wizard before uv starts, in one sentence with the fix (seventeenth hostile pass P3: uv waited 20 s on a FIFO
`uv.toml`, read a /dev/zero one until it held 10 GB, and an install hung on it for good). Real files, FIFOs and
devices; the real `uv_bin`."""

from __future__ import annotations

import os

import pytest

from wizard.errors import UserError
from wizard.installer_files import pip_files, settings_problem, uv_files
from wizard.uv_tool import uv_bin


def _env(tmp_path, **more) -> dict[str, str]:
    return {"HOME": str(tmp_path / "home"), "XDG_CONFIG_HOME": str(tmp_path / "xdg"),
            "XDG_CONFIG_DIRS": str(tmp_path / "etc-xdg"), **more}


def _huge(path) -> None:
    with open(path, "wb") as handle:
        handle.truncate(2 * 2**30)  # sparse


@pytest.mark.parametrize("name", ["uv.toml", "pyproject.toml"])
@pytest.mark.parametrize("make, says", [
    (os.mkfifo, "it is a named pipe (FIFO), not a regular file"),
    (lambda p: os.symlink("/dev/zero", p), "it is a character device, not a regular file"),
    (_huge, "it is 2048 MiB, far more than a settings file ever holds"),
])
def test_a_project_settings_file_that_is_no_file_is_named(tmp_path, name, make, says):
    project = tmp_path / "work" / "sub"
    project.mkdir(parents=True)
    make(tmp_path / "work" / name)
    problem = settings_problem("uv", _env(tmp_path), project)
    assert problem == (f"uv reads its settings from {tmp_path / 'work' / name}, and {says}: uv would wait on it or "
                       "read it without end, so nothing was started. Move it away, or set UV_NO_CONFIG=1 to have uv "
                       "read no settings file.")
    if make is not _huge:
        assert uv_files(_env(tmp_path), project) == []  # never read for its indexes either


def test_the_users_and_the_named_file_are_checked_and_no_config_turns_it_off(tmp_path):
    (tmp_path / "xdg" / "uv").mkdir(parents=True)
    os.mkfifo(tmp_path / "xdg" / "uv" / "uv.toml")
    assert "xdg/uv/uv.toml, and it is a named pipe" in settings_problem("uv", _env(tmp_path), None)
    assert settings_problem("uv", _env(tmp_path, UV_NO_CONFIG="1"), None) is None
    assert "/dev/zero, and it is a character device" in settings_problem(
        "uv", _env(tmp_path, UV_CONFIG_FILE="/dev/zero"), None)


def test_pips_files_and_its_off_switch(tmp_path, monkeypatch):
    from wizard import installer_files

    monkeypatch.setattr(installer_files, "SYSTEM_FILES", {"uv": (), "pip": ()})  # this machine's /etc/pip.conf
    (tmp_path / "xdg" / "pip").mkdir(parents=True)
    os.mkfifo(tmp_path / "xdg" / "pip" / "pip.conf")
    assert "set PIP_CONFIG_FILE=/dev/null" in settings_problem("pip", _env(tmp_path), None)
    assert settings_problem("pip", _env(tmp_path, PIP_CONFIG_FILE=os.devnull), None) is None
    assert pip_files(_env(tmp_path)) == []


def test_plain_settings_files_are_no_problem(tmp_path):
    (tmp_path / "work").mkdir()
    (tmp_path / "work" / "pyproject.toml").write_text("[project]\nname = 'x'\n")  # no [tool.uv]: not uv's
    (tmp_path / "xdg" / "uv").mkdir(parents=True)
    (tmp_path / "xdg" / "uv" / "uv.toml").write_text('index-url = "https://mirror.example/simple"\n')
    assert settings_problem("uv", _env(tmp_path), tmp_path / "work") is None
    assert uv_files(_env(tmp_path), tmp_path / "work") == [tmp_path / "xdg" / "uv" / "uv.toml"]


def test_every_uv_start_is_refused_in_a_folder_with_such_a_file(tmp_path, monkeypatch):
    os.mkfifo(tmp_path / "uv.toml")
    monkeypatch.chdir(tmp_path)
    with pytest.raises(UserError, match=r"uv\.toml, and it is a named pipe \(FIFO\)"):
        uv_bin()
    monkeypatch.setenv("UV_NO_CONFIG", "1")
    assert os.path.basename(uv_bin()).startswith("uv")


def test_the_plan_and_the_swap_check_read_a_uv_toml_source_as_one_place(tmp_path):
    """A uv.toml string names one place, blanks and all, as uv reads it: the plan showed `…/wheel` and `house` as two
    find-links pages while the swap check looked at the one folder (two readers of the same keys,
    `installer_files.source_tables` now the only one)."""
    from wizard.install.indexes import index_settings

    house = tmp_path / "wheel house"
    house.mkdir()
    os.chmod(house, 0o777)  # every user can write it: the swap check refuses it
    project = tmp_path / "work"
    project.mkdir()
    (project / "uv.toml").write_text(f'find-links = "{house}"\n')
    shown = [s.url for s in index_settings("uv", _env(tmp_path), project) if s.kind == "find-links"]
    assert shown == [str(house)]
    assert f"the package source {house} (line 1 of {project / 'uv.toml'}" in settings_problem(
        "uv", _env(tmp_path), project)


def test_the_swap_check_splits_uv_find_links_as_uv_and_the_plan_do(tmp_path):
    """uv drops a tab inside `UV_FIND_LINKS` (a URL parser's rule) and splits only at commas and spaces: the swap
    check split at the tab too, and so checked two places uv never reads and not the one it does."""
    from wizard.install.indexes import index_settings

    (tmp_path / "wh").mkdir()
    house = tmp_path / "whdir"
    house.mkdir()
    os.chmod(house, 0o777)
    env = _env(tmp_path, UV_FIND_LINKS=f"{tmp_path}/wh\tdir")
    assert [s.url for s in index_settings("uv", env)] == [str(house)]
    assert f"the package source {house} (from UV_FIND_LINKS)" in settings_problem("uv", env, tmp_path)
