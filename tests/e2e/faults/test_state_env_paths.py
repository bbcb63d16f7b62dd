"""Environment paths read from the state (history.json) are resolved and kept under envs/ (issue 24, P11 P12).

history.json is a file that can be edited; these are new cases of the class the issue measured
(`envs/../../etc`, `/`): other ways to climb out, other folders outside, and links in envs/. A
rollback to them is refused before anything is recorded or created, the refusal never passes on an
installer's advice to wipe a folder, and `remove` takes a link in envs/ away without touching what
it points to.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from tests.fixtures.state import run_cli


def _edit_entry(home: Path, entry_id: str, env: str) -> None:
    state = json.loads((home / "history.json").read_text())
    for entry in state["entries"]:
        if entry["id"] == entry_id:
            entry["env"] = env
    (home / "history.json").write_text(json.dumps(state))


def _current(tiny) -> str:
    return next(e["id"] for e in tiny.history() if e["current"])


def test_a_history_env_outside_envs_is_never_rebuilt_or_made_current(tiny, isolated_state, tmp_path):
    _, a = tiny.install("tiny-a")
    _, b = tiny.install("tiny-b")
    outside = tmp_path / "outside-target"
    for forged in (f"{isolated_state}/envs/../../{tmp_path.name}/outside-target",  # climbs with ..
                   str(outside),  # an absolute folder elsewhere that is gone
                   f"{isolated_state}/envs/sub/../x",  # .. that stays inside, still never written by the wizard
                   "envs/relative"):
        _edit_entry(isolated_state, a["entry_id"], forged)
        proc = run_cli("rollback", a["entry_id"], "--yes", "--no-verify", "--json")
        assert proc.returncode == 2, (forged, proc.stderr)
        assert "Traceback" not in proc.stderr and "--clear" not in proc.stderr + proc.stdout
        assert json.loads(proc.stdout.splitlines()[-1])["ok"] is False
        assert not outside.exists() and _current(tiny) == b["entry_id"]
    kinds = [e["kind"] for e in tiny.history()]
    assert kinds.count("rollback") == 0  # refused before an entry was recorded


def test_a_history_env_naming_a_system_folder_is_refused_without_wipe_advice(tiny, isolated_state):
    _, a = tiny.install("tiny-a")
    _, b = tiny.install("tiny-b")
    for system in ("/etc", "/var", "/opt"):
        _edit_entry(isolated_state, a["entry_id"], system)
        proc = run_cli("rollback", a["entry_id"], "--yes", "--no-verify")
        assert proc.returncode == 2 and system in proc.stderr, proc.stderr
        assert "--clear" not in proc.stderr and "UV_VENV_CLEAR" not in proc.stderr
        assert f"--env {system}" not in proc.stderr  # no advice to install into the folder the entry named
        assert _current(tiny) == b["entry_id"]


def test_remove_takes_a_link_in_envs_away_and_never_what_it_points_to(tiny, isolated_state, tmp_path):
    _, a = tiny.install("tiny-a")
    _, b = tiny.install("tiny-b")
    _, c = tiny.install("tiny-a")
    precious = tmp_path / "users-data"
    precious.mkdir()
    (precious / "KEEP").write_text("results")
    dangling, to_data = Path(a["env"]), Path(b["env"])
    for link, target in ((dangling, tmp_path / "nowhere"), (to_data, precious)):
        os.rename(link, link.with_name(link.name + ".moved"))
        link.symlink_to(target)
    tiny.install("tiny-b")  # c stays a real env; the newest is current
    for entry_id, link in ((a["entry_id"], dangling), (b["entry_id"], to_data)):
        proc = run_cli("remove", entry_id, "--yes")
        assert proc.returncode == 0 and "link" in proc.stdout and "Traceback" not in proc.stderr, proc.stderr
        assert not os.path.lexists(link)
    assert (precious / "KEEP").read_text() == "results"
    removed = {e["id"]: e["removed"] for e in tiny.history()}
    assert removed[a["entry_id"]] and removed[b["entry_id"]] and not removed[c["entry_id"]]


def test_a_current_entry_whose_path_climbs_is_not_activated_or_checked(tiny, isolated_state, tmp_path):
    _, a = tiny.install("tiny-a")
    (tmp_path / "elsewhere" / "bin").mkdir(parents=True)
    _edit_entry(isolated_state, a["entry_id"], f"{isolated_state}/envs/../../{tmp_path.name}/elsewhere")
    for command in (["activate"], ["verify", "--level", "quick"], ["kernel", "install"]):
        proc = run_cli(*command)
        assert proc.returncode == 2 and "'..'" in proc.stderr and "Traceback" not in proc.stderr, (command, proc.stderr)
        assert "VIRTUAL_ENV" not in proc.stdout


def test_remove_deletes_only_a_folder_that_is_an_environment(tiny, isolated_state, tmp_path):
    """envs/ may be a link to a user's own disk, and history.json can be edited: an entry whose folder is not
    an environment (no pyvenv.cfg, no gc-wizard marker) is refused, and everything in it stays."""
    _, a = tiny.install("tiny-a")
    tiny.install("tiny-b")  # the newest is current; a may be removed
    folder = Path(a["env"])
    shutil.rmtree(folder)
    folder.mkdir()
    (folder / "PRECIOUS").write_text("a week of results")
    proc = run_cli("remove", a["entry_id"], "--yes")
    assert proc.returncode == 1 and "is not an environment" in proc.stderr and "Traceback" not in proc.stderr
    assert (folder / "PRECIOUS").read_text() == "a week of results"


@pytest.mark.parametrize("forged", ["--index-url=http://127.0.0.1:9/simple", "-e /tmp/somebodys-setup-py-folder",
                                    "-r /etc/other-requirements.txt"])
def test_a_recorded_package_set_with_an_installer_option_is_refused_before_any_change(tiny, isolated_state,
                                                                                     forged):
    """An edited history.json whose package set carries an option would send the rebuild to another index, or
    build (run) a folder's code: refused with the line, before anything is changed or left on disk."""
    _, a = tiny.install("tiny-a")
    _, b = tiny.install("tiny-b")
    shutil.rmtree(a["env"])  # the rollback must rebuild it from its recorded set
    state = json.loads((isolated_state / "history.json").read_text())
    for entry in state["entries"]:
        if entry["id"] == a["entry_id"]:
            entry["packages"] = [forged, *entry["packages"]]
            entry.pop("requirements_file", None)
    (isolated_state / "history.json").write_text(json.dumps(state))
    proc = run_cli("rollback", a["entry_id"], "--yes", "--no-verify")
    assert proc.returncode == 2 and "is an installer option" in proc.stderr and "Traceback" not in proc.stderr
    assert _current(tiny) == b["entry_id"] and not Path(a["env"]).exists()


@pytest.mark.parametrize("tail", [b"-\xff", b"-\xc3(", b"\xfe"])
def test_a_history_env_in_envs_whose_name_is_not_utf8_is_refused_before_the_rebuild(tiny, isolated_state, tail):
    """An entry edited to name a gone folder in envs/ whose name holds a byte that is not UTF-8: uv cannot make
    a venv there, and said so only at the rebuild, with its bare error; now one sentence before anything runs."""
    _, a = tiny.install("tiny-a")
    _, b = tiny.install("tiny-b")
    shutil.rmtree(a["env"])
    forged = os.fsdecode(os.fsencode(a["env"]) + tail)
    state = json.loads((isolated_state / "history.json").read_text())
    for entry in state["entries"]:
        if entry["id"] == a["entry_id"]:
            entry["env"] = forged
    (isolated_state / "history.json").write_text(json.dumps(state))  # JSON keeps the byte as \udcNN
    proc = run_cli("rollback", a["entry_id"], "--yes", "--no-verify", "--json")
    assert proc.returncode == 2 and "not UTF-8" in proc.stderr and "Nothing changed" in proc.stderr, proc.stderr
    assert "Traceback" not in proc.stderr and "invalid UTF-8" not in proc.stderr
    entries = json.loads((isolated_state / "history.json").read_text())["entries"]  # `history` prints the byte
    assert [e["id"] for e in entries if e["current"]] == [b["entry_id"]]
    assert [e["kind"] for e in entries].count("rollback") == 0


def test_a_refused_recorded_package_names_its_real_line_in_history_json(tiny, isolated_state):
    """10b: the refusal named "history.json line 1" — the item's place in the list — while the option was on
    line 16 of the file. New case: the option is the third item, in an indented file; the line named is the one
    it is on."""
    _, a = tiny.install("tiny-a")
    _, b = tiny.install("tiny-b")
    shutil.rmtree(a["env"])
    path = isolated_state / "history.json"
    state = json.loads(path.read_text())
    for entry in state["entries"]:
        if entry["id"] == a["entry_id"]:
            entry["packages"] = ["pkg-a==1.0", "graphcast==0.1.1", "--extra-index-url=http://127.0.0.1:9/x"]
            entry.pop("requirements_file", None)
    path.write_text(json.dumps(state, indent=2))
    line = next(n for n, text in enumerate(path.read_text().splitlines(), 1) if "--extra-index-url" in text)
    assert line > 3
    proc = run_cli("rollback", a["entry_id"], "--yes", "--no-verify")
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert f"history.json, line {line}:" in proc.stderr and "--extra-index-url" in proc.stderr, proc.stderr
    assert _current(tiny) == b["entry_id"]


@pytest.mark.parametrize("field, value, why", [("lock", "/tmp/outside-req.txt", "'lock' is not dict"),
                                               ("current", "yes", "'current' is not true/false")])
def test_an_entry_that_cannot_be_read_is_named_as_such_not_as_missing(tiny, isolated_state, field, value, why):
    """10c: an entry whose `lock` was a string made `rollback <id>` say "There is no history entry". It exists; it
    cannot be used, and the sentence says why and where, for rollback and remove alike."""
    _, a = tiny.install("tiny-a")
    tiny.install("tiny-b")
    path = isolated_state / "history.json"
    state = json.loads(path.read_text())
    for entry in state["entries"]:
        if entry["id"] == a["entry_id"]:
            entry[field] = value
    path.write_text(json.dumps(state, indent=1))
    for command in (["rollback", a["entry_id"], "--yes", "--no-verify"], ["remove", a["entry_id"], "--yes"]):
        proc = run_cli(*command)
        assert proc.returncode == 2 and "There is no history entry" not in proc.stderr, proc.stderr
        assert f"History entry '{a['entry_id']}'" in proc.stderr and "cannot be used" in proc.stderr
        assert why in proc.stderr and "line " in proc.stderr
    assert Path(a["env"]).is_dir()
