"""Choosing the environment's Python: the wizard's own, another on PATH, uv's, or a clear error."""

from __future__ import annotations

import dataclasses
import os
import platform
import sys
from pathlib import Path

import pytest

from wizard.errors import UserError
from wizard.recipes.loader import get_recipe
from wizard.recipes.pythons import choose_python, find_pythons, own_python, probe_python, uv_find_python

HERE = platform.python_version()
MINOR = ".".join(HERE.split(".")[:2])


def _recipe(spec: str):
    recipe = get_recipe("jax0.4.23-cpu")
    return dataclasses.replace(recipe, machine=dataclasses.replace(recipe.machine, python=spec))


def _bin_with(tmp_path: Path, **links: str) -> str:
    folder = tmp_path / "bin"
    folder.mkdir(exist_ok=True)
    for name, target in links.items():
        (folder / name.replace("_", ".")).symlink_to(target)
    return str(folder)


def test_the_wizards_own_python_when_it_fits():
    choice = choose_python(_recipe(f"=={HERE}"))
    assert choice.source == "wizard" and choice.version == HERE
    assert os.path.isfile(choice.executable)


def test_another_python_on_path(tmp_path):
    search = _bin_with(tmp_path, python3_99=sys.executable)
    choice = choose_python(_recipe(f"=={HERE}"), search_path=search, include_self=False, use_uv=False)
    assert (choice.executable, choice.version, choice.source) == (f"{search}/python3.99", HERE, "path")


def test_a_broken_shim_is_skipped(tmp_path):
    folder = tmp_path / "shims"
    folder.mkdir()
    shim = folder / "python3.10"
    shim.write_text("#!/bin/sh\necho 'pyenv: python3.10: command not found' >&2\nexit 127\n")
    shim.chmod(0o755)
    (folder / "python3").symlink_to(sys.executable)
    found = find_pythons(search_path=str(folder))
    assert [p.executable for p in found] == [str(folder / "python3")]
    assert probe_python(str(shim), "path") is None


def test_none_fits_names_what_was_found_and_what_is_needed(tmp_path):
    search = _bin_with(tmp_path, python3=sys.executable)
    with pytest.raises(UserError) as info:
        choose_python(_recipe(">=3.99"), search_path=search, use_uv=False)
    message = str(info.value)
    assert "needs Python >=3.99" in message
    assert f"found: {HERE}" in message
    assert "uv python install" in message


def test_download_request_when_allowed(tmp_path):
    choice = choose_python(_recipe(">=3.10,<3.12"), search_path=str(tmp_path), include_self=False, use_uv=False,
                           allow_download=True)
    assert (choice.executable, choice.source) == ("3.11", "uv-download")


def test_uv_finds_an_installed_interpreter():
    found = uv_find_python(f"=={MINOR}.*")
    assert found is not None and found.source == "uv"
    assert found.version.startswith(MINOR + ".")


def test_uv_reads_a_relative_config_file_from_the_users_folder(tmp_path, monkeypatch):
    """24th hostile pass (part A) P7: `uv python find` runs in the home folder, so a relative UV_CONFIG_FILE was
    looked for there, uv failed to open it, and no interpreter was found."""
    (tmp_path / "cfg").mkdir()
    (tmp_path / "cfg" / "uv.toml").write_text('python-preference = "system"\n')
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("UV_CONFIG_FILE", "cfg/uv.toml")
    found = uv_find_python(f"=={MINOR}.*")
    assert found is not None and found.version.startswith(MINOR + ".")


def test_choose_falls_back_to_uv(tmp_path):
    choice = choose_python(_recipe(f"=={MINOR}.*"), search_path=str(tmp_path), include_self=False)
    assert choice.source == "uv" and choice.version.startswith(MINOR)


def test_own_python_reports_a_base_interpreter():
    own = own_python()
    assert own.version == HERE
    # Inside a venv the choice names the interpreter the venv hangs off, not the venv's own link.
    if sys.prefix != sys.base_prefix:
        assert not own.executable.startswith(sys.prefix + "/")
