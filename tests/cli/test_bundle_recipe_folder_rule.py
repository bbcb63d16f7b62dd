"""A bundle's own recipe folder is held to the rule a `--recipes-dir` is held to, and that refusal comes through
(28th hostile pass (part B) P3): with the bundle's `recipes/tiny-a.yaml` a link into a folder another user could
change, `install --bundle B --recipes-dir B/recipes` said "unknown recipe 'tiny-a' here, but the bundle B carries its
recipe file: add --recipes-dir B/recipes" — the option already given, so following the advice looped. Every refusal
while loading recipes was read as "unknown recipe". The real CLI in this process, a real bundle made by the real
pip, a folder every user can write (the swap rule's case that needs no second account)."""

from __future__ import annotations

import shutil

import pytest

from tests.fixtures.cli import run_inproc
from tests.fixtures.modes import open_folder
from tests.fixtures.state import last_json


@pytest.fixture
def linked_bundle(tiny, tmp_path, monkeypatch):
    bundle = tmp_path / "bun"
    made = tiny.bundle(bundle, monkeypatch)
    assert made.returncode == 0, made.stderr
    shared = open_folder(tmp_path / "ww")  # 0777: anyone could swap what the link reads
    recipe = bundle / "recipes" / "tiny-a.yaml"
    shutil.move(recipe, shared / "tiny-a.yaml")
    recipe.symlink_to(shared / "tiny-a.yaml")
    return bundle, shared


@pytest.mark.parametrize("given", [True, False], ids=["with --recipes-dir", "bundle alone"])
def test_a_bundles_recipe_folder_linking_out_is_refused_by_the_swap_rule_never_advised(linked_bundle, given):
    bundle, shared = linked_bundle
    extra = ["--recipes-dir", str(bundle / "recipes")] if given else []
    proc = run_inproc("install", "tiny-a", "--yes", "--no-verify", "--bundle", str(bundle), *extra, "--json")
    error = last_json(proc)["error"]
    assert proc.returncode == 2, proc.stderr
    assert str(shared) in error and "every user can write" in error, error
    assert "unknown recipe" not in error and "add `--recipes-dir" not in error, error
    assert "Traceback" not in proc.stderr


def test_a_bundles_own_recipe_folder_is_still_named_when_the_recipe_is_unknown(linked_bundle):
    """27th hostile pass (part B) P2's advice stays for a folder that passes the rule."""
    bundle, shared = linked_bundle
    recipe = bundle / "recipes" / "tiny-a.yaml"
    recipe.unlink()
    shutil.copy(shared / "tiny-a.yaml", recipe)
    proc = run_inproc("install", "tiny-a", "--yes", "--no-verify", "--bundle", str(bundle), "--json")
    assert proc.returncode == 2 and f"add `--recipes-dir {bundle / 'recipes'}`" in last_json(proc)["error"]
