"""Every program the wizard looks up on PATH and runs (python3, nvidia-smi, srun, squeue, scancel, ptxas, uv, a
step's program) passes the swap rule sources go through (`wizard.children.which`): one in a folder another user
owns (for root) or every user can write is skipped, named once at the end, and never run.

Before (25th hostile pass (part B) P5): with another user's folder first on root's PATH, `detect`, `plan`,
`install` and `report` ran its `python3` and `nvidia-smi` as root. Real scripts in real folders, real owners; the
real CLI in this process."""

from __future__ import annotations

import os
from pathlib import Path

from tests.fixtures.cli import run_inproc
from tests.fixtures.modes import NOBODY, need_root, open_folder
from wizard import children


def _planted(folder: Path, marker: Path) -> Path:
    """`folder` holding `python3` and `nvidia-smi` scripts that each write to `marker` when run."""
    folder.mkdir(parents=True, exist_ok=True)
    for name in ("python3", "nvidia-smi"):
        script = folder / name
        script.write_text(f"#!/bin/sh\necho {name} >> {marker}\nexit 1\n")
        script.chmod(0o755)
    return folder


def _detect(folder: Path, tmp_path: Path):
    return run_inproc("detect", env={"PATH": f"{folder}{os.pathsep}{os.environ.get('PATH', os.defpath)}",
                                       "GC_WIZARD_HOME": str(tmp_path / "state")})


def test_programs_in_a_folder_every_user_can_write_are_not_run_and_are_named(tmp_path):
    marker = tmp_path / "ran"
    ww = _planted(open_folder(tmp_path / "ww"), marker)
    result = _detect(ww, tmp_path)
    assert result.returncode == 0, result.stderr
    assert not marker.exists(), marker.read_text()
    # the folder is left out of PATH before any lookup (pass 26's early look P3: a shim's `#!/usr/bin/env bash`
    # would find a program there too), and named once
    assert f"PATH: {ww} was left out of what gc-wizard's programs see, because {ww} is a folder every user can " \
        "write" in " ".join(result.stderr.split())
    assert "Traceback" not in result.stderr + result.stdout


def test_for_root_programs_in_a_folder_another_user_owns_are_not_run(tmp_path):
    need_root("give a folder to another user")
    marker = tmp_path / "ran"
    theirs = _planted(tmp_path / "theirs", marker)
    for path in (theirs, theirs / "python3", theirs / "nvidia-smi"):
        os.chown(path, NOBODY, NOBODY)
    result = _detect(theirs, tmp_path)
    assert result.returncode == 0, result.stderr
    assert not marker.exists(), marker.read_text()
    assert f"(uid {NOBODY}) owns, and gc-wizard runs as root" in result.stderr
    assert f"PATH: {theirs} was left out" in " ".join(result.stderr.split())


def test_which_goes_on_to_the_next_trusted_candidate(tmp_path):
    children.SKIPPED_PROGRAMS.clear()
    ww = _planted(open_folder(tmp_path / "ww"), tmp_path / "ran")
    own = _planted(tmp_path / "own", tmp_path / "ran")
    assert children.which("nvidia-smi", f"{ww}{os.pathsep}{own}") == str(own / "nvidia-smi")
    assert children.which("nvidia-smi", str(ww)) is None
    assert len(children.SKIPPED_PROGRAMS) == 1 and str(ww / "nvidia-smi") in children.SKIPPED_PROGRAMS[0]
    children.SKIPPED_PROGRAMS.clear()


def test_a_program_in_a_sticky_folder_is_its_owners(tmp_path):
    """/tmp's sticky bit keeps others from renaming what is not theirs: a program of your own there is run."""
    sticky = open_folder(tmp_path / "sticky", sticky=True)
    mine = _planted(sticky / "mine", tmp_path / "ran")
    assert children.untrusted_program(str(mine / "python3")) is None


def test_the_interpreter_lookup_never_runs_such_a_python_to_read_its_version(tiny, tmp_path):
    """The interpreter lookup (`find_pythons`: `recipes`' "This machine", a plan choosing a Python) held the rule
    only behind `--python X.Y` (pass 23 P3); without it, every `python3.X` on PATH was run to ask its version."""
    marker = tmp_path / "ran"
    ww = _planted(open_folder(tmp_path / "ww"), marker)
    (ww / "python3.11").write_text((ww / "python3").read_text())
    (ww / "python3.11").chmod(0o755)
    result = run_inproc("recipes", "--recipes-dir", str(tiny.recipes), env={"PATH": f"{ww}{os.pathsep}{os.environ.get('PATH', '')}"})
    assert result.returncode == 0, result.stderr
    assert not marker.exists(), marker.read_text()
    said = " ".join(result.stderr.split())
    assert f"PATH: {ww} was left out of what gc-wizard's programs see, because {ww} is a folder every user can " \
        "write" in said
    assert said.count(f"PATH: {ww} was left out") == 1  # one rule, one sentence


def test_for_root_a_folder_another_group_can_write_is_refused_naming_the_group(tmp_path):
    need_root("give a folder to another group")
    lab = _planted(tmp_path / "lab", tmp_path / "ran")
    os.chown(lab, 0, NOBODY)
    lab.chmod(0o775)
    why = children.untrusted_program(str(lab / "nvidia-smi"))
    assert why is not None and why.startswith(f"{lab} is a folder group ") and f"(gid {NOBODY}) can write" in why
