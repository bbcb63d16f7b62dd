"""Two history entries that spell one environment's folder differently are one environment (22nd hostile pass P9):
`remove` of the other entry deleted the current environment when one of them named it as `//tmp//…/envs/NAME` or
through a link to the state folder. Every comparison of env paths from history goes through `envs.same_env`."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.fixtures.cli import run_inproc
from wizard.history.store import Entry, load_history
from wizard.install import envs


def _env(home: Path, name: str) -> Path:
    env = home / "envs" / name
    (env / "bin").mkdir(parents=True)
    (env / "pyvenv.cfg").write_text("home = /usr/bin\n")
    (env / "bin" / "python").write_text("")
    return env


def _history(home: Path, entries: list[dict]) -> None:
    (home / "history.json").write_text(json.dumps({"version": 1, "entries": entries}, indent=1))


def _entry(id: str, env: str, **kw) -> dict:
    return {**Entry(id=id, kind="install", recipe="tiny-b", env="/x", status="installed").to_dict(), "env": env, **kw}


def _spellings(home: Path, env: Path, link: Path) -> dict[str, tuple[str, str]]:
    """(spelling of the removed entry, spelling of the current entry) for each way the tester found."""
    link.symlink_to(home)
    doubled = str(env).replace("/", "//")
    through = str(link / "envs" / env.name)
    return {"doubled-removed": (doubled, str(env)), "doubled-current": (str(env), doubled),
            "state-link-current": (str(env), through), "state-link-removed": (through, str(env)),
            "dot": (str(home / "envs" / "." / env.name), str(env)), "trailing": (str(env) + "/", str(env))}


@pytest.mark.parametrize("how", ["doubled-removed", "doubled-current", "state-link-current", "state-link-removed",
                                 "dot", "trailing"])
def test_remove_refuses_an_entry_whose_env_is_the_current_one_however_spelled(isolated_state, tmp_path, how):
    env = _env(isolated_state, "tiny-b-1")
    removed, current = _spellings(isolated_state, env, tmp_path / "alias")[how]
    _history(isolated_state, [_entry("e1", removed), _entry("e2", current, current=True)])
    proc = run_inproc("remove", "e1", "--yes")
    said = " ".join((proc.stderr + proc.stdout).split())
    assert proc.returncode != 0 and "is the current environment" in said and "Traceback" not in said, said
    assert (env / "pyvenv.cfg").is_file()


def test_remove_refuses_a_folder_that_is_the_current_one_by_inode(isolated_state, tmp_path):
    """A spelling no lexical rule sees through (the envs folder reached by a second link of the state's own):
    the folder is the same by device and inode, so it is the current environment."""
    env = _env(isolated_state, "tiny-b-1")
    other = isolated_state / "envs" / "alias"
    other.symlink_to(env)
    assert envs.same_env(other, env) and envs.env_key(other) != envs.env_key(env)
    _history(isolated_state, [_entry("e1", str(other)), _entry("e2", str(env), current=True)])
    proc = run_inproc("remove", "e1", "--yes")
    assert proc.returncode != 0 and "is the current environment" in proc.stderr + proc.stdout
    assert other.is_symlink() and (env / "pyvenv.cfg").is_file()


def test_remove_of_another_env_still_deletes_it_and_marks_every_spelling_removed(isolated_state):
    keep, gone = _env(isolated_state, "tiny-b-1"), _env(isolated_state, "tiny-a-1")
    _history(isolated_state, [_entry("e1", str(gone)), _entry("e3", str(gone).replace("/", "//")),
                              _entry("e2", str(keep), current=True)])
    proc = run_inproc("remove", "e1", "--yes")
    assert proc.returncode == 0, proc.stderr
    assert not gone.exists() and keep.is_dir()
    marked = {e.id: e.removed for e in load_history().entries}
    assert marked["e1"] and marked["e3"] and marked["e2"] is None


def test_an_entry_is_read_in_one_plain_spelling(isolated_state):
    env = isolated_state / "envs" / "tiny-b-1"
    _history(isolated_state, [_entry("e1", "//" + str(env).lstrip("/").replace("/", "//") + "/")])
    assert load_history().entries[0].env == str(env)
    assert envs.spelled_plainly("/a/../b") == "/a/../b"  # climbing is refused by name elsewhere, not hidden here


def test_env_key_keeps_a_link_in_envs_as_its_own_name(isolated_state):
    env = _env(isolated_state, "real")
    link = isolated_state / "envs" / "link"
    link.symlink_to(env)
    assert envs.env_key(link) == os.path.join(os.path.realpath(isolated_state / "envs"), "link")
    assert envs.env_key(str(isolated_state) + "//envs/./real/") == os.path.join(os.path.realpath(isolated_state / "envs"), "real")
