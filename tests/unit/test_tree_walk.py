"""Every walk of a folder tree goes through `wizard.tree_walk.walk`, which does what `os.walk` does without recursion.

Python 3.11's `os.walk` and `Path.rglob` recurse once per folder level: a chain of 1,200 nested folders stopped
`plan`/`install` (`source_trust._inside`), `diagnose --env` (`inspect_env.outside_links`) and `rollback`
(`follow.staying_lines`) on a RecursionError, "this is a bug" (33rd hostile pass (part A) P1)."""

from __future__ import annotations

import ast
import os
from pathlib import Path

import pytest

import wizard
from wizard.after.follow import _module_files
from wizard.install.envs import remove_tree
from wizard.source_trust import _inside
from wizard.tree_walk import remove_tree as remove_any_tree
from wizard.tree_walk import walk
from wizard.verify.inspect_env import outside_links

DEPTH = 1_300  # past Python's default recursion limit of 1,000


@pytest.fixture
def chains(tmp_path):
    """`chains(rel)` makes a deep chain under tmp_path; each is removed after the test without recursion (pytest's own
    clean-up of its base folder uses `shutil.rmtree`, recursive too, and would stop the next run)."""
    made = []

    def make(rel: str) -> Path:
        made.append(_chain(tmp_path / rel))
        return made[-1]

    yield make
    for root in made:
        remove_tree(root)


def _chain(root: Path, depth: int = DEPTH) -> Path:
    """`root/d/d/…/d/f.txt`, `depth` folders deep, made with relative steps (no path grows past PATH_MAX)."""
    root.mkdir(parents=True, exist_ok=True)
    here = os.getcwd()
    try:
        os.chdir(root)
        for _ in range(depth):
            os.mkdir("d")
            os.chdir("d")
        Path("f.txt").write_text("x")
    finally:
        os.chdir(here)
    return root


def test_walk_yields_what_os_walk_yields(tmp_path):
    for rel in ("a/b/c", "a/e", "z/y", "m"):
        (tmp_path / rel).mkdir(parents=True)
        (tmp_path / rel / "file").write_text("x")
    (tmp_path / "a" / "to_z").symlink_to(tmp_path / "z")  # listed among the folders, never entered
    (tmp_path / "dangling").symlink_to(tmp_path / "nothing")
    assert list(walk(tmp_path)) == list(os.walk(tmp_path))
    assert list(walk(tmp_path / "missing")) == []
    errors = []
    list(walk(tmp_path / "missing", onerror=errors.append))
    assert len(errors) == 1 and isinstance(errors[0], FileNotFoundError)


def test_walk_lets_the_caller_prune(tmp_path):
    for rel in ("keep/x", "skip/y"):
        (tmp_path / rel).mkdir(parents=True)
    seen = []
    for folder, dirs, _files in walk(tmp_path):
        dirs[:] = [d for d in dirs if d != "skip"]
        seen.append(os.path.relpath(folder, tmp_path))
    assert sorted(seen) == [".", "keep", "keep/x"]


def test_a_deep_chain_is_walked_without_recursion(chains):
    root = chains("deep")
    assert sum(1 for _ in walk(root)) == DEPTH + 1


def test_the_walkers_that_stopped_on_a_deep_chain_hold(tmp_path, chains):
    root = chains("checkout")
    assert _inside(root, os.geteuid()) is None  # plan / install: the source's trust check
    site = chains("env/lib/python3.11/site-packages")
    assert outside_links(tmp_path / "env", [site]) == (0, 0, None)  # diagnose --env
    modules = chains("modules")
    (modules / "graphcast").mkdir()
    (modules / "graphcast" / "jax.lua").write_text("")
    assert _module_files(modules) == [modules / "graphcast" / "jax.lua"]  # rollback's preview


def test_no_module_walks_a_tree_with_recursion():
    """`os.walk` and `Path.rglob`/`glob("**")` are recursive in Python 3.11; `tree_walk.walk` is the one walker."""
    package = Path(wizard.__file__).parent
    found = []
    for source in sorted(package.rglob("*.py")):  # the test's own walk: the package is shallow
        for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                call = ast.unparse(node.func)
                if call == "os.walk" or node.func.attr == "rglob" or (
                        node.func.attr == "glob" and node.args and "**" in ast.unparse(node.args[0])):
                    found.append(f"{source.relative_to(package)}:{node.lineno} {call}")
            if isinstance(node, ast.ImportFrom) and node.module == "os" and any(a.name == "walk" for a in node.names):
                found.append(f"{source.relative_to(package)}:{node.lineno} from os import walk")
    assert found == []


def test_a_deep_chain_is_removed_without_recursion(tmp_path):
    """The clean-ups of a failed install, rollback, bundle and temporary folder remove through `tree_walk.remove_tree`:
    Python 3.11's `shutil.rmtree` stops on such a chain with a RecursionError that `ignore_errors` does not catch."""
    root = _chain(tmp_path / "failed-env")
    (root / "link").symlink_to(tmp_path)  # a link is removed, never followed
    keep = tmp_path / "kept.txt"
    keep.write_text("x")
    remove_any_tree(root)
    assert not root.exists() and keep.read_text() == "x"


#: The modules that may still call `shutil.rmtree` themselves: the one remover, the env remover that stays out of
#: mounts (it falls back to its own walk), and the built-in recipes' copy (a shallow folder the wizard made).
_RMTREE_ALLOWED = {"tree_walk.py", "install/envs.py", "paths.py"}


def test_every_other_removal_of_a_tree_goes_through_remove_tree():
    package = Path(wizard.__file__).parent
    found = []
    for source in sorted(package.rglob("*.py")):
        name = str(source.relative_to(package))
        for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and ast.unparse(node.func) in ("shutil.rmtree", "rmtree")
                    and name not in _RMTREE_ALLOWED):
                found.append(f"{name}:{node.lineno}")
    assert found == []
