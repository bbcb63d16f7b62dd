"""Every probe of a base interpreter starts without the user site, and a user site another user could fill is named.

28th hostile pass (part B) P2: detect, plan, install and report ran root's base python3 as a probe (`-E -c`) with
the user site on: `-E` does not stop `site` reading PYTHONUSERBASE, so a `.pth` under
`PYTHONUSERBASE=/home/tuser/…` (or `HOME=/home/tuser`) ran as root, while PYTHONPATH at the same folder was already
dropped. The tests run the real base interpreter the wizard's venv was made from, with a real `.pth`."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from tests.fixtures.modes import open_folder
from wizard import children
from wizard.detect import deadline
from wizard.detect.environment import Target, finish_interpreter_query, kind_of, start_interpreter_query
from wizard.recipes.pythons import probe_python

BASE = getattr(sys, "_base_executable", None) or sys.executable
SITE = f"lib/python{sys.version_info[0]}.{sys.version_info[1]}/site-packages"


def _user_base_with_pth(folder: Path, marker: Path) -> Path:
    site = folder / SITE
    site.mkdir(parents=True)
    (site / "zz_probe.pth").write_text(f"import os; open({str(marker)!r}, 'a').write('ran\\n')\n")
    return folder


def _base_target() -> Target:
    prefix = Path(sys.base_prefix)
    return Target(kind_of(prefix), prefix, BASE, "argument")


def test_the_interpreter_query_of_a_base_python_runs_no_user_site_pth(tmp_path, monkeypatch):
    marker = tmp_path / "marker"
    base = _user_base_with_pth(tmp_path / "ub", marker)
    monkeypatch.setenv("PYTHONUSERBASE", str(base))
    monkeypatch.delenv("PYTHONNOUSERSITE", raising=False)
    target = _base_target()
    running = start_interpreter_query(target, timeout=20)
    if running is None:
        pytest.skip(f"{BASE} is this process's own interpreter: no query runs")
    finish_interpreter_query(target, running)
    assert target.problem is None and target.python_version
    assert not marker.exists(), "the user site's .pth ran in the probe"
    # still listed (read, never run): the user's own runs of that Python do read it
    assert base / SITE in target.site_dirs


def test_the_python_finder_probe_runs_no_user_site_pth(tmp_path, monkeypatch):
    marker = tmp_path / "marker"
    monkeypatch.setenv("PYTHONUSERBASE", str(_user_base_with_pth(tmp_path / "ub", marker)))
    assert probe_python(BASE, "path", timeout=20) is not None
    assert not marker.exists()


def test_every_probe_environment_drops_the_user_base_and_turns_the_user_site_off():
    env = deadline.probe_env({"PYTHONUSERBASE": "/x", "PYTHONPATH": "/y", "PYTHONSTARTUP": "/z", "HOME": "/h"})
    assert env["PYTHONNOUSERSITE"] == "1" and env["HOME"] == "/h"
    assert not {"PYTHONUSERBASE", "PYTHONPATH", "PYTHONSTARTUP"} & set(env)


def test_a_user_site_another_user_could_fill_is_named_once_and_the_user_base_left_out(tmp_path):
    children.SKIPPED_PROGRAMS.clear()
    ub = open_folder(tmp_path / "ub")
    home = tmp_path / "home"
    open_folder(home / ".local")
    environ = {"PYTHONUSERBASE": str(ub), "HOME": str(home), "PATH": "/usr/bin"}
    children.guard_inherited_environ(environ)
    assert "PYTHONUSERBASE" not in environ
    said = " ".join(children.SKIPPED_PROGRAMS)
    assert f"PYTHONUSERBASE: {ub} was left out" in said and "every user can write" in said
    # the user base left out, HOME's user site is the one a Python would read: named too
    assert f"the user site under HOME ({home / '.local'})" in said
    children.guard_inherited_environ(dict(environ))
    assert len(children.SKIPPED_PROGRAMS) == 2  # said once
    children.SKIPPED_PROGRAMS.clear()


def test_your_own_user_site_is_not_named(tmp_path):
    children.SKIPPED_PROGRAMS.clear()
    home = tmp_path / "home"
    (home / ".local").mkdir(parents=True)
    environ = {"PYTHONUSERBASE": str(home / ".local"), "HOME": str(home), "PATH": "/usr/bin"}
    before = dict(environ)
    children.guard_inherited_environ(environ)
    assert environ == before and children.SKIPPED_PROGRAMS == []
    assert os.path.isdir(home / ".local")
