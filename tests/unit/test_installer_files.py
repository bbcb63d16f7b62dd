"""Settings files an installer would read that are no settings file — a FIFO, /dev/zero, a giant — stop the
wizard before uv starts, in one sentence with the fix (seventeenth hostile pass P3: uv waited 20 s on a FIFO
`uv.toml`, read a /dev/zero one until it held 10 GB, and an install hung on it for good). Real files, FIFOs and
devices; the real `uv_bin`."""

from __future__ import annotations

import os

import pytest

from wizard.errors import UserError
from wizard.installer_files import settings_problem
from wizard.installer_settings import pip_files, uv_files
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
    from wizard import installer_settings

    monkeypatch.setattr(installer_settings, "SYSTEM_FILES", {"uv": (), "pip": ()})  # this machine's /etc/pip.conf
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


# 28th hostile pass (part B) P4: a source written `file:/DIR`, `file:DIR` or `file:\DIR` (which uv and pip read as the
# folder) skipped the swap rule `/DIR` and `file:///DIR` meet, in a variable and in a settings file alike.

def _spelled(form: str, folder) -> str:
    text = str(folder)
    return {"one": f"file:{text}", "none": f"file:{text.lstrip('/')}", "back": "file:" + text.replace("/", "\\"),
            "upper": f"FILE://LOCALHOST{text}", "pct": "file://" + text.replace("w", "%77")}[form]


@pytest.mark.parametrize("form", ["one", "none", "back", "upper", "pct"])
@pytest.mark.parametrize("installer, how", [("uv", "UV_FIND_LINKS"), ("pip", "PIP_FIND_LINKS"), ("uv", "UV_INDEX"),
                                            ("uv", "uv.toml find-links"), ("uv", "uv.toml [[index]]"),
                                            ("pip", "pip.conf find-links")])
def test_every_local_url_spelling_is_held_to_the_swap_rule(tmp_path, form, installer, how):
    house = tmp_path / "ww" / "wh"
    house.mkdir(parents=True)
    os.chmod(tmp_path / "ww", 0o777)  # every user can write the folder above it
    value = _spelled(form, house)
    env = _env(tmp_path)
    if how.startswith("uv.toml"):
        (tmp_path / "cfg.toml").write_text(f"[pip]\nfind-links = ['{value}']\n" if "find" in how
                                           else f"[[index]]\nurl = '{value}'\n")
        env["UV_CONFIG_FILE"] = str(tmp_path / "cfg.toml")
    elif how.startswith("pip.conf"):
        (tmp_path / "pip.conf").write_text(f"[global]\nfind-links = {value}\n")
        env["PIP_CONFIG_FILE"] = str(tmp_path / "pip.conf")
    else:
        env[how] = value
    problem = settings_problem(installer, env, None)
    assert problem is not None and f"the package source {house} (" in problem and "every user can write" in problem


@pytest.mark.parametrize("value", ["file://otherhost/srv/wh", "s3://bucket/wh"])
def test_a_source_that_is_no_place_here_nor_a_known_remote_is_refused(tmp_path, value):
    problem = settings_problem("uv", _env(tmp_path, UV_FIND_LINKS=value), None)
    assert problem is not None and problem.startswith(f"the package source {value} (from UV_FIND_LINKS): ")
    assert problem.endswith("Nothing was started.")
    (tmp_path / "cfg.toml").write_text(f"find-links = ['{value}']\n")
    problem = settings_problem("uv", _env(tmp_path, UV_CONFIG_FILE=str(tmp_path / "cfg.toml")), None)
    assert problem is not None and f"(line 1 of {tmp_path / 'cfg.toml'})" in problem


# Found with the 30th hostile pass (part B): `UV_WORKING_DIRECTORY` and `UV_PROJECT` move the folder uv finds its
# project settings in (uv read that folder's uv.toml, index and all), while every check read the folder uv ran in.

@pytest.mark.parametrize("variable", ["UV_WORKING_DIRECTORY", "UV_PROJECT"])
def test_the_project_settings_uv_reads_are_found_where_uv_working_directory_or_project_sends_it(
        tmp_path, variable):
    there = tmp_path / "elsewhere"
    there.mkdir()
    (there / "uv.toml").write_text('index-url = "https://example.invalid/simple"\n')
    here = tmp_path / "here"
    here.mkdir()
    assert uv_files(_env(tmp_path, **{variable: str(there)}), here) == [there / "uv.toml"]
    assert uv_files(_env(tmp_path, **{variable: "../elsewhere"}), here) == [here / "../elsewhere" / "uv.toml"]
    assert uv_files(_env(tmp_path), here) == []
    (there / "uv.toml").chmod(0o666)
    problem = settings_problem("uv", _env(tmp_path, **{variable: str(there)}), here)
    assert problem and f"uv's settings file {there / 'uv.toml'}" in problem and "every user can write" in problem
