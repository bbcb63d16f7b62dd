"""The settings files uv and pip read on their own — a `uv.toml` or a `pyproject.toml` with `[tool.uv]` in a folder
above the state, the user's `~/.config/uv/uv.toml`, a `pip.conf` — and every local place such a file names for
packages are held to the rule `--find-links` is (24th hostile pass (part B) P5): one another user owns (as root) or
anyone can write is refused before anything runs, named with its file (and line), and the plan marks it "!".

Before: root installed with a tuser-owned `uv.toml` one folder above the state (and with tuser's
`~/.config/uv/uv.toml` when HOME was theirs), uv took the wheel it named, and its `.pth` ran as root; `lock` pinned
it. The real CLI, real uv and pip, on the tiny recipes' real wheels; the other user is uid 65534 (`chown`)."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from tests.fixtures.modes import NOBODY, need_root, open_folder
from tests.fixtures.state import run_cli


def _place(tmp_path: Path, tiny, where: str, evil: str) -> tuple[dict, Path, str]:
    """(environment for the run, the settings file, what the refusal must name) for a file at `where` that is
    `evil` ("other-owner": another user's; "world-writable": anyone's to write; "names-open-folder": the reader's
    own, naming a wheelhouse every user can write)."""
    top = tmp_path / "top"
    state = top / "state"
    state.mkdir(parents=True, mode=0o700)
    xdg = tmp_path / "xdg"
    house = tmp_path / "own-wh"
    shutil.copytree(tiny.house.path, house)
    if evil == "names-open-folder":
        house = open_folder(house.rename(tmp_path / "open-wh"))
    body = f'find-links = ["{house}"]\n'
    if where == "above-state-uv.toml":
        path = top / "uv.toml"
    elif where == "above-state-pyproject":
        path, body = top / "pyproject.toml", "[project]\nname = 'x'\n\n[tool.uv]\n" + body
    else:
        path = xdg / "uv" / "uv.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("# the lab's settings\n" + body)
    if evil == "other-owner":
        need_root("give the settings file to another user")
        os.chown(path, NOBODY, NOBODY)
        named = f"uv's settings file {path} (which uv reads on its own): it is a file that "
    elif evil == "world-writable":
        path.chmod(0o666)
        named = f"uv's settings file {path} (which uv reads on its own): it is a file every user can write"
    else:
        line = 6 if where == "above-state-pyproject" else 2
        named = f"the package source {house} (line {line} of {path}, which uv reads on its own): it "
    return {"GC_WIZARD_HOME": str(state), "XDG_CONFIG_HOME": str(xdg)}, path, named


@pytest.mark.parametrize("evil", ["other-owner", "world-writable", "names-open-folder"])
@pytest.mark.parametrize("where", ["above-state-uv.toml", "above-state-pyproject", "user-config"])
def test_a_settings_file_uv_reads_or_a_place_it_names_is_held_to_the_find_links_rule(tiny, tmp_path, where, evil):
    env, path, named = _place(tmp_path, tiny, where, evil)
    plan = run_cli("plan", "tiny-a", *tiny.args()[:-1], env=env)
    assert "Traceback" not in plan.stderr, plan.stderr
    # The plan says it in the install's words: marked "!" among its sources, or refused where the plan itself
    # starts uv (a user's file is read wherever uv runs; one above the state, only under the state).
    if plan.returncode == 0:
        assert "! " + named in " ".join(plan.stdout.split()), plan.stdout
    else:
        assert plan.returncode == 2 and named in " ".join(plan.stderr.split()), plan.stderr
    proc, _ = tiny.install("tiny-a", env=env)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 2 and "Traceback" not in out, out
    error = json.loads(proc.stdout.splitlines()[-1])["error"]
    assert error.startswith(named) and "nothing was started" in error, error
    envs = Path(env["GC_WIZARD_HOME"]) / "envs"
    assert not envs.exists() or not any(envs.iterdir())
    lock = run_cli("lock", "tiny-a", *tiny.args()[:-3], "--out", str(tmp_path / "lock.txt"), env=env,
                   cwd=Path(env["GC_WIZARD_HOME"]))
    assert lock.returncode == 2 and named in " ".join(lock.stderr.split()), lock.stderr
    assert not (tmp_path / "lock.txt").exists()


def test_the_readers_own_settings_naming_their_own_wheelhouse_are_used_as_before(tiny, tmp_path):
    env, path, _ = _place(tmp_path, tiny, "above-state-uv.toml", "own")
    proc, result = tiny.install("tiny-a", env=env)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    plan = run_cli("plan", "tiny-b", *tiny.args()[:-1], env=env)
    packages = plan.stdout.split("Packages:")[1].split("\n\n")[0]
    assert f"(from {path})" in " ".join(packages.split()) and "! " not in packages, plan.stdout  # rows wrap at 80


def test_pip_conf_naming_a_wheelhouse_anyone_can_write_is_refused_for_pip_installs(tiny, tmp_path):
    house = open_folder(Path(shutil.copytree(tiny.house.path, tmp_path / "open-wh")))
    conf = tmp_path / "pip.conf"
    conf.write_text(f"[global]\nno-index = true\nfind-links = {house}\n")
    env = {"PIP_CONFIG_FILE": str(conf)}
    proc, _ = tiny.install("tiny-a", "--installer", "pip", env=env)
    out = proc.stdout + proc.stderr
    error = json.loads(proc.stdout.splitlines()[-1])["error"]
    assert proc.returncode == 2 and "Traceback" not in out, out
    assert error.startswith(f"the package source {house} (line 3 of {conf}, which pip reads on its own): "), error
