"""Rollback on real environments: a switch, a rebuild from the frozen set, an in-place restore."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

from tests.fixtures.cli import bare_program, run_inproc
from tests.fixtures.state import last_json


def _imports(env: str, module: str) -> bool:
    return subprocess.run([str(Path(env) / "bin" / "python"), "-c", f"import {module}"],
                          capture_output=True).returncode == 0


def _freeze(env) -> list[str]:
    from wizard.install.envs import freeze

    return freeze(Path(env))


def _current(tiny) -> dict:
    (current,) = [e for e in tiny.history() if e["current"]]
    return current

def _users_env_with_old_tool(tiny, tmp_path) -> Path:
    """A user's own environment holding old-tool 0.5, and the recipe `tiny-slow` (pkg-a, then pkg-slow, which an
    index serves slowly)."""
    from uv import find_uv_bin

    env = tmp_path / "users-own-env"
    subprocess.run([find_uv_bin(), "venv", "-q", str(env)], check=True)
    tiny.house.add("old-tool", "0.5")
    subprocess.run([find_uv_bin(), "pip", "install", "-q", "--python", str(env / "bin" / "python"), "--offline",
                    "--find-links", str(tiny.house.path), "old-tool==0.5"], check=True)
    tiny.write("tiny-slow", ["pkg-a==1.0", "pkg-slow==1.0"])
    return env


def _slow_in_place_install(tiny, env: Path, slow_index: str, state: Path, output) -> subprocess.Popen:
    """`install tiny-slow --env ENV` in its own session, returned once both pins are resolved (pkg-slow then
    dribbles in); `output` is where its stdout and stderr go."""
    import os
    import sys

    from tests.fixtures.processes import wait_for_step
    from tests.fixtures.state import REPO

    args = ["--recipes-dir", str(tiny.recipes), "--find-links", str(tiny.house.path), "--find-links", slow_index,
            "--graphcast-src", str(tiny.graphcast), "--no-verify", "--env", str(env)]
    proc = subprocess.Popen([sys.executable, "-m", "wizard", "install", "tiny-slow", "--yes", *args], cwd=REPO,
                            stdout=output, stderr=output, text=True, start_new_session=True,
                            env={**os.environ, "UV_NO_CACHE": "1", "UV_INDEX_URL": slow_index,
                                 "UV_DEFAULT_INDEX": slow_index})
    wait_for_step(state, "Resolved 2 packages")
    return proc



def test_rollback_switches_back_and_by_id_keeping_both(tiny):
    _, a = tiny.install("tiny-a")
    _, b = tiny.install("tiny-b")
    assert _current(tiny)["id"] == b["entry_id"]

    proc = run_inproc("rollback", "--yes", "--json", "--no-verify")
    assert proc.returncode == 0, proc.stderr
    result = last_json(proc)
    assert result["ok"] and result["from"] == b["entry_id"] and result["to"] == a["entry_id"]
    assert _current(tiny)["id"] == a["entry_id"]
    assert _imports(a["env"], "pkg_a") and Path(b["env"]).is_dir()  # B is kept

    proc = run_inproc("rollback", b["entry_id"], "--yes", "--json", "--no-verify")
    assert proc.returncode == 0 and last_json(proc)["to"] == b["entry_id"]
    assert _current(tiny)["id"] == b["entry_id"]
    kinds = [e["kind"] for e in tiny.history()]
    assert kinds.count("rollback") == 2


def test_rollback_shows_what_changes_and_refuses_without_confirmation(tiny):
    tiny.install("tiny-a")
    _, b = tiny.install("tiny-b")
    proc = run_inproc("rollback", "--no-verify")  # stdin is not a terminal and no --yes
    assert proc.returncode == 2
    assert "current: tiny-b" in proc.stdout and "target : tiny-a" in proc.stdout
    assert _current(tiny)["id"] == b["entry_id"]


def test_rollback_after_the_folder_was_deleted_rebuilds_it_offline(tiny):
    _, a = tiny.install("tiny-a")
    tiny.install("tiny-b")
    shutil.rmtree(a["env"])
    proc = run_inproc("rollback", a["entry_id"], "--yes", "--json", "--no-verify")
    assert proc.returncode == 0, proc.stderr
    assert last_json(proc)["rebuilt"] is True
    assert _imports(a["env"], "pkg_a")
    assert _current(tiny)["id"] == a["entry_id"]
    marker = json.loads((Path(a["env"]) / "gc-wizard-env.json").read_text())
    assert marker["recipe"] == "tiny-a" and marker["entry_id"] == a["entry_id"]
    assert sorted(_freeze(a["env"])) == sorted(next(e for e in tiny.history() if e["id"] == a["entry_id"])["packages"])


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

    assert json.loads((env / "gc-wizard-env.json").read_text())["recipe"] == "tiny-a"

    proc = run_inproc("rollback", "--yes", "--json", "--no-verify")
    assert proc.returncode == 0, proc.stderr
    undone = last_json(proc)
    assert undone["restored"] is True and undone["to"] == entry["id"] and undone["verify"] is None
    assert not _imports(str(env), "pkg_a") and _imports(str(env), "old_tool")
    assert _freeze(env) == ["old-tool==0.5"]
    assert not (env / "gc-wizard-env.json").exists()  # it had no marker before
    now_current = _current(tiny)
    assert now_current["kind"] == "rollback" and now_current["env"] == str(env)
    assert now_current["packages"] == ["old-tool==0.5"]

    # and forward again: the install entry by id puts the recipe's packages back
    proc = run_inproc("rollback", entry["id"], "--yes", "--json", "--no-verify")
    assert proc.returncode == 0, proc.stderr
    assert last_json(proc)["restored"] is True and _imports(str(env), "pkg_a")
    assert _current(tiny)["id"] == entry["id"]


def test_a_failed_in_place_install_puts_the_environment_back_at_once(tiny, tmp_path):
    from uv import find_uv_bin

    env = tmp_path / "users-own-env"
    subprocess.run([find_uv_bin(), "venv", "-q", str(env)], check=True)
    tiny.house.add("old-tool", "0.5")
    tiny.house.add("pkg-a", "0.9")
    subprocess.run([find_uv_bin(), "pip", "install", "-q", "--python", str(env / "bin" / "python"), "--offline",
                    "--find-links", str(tiny.house.path), "old-tool==0.5", "pkg-a==0.9"], check=True)
    broken = tmp_path / "graphcast-0.1.1-py3-none-any.whl"
    broken.write_bytes(b"this is not a zip file")
    # pkg-a 1.0 replaces 0.9, then the GraphCast step fails on the broken wheel
    proc, result = tiny.install("tiny-a", "--env", str(env), "--graphcast-src", str(broken))
    assert proc.returncode == 1
    assert result["mode"] == "in-place" and "GraphCast" in result["error"]
    log = Path(result["log"]).read_text()
    assert "+ pkg-a==1.0" in log and "restored the package set" in log
    assert _freeze(env) == ["old-tool==0.5", "pkg-a==0.9"]
    assert not (env / "gc-wizard-env.json").exists()
    (entry,) = tiny.history()
    assert entry["status"] == "failed" and not entry["current"] and entry["snapshot"] == _freeze(env)


def test_remove_refuses_the_current_env_and_deletes_an_old_one(tiny):
    _, a = tiny.install("tiny-a")
    _, b = tiny.install("tiny-b")
    proc = run_inproc("remove", b["entry_id"], "--yes")
    assert proc.returncode == 1 and "current" in proc.stderr
    assert Path(b["env"]).is_dir()
    proc = run_inproc("remove", a["entry_id"], "--yes", "--json")
    assert proc.returncode == 0, proc.stderr
    assert not Path(a["env"]).exists()
    history = run_inproc("history")
    assert "removed" in history.stdout and "●" in history.stdout
    removed = next(e for e in tiny.history() if e["id"] == a["entry_id"])
    assert removed["removed"] and removed["env_exists"] is False and removed["status"] == "installed"


def test_remove_never_deletes_an_environment_the_wizard_did_not_create(tiny, tmp_path):
    from uv import find_uv_bin

    env = tmp_path / "users-own-env"
    subprocess.run([find_uv_bin(), "venv", "-q", str(env)], check=True)
    _, inplace = tiny.install("tiny-a", "--env", str(env))
    tiny.install("tiny-b")
    proc = run_inproc("remove", inplace["entry_id"], "--yes")
    assert proc.returncode == 1 and "not a managed environment" in proc.stderr
    assert _imports(str(env), "pkg_a")


def test_remove_asks_first_and_without_a_yes_deletes_nothing(tiny):
    _, a = tiny.install("tiny-a")
    tiny.install("tiny-b")
    proc = run_inproc("remove", a["entry_id"])  # no terminal to ask on, no --yes
    assert proc.returncode == 2 and "nothing deleted" in proc.stderr.lower()
    assert Path(a["env"]).is_dir()


def test_nothing_to_roll_back_to_is_a_clear_message(tiny):
    tiny.install("tiny-a")
    proc = run_inproc("rollback", "--yes")
    assert proc.returncode == 2 and "no previous working environment" in proc.stderr


def test_rolling_back_to_the_current_environment_is_refused_plainly(tiny):
    _, a = tiny.install("tiny-a")
    proc = run_inproc("rollback", a["entry_id"], "--yes")
    assert proc.returncode == 2 and "already the current environment" in proc.stderr
    proc = run_inproc("rollback", "no-such-id", "--yes")
    assert proc.returncode == 2 and "no-such-id" in proc.stderr and "Traceback" not in proc.stderr


def test_a_target_that_fails_its_check_is_not_made_current(tiny):
    """Rollback re-runs the real GraphCast check; tiny-a has no JAX, so it fails and nothing switches."""
    _, a = tiny.install("tiny-a")
    _, b = tiny.install("tiny-b")
    proc = run_inproc("rollback", "--yes", "--json", "--level", "quick")
    assert proc.returncode == 1
    result = last_json(proc)
    assert not result["ok"] and result["to"] == a["entry_id"] and result["verify"]["ok"] is False
    assert "GraphCast check" in result["error"]
    assert _current(tiny)["id"] == b["entry_id"]
    record = tiny.history()[-1]
    assert record["kind"] == "rollback" and record["status"] == "failed" and not record["current"]
    assert Path(record["log"]).is_file()


def test_an_in_place_install_killed_mid_way_is_restored_by_rolling_back_to_its_id(tiny, slow_index, tmp_path,
                                                                                 isolated_state):
    """The SSH session drops (SIGKILL to the wizard) while pkg-a is already in: rollback ID puts it back."""
    import os
    import signal

    from uv import find_uv_bin

    env = _users_env_with_old_tool(tiny, tmp_path)
    subprocess.run([find_uv_bin(), "pip", "install", "-q", "--python", str(env / "bin" / "python"), "--offline",
                    "--find-links", str(tiny.house.path), "pkg-a==1.0"], check=True)  # as if half done
    proc = _slow_in_place_install(tiny, env, slow_index, isolated_state, subprocess.DEVNULL)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait(timeout=30)
    from tests.fixtures.state import run_cli

    start = run_cli("history")  # the next start: it says the user's env was changed and how to put it back
    assert start.returncode == 0, start.stderr
    (killed,) = tiny.history()
    assert killed["status"] == "failed" and killed["interrupted"] and killed["mode"] == "in-place"
    assert killed["snapshot"] == ["old-tool==0.5", "pkg-a==1.0"]
    note = bare_program(" ".join(start.stderr.split()))
    assert f"changing {env} in place" in note and f"gc-wizard rollback {killed['id']}" in note, start.stderr
    assert "puts back the 2 packages it had before" in note
    assert "was interrupted" not in " ".join(run_cli("history").stderr.split())  # said once, when it is found

    subprocess.run([find_uv_bin(), "pip", "uninstall", "-q", "--python", str(env / "bin" / "python"), "old-tool"],
                   check=True)  # the half-finished run left it changed
    proc = run_inproc("rollback", killed["id"], "--yes", "--json", "--no-verify")
    assert proc.returncode == 0, proc.stderr
    assert last_json(proc)["restored"] is True
    assert _freeze(env) == ["old-tool==0.5", "pkg-a==1.0"]


def test_an_in_place_install_stopped_by_slurms_usr1_puts_the_environment_back_at_once(tiny, slow_index, tmp_path,
                                                                                       isolated_state):
    """Slurm's `--signal=USR1@T` before the job's time limit, to the wizard alone, while pkg-a is already in the
    user's own env: the same clean stop as SIGTERM (eleventh hostile pass #132), exit 138, the env as it was."""
    import os
    import signal

    env = _users_env_with_old_tool(tiny, tmp_path)
    proc = _slow_in_place_install(tiny, env, slow_index, isolated_state, subprocess.PIPE)
    os.kill(proc.pid, signal.SIGUSR1)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 128 + signal.SIGUSR1, err
    assert "Traceback" not in err
    assert _freeze(env) == ["old-tool==0.5"]
    (stopped,) = tiny.history()
    assert stopped["status"] == "cancelled" and not stopped.get("interrupted")


def test_a_rollback_rebuild_is_cancellable_and_exits_130(tiny, slow_index, tmp_path, isolated_state):
    """The rebuild of a deleted environment is stopped by Ctrl-C mid-download: exit 130, the half-built
    folder removed again, the rollback recorded as cancelled, the current environment still current."""
    import os
    import signal
    import sys
    import time
    import uuid

    from tests.fixtures.state import REPO
    from tests.fixtures.wheels import build_wheel

    _, a = tiny.install("tiny-a")
    _, b = tiny.install("tiny-b")
    # The target's frozen set holds a package only the slow index has (a version no cache can hold),
    # so the rebuild's sync must download it, slowly.
    version = f"1.0.{uuid.uuid4().int % 10**8}"
    build_wheel(tmp_path / "slow-house", "pkg-slow", version)
    history_file = isolated_state / "history.json"
    data = json.loads(history_file.read_text())
    for entry in data["entries"]:
        if entry["id"] == a["entry_id"]:
            entry["packages"], entry["find_links"], entry["requirements_file"] = \
                [f"pkg-slow=={version}"], [slow_index], None
    history_file.write_text(json.dumps(data))
    shutil.rmtree(a["env"])

    proc = subprocess.Popen([sys.executable, "-m", "wizard", "rollback", a["entry_id"], "--yes", "--no-verify"],
                            cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
                            text=True, start_new_session=True)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and not (Path(a["env"]) / "bin" / "python").exists():
        assert proc.poll() is None, proc.communicate()
        time.sleep(0.1)
    time.sleep(2.0)  # the venv is there; the sync is downloading from the slow index now
    assert proc.poll() is None, proc.communicate()
    os.killpg(proc.pid, signal.SIGINT)
    out, err = proc.communicate(timeout=60)

    assert proc.returncode == 130, out + err
    assert "Traceback" not in err
    assert not Path(a["env"]).exists()  # the half-built rebuild is removed again
    assert _current(tiny)["id"] == b["entry_id"]
    (record,) = [e for e in tiny.history() if e["kind"] == "rollback"]
    assert record["status"] == "cancelled" and not record["current"]


def test_a_rebuild_from_a_wheelhouse_behind_a_password_takes_it_again_from_the_environment(tiny, private_index,
                                                                                           tmp_path, monkeypatch):
    """Twelfth hostile pass #12: history keeps a find-links URL masked (`alice:***@`), and a rebuild handed uv the
    masked URL: a 401, then "could not restore the package set". The rebuild now uses the URL the user gives again
    for the same place (GC_WIZARD_FIND_LINKS), and without it says so before anything changes."""
    from tests.fixtures.index import PASSWORD, USER

    for variable in ("UV_DEFAULT_INDEX", "UV_INDEX_URL", "PIP_INDEX_URL"):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setenv("UV_NO_INDEX", "1")  # the wheelhouse behind the password is the only place to look
    wheelhouse = private_index.replace("http://", f"http://{USER}:{PASSWORD}@")
    args = ["--yes", "--json", "--recipes-dir", str(tiny.recipes), "--graphcast-src", str(tiny.graphcast),
            "--no-verify"]
    a = last_json(run_inproc("install", "tiny-a", *args, env={"GC_WIZARD_FIND_LINKS": wheelhouse}))
    b = last_json(run_inproc("install", "tiny-b", *args, env={"GC_WIZARD_FIND_LINKS": wheelhouse}))
    assert a["ok"] and b["ok"]
    assert PASSWORD not in json.dumps(tiny.history())
    shutil.rmtree(a["env"])
    monkeypatch.setenv("UV_CACHE_DIR", str(tmp_path / "cold-cache"))  # the rebuild must fetch again
    refused = run_inproc("rollback", a["entry_id"], "--yes", "--json", "--no-verify")
    assert refused.returncode == 2 and "saved with its secret masked" in refused.stderr, refused.stderr
    assert _current(tiny)["id"] == b["entry_id"] and not Path(a["env"]).exists()
    proc = run_inproc("rollback", a["entry_id"], "--yes", "--json", "--no-verify",
                      env={"GC_WIZARD_FIND_LINKS": wheelhouse})
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert last_json(proc)["rebuilt"] is True and _imports(a["env"], "pkg_a")
    assert PASSWORD not in proc.stdout + proc.stderr


def _swap(a: str, b: str, spare: Path) -> None:
    shutil.move(a, spare)
    shutil.move(b, a)
    shutil.move(spare, b)


def test_swapped_folders_are_refused_alike_by_rollback_remove_and_activate(tiny, tmp_path):
    """31st hostile pass (part B) P7: with two managed folders swapped, rollback refused the folder whose marker names
    another entry, but remove deleted it (it held the current environment) and activate exported it as the other
    recipe. One check (`history.belongs.not_its_env`) for all three."""
    _, a = tiny.install("tiny-a", "--no-verify")
    _, b = tiny.install("tiny-b", "--no-verify")
    _swap(a["env"], b["env"], tmp_path / "spare")  # a's path now holds tiny-b's env, the current one's
    rolled = run_inproc("rollback", a["entry_id"], "--yes", "--no-verify")
    assert rolled.returncode != 0 and "swapped" in rolled.stderr
    activated = run_inproc("activate")
    assert activated.returncode == 2 and "not that entry's environment" in activated.stderr
    assert f"names entry {a['entry_id']} (recipe tiny-a)" in activated.stderr and "export" not in activated.stdout
    removed = run_inproc("remove", a["entry_id"], "--yes")
    assert removed.returncode == 1 and f"names entry {b['entry_id']} (recipe tiny-b), the current one" in removed.stderr
    assert _imports(a["env"], "pkg_b") and _current(tiny)["id"] == b["entry_id"]


def test_a_link_to_another_entrys_environment_is_refused_alike_by_rollback_remove_and_activate(tiny, tmp_path):
    """38th hostile pass (part B) P6: entry A's folder moved away and a link to entry B's left in its place: rollback
    counted B (reached through the link) as an owner of A's path, synced A's packages into B's environment and
    rewrote its marker. A link to the current environment went through alike."""
    _, a = tiny.install("tiny-a", "--no-verify")
    _, b = tiny.install("tiny-b", "--no-verify")
    _, c = tiny.install("tiny-a", "--no-verify")  # current
    for target in (c, b):
        away = tmp_path / f"away-{target['entry_id']}"
        if Path(a["env"]).is_symlink():
            Path(a["env"]).unlink()
        else:
            Path(a["env"]).rename(away)
        Path(a["env"]).symlink_to(Path(target["env"]).name)
        marker = (Path(target["env"]) / "gc-wizard-env.json").read_text()
        rolled = run_inproc("rollback", a["entry_id"], "--yes", "--no-verify")
        assert rolled.returncode != 0 and "is a link to" in rolled.stderr, rolled.stderr
        assert f"entry {target['entry_id']}" in rolled.stderr and "nothing changed" in rolled.stderr
        assert (Path(target["env"]) / "gc-wizard-env.json").read_text() == marker
        assert _current(tiny)["id"] == c["entry_id"]
    assert _imports(b["env"], "pkg_b") and not _imports(b["env"], "pkg_a")
    removed = run_inproc("remove", a["entry_id"], "--yes")  # the link to B: removes the link only, never B
    assert not Path(a["env"]).is_symlink() and _imports(b["env"], "pkg_b"), removed.stderr


def test_a_copied_state_names_the_original_states_environments_and_makes_none_current(tiny, tmp_path, monkeypatch):
    """31st hostile pass (part B) P11: in a state folder copied with `cp -a`, rollback made the original state's
    environment current without a word (the marker's entry is in both histories); activate ran it."""
    _, a = tiny.install("tiny-a", "--no-verify")
    _, b = tiny.install("tiny-b", "--no-verify")
    state = Path(a["env"]).parent.parent
    copy = tmp_path / "copy"
    shutil.copytree(state, copy, symlinks=True)
    monkeypatch.setenv("GC_WIZARD_HOME", str(copy))
    rolled = run_inproc("rollback", a["entry_id"], "--yes", "--no-verify")
    assert rolled.returncode != 0 and f"another gc-wizard state, {state}" in rolled.stderr, rolled.stderr
    assert f"GC_WIZARD_HOME={state}" in rolled.stderr
    (current,) = [e for e in json.loads(run_inproc("history", "--json").stdout.splitlines()[-1]) if e["current"]]
    assert current["id"] == b["entry_id"]
    activated = run_inproc("activate")
    assert activated.returncode == 2 and f"another gc-wizard state, {state}" in activated.stderr
    assert run_inproc("remove", a["entry_id"], "--yes").returncode == 1 and Path(a["env"]).is_dir()


def test_an_entry_path_through_dot_dot_is_refused_alike_by_rollback_remove_and_activate(tiny):
    """33rd hostile pass (part B) P4: an entry's env edited to `ENV/lib/..` was refused by rollback ("climbs out with
    '..'") but remove deleted through it: bin/ and lib/ went, the marker and pyvenv.cfg stayed, and it said
    "Removed … freed". One rule (`belongs.edited_env_path`, asked by `not_its_env`) for every command."""
    _, a = tiny.install("tiny-a", "--no-verify")
    _, b = tiny.install("tiny-b", "--no-verify")
    history = Path(a["env"]).parent.parent / "history.json"
    data = json.loads(history.read_text())
    for entry in data["entries"]:
        entry["env"] += {a["entry_id"]: "/lib/..", b["entry_id"]: "/bin/.."}[entry["id"]]
    history.write_text(json.dumps(data))
    rolled = run_inproc("rollback", a["entry_id"], "--yes", "--no-verify")
    assert rolled.returncode != 0 and "climbs out with '..'" in rolled.stderr
    removed = run_inproc("remove", a["entry_id"], "--yes")
    assert removed.returncode == 1 and "climbs out with '..'" in removed.stderr and "nothing deleted" in removed.stderr
    assert (Path(a["env"]) / "bin" / "python").exists() and (Path(a["env"]) / "lib").is_dir()
    activated = run_inproc("activate")
    assert activated.returncode == 2 and "climbs out with '..'" in activated.stderr and "export" not in activated.stdout
