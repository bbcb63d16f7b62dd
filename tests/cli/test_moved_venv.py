"""gc-wizard's own venv moved or copied (28th hostile pass (part B) P7): its console scripts keep the `#!` line that
names the old venv's Python, so "Next:" lines naming `NEWVENV/bin/gc-wizard` failed ("cannot execute: required file
not found") or, from a copy, silently ran the other venv's Python. The one place those lines get the program's name
(`paths.program_command`) now reads the script's `#!` line first and falls back to `PYTHON -m wizard`, said once.

Real venvs made by the real `venv` module, moved and copied as a user would; a real install through the real uv."""

from __future__ import annotations

import os
import shutil
import site
import subprocess
import sys
import venv
from pathlib import Path

from tests.fixtures.state import REPO
from wizard.paths import script_interpreter_problem


def _wizard_venv(folder: Path) -> Path:
    """A real venv at `folder` that imports this gc-wizard and its dependencies, with a `bin/gc-wizard` console
    script as pip writes one (its `#!` naming the venv's own Python)."""
    venv.EnvBuilder(with_pip=False, symlinks=True).create(folder)
    purelib = next((folder / "lib").glob("python3*/site-packages"))
    (purelib / "deps.pth").write_text("\n".join([str(REPO), *site.getsitepackages()]) + "\n")
    (folder / "bin" / "gc-wizard").write_text(
        f"#!{folder}/bin/python\nimport sys\nfrom wizard.__main__ import main\nsys.exit(main())\n")
    (folder / "bin" / "gc-wizard").chmod(0o755)
    return folder


def test_a_moved_venvs_next_lines_name_its_python_and_run(tiny, tmp_path, isolated_state):
    old = _wizard_venv(tmp_path / "old" / ".venv")
    moved = tmp_path / "moved" / ".venv"
    shutil.copytree(old, moved, symlinks=True)
    shutil.rmtree(tmp_path / "old")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    proc = subprocess.run([str(moved / "bin" / "python"), "-m", "wizard", "install", "tiny-a", "--yes", *tiny.args()],
                          capture_output=True, text=True, env=env, cwd=tmp_path, timeout=600)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert f"{moved}/bin/gc-wizard " not in out, out
    assert out.count("cannot run this gc-wizard") == 1 and "reinstalling gc-wizard into that venv" in out
    line = next(row for row in out.splitlines() if 'eval "$(' in row).strip()
    assert line == f'eval "$({moved}/bin/python -m wizard activate)"', line
    printed = line[len('eval "$('):-len(')"')].split()
    ran = subprocess.run(printed, capture_output=True, text=True, env=env, cwd=tmp_path, timeout=120)
    assert ran.returncode == 0 and "export" in ran.stdout, ran.stderr


def test_a_copied_venvs_script_naming_the_other_venvs_python_is_not_this_one(tmp_path):
    """The copy's `#!` names a Python that is there (the original venv's): resolving it would give the base Python
    both link to, and call it this one."""
    first = _wizard_venv(tmp_path / "a")
    copy = tmp_path / "b"
    shutil.copytree(first, copy, symlinks=True)
    assert "another Python than this one" in script_interpreter_problem(copy / "bin" / "gc-wizard")
    mine = tmp_path / "mine"
    mine.write_text(f"#!{sys.executable}\n")
    assert script_interpreter_problem(mine) is None
    mine.write_text("#!/usr/bin/env python3\n")
    assert script_interpreter_problem(mine) is None
    mine.write_text(f"#!/bin/sh\n'''exec' \"{tmp_path}/gone/bin/python\" \"$0\" \"$@\"\n' '''\n")  # pip's long form
    assert "gone/bin/python, which is not there" in script_interpreter_problem(mine)
