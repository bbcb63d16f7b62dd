"""gc-wizard's own data — the built-in recipes and every file under `wizard/data/` — held to the rule its own uv is.

28th hostile pass (part B) P8: with `chmod o+w` on a built-in recipe, `graphcast_releases.json` or
`known_failures.yaml`, another user's edit was used as is (an added pin reached the plan, a changed checkout was
called identical to v0.1.1, diagnosis advised `curl … | sudo sh`), while the same mode on the wizard's own uv and
on a `--recipes-dir` file was refused. Real copies of the shipped files, real modes, a real second user and ACL."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from tests.fixtures.modes import open_folder
from wizard import paths
from wizard.errors import UserError
from wizard.install import checkout_state
from wizard.recipes import loader
from wizard.verify import diagnose

SHIPPED = Path(paths.__file__).resolve().parent / "data"
RECIPES = paths.builtin_recipes_dir()
V011 = "97d1ad50b0b7af4aaed7790167dffa769bae1f2c"


def _copy(tmp_path: Path, name: str, sub: str = "data") -> Path:
    folder = tmp_path / sub
    folder.mkdir(exist_ok=True)
    return Path(shutil.copy2(SHIPPED / name, folder / name))


def test_a_releases_file_every_user_can_write_is_refused_not_trusted(tmp_path, monkeypatch):
    releases = _copy(tmp_path, "graphcast_releases.json")
    monkeypatch.setattr(checkout_state, "RELEASES_PATH", releases)
    assert checkout_state.release_files(V011) is not None  # the copy as shipped is read
    other = _copy(tmp_path, "graphcast_releases.json", "ow")
    other.chmod(0o666)
    monkeypatch.setattr(checkout_state, "RELEASES_PATH", other)
    with pytest.raises(UserError) as refused:
        checkout_state.release_files(V011)
    text = str(refused.value)
    assert text.startswith(f"gc-wizard's own file {other} was not read, because it is a file every user can write")
    assert f"`chmod go-w {other}`" in text and "nothing was run" in text


def test_known_failures_in_a_folder_every_user_can_write_are_refused(tmp_path, monkeypatch):
    known = _copy(tmp_path, "known_failures.yaml")
    open_folder(known.parent)
    monkeypatch.setattr(diagnose, "KNOWN_FAILURES_PATH", known)
    with pytest.raises(UserError) as refused:
        diagnose.load_known_failures()
    assert f"because {known.parent} is a folder every user can write" in str(refused.value)


def test_every_shipped_data_file_goes_through_the_rule_and_the_verdict_is_cached(tmp_path):
    for name in sorted(p.name for p in SHIPPED.iterdir() if p.is_file()):
        assert paths.package_file(SHIPPED / name) == SHIPPED / name  # the shipped files pass as installed
    table = _copy(tmp_path, "check_times.yaml")
    assert paths.package_file(table) == table
    table.chmod(0o666)  # judged once a run: a later change is the next run's to see
    assert paths.own_data_risk(table) is None
    paths._OWN_DATA_VERDICTS.pop(str(table))
    assert paths.own_data_risk(table) is not None


def _builtin_copy(tmp_path: Path, monkeypatch) -> Path:
    folder = tmp_path / "recipes"
    shutil.copytree(RECIPES, folder)
    monkeypatch.setattr(paths, "builtin_recipes_dir", lambda: folder)
    monkeypatch.setattr(paths, "user_recipes_dir", lambda: tmp_path / "no-user-recipes")
    return folder


def test_a_builtin_recipe_every_user_can_write_is_refused(tmp_path, monkeypatch):
    folder = _builtin_copy(tmp_path, monkeypatch)
    assert "jax0.10.2-cpu" in loader.load_recipes()
    recipe = folder / "jax0.10.2-cpu.yaml"
    recipe.chmod(0o666)
    paths._OWN_DATA_VERDICTS.clear()
    with pytest.raises(UserError) as refused:
        loader.load_recipes()
    assert f"gc-wizard's own file {recipe} was not read" in str(refused.value)


def test_a_builtin_recipe_folder_every_user_can_write_is_refused(tmp_path, monkeypatch):
    folder = open_folder(_builtin_copy(tmp_path, monkeypatch))
    with pytest.raises(UserError) as refused:
        loader.load_recipes()
    assert str(refused.value).startswith(f"gc-wizard's own folder {folder} was not read, because it is a folder")


def test_for_root_a_data_file_another_user_owns_or_may_write_through_an_acl_is_refused(tmp_path, second_user):
    owned = _copy(tmp_path, "driver_cuda.yaml")
    subprocess.run(["chown", second_user, str(owned)], check=True)
    with pytest.raises(UserError) as refused:
        paths.package_file(owned)
    assert "owns, and gc-wizard runs as root" in str(refused.value) and f"`chown root {owned}`" in str(refused.value)
    acl = _copy(tmp_path, "model_memory.yaml", "acl")
    made = subprocess.run(["setfacl", "-m", f"u:{second_user}:rw", str(acl)], capture_output=True, text=True)
    if made.returncode != 0:
        pytest.skip(f"this file system keeps no ACLs: {made.stderr.strip()}")
    with pytest.raises(UserError) as refused:
        paths.package_file(acl)
    text = str(refused.value)
    assert "may write through an ACL entry" in text and f"`setfacl -x u:{second_user} {acl}`" in text
