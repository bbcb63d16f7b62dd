"""A rollback installs from an entry's recorded package set only what the wizard itself records (sixth hostile
pass 10b: an entry's `packages` edited to `graphcast @ file:///elsewhere/…whl` was rebuilt without a word).

Real installs of the tiny recipes by the real wizard; history.json then edited the way the tester did."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from tests.fixtures.state import last_json, run_cli


def _edit_packages(entry_id: str, packages: list[str]) -> None:
    path = Path(os.environ["GC_WIZARD_HOME"]) / "history.json"
    state = json.loads(path.read_text())
    for entry in state["entries"]:
        if entry["id"] == entry_id:
            entry["packages"] = packages
    path.write_text(json.dumps(state, indent=1))


def _installed_pair(tiny):
    _, a = tiny.install("tiny-a")
    _, b = tiny.install("tiny-b")
    (entry,) = [e for e in json.loads((Path(os.environ["GC_WIZARD_HOME"]) / "history.json").read_text())["entries"]
                if e["id"] == a["entry_id"]]
    shutil.rmtree(a["env"])  # the rollback must rebuild it from the recorded set
    return a, b, entry


@pytest.mark.parametrize("forged", [
    "graphcast @ file://{outside}/graphcast-0.1.1-py3-none-any.whl",  # the tester's: a wheel outside the state
    "pkg-a @ file://{outside}/graphcast-0.1.1-py3-none-any.whl",  # any other package from a direct reference
    "graphcast @ https://127.0.0.1:9/graphcast-0.1.1-py3-none-any.whl",
    "graphcast @ git+https://github.com/google-deepmind/graphcast@main",  # a branch, not a commit
    "-e {outside}",
])
def test_a_recorded_set_naming_a_source_the_wizard_never_records_is_refused_by_entry_and_line(tiny, tmp_path,
                                                                                              forged):
    outside = tmp_path / "outside"
    outside.mkdir()
    shutil.copy(tiny.graphcast, outside / "graphcast-0.1.1-py3-none-any.whl")
    a, b, entry = _installed_pair(tiny)
    line = forged.format(outside=outside)
    _edit_packages(a["entry_id"], [line, "pkg-a==1.0"])
    proc = run_cli("rollback", a["entry_id"], "--yes", "--no-verify", "--json")
    error = last_json(proc)["error"]
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert error.startswith(f"{os.environ['GC_WIZARD_HOME']}/history.json, line ") and f"entry {a['entry_id']}" in error
    assert repr(line) in error and "nothing changed" in error
    assert not Path(a["env"]).exists() and next(e["id"] for e in tiny.history() if e["current"]) == b["entry_id"]
    assert [e["kind"] for e in tiny.history()].count("rollback") == 0


def test_the_recorded_graphcast_file_changed_since_the_install_is_refused(tiny):
    a, b, entry = _installed_pair(tiny)
    recorded = entry["graphcast_source"]
    assert recorded["requirement"].startswith("graphcast @ file://") and len(recorded["sha256"]) == 64
    state = Path(os.environ["GC_WIZARD_HOME"]) / "history.json"
    data = json.loads(state.read_text())
    for item in data["entries"]:
        if item["id"] == a["entry_id"]:
            item["find_links"] = []  # only the recorded hash vouches for the wheel now
    state.write_text(json.dumps(data, indent=1))
    Path(tiny.graphcast).write_bytes(Path(tiny.graphcast).read_bytes() + b"\0")  # the wheel changed meanwhile
    proc = run_cli("rollback", a["entry_id"], "--yes", "--no-verify", "--json")
    assert proc.returncode == 2 and "has changed since the install" in last_json(proc)["error"]


def test_the_wizards_own_record_rebuilds_as_before(tiny):
    a, b, entry = _installed_pair(tiny)
    assert any(p.startswith("graphcast @ file://") for p in entry["packages"])
    proc = run_cli("rollback", a["entry_id"], "--yes", "--no-verify", "--json", env={"UV_OFFLINE": "1"})
    assert proc.returncode == 0, proc.stderr
    assert last_json(proc)["rebuilt"] is True and (Path(a["env"]) / "bin" / "python").exists()
