"""history.json on real files and real processes: atomic, repairable, never silently emptied."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.fixtures.cli import bare_program, run_inproc
from tests.fixtures.envs import python_link_env
from tests.fixtures.state import REPO
from wizard.history.store import (
    INTERRUPTED,
    Entry,
    History,
    VerifySummary,
    boot_id,
    load_history,
    record_verify,
)
from wizard.install.envs import write_marker
from wizard.lock import StateLock
from wizard.verify.check import VerifyResult


def _write(home: Path, entries: list) -> Path:
    path = home / "history.json"
    path.write_text(json.dumps({"version": 1, "entries": entries}))
    return path


def _entry(**kw) -> dict:
    base = Entry(id=kw.pop("id", "e1"), kind="install", recipe="tiny-a", env="/nowhere/env").to_dict()
    base.update(kw)
    return base


def _dead_pid() -> int:
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


@pytest.fixture
def lock_holder(isolated_state):
    """A real second process holding the state lock (as a running install does), until the test ends."""
    code = ("import sys, time; from wizard.lock import StateLock\n"
            "with StateLock('install tiny-slow'):\n    print('locked', flush=True); time.sleep(120)\n")
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True, cwd=REPO,
                            env={**os.environ, "GC_WIZARD_HOME": str(isolated_state)})
    assert proc.stdout.readline().strip() == "locked"
    yield proc
    proc.kill()
    proc.wait()


def test_save_round_trips_atomically_with_the_interface_fields(isolated_state):
    history = load_history()
    assert history.entries == [] and history.warnings == []
    a = history.add(Entry(id=history.new_entry_id(), kind="install", recipe="tiny-a", env="/e/a", status="installed"))
    b = history.add(Entry(id=history.new_entry_id(), kind="install", recipe="tiny-b", env="/e/b", status="verified"))
    history.make_current(a)
    history.make_current(b)
    history.save()
    assert [p.name for p in isolated_state.iterdir()] == ["history.json"]  # no temp file left behind
    again = load_history()
    assert [e.id for e in again.entries] == [a.id, b.id]
    assert again.current().id == b.id and not again.get(a.id).current
    raw = json.loads((isolated_state / "history.json").read_text())["entries"][1]
    for key in ("id", "recipe", "env", "status", "current", "started", "finished", "log", "kind", "packages",
                "verify", "mode", "snapshot", "error", "pid", "host"):
        assert key in raw


def test_a_corrupt_file_is_moved_aside_with_a_warning_and_a_fresh_history_starts(isolated_state):
    path = isolated_state / "history.json"
    path.write_text('{"version": 1, "entries": [ {"id": "trunc')
    history = load_history()
    assert history.entries == []
    (aside,) = isolated_state.glob("history.json.corrupt-*")
    assert aside.read_text() == '{"version": 1, "entries": [ {"id": "trunc'
    assert str(aside) in history.warnings[0] and "untouched" in history.warnings[0]
    history.add(Entry(id="x", kind="install", recipe="r", env="/e"))
    history.save()
    assert [e.id for e in load_history().entries] == ["x"]


def test_json_that_is_not_a_history_is_moved_aside_too(isolated_state):
    (isolated_state / "history.json").write_text('{"hello": "world"}')
    history = load_history()
    assert history.entries == [] and "not a gc-wizard history" in history.warnings[0]
    assert len(list(isolated_state.glob("history.json.corrupt-*"))) == 1


def test_cli_history_on_a_corrupt_file_warns_and_never_tracebacks(isolated_state):
    (isolated_state / "history.json").write_bytes(b"\xff\xfe not even text")
    proc = run_inproc("history", "--json")
    assert proc.returncode == 0 and proc.stdout.strip().splitlines()[-1] == "[]"
    assert "moved to" in proc.stderr and "Traceback" not in proc.stderr
    (aside,) = isolated_state.glob("history.json.corrupt-*")
    assert aside.read_bytes() == b"\xff\xfe not even text"


def test_unreadable_entries_and_unknown_fields_are_kept_in_the_file(isolated_state):
    good = _entry(id="good", status="installed", current=True, from_the_future={"x": 1})
    path = _write(isolated_state, [{"id": 7, "what": "a broken entry"}, good])
    history = load_history()
    assert [e.id for e in history.entries] == ["good"]
    assert "entry 1 could not be read" in history.warnings[0]
    history.add(Entry(id="new", kind="install", recipe="tiny-b", env="/e/b"))
    history.save()
    raw = json.loads(path.read_text())["entries"]
    assert raw[0] == {"id": 7, "what": "a broken entry"}  # still there, byte for byte
    assert raw[1]["from_the_future"] == {"x": 1} and raw[2]["id"] == "new"


def test_a_history_of_a_newer_format_is_named_read_and_never_rewritten(isolated_state):
    """33rd hostile pass (part B) P7: `"version": 99` (a newer gc-wizard sharing the state, or a downgrade) was read
    without a word and rewritten as version 1 by the next install, its other top-level fields dropped. It is named
    in one sentence (file, version, "written by a newer gc-wizard"); a change is refused before anything is done."""
    from wizard.errors import OperationFailed

    path = isolated_state / "history.json"
    path.write_text(json.dumps({"version": 99, "newer_field": {"x": 1},
                                "entries": [_entry(status="installed", current=True)]}))
    before = path.read_bytes()
    history = load_history()
    assert [e.id for e in history.entries] == ["e1"]
    (said,) = [w for w in history.warnings if "version 99" in w]
    assert str(path) in said and "written by a newer gc-wizard" in said
    with pytest.raises(OperationFailed, match="version 99, written by a newer gc-wizard"):
        history.save()
    with pytest.raises(OperationFailed, match="version 99, written by a newer gc-wizard"):
        load_history(locked=True)
    with pytest.raises(OperationFailed, match="version 99"):  # `verify` says it, and keeps its result
        record_verify("/nowhere/env", VerifySummary(ok=True))
    assert path.read_bytes() == before


@pytest.mark.parametrize("version", [2.0, "2", 1.5, "1", 1.0, None, True, [1], 0, -1])
def test_a_history_version_not_exactly_known_is_never_rewritten(isolated_state, version):
    """35th hostile pass (part B) P7: "version" 2.0, "2" and 1.5 passed the newer-format check (an int above 1
    only) and the next install rewrote the file as version 1 without a word. Only the int 1 (or no "version") is
    this format; any other spelling is named, read as far as understood, and never rewritten."""
    from wizard.errors import OperationFailed

    path = isolated_state / "history.json"
    path.write_text(json.dumps({"version": version, "entries": [_entry(status="installed", current=True)]}))
    before = path.read_bytes()
    history = load_history()
    assert [e.id for e in history.entries] == ["e1"]
    (said,) = [w for w in history.warnings if "history format version" in w]
    assert str(path) in said and json.dumps(version) in said
    with pytest.raises(OperationFailed, match="changes nothing in this state"):
        history.save()
    with pytest.raises(OperationFailed, match="changes nothing in this state"):
        load_history(locked=True)
    assert path.read_bytes() == before


def test_a_history_of_version_1_or_none_is_this_format(isolated_state):
    path = isolated_state / "history.json"
    for top in ({"version": 1, "entries": [_entry()]}, {"entries": [_entry()]}, [_entry()]):
        path.write_text(json.dumps(top))
        history = load_history()
        assert not [w for w in history.warnings if "history format version" in w]
        history.save()
        assert json.loads(path.read_text())["version"] == 1


def test_unknown_top_level_fields_are_kept_on_save(isolated_state):
    path = isolated_state / "history.json"
    path.write_text(json.dumps({"version": 1, "note_by_a_tool": ["kept"], "entries": [_entry()]}))
    history = load_history()
    history.add(Entry(id="new", kind="install", recipe="tiny-b", env="/e/b"))
    history.save()
    data = json.loads(path.read_text())
    assert data["version"] == 1 and data["note_by_a_tool"] == ["kept"] and len(data["entries"]) == 2


def test_at_most_one_entry_is_current_after_loading(isolated_state):
    _write(isolated_state, [_entry(id="a", status="installed", current=True),
                            _entry(id="b", status="installed", current=True)])
    history = load_history()
    assert [e.id for e in history.entries if e.current] == ["b"]
    assert [e["id"] for e in json.loads((isolated_state / "history.json").read_text())["entries"]
            if e["current"]] == ["b"]


def test_a_run_whose_process_died_is_marked_interrupted_and_saved(isolated_state):
    _write(isolated_state, [_entry(id="ok", status="installed", current=True),
                            _entry(id="dead", status="running", pid=_dead_pid())])
    history = load_history()
    dead = history.get("dead")
    assert dead.status == "failed" and dead.interrupted and dead.error == INTERRUPTED and not dead.current
    assert history.current().id == "ok"
    assert any("dead" in w and "interrupted" in w for w in history.warnings)
    saved = {e["id"]: e for e in json.loads((isolated_state / "history.json").read_text())["entries"]}
    assert saved["dead"]["status"] == "failed" and saved["dead"]["interrupted"] is True


def test_a_run_still_holding_the_lock_is_left_running_and_nothing_is_written(isolated_state, lock_holder):
    path = _write(isolated_state, [_entry(id="live", status="running", pid=lock_holder.pid)])
    before = path.read_text()
    history = load_history()
    assert history.get("live").status == "running"
    assert path.read_text() == before


def test_while_another_wizard_works_a_dead_pid_is_still_found_but_not_written(isolated_state, lock_holder):
    path = _write(isolated_state, [_entry(id="live", status="running", pid=lock_holder.pid),
                                   _entry(id="dead", status="running", pid=_dead_pid())])
    before = path.read_text()
    history = load_history()
    assert history.get("dead").interrupted and history.get("live").status == "running"
    assert path.read_text() == before  # the lock holder owns the file right now


def test_a_run_from_before_a_reboot_is_interrupted_even_if_its_pid_is_reused(isolated_state, lock_holder):
    _write(isolated_state, [_entry(id="old", status="running", pid=lock_holder.pid, host=socket.gethostname(),
                                   boot="another-boot")])
    assert load_history().get("old").interrupted


def test_a_run_on_another_host_is_left_alone_while_the_lock_is_held(isolated_state, lock_holder):
    _write(isolated_state, [_entry(id="far", status="running", pid=_dead_pid(), host="gpu07.elsewhere")])
    assert load_history().get("far").status == "running"


def test_with_the_lock_free_every_running_entry_of_this_host_is_dead(isolated_state):
    _write(isolated_state, [_entry(id="near", status="running", pid=os.getppid(), host=socket.gethostname())])
    near = load_history().get("near")
    assert near.status == "failed" and near.interrupted


def _half_built(home: Path, name: str) -> Path:
    env = home / "envs" / name
    (env / "lib").mkdir(parents=True)
    (env / "pyvenv.cfg").write_text("home = /usr/bin\n")
    (env / "lib" / "big.whl.part").write_text("half-downloaded")
    return env


@pytest.mark.parametrize("locked", [False, True])
def test_a_run_of_another_host_is_never_marked_or_touched_even_with_the_lock(isolated_state, locked):
    """31st hostile pass (part B) P4: on a shared state whose flock other nodes do not see, holding the lock here
    proves nothing about node17's install; `history` marked it failed and deleted the env it was building."""
    env = _half_built(isolated_state, "tiny-b-20990101-000000")
    path = _write(isolated_state, [_entry(id="far", status="running", pid=os.getppid(), host="node17",
                                          boot="another-boot", env=str(env))])
    before = path.read_text()
    if locked:
        with StateLock("install tiny-a"):
            history = load_history(locked=True)
    else:
        history = load_history()
    assert history.get("far").status == "running" and not history.get("far").interrupted
    assert (env / "lib" / "big.whl.part").is_file() and path.read_text() == before
    assert any("node17" in w and "far" in w and "leaves it" in w for w in history.warnings), history.warnings


def test_a_reading_command_deletes_nothing_and_the_next_change_removes_the_half_built_env(isolated_state):
    """P4's second half: a read-only load (`history`, `detect`, `plan`) marks a dead run of this host failed but
    deletes nothing; the next command holding the lock for a change of its own removes the half-built folder."""
    env = _half_built(isolated_state, "tiny-b-20990101-000000")
    _write(isolated_state, [_entry(id="dead", status="running", pid=_dead_pid(), env=str(env))])
    history = load_history()
    assert history.get("dead").interrupted and env.is_dir()
    assert any(str(env) in w and "left for now" in w for w in history.warnings), history.warnings
    assert load_history().get("dead").status == "failed" and env.is_dir()  # saved; still nothing deleted
    with StateLock("install tiny-a"):
        history = load_history(locked=True)
    assert not env.exists()
    assert any(f"removed {env}" in w and "dead" in w for w in history.warnings), history.warnings


def test_the_lock_holder_marks_entries_left_by_earlier_holders(isolated_state):
    live = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        _write(isolated_state, [_entry(id="stale", status="running", pid=live.pid, boot=boot_id())])
        with StateLock("test"):
            assert load_history().get("stale").status == "running"  # unlocked view: its pid is alive
            assert load_history(locked=True).get("stale").interrupted  # but we hold the lock: it is dead
    finally:
        live.kill()
        live.wait()


def test_record_verify_adds_a_finished_verify_entry_that_is_never_current(isolated_state, tmp_path):
    env = tmp_path / "env"
    env.mkdir()
    (env / "gc-wizard-env.json").write_text(json.dumps({"recipe": "tiny-a", "backend": "cpu"}))
    verify = {"ok": False, "backend": "cpu", "log": "/x.log",
              "tiers": [{"name": "jax_import", "ok": False, "status": "failed"},
                        {"name": "backend", "ok": False, "status": "not_run"}],
              "findings": [{"id": "numpy2_incompatible"}]}
    summary = VerifyResult.from_dict(verify).summary()
    entry = record_verify(env, summary, log="/x.log")
    (saved,) = load_history().entries
    assert saved.id == entry.id and saved.kind == "verify" and saved.recipe == "tiny-a"
    assert saved.status == "failed" and not saved.current
    assert saved.verify == summary
    assert saved.verify.failed_tier == "jax_import" and saved.verify.findings == ("numpy2_incompatible",)
    with StateLock("another wizard"):
        assert record_verify(env, summary) is None  # busy: not recorded, no error


def test_history_json_lists_entries_with_disk_use_and_the_human_table_marks_current(isolated_state, tmp_path):
    env = tmp_path / "env"
    (env / "bin").mkdir(parents=True)
    (env / "bin" / "blob").write_bytes(os.urandom(300_000))
    write_marker(env, {"recipe": "jax0.4.23-cpu", "title": "t", "backend": "cpu"})
    system = tmp_path / "usr"  # an entry edited to name a folder the wizard never made: not walked (pass 18 P22)
    (system / "lib").mkdir(parents=True)
    (system / "lib" / "big").write_bytes(os.urandom(200_000))
    _write(isolated_state, [_entry(id="a", env=str(env), status="installed", current=True,
                                   started=time.strftime("%Y-%m-%dT%H:%M:%S")),
                            _entry(id="b", env=str(system), status="installed")])
    proc = run_inproc("history", "--json")
    row, other = json.loads(proc.stdout.splitlines()[-1])
    assert row["id"] == "a" and row["current"] is True and row["env_exists"] is True
    assert 300_000 <= row["disk_bytes"] < 400_000
    assert other["disk_bytes"] in (None, 0), other
    table = run_inproc("history").stdout
    assert "● a" in table and "MiB" in table and str(env) in table


# --------------------------------------------------------------------------- the typed check in history

REAL_RESULT = REPO / "tests" / "data" / "verify-cpu-notebook.json"  # a real `verify --json` (CPU, notebook)


def test_a_typed_check_round_trips_through_its_json_and_history(isolated_state):
    data = json.loads(REAL_RESULT.read_text())
    result = VerifyResult.from_dict(data)
    assert [t.name for t in result.tiers] == ["jax_import", "backend", "cudnn_op", "graphcast_jit_init"]
    assert [t.status for t in result.tiers] == ["passed", "passed", "skipped", "passed"]
    assert result.to_dict() == {**data, "where": None, "started": True}  # the interface's JSON, tier by tier, value by value
    assert VerifyResult.from_dict(result.to_dict()) == result

    summary = result.summary()
    with StateLock("test"):
        history = load_history(locked=True)
        history.add(Entry(id="e1", kind="install", recipe="jax0.4.23-cpu", env="/e", status="verified",
                          verify=summary))
        history.save()
    (saved,) = load_history().entries
    assert saved.verify == summary
    stored = json.loads((isolated_state / "history.json").read_text())["entries"][0]["verify"]
    assert stored == {"ok": True, "backend": "cpu", "failed_tier": None, "param_count": 70739,
                      "init_seconds": 9.662, "findings": [], "log": data["log"], "node": None,
                      "finding_details": []}


def test_a_stopped_or_failed_check_names_its_tier_in_the_summary():
    data = json.loads(REAL_RESULT.read_text())
    tiers = data["tiers"][:1] + [{"name": "backend", "ok": False, "status": "cancelled", "seconds": None,
                                  "error": {"type": "Cancelled", "message": "verification was cancelled"}}]
    cancelled = VerifyResult.from_dict({**data, "ok": False, "cancelled": True, "tiers": tiers})
    assert cancelled.summary().failed_tier == "backend" and cancelled.failed_tier is None
    gencast = {"name": "gencast_jit_init", "ok": True, "status": "passed", "seconds": 3.0,
               "param_count": 1234, "init_seconds": 2.5}
    with_gencast = VerifyResult.from_dict({**data, "tiers": data["tiers"] + [gencast]}).summary()
    assert with_gencast.to_dict()["gencast_param_count"] == 1234
    assert VerifySummary.from_dict(with_gencast.to_dict()) == with_gencast


def test_history_written_by_older_versions_still_loads(isolated_state):
    whole = {"ok": False, "env": "/e", "backend": "gpu", "log": "/v.log",  # the whole result, dict tiers
             "tiers": [{"name": "jax_import", "ok": True, "seconds": 1.2},
                       {"name": "backend", "ok": False, "seconds": 0.4, "error": "JAX fell back to the CPU"}],
             "findings": [{"id": "cpu_fallback", "title": "JAX fell back to the CPU", "fix": "install the GPU "
                           "recipe", "explanation": "x", "evidence": ["No GPU/TPU found"]}]}
    short = {"ok": True, "backend": "cpu", "failed_tier": None, "param_count": 55891, "init_seconds": 8.2,
             "findings": [], "log": "/w.log"}  # a summary from before `node` and `finding_details`
    _write(isolated_state, [_entry(id="a", status="failed", verify=whole),
                            _entry(id="b", status="verified", verify=short)])
    history = load_history()
    assert not history.warnings
    old, older = history.get("a").verify, history.get("b").verify
    assert old.ok is False and old.failed_tier == "backend" and old.findings == ("cpu_fallback",)
    assert old.finding_details == ({"id": "cpu_fallback", "title": "JAX fell back to the CPU",
                                    "fix": "install the GPU recipe"},)
    assert older.ok is True and older.param_count == 55891 and older.node is None and not older.finding_details
    with StateLock("test"):
        load_history(locked=True).save()  # written back as summaries, nothing lost that a summary keeps
    again = load_history()
    assert again.get("a").verify == old and again.get("b").verify == older



def test_the_last_local_graphcast_is_remembered_per_version(isolated_state, tmp_path):
    """A server without GitHub: the checkout an earlier install used is offered again, if still there."""
    from wizard.history.store import Entry, load_history

    checkout = tmp_path / "graphcast v0.1.1"
    checkout.mkdir()
    (checkout / "setup.py").write_text("from setuptools import setup\nsetup(name='graphcast', version='0.1.1')\n")
    url = "file://" + str(checkout).replace(" ", "%20")
    history = load_history()
    history.add(Entry(id="20261122-210000-aaaa", kind="install", recipe="jax0.4.23-cpu", env="/e1",
                      status="verified", packages=["jax==0.4.23", f"graphcast @ {url}"]))
    history.add(Entry(id="20261122-210500-bbbb", kind="install", recipe="jax0.4.23-cpu", env="/e2",
                      status="failed", packages=["graphcast @ file:///gone/graphcast"]))
    assert history.last_local_graphcast("0.1.1") == str(checkout)
    assert history.last_local_graphcast("0.2") is None
    (checkout / "setup.py").unlink()
    (checkout / "setup.py").write_text("from setuptools import setup\nsetup(name='graphcast', version='0.2')\n")
    assert history.last_local_graphcast("0.1.1") is None  # moved on to another version: not offered


def test_the_source_a_stopped_install_was_given_is_offered_again(isolated_state, tmp_path):
    """Seventeenth walk, problem 5: after Ctrl-C in the first install the checkout had to be typed again, since only
    a good install's frozen set was read. The plan's own source, recorded when the install began, counts too; a good
    install's still comes first, and a remote or vanished one is never offered."""
    from wizard.history.store import Entry, load_history

    def checkout(name: str, version: str = "0.1.1") -> Path:
        folder = tmp_path / name
        folder.mkdir()
        (folder / "setup.py").write_text(f"from setuptools import setup\nsetup(name='graphcast', version='{version}')\n")
        return folder

    stopped, good = checkout("stopped"), checkout("good")
    history = load_history()
    history.add(Entry(id="20261122-210000-aaaa", kind="install", recipe="jax0.4.23-cpu", env="/e1",
                      status="cancelled", graphcast_given=str(stopped)))
    assert history.last_local_graphcast("0.1.1") == str(stopped)
    history.add(Entry(id="20261122-210500-bbbb", kind="install", recipe="jax0.4.23-cpu", env="/e2",
                      status="failed", graphcast_given="git+https://github.com/google-deepmind/graphcast@v0.1.1"))
    assert history.last_local_graphcast("0.1.1") == str(stopped)
    history.add(Entry(id="20261122-211000-cccc", kind="install", recipe="jax0.4.23-cpu", env="/e3",
                      status="verified", packages=[f"graphcast @ file://{good}"], graphcast_given=str(good)))
    history.add(Entry(id="20261122-211500-dddd", kind="install", recipe="jax0.4.23-cpu", env="/e4",
                      status="cancelled", graphcast_given=str(stopped)))
    assert history.last_local_graphcast("0.1.1") == str(good)  # a good install's source first
    assert Entry.from_dict(history.entries[0].to_dict()).graphcast_given == str(stopped)


def test_a_failed_verify_keeps_its_reason_in_the_history(isolated_state, tmp_path):
    """A check that failed (or never started: srun refused the job) is recorded with why, so `history`
    and the app's History say it, not only "verify failed"."""
    summary = VerifySummary(ok=False, findings=("srun_failed",), node=None, finding_details=(
        {"id": "srun_failed", "title": "The GraphCast check never started on a GPU node",
         "fix": "Slurm has no partition gpus. This cluster's partitions: gpu."},))
    entry = record_verify(tmp_path / "env", summary, recipe="jax0.4.23-cpu")
    assert entry is not None
    saved = load_history().entries[-1]
    assert saved.error == ("The GraphCast check never started on a GPU node. Fix: Slurm has no partition gpus. "
                           "This cluster's partitions: gpu.")
    out = " ".join(run_inproc("history").stdout.split())
    assert "! The GraphCast check never started on a GPU node. Fix: Slurm has no partition gpus." in out


@pytest.mark.parametrize("damage", [b"\xff", b"\x00\x00garbage", b'{"version": 1, "ent', b"]}"])
def test_damage_after_a_whole_history_keeps_its_entries_and_the_current_one(isolated_state, damage):
    """5b: one byte appended to a valid history set it all aside; the entries came back from the markers with none
    current, and `activate` said "no current environment yet". New cases of the class: NULs, a second write's
    tail, stray closing brackets — the history before them is whole and is kept, its current entry too."""
    old = _entry(id="old", status="installed", env="/e/old", find_links=["/srv/house"])
    new = _entry(id="new", status="verified", env="/e/new", current=True)
    path = _write(isolated_state, [old, new])
    path.write_bytes(path.read_bytes() + b"\n" + damage)
    history = load_history()
    assert [e.id for e in history.entries] == ["old", "new"] and history.current().id == "new"
    assert "/e/new is still the current environment" in history.warnings[0] and "moved to" in history.warnings[0]
    (aside,) = isolated_state.glob("history.json.corrupt-*")
    assert aside.read_bytes().endswith(damage)
    again = json.loads(path.read_text())  # saved back whole, the damage left in the file set aside
    assert [e["id"] for e in again["entries"]] == ["old", "new"] and again["entries"][0]["find_links"] == ["/srv/house"]


def test_damage_inside_a_history_rebuilds_from_markers_and_says_none_is_current(isolated_state):
    """When the damage is inside (no whole history before it), which env was current cannot be told: the message
    and the next command that wants the current env say so, and how to make one current."""
    env = isolated_state / "envs" / "tiny-a-1"
    python_link_env(env)
    (env / "gc-wizard-env.json").write_text(json.dumps({"recipe": "tiny-a", "entry_id": "e-a"}))
    path = _write(isolated_state, [_entry(id="e-a", status="installed", env=str(env), current=True)])
    raw = path.read_bytes()
    path.write_bytes(raw[:20] + b"\xff" + raw[20:])
    history = load_history()
    assert [e.id for e in history.entries] == ["e-a"] and history.current() is None
    assert "none of them is current now" in history.warnings[0] and "gc-wizard rollback ENTRY_ID" in history.warnings[0]
    proc = run_inproc("activate")
    assert proc.returncode == 2 and "no environment is current now" in proc.stderr and "yet" not in proc.stderr


# ------------------------------------------------------------------ an id two entries share (edited history)


def _shared(home: Path, copies: int = 2) -> Path:
    """`copies` installs that share one id (an edited history.json), between two entries of their own, written as
    the wizard writes the file (indented: one entry starts per line the refusal names)."""
    entries = [_entry(id="e0", status="installed", env=str(home / "envs" / "zero"))]
    entries += [_entry(id="e-dup", status="installed", env=str(home / "envs" / f"copy{n}"),
                       current=n == copies - 1) for n in range(copies)]
    entries += [_entry(id="e9", status="installed", env=str(home / "envs" / "nine"), previous_current="e-dup")]
    path = home / "history.json"
    path.write_text(json.dumps({"version": 1, "entries": entries}, indent=2))
    return path


@pytest.mark.parametrize("copies", [2, 3])
@pytest.mark.parametrize("args", [["rollback", "e-dup", "--yes", "--no-verify", "--json"], ["remove", "e-dup", "--yes"],
                                  ["rollback", "e-dup", "--yes"]], ids=" ".join)
def test_an_id_two_entries_share_is_refused_naming_the_file_and_the_id(isolated_state, args, copies):
    """Eleventh hostile pass #73: `rollback ID` with two entries of that id rolled back to the first, silently."""
    path = _shared(isolated_state, copies)
    before = path.read_text()
    proc = run_inproc(*args)
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    said = " ".join(proc.stderr.split())
    assert "Traceback" not in said
    assert f"{path}: {copies} entries (lines " in said and "the same id 'e-dup'" in said and "edited by hand" in said
    assert "which one it names cannot be told" in said
    assert path.read_text() == before  # nothing recorded, nothing switched


def test_a_plain_rollback_whose_way_back_is_a_shared_id_is_refused_too(isolated_state):
    """The entry rolled back to by default (the current one's `previous_current`) is looked up by id as well."""
    path = _shared(isolated_state)
    data = json.loads(path.read_text())
    for entry in data["entries"]:
        entry["current"] = entry["id"] == "e9"
    path.write_text(json.dumps(data, indent=2))
    proc = run_inproc("rollback", "--yes", "--no-verify")
    assert proc.returncode == 2 and "the same id 'e-dup'" in proc.stderr, proc.stderr


@pytest.mark.parametrize("args", [["history"], ["history", "--json"]], ids=" ".join)
def test_history_flags_an_id_two_entries_share(isolated_state, args):
    path = _shared(isolated_state)
    proc = run_inproc(*args)
    assert proc.returncode == 0, proc.stderr
    said = " ".join(proc.stderr.split())
    assert f"{path}: 2 entries (lines " in said and "'e-dup'" in said and "`rollback` and `remove` refuse" in said
    assert load_history().get("e0") is not None  # other ids still work


def test_an_installs_id_has_its_new_folders_time_stamp():
    """Walk 21 #11: `…-20261127-183400` against `20261127-183409-467d` read as two installs."""
    history = History(Path("/nowhere/history.json"), [], [])
    assert history.new_entry_id("/s/envs/jax0.4.23-cpu-20261127-183400").startswith("20261127-183400-")
    assert not history.new_entry_id("/home/me/my-env").startswith("20261127-183400")


# ------------------------------------------------------------------ a path field no path can be (edited history)
# Twenty-first hostile pass P4: an entry whose `env` held a NUL made `remove` and `rollback` stop on Python's own
# ValueError ("stopped on an error of its own … embedded null byte"), and a 5000-byte `env` was blamed on the state
# folder ("point GC_WIZARD_HOME at another one"). Every path field is judged where history.json is read.

_UNHOLDABLE = {  # what the field holds -> words of the sentence
    "nul": (lambda home: f"{home}/envs/tiny-a\0/x", "holds a NUL byte"),
    "surrogate": (lambda home: f"{home}/envs/tiny-\ud800", "lone UTF-16 surrogate"),
    "too-long": (lambda home: f"{home}/envs/" + "a" * 5000, "bytes long, longer than the 4095 bytes a path may be"),
    "long-name": (lambda home: f"{home}/envs/" + "a" * 300, "a name 300 bytes long in it"),
}


@pytest.mark.parametrize("field", ["env", "log", "requirements_file", "python", "bundle", "graphcast_given", "lock"])
@pytest.mark.parametrize("kind", sorted(_UNHOLDABLE))
def test_a_path_field_no_path_can_be_makes_the_entry_unusable_naming_it(isolated_state, field, kind):
    from wizard.errors import UserError

    value, words = _UNHOLDABLE[kind]
    bad = value(isolated_state)
    edited = _entry(id="e1", **({"lock": {"path": bad, "sha256": "0" * 64, "format": "uv"}} if field == "lock"
                                else {field: bad}))
    path = _write(isolated_state, [edited, _entry(id="e2", env=str(isolated_state / "envs" / "two"))])
    history = load_history()
    assert [e.id for e in history.entries] == ["e2"]
    name = "lock.path" if field == "lock" else field
    assert any(f"entry 1 could not be read ('{name}' " in w and words in w for w in history.warnings), history.warnings
    with pytest.raises(UserError) as refused:
        history.require("e1")
    said = str(refused.value)
    assert said.startswith(f"History entry 'e1' ({path.name} entry 1") and f"'{name}' " in said and words in said
    assert "edited by hand" in said and "\0" not in said


def test_find_links_with_a_nul_makes_the_entry_unusable_naming_it(isolated_state):
    _write(isolated_state, [_entry(id="e1", find_links=["/srv/house\0x"])])
    history = load_history()
    assert not history.entries and "'find_links' has an item that holds a NUL byte" in history.warnings[0]


@pytest.mark.parametrize("kind", ["nul", "too-long"])
@pytest.mark.parametrize("args", [["remove", "e1", "--yes"], ["rollback", "e1", "--yes", "--no-verify"],
                                  ["rollback", "e1", "--yes", "--no-verify", "--json"]], ids=" ".join)
def test_remove_and_rollback_refuse_an_entry_whose_env_no_path_can_be(isolated_state, kind, args):
    value, words = _UNHOLDABLE[kind]
    entries = [_entry(id="e1", status="installed", env=value(isolated_state)),
               _entry(id="e2", status="installed", env=str(isolated_state / "envs" / "two"), current=True)]
    path = isolated_state / "history.json"
    path.write_text(json.dumps({"version": 1, "entries": entries}, indent=1))
    before = path.read_bytes()
    proc = run_inproc(*args)
    said = " ".join((proc.stderr + proc.stdout).split())
    assert proc.returncode == 2, said
    assert "History entry 'e1' (history.json entry 1, line " in said and "'env' " in said and words in said
    # The state folder is not blamed; the quoted `history` command names it, as a new shell runs it (walk 37 #6).
    prose = bare_program(said)
    assert "of its own" not in prose and "GC_WIZARD_HOME" not in prose and "Traceback" not in prose
    assert path.read_bytes() == before
    assert not (isolated_state / "logs").exists() or not any((isolated_state / "logs").glob("crash-*"))


def test_a_unique_id_prefix_or_a_near_spelling_is_suggested_by_rollback_and_remove(isolated_state):
    """walk 23 #10: `rollback 20261128-0231`, a unique prefix of `20261128-023131-6a16`, said
    only "There is no history entry"; every command that takes an id names the one meant (suggested, not taken:
    `remove --yes` deletes)."""
    env_a, env_b = isolated_state / "envs" / "a", isolated_state / "envs" / "b"
    _write(isolated_state, [_entry(id="20261128-023131-6a16", env=str(env_a)),
                            _entry(id="20261128-024935-139b", env=str(env_b))])
    for command in (["rollback", "20261128-0231", "--yes"], ["remove", "20261128-0231", "--yes"]):
        result = run_inproc(*command)
        assert result.returncode == 2 and "did you mean 20261128-023131-6a16?" in result.stderr, result.stderr
        assert "Traceback" not in result.stderr
    said = run_inproc("rollback", "20261128-024935-139c", "--yes").stderr
    assert "did you mean 20261128-024935-139b?" in said, said
    assert "did you mean" not in run_inproc("rollback", "zzz", "--yes").stderr


def test_a_value_saved_masked_is_still_found_on_its_line(isolated_state):
    """27th hostile pass (part B) P9: a refused `--extra-index-url https://me:pw@…` line was named "package 3", not
    by its line, once a save had masked it in the file; `line_of` looks for the masked form too."""
    line = "--extra-index-url https://me:sekret@example.invalid/simple"
    history = load_history()
    history.add(Entry(id="e1", kind="install", recipe="tiny-a", env="/nowhere/env", packages=["pkg-a==1.0", line]))
    history.save()
    assert "sekret" not in history.path.read_text()
    number = history.line_of("e1", line)
    assert number is not None and "example.invalid" in history.path.read_text().splitlines()[number - 1]


@pytest.mark.parametrize("swap", ["every user can write", "another user owns"])
def test_remembered_sources_another_user_could_swap_are_not_offered(isolated_state, tmp_path, swap):
    """30th hostile pass (part B) P4: the bundle an install came from and the GraphCast wheel another install used,
    since deleted and made again by another user, were still offered (`recipes`, `plan`, the plain walk-through),
    while `install` refused each. A remembered place is held to the swap rule a given one is."""
    from wizard.history.store import Entry, load_history

    if swap == "another user owns" and os.geteuid() != 0:
        pytest.skip("making a folder another user's needs root")
    shared = tmp_path / "shared"
    bundle, checkout = shared / "gc-bundle", shared / "graphcast"
    bundle.mkdir(parents=True)
    (bundle / "manifest.json").write_text("{}")
    checkout.mkdir()
    (checkout / "setup.py").write_text("from setuptools import setup\nsetup(name='graphcast', version='0.1.1')\n")
    history = load_history()
    history.add(Entry(id="20261122-210000-aaaa", kind="install", recipe="tiny-a", env="/e1", status="verified",
                      bundle=str(bundle)))
    history.add(Entry(id="20261122-210500-bbbb", kind="install", recipe="tiny-b", env="/e2", status="verified",
                      packages=[f"graphcast @ file://{checkout}"], graphcast_given=str(checkout)))
    assert history.last_bundle("tiny-a") == str(bundle) and history.last_local_graphcast("0.1.1") == str(checkout)
    if swap == "every user can write":
        shared.chmod(0o777)
    else:
        for place in (shared, bundle, bundle / "manifest.json", checkout, checkout / "setup.py"):
            os.chown(place, 65534, 65534)
    assert history.last_bundle("tiny-a") is None
    assert history.last_local_graphcast("0.1.1") is None
