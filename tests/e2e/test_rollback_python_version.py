"""A rebuild says and records the Python the rebuilt environment runs, read from its own `pyvenv.cfg`
(`venv_config.python_version`), never the version recorded when it was first built; another X.Y is refused.

Before (32nd hostile pass, part B, P4): with the `--python` path now an upgraded interpreter (3.11.2 → 3.11.7), the
rollback said "Recreate the environment (Python 3.11.2)", wrote 3.11.2 into the marker and said nothing else; the
env ran 3.11.7. Here the record is made older instead of the interpreter newer: the same mismatch."""

from __future__ import annotations

import json
import platform
import shutil
from pathlib import Path

from tests.fixtures.cli import run_inproc
from tests.fixtures.state import last_json
from wizard import paths


def _record_version(entry_id: str, version: str) -> None:
    """history.json says `entry_id`'s environment was built with Python `version` (its marker too)."""
    path = paths.state_dir() / "history.json"
    data = json.loads(path.read_text())
    entry = next(e for e in data["entries"] if e["id"] == entry_id)
    entry["python_version"] = version
    entry["marker"]["python"] = version
    path.write_text(json.dumps(data))


def _older_patch(version: str) -> str:
    major, minor, patch = version.split(".")[:3]
    return f"{major}.{minor}.{int(patch) + 1}" if patch == "0" else f"{major}.{minor}.{int(patch) - 1}"


def test_a_rebuild_on_an_upgraded_interpreter_says_and_records_what_it_runs(tiny):
    _, a = tiny.install("tiny-a")
    tiny.install("tiny-b")
    real, recorded = platform.python_version(), _older_patch(platform.python_version())
    _record_version(a["entry_id"], recorded)
    shutil.rmtree(a["env"])
    proc = run_inproc("rollback", a["entry_id"], "--yes", "--json", "--no-verify")
    assert proc.returncode == 0, proc.stderr
    assert last_json(proc)["rebuilt"] is True
    said = proc.stdout + proc.stderr
    assert f"now runs Python {real}" in said and f"built with Python {recorded}" in said, said
    log = Path(last_json(proc)["log"]).read_text()
    assert f"Recreate the environment (Python {real})" in log and f"(Python {recorded})" not in log
    assert json.loads((Path(a["env"]) / "gc-wizard-env.json").read_text())["python"] == real
    assert next(e for e in tiny.history() if e["id"] == a["entry_id"])["python_version"] == real


def test_a_rebuild_on_an_interpreter_that_now_runs_another_minor_version_is_refused(tiny):
    _, a = tiny.install("tiny-a")
    tiny.install("tiny-b")
    _record_version(a["entry_id"], "3.9.18")
    shutil.rmtree(a["env"])
    proc = run_inproc("rollback", a["entry_id"], "--yes", "--no-verify")
    assert proc.returncode != 0
    assert f"now runs Python {platform.python_version()}" in proc.stderr and "built with Python 3.9.18" in proc.stderr
    assert not Path(a["env"]).exists()
