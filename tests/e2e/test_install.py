"""Installs into real venvs with the real uv, offline from tiny local wheels; failures change nothing."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from tests.fixtures.processes import wait_for_step
from tests.fixtures.state import REPO
from wizard.lock import StateLock


def _py(env: str, code: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(Path(env) / "bin" / "python"), "-c", code], capture_output=True, text=True)


def test_install_builds_a_new_current_environment_with_a_full_log(tiny):
    proc, result = tiny.install("tiny-a")
    assert proc.returncode == 0, proc.stderr
    assert result["ok"] and result["recipe"] == "tiny-a" and result["verify"] is None
    assert _py(result["env"], "import pkg_a, graphcast; print(pkg_a.__version__)").stdout.strip() == "1.0"
    log = Path(result["log"]).read_text()
    assert "===== " in log and "install-requirements" in log and "+ pkg-a==1.0" in log
    marker = json.loads((Path(result["env"]) / "gc-wizard-env.json").read_text())
    assert marker["recipe"] == "tiny-a" and marker["backend"] == "cpu" and marker["verified"] is None
    assert marker["runtime_env"] == {"JAX_GC_TINY": "tiny-a"} and marker["entry_id"] == result["entry_id"]
    assert marker["title"] and marker["created"] and marker["python"]
    (entry,) = tiny.history()
    assert entry["current"] and entry["status"] == "installed" and entry["id"] == result["entry_id"]
    assert entry["kind"] == "install" and entry["mode"] == "new" and entry["finished"]
    assert "pkg-a==1.0" in entry["packages"] and any(p.startswith("graphcast") for p in entry["packages"])
    assert Path(result["env"]).parent == Path(os.environ["GC_WIZARD_HOME"]) / "envs"


def test_failed_install_keeps_the_previous_current_and_names_the_installers_error(tiny, tmp_path):
    _, first = tiny.install("tiny-b")
    empty = tmp_path / "empty-house"
    empty.mkdir()
    proc, result = tiny.install("tiny-a", find_links=empty)
    assert proc.returncode == 1
    assert not result["ok"]
    assert "pkg-a" in result["error"]  # uv's own words about what it could not find
    assert result["log"] in result["error"]
    assert "pkg-a" in Path(result["log"]).read_text()
    entries = {e["id"]: e for e in tiny.history()}
    assert entries[first["entry_id"]]["current"]
    assert entries[result["entry_id"]]["status"] == "failed" and not entries[result["entry_id"]]["current"]
    # the half-built environment is gone; the previous one still works
    assert not result["kept"] and not Path(result["env"]).exists()
    assert _py(first["env"], "import pkg_b").returncode == 0


def test_failure_without_json_says_so_in_plain_words_on_stderr(tiny, tmp_path):
    empty = tmp_path / "empty-house"
    empty.mkdir()
    from tests.fixtures.state import run_cli

    proc = run_cli("install", "tiny-a", "--yes", *tiny.args(find_links=empty))
    assert proc.returncode == 1
    assert "Install failed: step 'Install the 1 pinned packages' failed" in proc.stderr
    assert "pkg-a" in proc.stderr and "Full log: " in proc.stderr and "Traceback" not in proc.stderr
    assert "==> Install the 1 pinned packages" in proc.stdout  # the live lines went to the terminal


def test_an_install_that_fails_its_check_is_kept_but_never_made_current(tiny):
    """A real GraphCast check of an environment with no JAX: failed, diagnosed, kept for a look."""
    _, first = tiny.install("tiny-b")
    args = [a for a in tiny.args() if a != "--no-verify"]
    from tests.fixtures.state import last_json, run_cli

    proc = run_cli("install", "tiny-a", "--yes", "--json", "--level", "quick", *args)
    assert proc.returncode == 1
    result = last_json(proc)
    assert result["status"] == "failed" and result["verify"]["ok"] is False and result["kept"]
    assert result["verify"]["tiers"][0]["name"] == "jax_import"
    assert "installed, but" in result["error"] and result["log"] in result["error"]
    assert _py(result["env"], "import pkg_a").returncode == 0
    entries = {e["id"]: e for e in tiny.history()}
    assert entries[first["entry_id"]]["current"] and not entries[result["entry_id"]]["current"]
    assert entries[result["entry_id"]]["verify"]["failed_tier"] == "jax_import"
    assert json.loads((Path(result["env"]) / "gc-wizard-env.json").read_text())["verified"] is None


def test_a_second_wizard_is_told_who_holds_the_lock(tiny):
    with StateLock("a test holding the state folder"):
        proc, _ = tiny.install("tiny-a")
    assert proc.returncode == 1
    assert "Another gc-wizard" in proc.stderr and "a test holding the state folder" in proc.stderr
    assert tiny.history() == []
    with StateLock("a test holding the state folder"):
        proc, result = tiny.install("tiny-a")
    assert proc.returncode == 1 and result["ok"] is False and "Another gc-wizard" in result["error"]


def _children_of(pid: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
                if int(fields[1]) == pid and fields[0] != "Z":
                    found.append(int(entry))
            except (OSError, IndexError):
                pass
    return found


def _slow_install(tiny, index_url: str) -> subprocess.Popen:
    """`gc-wizard install` whose install step is a real download from a deliberately slow local server."""
    tiny.write("tiny-slow", ["pkg-slow==1.0"])
    args = [a for a in tiny.args() if a != "--offline"]
    i = args.index("--find-links")
    args[i + 1] = index_url
    env = {**os.environ, "UV_NO_CACHE": "1", "UV_INDEX_URL": index_url, "UV_DEFAULT_INDEX": index_url}
    return subprocess.Popen([sys.executable, "-m", "wizard", "install", "tiny-slow", "--yes", "--json", *args],
                            cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True, env=env)


def _descendants(pid: int) -> list[int]:
    found, todo = [], [pid]
    while todo:
        kids = _children_of(todo.pop())
        found += kids
        todo += kids
    return found


def test_ctrl_c_mid_download_exits_130_leaves_nothing_running_or_current(tiny, slow_index, isolated_state):
    _, first = tiny.install("tiny-a")
    proc = _slow_install(tiny, slow_index)
    wait_for_step(isolated_state, "tiny-slow-")
    time.sleep(1.0)
    helpers = _descendants(proc.pid)
    assert helpers, "the install step should be running as a child of the wizard"

    # meanwhile, a second wizard is refused and says who holds the state folder
    second, _ = tiny.install("tiny-b")
    assert second.returncode == 1 and "Another gc-wizard" in second.stderr and "install tiny-slow" in second.stderr
    running = tiny.history()[-1]
    assert running["status"] == "running" and running["recipe"] == "tiny-slow"

    os.kill(proc.pid, signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    result = json.loads(out.splitlines()[-1])
    assert result["cancelled"] and not result["ok"] and not Path(result["env"]).exists()
    time.sleep(0.3)
    assert [pid for pid in helpers if Path(f"/proc/{pid}").exists()] == []  # no uv left behind
    entries = tiny.history()
    assert entries[-1]["status"] == "cancelled" and not entries[-1]["current"]
    # the GraphCast source the plan named is kept, so the next plan offers it again (17th walk, problem 5)
    assert entries[-1]["graphcast_given"] == str(Path(tiny.graphcast).absolute())
    assert next(e for e in entries if e["id"] == first["entry_id"])["current"]
    assert "cancelled" in Path(result["log"]).read_text()


def test_a_wizard_killed_mid_install_is_found_and_marked_on_the_next_start(tiny, slow_index, isolated_state):
    _, first = tiny.install("tiny-a")
    proc = _slow_install(tiny, slow_index)
    wait_for_step(isolated_state, "tiny-slow-")
    os.killpg(proc.pid, signal.SIGKILL)
    proc.communicate(timeout=30)
    entries = tiny.history()
    killed = entries[-1]
    assert killed["status"] == "failed" and killed["interrupted"] and not killed["current"]
    assert next(e for e in entries if e["id"] == first["entry_id"])["current"]


def test_saved_answers_replay_the_same_install_unattended(tiny, tmp_path, monkeypatch):
    answers = tmp_path / "answers.json"
    proc, first = tiny.install("tiny-a", "--save-answers", str(answers))
    assert proc.returncode == 0, proc.stderr
    assert '"recipe": "tiny-a"' in answers.read_text()
    monkeypatch.setenv("GC_WIZARD_HOME", str(tmp_path / "another-server"))
    from tests.fixtures.state import last_json, run_cli

    proc = run_cli("install", "--answers", str(answers), "--yes", "--json", "--recipes-dir", str(tiny.recipes))
    assert proc.returncode == 0, proc.stderr
    replayed = last_json(proc)
    assert replayed["ok"] and replayed["recipe"] == "tiny-a" and replayed["env"] != first["env"]
    assert str(tmp_path / "another-server") in replayed["env"]
