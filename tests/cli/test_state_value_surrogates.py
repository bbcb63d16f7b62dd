"""32nd hostile pass (part A) P6: a lone surrogate escape other than a path byte's (`"tiny-a\\ud800"`, valid JSON a
script or an editor can write into history.json) stopped `rollback` with "this is a bug" at the line of its log that
named the entry. Every file the wizard writes takes any string (`security.WRITE_ERRORS`): rollback and remove of such
an entry finish, and the log shows the value escaped. Real tiny installs."""

from __future__ import annotations

import json

from tests.fixtures.cli import run_inproc
from wizard import paths


def _mark_recipe(entry_id: str) -> None:
    """The entry's recipe with a lone `\\ud800` after it, as a hand edit leaves it."""
    path = paths.history_path()
    data = json.loads(path.read_text())
    for entry in data["entries"]:
        if entry["id"] == entry_id:
            entry["recipe"] += "\ud800"
    path.write_text(json.dumps(data, indent=1))


def test_rollback_to_an_entry_whose_recipe_holds_a_lone_surrogate_finishes(tiny):
    _, a = tiny.install("tiny-a")
    tiny.install("tiny-b")
    _mark_recipe(a["entry_id"])
    proc = run_inproc("rollback", a["entry_id"], "--yes", "--no-verify")
    assert proc.returncode == 0, proc.stderr
    assert "this is a bug" not in proc.stderr + proc.stdout
    logs = b"".join(path.read_bytes() for path in paths.logs_dir().glob("rollback-*.log"))
    assert b"tiny-a\\ud800" in logs


def test_remove_of_an_entry_whose_recipe_holds_a_lone_surrogate_finishes(tiny):
    _, a = tiny.install("tiny-a")
    tiny.install("tiny-b")
    _mark_recipe(a["entry_id"])
    proc = run_inproc("remove", a["entry_id"], "--yes")
    assert proc.returncode == 0, proc.stderr
    assert "this is a bug" not in proc.stderr + proc.stdout
