"""Run from a current folder that was deleted: the plan and the install say so before anything is built, and an
`--out` with a relative name names the current folder, never the state folder.

34th hostile pass (part A) P1: `plan` (every path absolute) said nothing, `install` built the whole environment and
then failed on uv's "Current directory does not exist"; `report --out r.txt` blamed GC_WIZARD_HOME. One check
(`errors.current_folder_gone`) is asked by the plan and by the OSError sentence."""

from __future__ import annotations

import os
import subprocess
import sys

from tests.fixtures.state import REPO

#: `python -c` program that goes into argv[1], deletes it, then becomes `python -P -m wizard ARGS` there.
_GONE = ("import os, sys; os.chdir(sys.argv[1]); os.rmdir(sys.argv[1]); "
         "os.execv(sys.executable, [sys.executable, '-P', '-m', 'wizard', *sys.argv[2:]])")


def _run_gone(folder, *args: str) -> subprocess.CompletedProcess:
    folder.mkdir()
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.run([sys.executable, "-c", _GONE, str(folder), *args], capture_output=True, text=True,
                          env=env, input="", timeout=300, cwd=str(REPO))


def _said(proc: subprocess.CompletedProcess) -> str:
    return " ".join(proc.stderr.split())


def test_plan_and_install_refuse_a_deleted_current_folder_before_building(tmp_path, tiny):
    """Walk 37 #5: each says what it would have done (`plan` builds nothing: "Nothing was built" was odd there) and
    never offers absolute paths, which do not help either (the install's tools need a current folder)."""
    plan_args = [arg for arg in tiny.args() if arg != "--no-verify"]
    undone = {"plan": "Nothing was planned: an install runs its tools in the current folder.",
              "install": "Nothing was built."}
    for command, args in (("plan", plan_args), ("install", ["--yes", *tiny.args()])):
        proc = _run_gone(tmp_path / f"gone-{command}", command, "tiny-a", *args)
        said = _said(proc)
        assert proc.returncode == 2, (proc.returncode, proc.stdout, proc.stderr)
        assert "the current folder no longer exists" in said and undone[command] in said, said
        assert "absolute paths are not enough here" in said and "or give absolute paths" not in said, said
        assert "GC_WIZARD_HOME" not in said, said
    envs = os.path.join(os.environ["GC_WIZARD_HOME"], "envs")
    assert not os.path.isdir(envs) or not [p for p in os.listdir(envs) if not p.startswith(".")], os.listdir(envs)


def test_a_relative_out_from_a_deleted_current_folder_names_it(tmp_path):
    """An absolute `--out` works there, so the sentence offers it; the exit status is the plan's for the same
    condition, bad input (walk 37 #5: 1 here, 2 for `plan`), and `--json`'s error line carries the same."""
    proc = _run_gone(tmp_path / "gone", "report", "--out", "r.txt")
    said = _said(proc)
    assert proc.returncode == 2, (proc.returncode, proc.stdout, proc.stderr)
    assert "the current folder no longer exists" in said and "GC_WIZARD_HOME" not in said, said
    assert "or give absolute paths" in said and "Nothing was" not in said, said
    proc = _run_gone(tmp_path / "gone-json", "plan", "tiny-a", "--json")
    assert proc.returncode == 2 and '"exit": 2' in proc.stdout.splitlines()[-1], (proc.stdout, proc.stderr)
