"""A rollback to an environment whose folder is there but whose Python is gone (sixth hostile pass 11e).

It said "Its folder is gone: it will be rebuilt" (it was there), uv then refused ("already exists") and its
advice to `--clear` the folder reached the terminal. Now: refused before anything, named as broken, with the
way out (remove, then roll back), and no installer's advice to wipe on any channel."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from tests.fixtures.cli import bare_program
from tests.fixtures.state import run_cli


def _current(tiny) -> str:
    return next(e["id"] for e in tiny.history() if e["current"])


@pytest.mark.parametrize("breakage", ["python-removed", "python-dangling-link", "bin-removed"])
def test_a_rollback_to_an_env_whose_python_is_gone_says_it_is_broken(tiny, breakage):
    _, a = tiny.install("tiny-a")
    _, b = tiny.install("tiny-b")
    env = Path(a["env"])
    bin_dir = env / "bin"
    if breakage == "bin-removed":
        shutil.rmtree(bin_dir)
    else:
        for python in bin_dir.glob("python*"):
            python.unlink()
        if breakage == "python-dangling-link":
            (bin_dir / "python").symlink_to("/nonexistent/python3.11")
    proc = run_cli("rollback", a["entry_id"], "--yes", "--no-verify", "--json")
    out = proc.stdout + proc.stderr
    assert proc.returncode == 2 and "Traceback" not in out
    error = bare_program(json.loads(proc.stdout.splitlines()[-1])["error"])
    assert f"{env} (entry {a['entry_id']}) is broken" in error and f"gc-wizard remove {a['entry_id']}" in error
    assert "is gone" not in out and "--clear" not in out and "UV_VENV_CLEAR" not in out
    assert _current(tiny) == b["entry_id"] and env.is_dir()
    assert [e["kind"] for e in tiny.history()].count("rollback") == 0  # refused before an entry was recorded


def test_an_empty_entry_id_is_refused_not_read_as_the_previous_one(tiny, isolated_state):
    """Seventh hostile pass 11c: `rollback ''` rolled back to the previous environment with exit 0."""
    from tests.fixtures.state import run_cli

    _, first = tiny.install("tiny-a")
    _, second = tiny.install("tiny-b")
    for empty in ("", "  "):
        proc = run_cli("rollback", empty, "--yes", "--no-verify")
        assert proc.returncode == 2 and "ENTRY_ID is empty" in proc.stderr, proc.stderr
    assert next(e for e in tiny.history() if e["current"])["id"] == second["entry_id"]


def test_a_rollbacks_advice_to_remove_is_given_only_where_remove_works(tiny, isolated_state):
    """H4 (fourth pass): a rollback to an edited entry whose env is `/` (or the state folder, envs/, logs/) said
    "Remove it (`gc-wizard remove ENTRY`), then roll back again", and `remove` then refused that entry. The advice
    and remove's rules are one function now: where remove refuses, the rollback says the entry cannot be rolled
    back to and how to have the recipe again; where it advises remove, remove works and the rollback then can."""
    _, a = tiny.install("tiny-a")
    _, b = tiny.install("tiny-b")
    path = isolated_state / "history.json"
    data = json.loads(path.read_text())
    edited = {"evil-root": "/", "evil-state": str(isolated_state), "evil-envs": str(isolated_state / "envs"),
              "evil-logs": str(isolated_state / "logs")}
    for entry_id, env in edited.items():
        data["entries"].append({**data["entries"][0], "id": entry_id, "env": env, "current": False})
    path.write_text(json.dumps(data, indent=1))
    (isolated_state / "logs").mkdir(exist_ok=True)
    for entry_id, env in edited.items():
        proc = run_cli("rollback", entry_id, "--yes", "--no-verify", "--json")
        error = bare_program(json.loads(proc.stdout.splitlines()[-1])["error"])
        assert proc.returncode == 2 and f"{env} (entry {entry_id}) is broken" in error, error
        assert "gc-wizard remove" not in error and "cannot be rolled back to" in error, error
        assert "gc-wizard install tiny-a" in error
        assert run_cli("remove", entry_id, "--yes").returncode != 0
    assert _current(tiny) == b["entry_id"]
    env = Path(a["env"])
    (env / "bin" / "python").unlink()
    proc = run_cli("rollback", a["entry_id"], "--yes", "--no-verify", "--json")
    assert f"gc-wizard remove {a['entry_id']}" in bare_program(json.loads(proc.stdout.splitlines()[-1])["error"])
    assert run_cli("remove", a["entry_id"], "--yes").returncode == 0 and not env.exists()


def test_a_rollback_never_changes_an_environment_this_history_did_not_make(tiny, isolated_state, tmp_path):
    """Sixteenth hostile pass P3: an entry edited to name the user's own venv (no marker), or a link in envs/ to
    one, had `rollback` run `uv pip sync` there — the venv's packages uninstalled and a marker written into it (and
    with `/`, the system Python). Such a folder is neither changed nor made current; nothing changes."""
    import os
    import subprocess

    from uv import find_uv_bin

    _, a = tiny.install("tiny-a")
    _, b = tiny.install("tiny-b")
    own = tmp_path / "my-own-venv"
    subprocess.run([find_uv_bin(), "venv", "-q", str(own)], check=True)
    tiny.house.add("old-tool", "0.5")
    subprocess.run([find_uv_bin(), "pip", "install", "-q", "--python", str(own / "bin" / "python"), "--offline",
                    "--find-links", str(tiny.house.path), "old-tool==0.5"], check=True)
    link = isolated_state / "envs" / "tiny-a-linked"
    os.symlink(own, link)
    path = isolated_state / "history.json"
    for env in (own, link):
        data = json.loads(path.read_text())
        for item in data["entries"]:
            if item["id"] == a["entry_id"]:
                item["env"] = str(env)
        path.write_text(json.dumps(data, indent=1))
        proc = run_cli("rollback", a["entry_id"], "--yes", "--no-verify", "--json")
        error = bare_program(json.loads(proc.stdout.splitlines()[-1])["error"])
        assert proc.returncode == 2 and "Traceback" not in proc.stderr
        assert f"{env} (entry {a['entry_id']}) is an environment gc-wizard did not make" in error, error
        assert "Nothing changed" in error
        listed = subprocess.run([find_uv_bin(), "pip", "freeze", "--python", str(own / "bin" / "python")],
                                capture_output=True, text=True, check=True).stdout.split()
        assert listed == ["old-tool==0.5"] and not (own / "gc-wizard-env.json").exists()
        assert _current(tiny) == b["entry_id"]


@pytest.mark.parametrize("kind", ["fifo", "file"])
def test_an_environment_path_that_is_no_folder_is_named_at_once(tiny, isolated_state, kind):
    """Sixteenth hostile pass P7: with a FIFO where the entry's env was, `rollback` waited in `uv venv` for the
    30-minute inactivity limit. Whatever is there instead of a folder is named before anything runs."""
    import os

    _, a = tiny.install("tiny-a")
    _, b = tiny.install("tiny-b")
    env = Path(a["env"])
    shutil.rmtree(env)
    os.mkfifo(env) if kind == "fifo" else env.write_text("not an env\n")
    proc = run_cli("rollback", a["entry_id"], "--yes", "--no-verify", "--json", timeout=60)
    error = bare_program(json.loads(proc.stdout.splitlines()[-1])["error"])
    what = "a named pipe (FIFO)" if kind == "fifo" else "a file"
    assert proc.returncode == 2 and f"{env} (entry {a['entry_id']}) is not an environment: it is {what}" in error
    assert "nothing changed" in error and _current(tiny) == b["entry_id"]


@pytest.mark.parametrize("kind", ["dangling", "loop", "loop-pair"])
def test_an_environment_path_that_is_a_dead_link_is_named_at_once(tiny, isolated_state, tmp_path, kind):
    """Twentieth pass P8: with the entry's env path a link to a missing folder, or a link loop, the rollback passed
    on uv's bare "File exists (os error 17)" or "Too many levels of symbolic links". The link is named, with what it
    is and the way out, before anything runs; where it points is never made."""
    _, a = tiny.install("tiny-a")
    _, b = tiny.install("tiny-b")
    env = Path(a["env"])
    shutil.rmtree(env)
    nowhere = tmp_path / "nowhere"
    if kind == "dangling":
        env.symlink_to(nowhere)
        what = f"is a symbolic link to {nowhere}, which does not exist"
    elif kind == "loop":
        env.symlink_to(env)
        what = "is a symbolic link that loops"
    else:
        other = env.with_name(env.name + "-other")
        env.symlink_to(other)
        other.symlink_to(env)
        what = "is a symbolic link that loops"
    proc = run_cli("rollback", a["entry_id"], "--yes", "--no-verify", "--json", timeout=60)
    error = bare_program(json.loads(proc.stdout.splitlines()[-1])["error"])
    assert proc.returncode == 2 and f"{env} (entry {a['entry_id']}) {what}" in error, error
    assert f"`rm {env}`" in error and "nothing changed" in error
    assert "os error" not in error and "Too many levels" not in error
    assert env.is_symlink() and not nowhere.exists() and _current(tiny) == b["entry_id"]


def test_remove_takes_the_kernel_and_module_file_that_ran_the_env_away_and_says_so(tiny):
    """24th hostile pass (part B) P4: `remove` deleted an env that a gc-wizard kernel and module file still pointed
    at, without a word: Jupyter listed a kernel that could not start, and `module load` put a gone bin/ on PATH.
    The wizard's own kernel.json and module file for that env go with it, each named; a kernel of another env, and
    the user's own, stay."""
    import json

    from tests.fixtures.cli import run_inproc

    tiny.house.add("ipykernel", "6.29.0")  # a real wheel the env's Python imports: all `kernel install` asks
    tiny.write("tiny-k", ["pkg-a==1.0", "ipykernel==6.29.0"])
    tiny.write("tiny-b", ["pkg-b==2.0", "ipykernel==6.29.0"])
    _, k = tiny.install("tiny-k")
    assert run_inproc("kernel", "install").returncode == 0
    assert run_inproc("module", "install").returncode == 0
    _, b = tiny.install("tiny-b")
    assert run_inproc("kernel", "install").returncode == 0
    kernels = Path(os.environ["JUPYTER_DATA_DIR"]) / "kernels"
    own = kernels / "users-own"
    own.mkdir()
    (own / "kernel.json").write_text(json.dumps({"argv": [f"{k['env']}/bin/python"], "display_name": "Mine",
                                                 "language": "python"}))
    spec = kernels / "gc-wizard-tiny-k" / "kernel.json"
    module = Path(os.environ["GC_WIZARD_HOME"]) / "modules" / "graphcast" / "tiny-k.lua"
    assert spec.is_file() and module.is_file()

    proc = run_inproc("remove", k["entry_id"], "--yes")
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
    assert f"Removed the Jupyter kernel gc-wizard-tiny-k ({spec}), which ran it." in proc.stdout
    assert f"Removed the module file {module}, which loaded it." in proc.stdout
    assert not spec.exists() and not module.exists() and not Path(k["env"]).exists()
    assert (kernels / "gc-wizard-tiny-b" / "kernel.json").is_file() and (own / "kernel.json").is_file()


def test_kernel_remove_for_a_gone_env_does_not_call_it_untouched(tiny):
    """24th hostile pass (part B) P4: `kernel remove --env <gone path>` said "env: … (untouched)" of a folder that no
    longer exists."""
    from tests.fixtures.cli import run_inproc

    tiny.house.add("ipykernel", "6.29.0")
    tiny.write("tiny-k", ["pkg-a==1.0", "ipykernel==6.29.0"])
    _, k = tiny.install("tiny-k")
    assert run_inproc("kernel", "install").returncode == 0
    shutil.rmtree(k["env"])
    proc = run_inproc("kernel", "remove", "--env", k["env"])
    assert proc.returncode == 0, proc.stderr
    assert f"  env:    {k['env']} (gone)" in proc.stdout and "untouched" not in proc.stdout
