"""A GraphCast source that is a look-alike is refused before anything installs, saying what it is."""

from __future__ import annotations

import re

from tests.fixtures.wheels import build_wheel
from wizard.install.sources import check_graphcast_source
from wizard.recipes.loader import load_recipes


def test_pypis_gencast_wheel_is_refused_as_a_lookalike(tmp_path):
    wheel = build_wheel(tmp_path / "house", "gencast", "0.1.3", summary="Generate podcasts from text")
    verdict = check_graphcast_source(load_recipes()["jax0.12.0.1-cpu"], str(wheel))
    assert not verdict.ok
    assert "an unrelated podcast generator" in verdict.problem
    assert "GenCast ships inside its graphcast package (v0.2 and later)" in verdict.problem
    assert "needs DeepMind's graphcast 0.2" in verdict.problem



def _checkout(root, name: str, version: str):
    """A source folder whose setup.py names `name` `version` (read by the wizard, never run)."""
    root.mkdir(parents=True)
    (root / "setup.py").write_text(f'from setuptools import setup\nsetup(\n    name="{name}",\n    version="{version}",\n)\n')
    return root


def test_weathernext_recipes_take_a_weathernext_checkout_and_refuse_graphcast(tmp_path):
    recipe = load_recipes()["weathernext0.3.0-cpu"]
    assert check_graphcast_source(recipe, str(_checkout(tmp_path / "wn", "weathernext", "0.3.0"))).ok
    refused = check_graphcast_source(recipe, str(_checkout(tmp_path / "gc", "graphcast", "0.2")))
    assert not refused.ok and "needs DeepMind's weathernext 0.3" in refused.problem
    newer = check_graphcast_source(recipe, str(_checkout(tmp_path / "main", "weathernext", "0.3.1.dev")))
    assert not newer.ok and "check out v0.3 in a copy" in newer.problem and "unrelated" not in newer.problem
    # And a GraphCast recipe still calls WeatherNext what it is.
    v02 = check_graphcast_source(load_recipes()["jax0.12.0.1-cpu"], str(tmp_path / "wn"))
    assert not v02.ok and "renamed WeatherNext" in v02.problem


def test_a_checkout_of_another_release_is_told_to_make_a_copy_not_to_switch_it_in_place(tmp_path):
    """walk 23 #3: the refusal said "git checkout v0.2", which switches a shared v0.1.1 checkout
    (the one a first install was built from) for everyone. The suggested lines, run as given (real git, no shell),
    leave it at v0.1.1 and make a copy the recipe takes."""
    import shlex
    import subprocess

    folder = _tagged_v011_checkout(tmp_path / "graphcast")
    recipe = load_recipes()["jax0.12.0.1-cpu"]
    refused = check_graphcast_source(recipe, str(folder))
    assert not refused.ok and "git checkout v0.2)" not in refused.problem, refused.problem
    said = refused.problem.split("(other installs may use it): ", 1)[1]
    lines, given = said.split(", then give ", 1)
    assert given.startswith(f"{folder}-v0.2;") and given.endswith("or pass --force to install it anyway.")
    for line in lines.split(" && "):
        subprocess.run(shlex.split(line), check=True, capture_output=True)
    assert 'version="0.1.1"' in (folder / "setup.py").read_text()  # the shared checkout is as it was
    assert check_graphcast_source(recipe, f"{folder}-v0.2").ok


def _checkout_version(root, version: str) -> None:
    text = (root / "setup.py").read_text()
    (root / "setup.py").write_text(re.sub(r'version="[^"]*"', f'version="{version}"', text))


def _tagged_v011_checkout(root):
    """A real git checkout at a commit tagged v0.1.1, with v0.2 tagged on its parent: a lab's shared v0.1.1 checkout
    from which a v0.2 copy can be made."""
    import subprocess

    folder = _checkout(root, "graphcast", "0.2")
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-c", "init.defaultBranch=main"]
    for argv in (["init", "-q"], ["add", "setup.py"], ["commit", "-qm", "0.2"], ["tag", "v0.2"]):
        subprocess.run([*git, "-C", str(folder), *argv], check=True)
    _checkout_version(folder, "0.1.1")
    for argv in (["commit", "-qam", "0.1.1"], ["tag", "v0.1.1"]):
        subprocess.run([*git, "-C", str(folder), *argv], check=True)
    return folder


def test_a_checkout_another_user_owns_gets_a_copy_command_git_runs_into_a_folder_of_your_own(
        tmp_path, second_user, monkeypatch):
    """walk 25 #5: for a lab checkout the admin owns, `git clone SRC SRC-v0.2` failed ("detected dubious
    ownership"), and the copy was to go inside the shared folder. Here the checkout and its folder belong to a real
    second user; the suggested lines, run as given by this user with the real git, make a copy under HOME that the
    recipe takes, and leave the shared checkout as it was."""
    import shlex
    import shutil
    import subprocess

    lab = tmp_path / "lab"
    folder = _tagged_v011_checkout(lab / "graphcast")
    shutil.chown(lab, second_user)
    subprocess.run(["chown", "-R", second_user, str(lab)], check=True)
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    recipe = load_recipes()["jax0.12.0.1-cpu"]
    refused = check_graphcast_source(recipe, str(folder))
    assert not refused.ok and f"it belongs to user {second_user}" in refused.problem, refused.problem
    said = refused.problem.split("other installs may use it): ", 1)[1]
    lines, given = said.split(", then give ", 1)
    assert given.startswith(f"{home}/graphcast-v0.2;"), given
    for line in lines.split(" && "):
        done = subprocess.run(shlex.split(line), capture_output=True, text=True, cwd=tmp_path,
                              env={"PATH": "/usr/bin:/bin", "HOME": str(home)})
        assert done.returncode == 0, (line, done.stderr)
    assert 'version="0.1.1"' in (folder / "setup.py").read_text()
    assert check_graphcast_source(recipe, str(home / "graphcast-v0.2")).ok
