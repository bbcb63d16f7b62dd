"""Every folder a printed or written line puts into a ':'-separated list (MODULEPATH, PATH, LD_LIBRARY_PATH,
PYTHONPATH) goes through one rule, `paths.list_entry_problem`: a separator in it is refused by name, never advised.

35th hostile pass (part A) P1: `module install --dir '/tmp/m:x'` advised `module use /tmp/m:x`; Lmod read MODULEPATH
as `/tmp/m` and a relative `x`, and `module load` ran a module file from the folder the user was in."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from tests.fixtures.envs import python_link_env
from wizard import paths
from wizard.after.module import module_install
from wizard.after.next_steps import next_step_lines, use_lines
from wizard.errors import UserError
from wizard.install.envs import MARKER


@pytest.fixture
def env(tmp_path) -> Path:
    """A stand-in environment: a bin/python and a marker (nothing here runs it)."""
    root = python_link_env(tmp_path / "env", cfg=f"home = {Path(sys.executable).parent}\n")
    (root / MARKER).write_text(json.dumps({"recipe": "jax0.4.23-cpu", "backend": "cpu", "python": "3.11"}))
    return root


def test_module_install_refuses_a_dir_with_a_colon_and_writes_nothing(env, tmp_path):
    mods = tmp_path / "m:x"
    with pytest.raises(UserError) as info:
        module_install(env, mods)
    text = str(info.value)
    assert text.startswith(f"--dir {mods} holds a ':'") and "MODULEPATH" in text, text
    assert not mods.exists()


def test_the_default_module_folder_under_a_state_with_a_colon_is_refused_and_never_advised(env, tmp_path,
                                                                                          monkeypatch):
    monkeypatch.setenv("GC_WIZARD_HOME", str(tmp_path / "s:t"))
    with pytest.raises(UserError) as info:
        module_install(env)
    assert "holds a ':'" in str(info.value) and "--dir DIR" in str(info.value)
    assert not (tmp_path / "s:t" / "modules").exists()
    assert not any(line.startswith("module use") for line in use_lines("tiny-a"))
    monkeypatch.setattr("wizard.after.next_steps.program_command", lambda: "gc-wizard")
    lines = next_step_lines("tiny-a")
    assert not any("module use" in line and "s:t" in line and not line.lstrip().startswith("#") for line in lines)


@pytest.mark.parametrize(("folder", "variable", "bad"), [
    ("/a:b", "PATH", True), ("/a:b", "PYTHONPATH", True), ("/a;b", "LD_LIBRARY_PATH", True), ("/a;b", "PATH", False),
    ("rel/dir", "MODULEPATH", True), ("/plain/dir", "MODULEPATH", False)])
def test_one_rule_for_every_list(folder, variable, bad):
    assert (paths.list_entry_problem(folder, variable) is not None) is bad


def test_a_package_folder_pythonpath_cannot_hold_is_not_printed_in_pythonpath(monkeypatch, tmp_path):
    monkeypatch.setattr(paths, "_PACKAGE_DIR", tmp_path / "c:d" / "wizard")
    monkeypatch.setattr(paths, "_fresh_start_runs_this_package", lambda: False)
    monkeypatch.setattr(paths, "zip_archive", lambda: None)
    line = paths._module_command()
    assert "PYTHONPATH=" not in line and str(tmp_path / "c:d") in line, line
