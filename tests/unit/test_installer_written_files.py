"""A file the installer writes (`PIP_REPORT`, `PIP_LOG`, …) in a folder another user could swap is refused before
anything runs: their link there had root's pip overwrite root's file with its report (35th hostile pass (part A)
P4). One's own place keeps working."""

from __future__ import annotations

import os

import pytest

from wizard.installer_files import WRITTEN_VARIABLES, settings_problem


@pytest.mark.parametrize("variable", WRITTEN_VARIABLES["pip"])
def test_a_written_file_in_a_swappable_folder_is_refused(tmp_path, variable):
    theirs = tmp_path / "theirs"
    theirs.mkdir()
    os.chmod(theirs, 0o777)
    env = {"HOME": str(tmp_path / "home"), "XDG_CONFIG_HOME": str(tmp_path / "xdg"), "PIP_CONFIG_FILE": os.devnull,
           "XDG_CONFIG_DIRS": str(tmp_path / "etc"), "GIT_CONFIG_NOSYSTEM": "1", "PIP_NO_INPUT": "1",
           variable: str(theirs / "rep.json")}
    said = settings_problem("pip", env, tmp_path)
    assert said and f"the file {theirs / 'rep.json'} (from {variable}, which pip writes)" in said
    mine = tmp_path / "mine"
    mine.mkdir()
    assert settings_problem("pip", {**env, variable: str(mine / "rep.json")}, tmp_path) is None
    assert settings_problem("pip", {**env, variable: "-"}, tmp_path) is None
