"""The rollback transaction's phases, in process, on real environments built by the real wizard.

Each test drives `wizard.flows.rollback.rollback` with an events object that records what the
runner reports (steps, uv's own lines, messages), so the phases are seen as a face sees them:
restore (rebuild / re-sync / undo, as runner steps), verify (the exact frozen set), commit, put back,
cancel through the event, and a crash of our own code.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import threading
import uuid
from pathlib import Path

import pytest
from uv import find_uv_bin

from tests.fixtures.wheels import build_wheel
from wizard.flows.rollback import RollbackEvents, Target, restore_kind, rollback
from wizard.history.store import load_history
from wizard.install import envs


class Recorder(RollbackEvents):
    def __init__(self) -> None:
        self.started: list[str] = []
        self.finished: list[tuple[str, bool, bool]] = []
        self.lines: list[str] = []
        self.messages: list[str] = []

    def step_started(self, step) -> None:
        self.started.append(step.name)

    def line(self, step, text: str) -> None:
        self.lines.append(text)

    def step_finished(self, step, result) -> None:
        self.finished.append((step.name, result.ok, result.cancelled))

    def message(self, text: str) -> None:
        self.messages.append(text)


def _current_id() -> str | None:
    current = load_history().current()
    return current.id if current else None


def _two_installs(tiny) -> tuple[dict, dict]:
    _, a = tiny.install("tiny-a")
    _, b = tiny.install("tiny-b")
    assert a and b and _current_id() == b["entry_id"]
    return a, b


def _uv_install(env: str, *args: str) -> None:
    subprocess.run([find_uv_bin(), "pip", "install", "-q", "--python", f"{env}/bin/python", *args], check=True)


def test_restore_kind_names_each_way_back(tiny, tmp_path):
    a, b = _two_installs(tiny)
    history = load_history()
    entry_a = history.get(a["entry_id"])
    assert restore_kind(Target(entry_a)) == "switch"
    _uv_install(a["env"], "--offline", "--find-links", str(tiny.house.path), "pkg-b==2.0")
    assert restore_kind(Target(entry_a)) == "resync"
    shutil.rmtree(a["env"])
    assert restore_kind(Target(entry_a)) == "rebuild"
    assert restore_kind(Target(history.get(b["entry_id"]), undo=True)) == "undo"


def test_a_rebuild_runs_as_runner_steps_live_and_into_the_rollbacks_log(tiny):
    a, b = _two_installs(tiny)
    shutil.rmtree(a["env"])
    events = Recorder()
    result = rollback(a["entry_id"], verify=False, events=events)

    assert result.ok and result.rebuilt and result.status == "installed"
    assert events.started == ["create-env", "sync-offline"]
    assert events.finished == [("create-env", True, False), ("sync-offline", True, False)]
    assert any("+ pkg-a==1.0" in line for line in events.lines)  # uv's own line, as it came
    assert any("rebuilding it from its" in m for m in events.messages)
    log = Path(result.log).read_text()
    assert Path(result.log).name == f"rollback-{result.entry_id}.log"
    assert "create-env: Recreate the environment" in log and "sync-offline:" in log
    assert "+ pkg-a==1.0" in log and "is the current environment now" in log
    assert oct(Path(result.log).stat().st_mode & 0o777) == "0o600"
    assert _current_id() == a["entry_id"]
    record = load_history().get(result.entry_id)
    assert record.kind == "rollback" and record.status == "installed" and record.log == result.log


def test_a_switch_runs_no_step_and_commits(tiny):
    a, b = _two_installs(tiny)
    events = Recorder()
    result = rollback(verify=False, events=events)
    assert result.ok and result.to_id == a["entry_id"] and result.from_id == b["entry_id"]
    assert events.started == [] and not result.rebuilt and not result.restored
    assert _current_id() == a["entry_id"]


def test_a_failed_resync_puts_the_folder_back_as_it_was(tiny, monkeypatch):
    """The frozen pkg-a 1.0 can no longer be had: the re-sync fails, the folder gets back the set it
    had before the rollback (pkg-a 1.5, put there by hand), and B stays current."""
    a, b = _two_installs(tiny)
    tiny.house.add("pkg-a", "1.5")
    _uv_install(a["env"], "--offline", "--find-links", str(tiny.house.path), "pkg-a==1.5")
    before = envs.freeze(a["env"])
    for wheel in tiny.house.path.glob("pkg_a-1.0-*.whl"):
        wheel.unlink()
    monkeypatch.setenv("UV_OFFLINE", "1")
    monkeypatch.setenv("UV_NO_CACHE", "1")
    events = Recorder()
    result = rollback(a["entry_id"], verify=False, events=events)

    assert not result.ok and result.status == "failed" and "current environment is unchanged" in result.error
    assert events.started[:2] == ["sync-offline", "sync-online"]
    assert envs.freeze(a["env"]) == before
    assert any("put " in m and "back as it was before the rollback" in m for m in events.messages)
    assert _current_id() == b["entry_id"]


def test_cancelling_a_rebuild_through_the_event_removes_the_half_built_folder(tiny, slow_index, tmp_path):
    a, b = _two_installs(tiny)
    version = f"1.0.{uuid.uuid4().int % 10**8}"  # only the slow index has it; no cache can
    build_wheel(tmp_path / "slow-house", "pkg-slow", version)
    history_file = Path(os.environ["GC_WIZARD_HOME"]) / "history.json"
    data = json.loads(history_file.read_text())
    for item in data["entries"]:
        if item["id"] == a["entry_id"]:
            item["packages"], item["find_links"], item["requirements_file"] = [f"pkg-slow=={version}"], \
                [slow_index], None
    history_file.write_text(json.dumps(data))
    shutil.rmtree(a["env"])
    cancel = threading.Event()

    class CancelWhenDownloading(Recorder):
        def step_started(self, step) -> None:
            super().step_started(step)
            if step.name == "sync-online":
                threading.Timer(1.5, cancel.set).start()

    events = CancelWhenDownloading()
    result = rollback(a["entry_id"], verify=False, cancel=cancel, events=events)

    assert result.cancelled and not result.ok and result.status == "cancelled"
    assert ("sync-online", False, True) in events.finished
    assert not Path(a["env"]).exists()
    assert _current_id() == b["entry_id"]
    record = load_history().get(result.entry_id)
    assert record.status == "cancelled" and not record.current
    assert "cancelled" in Path(result.log).read_text()


@pytest.mark.parametrize(("raised", "status"), [(RuntimeError("a bug"), "failed"), (KeyboardInterrupt(), "cancelled")])
def test_a_crash_or_signal_mid_rebuild_is_recorded_and_the_folder_removed(tiny, raised, status):
    """Our own code raising (or Ctrl-C in the CLI's thread) while the folder is rebuilt from nothing:
    crashed() records the entry, removes the folder, and the exception goes on."""
    a, b = _two_installs(tiny)
    shutil.rmtree(a["env"])

    class Crashing(Recorder):
        def step_started(self, step) -> None:
            if step.name == "sync-offline":
                raise raised

    with pytest.raises(type(raised)):
        rollback(a["entry_id"], verify=False, events=Crashing())
    assert not Path(a["env"]).exists()
    assert _current_id() == b["entry_id"]
    record = load_history().entries[-1]
    assert record.kind == "rollback" and record.status == status and not record.current
    assert "current environment is unchanged" in record.error


def test_the_install_and_the_rollback_sync_with_one_command(tmp_path):
    """envs.sync_argv is the one `uv pip sync` (offline first, then online) both run."""
    env = tmp_path / "env"
    offline, online = envs.sync_steps(env, "req.txt", find_links=["/wheels"])
    assert offline.argv == envs.sync_argv(env, "req.txt", find_links=["/wheels"], offline=True)
    assert online.argv == envs.sync_argv(env, "req.txt", find_links=["/wheels"])
    assert offline.argv[1:] == ("pip", "sync", "--python", str(env / "bin" / "python"), "--find-links", "/wheels",
                                "--offline", "req.txt")


def test_the_cli_shows_the_rebuild_live_like_an_install(tiny):
    from tests.fixtures.state import run_cli

    a, b = _two_installs(tiny)
    shutil.rmtree(a["env"])
    proc = run_cli("rollback", a["entry_id"], "--yes", "--no-verify")
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "==> Recreate the environment (Python" in out and "==> Install the frozen package set (offline" in out
    assert "+ pkg-a==1.0" in out and "[done in" in out
    log = next(line for line in out.splitlines() if line.startswith("Log: "))[5:]
    assert "+ pkg-a==1.0" in Path(log).read_text()


def test_the_tui_result_lines_say_what_happened():
    from tests.fixtures.results import rollback_result
    from wizard.tui.screens.rollback import result_lines

    assert result_lines(rollback_result(ok=True, rebuilt=True, env="/e", log="/l")) == [
        "✓ Rolled back (rebuilt from its frozen package set): /e is current now.", "Log: /l"]
    failed = result_lines(rollback_result(ok=False, error="the check failed. Log: /l", log="/l"))
    assert failed == ["✗ Rollback failed: the check failed.", "Log: /l"]
    assert result_lines(None, "another wizard holds the lock") == [
        "✗ Rollback not started: another wizard holds the lock"]
