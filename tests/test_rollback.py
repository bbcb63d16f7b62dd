"""Rollback on real environments: a switch, a rebuild from the frozen set, an in-place restore."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from tests.fixtures.state import last_json, run_cli


def _imports(env: str, module: str) -> bool:
    return subprocess.run([str(Path(env) / "bin" / "python"), "-c", f"import {module}"],
                          capture_output=True).returncode == 0


def _current(tiny) -> dict:
    (current,) = [e for e in tiny.history() if e["current"]]
    return current


def test_rollback_switches_back_and_by_id_keeping_both(tiny):
    _, a = tiny.install("tiny-a")
    _, b = tiny.install("tiny-b")
    assert _current(tiny)["id"] == b["entry_id"]

    proc = run_cli("rollback", "--yes", "--json", "--no-verify")
    assert proc.returncode == 0, proc.stderr
    result = last_json(proc)
    assert result["ok"] and result["from"] == b["entry_id"] and result["to"] == a["entry_id"]
    assert _current(tiny)["id"] == a["entry_id"]
    assert _imports(a["env"], "pkg_a") and Path(b["env"]).is_dir()  # B is kept

    proc = run_cli("rollback", b["entry_id"], "--yes", "--json", "--no-verify")
    assert proc.returncode == 0 and last_json(proc)["to"] == b["entry_id"]
    assert _current(tiny)["id"] == b["entry_id"]
    kinds = [e["kind"] for e in tiny.history()]
    assert kinds.count("rollback") == 2


def test_rollback_shows_what_changes_and_refuses_without_confirmation(tiny):
    tiny.install("tiny-a")
    _, b = tiny.install("tiny-b")
    proc = run_cli("rollback", "--no-verify")  # stdin is not a terminal and no --yes
    assert proc.returncode == 2
    assert "current: tiny-b" in proc.stdout and "target : tiny-a" in proc.stdout
    assert _current(tiny)["id"] == b["entry_id"]


def test_rollback_after_the_folder_was_deleted_rebuilds_it_offline(tiny):
    _, a = tiny.install("tiny-a")
    tiny.install("tiny-b")
    shutil.rmtree(a["env"])
    proc = run_cli("rollback", a["entry_id"], "--yes", "--json", "--no-verify")
    assert proc.returncode == 0, proc.stderr
    assert last_json(proc)["rebuilt"] is True
    assert _imports(a["env"], "pkg_a")
    assert _current(tiny)["id"] == a["entry_id"]


def test_in_place_install_snapshots_and_rollback_restores_exactly(tiny, tmp_path):
    from uv import find_uv_bin

    env = tmp_path / "users-own-env"
    subprocess.run([find_uv_bin(), "venv", "-q", str(env)], check=True)
    tiny.house.add("old-tool", "0.5")
    subprocess.run([find_uv_bin(), "pip", "install", "-q", "--python", str(env / "bin" / "python"), "--offline",
                    "--find-links", str(tiny.house.path), "old-tool==0.5"], check=True)
    proc, result = tiny.install("tiny-a", "--env", str(env))
    assert proc.returncode == 0, proc.stderr
    assert _imports(str(env), "pkg_a")
    entry = _current(tiny)
    assert entry["mode"] == "in-place" and entry["snapshot"] == ["old-tool==0.5"]

    proc = run_cli("rollback", "--yes", "--json", "--no-verify")
    assert proc.returncode == 0, proc.stderr
    assert last_json(proc)["restored"] is True
    assert not _imports(str(env), "pkg_a") and _imports(str(env), "old_tool")


def test_remove_refuses_the_current_env_and_deletes_an_old_one(tiny):
    _, a = tiny.install("tiny-a")
    _, b = tiny.install("tiny-b")
    proc = run_cli("remove", b["entry_id"], "--yes")
    assert proc.returncode == 1 and "current" in proc.stderr
    assert Path(b["env"]).is_dir()
    proc = run_cli("remove", a["entry_id"], "--yes", "--json")
    assert proc.returncode == 0, proc.stderr
    assert not Path(a["env"]).exists()
    history = run_cli("history")
    assert "gone" in history.stdout and "●" in history.stdout


def test_nothing_to_roll_back_to_is_a_clear_message(tiny):
    tiny.install("tiny-a")
    proc = run_cli("rollback", "--yes")
    assert proc.returncode == 2 and "no previous working environment" in proc.stderr
