"""The digest an install records of a GraphCast checkout folder (`wizard.install.tree_digest`): it changes with
anything a build would read differently, and not with what a build never copies."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from wizard.install.tree_digest import tree_sha256


def _tree(root: Path) -> Path:
    (root / "graphcast").mkdir(parents=True)
    (root / "graphcast" / "__init__.py").write_text('__version__ = "0.1.1"\n')
    (root / "setup.py").write_text("from setuptools import setup\nsetup()\n")
    return root


def test_the_same_files_give_the_same_digest_wherever_they_are(tmp_path):
    one, two = _tree(tmp_path / "one"), _tree(tmp_path / "two")
    assert tree_sha256(one) == tree_sha256(two) and len(tree_sha256(one)) == 64


@pytest.mark.parametrize("change", ["content", "executable", "new file", "renamed", "new link", "link target",
                                    "empty file"])
def test_what_a_build_reads_differently_changes_it(tmp_path, change):
    root = _tree(tmp_path / "gc")
    (root / "graphcast" / "link.py").symlink_to("__init__.py")
    before = tree_sha256(root)
    module = root / "graphcast" / "__init__.py"
    if change == "content":
        module.write_text('__version__ = "0.1.1"\nimport os\n')
    elif change == "executable":
        module.chmod(0o755)
    elif change == "new file":
        (root / "graphcast" / "extra.py").write_text("")
    elif change == "renamed":
        module.rename(root / "graphcast" / "__init__2.py")
    elif change == "new link":
        (root / "outside").symlink_to("/etc")
    elif change == "link target":
        (root / "graphcast" / "link.py").unlink()
        (root / "graphcast" / "link.py").symlink_to("/etc/hostname")
    else:
        (root / "empty.txt").touch()
    assert tree_sha256(root) != before, change


def test_what_a_build_never_copies_does_not(tmp_path):
    root = _tree(tmp_path / "gc")
    before = tree_sha256(root)
    for leftover in (".git", "build", "dist", "graphcast.egg-info", "graphcast/__pycache__", ".venv"):
        (root / leftover).mkdir()
        (root / leftover / "x").write_text("x")
    assert tree_sha256(root) == before


def test_what_cannot_be_read_as_files_gives_no_digest(tmp_path):
    root = _tree(tmp_path / "gc")
    os.mkfifo(root / "graphcast" / "pipe")
    assert tree_sha256(root) is None  # never opened (it would block), never "unchanged"
    (root / "graphcast" / "pipe").unlink()
    shutil.rmtree(root)
    assert tree_sha256(root) is None
