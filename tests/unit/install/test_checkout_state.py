"""A GraphCast checkout's git state, read without running git or the checkout (issue 24, P8).

Real git repositories made with the real git; the reader must agree with `git status` on what changed,
and reading must run nothing, not even a command the checkout's own `.git/config` names.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from wizard.install.checkout_state import read_tree_state
from wizard.install.sources import SourceIdentity, checkout_caution

REV = "97d1ad50b0b7af4aaed7790167dffa769bae1f2c"


def _git(folder: Path, *args: str) -> str:
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@t"}
    return subprocess.run(["git", "-C", str(folder), *args], check=True, capture_output=True, text=True, env=env).stdout


def _checkout(tmp_path: Path) -> tuple[Path, str]:
    repo = tmp_path / "graphcast"
    (repo / "graphcast").mkdir(parents=True)
    (repo / "setup.py").write_text("from setuptools import setup\nsetup(name='graphcast', version='0.1.1')\n")
    (repo / "graphcast" / "model.py").write_text("X = 1\n")
    (repo / "graphcast" / "data.bin").write_bytes(bytes(range(256)) * 50)
    _git(repo, "init", "-q")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-qm", "release")
    return repo, _git(repo, "rev-parse", "HEAD").strip()


def test_a_pristine_checkout_is_unchanged_and_its_commit_named(tmp_path):
    repo, head = _checkout(tmp_path)
    (repo / "graphcast" / "__pycache__").mkdir()
    (repo / "graphcast" / "__pycache__" / "model.cpython-311.pyc").write_bytes(b"\0")  # a build leftover
    state = read_tree_state(repo, head)
    assert state.readable and not state.changed
    assert f"at commit {head[:12]} (the recipe's)" in state.describe(head)
    assert f"not the recipe's {REV[:12]}" in state.describe(REV)


def test_edits_new_files_and_deletions_are_named_as_git_status_names_them(tmp_path):
    repo, head = _checkout(tmp_path)
    (repo / "graphcast" / "model.py").write_text("import os; os.system('id')\n")  # same size class, other bytes
    (repo / "sitecustomize.py").write_text("print('hi')\n")
    (repo / "graphcast" / "data.bin").unlink()
    state = read_tree_state(repo, head)
    assert state.modified == ("graphcast/model.py",)
    assert state.untracked == ("sitecustomize.py",)
    assert state.deleted == ("graphcast/data.bin",)
    porcelain = _git(repo, "status", "--porcelain")
    assert " M graphcast/model.py" in porcelain and "?? sitecustomize.py" in porcelain
    caution = checkout_caution(SourceIdentity(where=str(repo), kind="checkout", tree=state), head)
    assert "local changes" in caution and "graphcast/model.py" in caution and "runs its setup.py" in caution


def test_a_copy_without_git_and_a_checkout_whose_config_names_a_command_run_nothing(tmp_path):
    repo, head = _checkout(tmp_path)
    marker = tmp_path / "RAN"
    with open(repo / ".git" / "config", "a") as config:  # what `git status` would run
        config.write(f"[core]\n\tfsmonitor = touch {marker}\n")
    (repo / "setup.py").write_text(f"open({str(marker)!r}, 'w')\n")
    state = read_tree_state(repo, head)
    assert state.modified == ("setup.py",) and not marker.exists()
    copy = tmp_path / "copied"
    shutil.copytree(repo, copy, ignore=shutil.ignore_patterns(".git"))
    state = read_tree_state(copy)
    assert not state.readable and "not a git checkout" in state.describe(REV)
    assert "runs its setup.py" in checkout_caution(SourceIdentity(where=str(copy), kind="checkout", tree=state), REV)
    assert not marker.exists()
