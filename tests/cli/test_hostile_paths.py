"""Paths that are not what they look like — a FIFO or a device given as a file, a missing parent folder, a
control character in a path — each answered with one sentence that says what the path is (sixth hostile pass).

The real CLI in this process; nothing is installed (every case stops before the environment is made)."""

from __future__ import annotations

import os

import pytest

from tests.fixtures.cli import run_inproc
from tests.fixtures.envs import python_link_env
from tests.fixtures.state import last_json


def _clean(proc) -> None:
    for text in (proc.stdout, proc.stderr):
        assert "Traceback" not in text and "of its own" not in text, text


@pytest.mark.parametrize("make, says", [
    (os.mkfifo, "a named pipe (FIFO), not a regular file"),
    (lambda p: os.symlink("/dev/zero", p), "a character device, not a regular file"),
    (os.mkdir, "a folder, not a regular file"),
])
def test_a_lock_that_is_not_a_regular_file_is_named_for_what_it_is(tmp_path, make, says):
    lock = tmp_path / "requirements.lock.txt"
    make(lock)
    proc = run_inproc("install", "jax0.4.23-cpu", "--yes", "--no-verify", "--offline", "--find-links",
                      str(tmp_path), "--lock", str(lock), "--json")
    _clean(proc)
    assert proc.returncode == 2
    assert f"--lock {lock}: it is {says}" in last_json(proc)["error"] and "no such file" not in proc.stderr


@pytest.mark.parametrize("option", ["--graphcast-src", "--find-links"])
@pytest.mark.parametrize("char", ["\n", "\t", "\r", "\x1b", "\u2028", "\x85"])
def test_a_source_path_with_a_character_no_installer_takes_is_refused_up_front(tmp_path, option, char):
    folder = tmp_path / f"ck{char}nl"
    folder.mkdir()
    (folder / "setup.py").write_text("")  # a checkout by its looks: only the name is wrong
    proc = run_inproc("plan", "jax0.4.23-cpu", option, str(folder), "--json")
    _clean(proc)
    error = last_json(proc)["error"]
    assert proc.returncode == 2 and error.startswith(("The GraphCast source (--graphcast-src)", "--find-links"))
    assert f"holds the character {char!r}" in error and char not in error  # shown escaped, never raw


@pytest.mark.parametrize("command", ["install", "plan"])
def test_an_env_whose_parent_folder_is_missing_names_that_folder_not_the_state_folder(tmp_path, command):
    env = tmp_path / "missing" / "deep" / "env"
    extra = ("--yes", "--no-verify", "--offline") if command == "install" else ()
    proc = run_inproc(command, "jax0.4.23-cpu", "--env", str(env), "--json", *extra)
    _clean(proc)
    error = last_json(proc)["error"]
    assert proc.returncode == 2 and f"its parent folder {env.parent} does not exist" in error
    assert "state folder" not in error and "GC_WIZARD_HOME" not in error and not (tmp_path / "missing").exists()


@pytest.mark.parametrize("command", ["install", "plan"])
def test_an_env_in_a_folder_every_user_can_write_is_refused_unless_it_is_sticky(tmp_path, command):
    """Seventh hostile pass 7c: an env made in a 0777 shared folder became current without a word, though any
    local user could swap it; /tmp-like folders (sticky bit) and group folders a lab shares stay allowed."""
    import os

    shared = tmp_path / "shared"
    shared.mkdir()
    os.chmod(shared, 0o777)
    extra = ("--yes", "--no-verify", "--offline") if command == "install" else ()
    proc = run_inproc(command, "jax0.4.23-cpu", "--env", str(shared / "env"), "--json", *extra)
    _clean(proc)
    assert proc.returncode == 2 and "is writable by every user" in last_json(proc)["error"]
    assert not (shared / "env").exists()
    for mode in (0o1777, 0o2775):
        os.chmod(shared, mode)
        proc = run_inproc("plan", "jax0.4.23-cpu", "--env", str(shared / "env"), "--json", "--offline")
        assert "writable by every user" not in proc.stdout + proc.stderr


@pytest.mark.parametrize("existing", [False, True])
def test_an_env_under_a_grandparent_every_user_can_write_is_refused(tmp_path, existing):
    """P7 (fourth pass): `--env /ww2/sub/env` with `/ww2` 0777 and no sticky bit was accepted — only the parent
    was checked, and renaming `sub` swaps the env as well. Every folder up to / is checked, for a new env and an
    existing one (in-place) alike; a sticky ancestor such as /tmp stays allowed."""
    import os

    shared = tmp_path / "ww2"
    env = shared / "sub" / "env"
    if existing:
        python_link_env(env)
    else:
        env.parent.mkdir(parents=True)
    os.chmod(shared, 0o777)
    proc = run_inproc("plan", "jax0.4.23-cpu", "--env", str(env), "--json", "--offline")
    _clean(proc)
    error = last_json(proc)["error"]
    assert proc.returncode == 2 and f"the folder {shared} above it is writable by every user" in error, error
    os.chmod(shared, 0o1777)
    proc = run_inproc("plan", "jax0.4.23-cpu", "--env", str(env), "--json", "--offline")
    assert "writable by every user" not in proc.stdout + proc.stderr


@pytest.mark.parametrize("command", [("activate",), ("verify", "--json")])
def test_an_env_another_user_could_have_swapped_is_not_run(tmp_path, command, monkeypatch):
    """P7 (fourth and eighth passes): an `--env` outside the state under a folder every user can rename in (even
    two levels up) was swapped for a copy another user owned, and exported by `activate` and run by `verify` without
    a word. Refused by name now (exit 1), before anything runs. An environment another user owns in a folder only
    they can write (a lab admin's shared one) is run by other users — but not by root, whom its owner would
    otherwise run code as."""
    import os

    env = python_link_env(tmp_path / "lab" / "sub" / "env")
    os.chmod(tmp_path / "lab", 0o777)
    proc = run_inproc(*command, "--env", str(env))
    _clean(proc)
    assert proc.returncode == 1 and f"the environment {env} is under {tmp_path / 'lab'}, which is writable by every " \
                                   "user" in proc.stderr + proc.stdout, proc.stderr
    assert "export VIRTUAL_ENV" not in proc.stdout
    os.chmod(tmp_path / "lab", 0o755)
    if os.geteuid() == 0:
        # Root does not run another user's python (twenty-third hostile pass B P2): its owner decides what it runs.
        os.chown(env, 65534, 65534)
        proc = run_inproc(*command, "--env", str(env))
        said = " ".join((proc.stderr + proc.stdout).split())
        assert proc.returncode == 2 and "Run gc-wizard as that user instead" in said and "nothing was run" in said
        assert "export VIRTUAL_ENV" not in proc.stdout
        return
    monkeypatch.setattr(os, "geteuid", lambda: os.getuid() + 1)  # the env is this user's: seen from another uid
    proc = run_inproc(*command, "--env", str(env))  # verify runs it: its JSON quotes the probe's own traceback
    assert "could have swapped" not in proc.stderr + proc.stdout and "belongs to" not in proc.stderr + proc.stdout
    if command == ("activate",):
        _clean(proc)
        assert proc.returncode == 0 and f"export VIRTUAL_ENV={env}" in proc.stdout, proc.stderr
    else:
        assert last_json(proc)["tiers"][0]["name"] == "jax_import"  # the check ran the environment's Python


@pytest.mark.parametrize("argv, option", [
    (("lock", "jax0.4.23-cpu", "--platform=--index-url=http://127.0.0.1:9/"), "--platform"),
    (("lock", "jax0.4.23-cpu", "--find-links=--index-url=http://127.0.0.1:9/"), "--find-links"),
    (("bundle", "jax0.4.23-cpu", "--out", "{tmp}/bun", "--find-links=--no-index"), "--find-links"),
    (("bundle", "jax0.4.23-cpu", "--out", "{tmp}/bun", "--graphcast-src=-e graphcast @ file:///x"), "--graphcast-src"),
    (("plan", "jax0.4.23-cpu", "--python=-{tmp}/python"), "--python"),
    (("plan", "jax0.4.23-cpu", "--graphcast-src=--index-url=x @ y"), "--graphcast-src"),
    (("install", "jax0.4.23-cpu", "--yes", "--find-links=-x"), "--find-links"),
])
def test_a_value_passed_on_to_uv_that_starts_with_a_dash_is_refused_naming_the_option(tmp_path, argv, option):
    """L4 (fourth pass): `lock --platform='--index-url=…'` reached uv as an option of its own (uv's "a value is
    required for '--python-platform'", exit 1). Every value the wizard passes on to uv or pip — --platform,
    --python, --graphcast-src, --find-links — is refused by the wizard when it starts with '-' (exit 2, naming the
    option), before anything runs or is made; GC_WIZARD_FIND_LINKS the same way."""
    (tmp_path / "-x").mkdir()
    args = [word.replace("{tmp}", str(tmp_path)) for word in argv]
    proc = run_inproc(*args, "--offline", "--out", str(tmp_path / "pylock.t.toml"), "--json") if argv[0] == "lock" \
        else run_inproc(*args, "--json", cwd=tmp_path)
    _clean(proc)
    error = last_json(proc)["error"]
    assert proc.returncode == 2 and error.startswith(f"{option} ") and "starts with '-'" in error, error
    assert sorted(p.name for p in tmp_path.iterdir()) == ["-x"]


def test_a_wheelhouse_variable_entry_that_starts_with_a_dash_is_refused_too(tmp_path):
    proc = run_inproc("plan", "jax0.4.23-cpu", "--json", env={"GC_WIZARD_FIND_LINKS": "--no-index"})
    assert proc.returncode == 2 and last_json(proc)["error"].startswith("--find-links '--no-index' ")


def test_an_env_named_through_proc_self_is_recorded_where_it_is(tmp_path):
    """Tenth hostile pass Y7: `--env /proc/self/cwd/ev` was recorded as given, and `activate` from any other folder
    said it no longer exists (/proc/self/cwd is every process's own). The plan names the folder it means."""
    source = tmp_path / "gc"
    source.mkdir()
    (source / "setup.py").write_text("from setuptools import setup\nsetup(name='graphcast', version='0.1.1')\n")
    proc = run_inproc("plan", "jax0.4.23-cpu", "--env", "/proc/self/cwd/ev", "--json", "--offline",
                      "--graphcast-src", str(source))
    env = last_json(proc).get("env") or ""
    # The folder the command ran in (run_inproc's own), named as any other process will find it.
    assert env.startswith("/") and not env.startswith("/proc/") and env.endswith("/ev"), proc.stdout[-500:]


@pytest.mark.parametrize("command, under", [
    (["lock", "tiny-a", "--out"], "lk.txt"),
    (["report", "--out"], "r.md"),
    (["report", "--out"], "deeper/r.md"),
    (["bundle", "tiny-a", "--out"], "bd"),
    (["bundle", "tiny-a", "--out"], ""),  # the bundle's folder itself is the file
    (["install", "tiny-a", "--yes", "--save-answers"], "a.json"),
])
def test_a_file_where_a_folder_must_be_is_named_as_a_file_for_every_path_a_user_names_to_write(tmp_path, tiny, command,
                                                                                               under):
    """25th hostile pass (part A) P3: with a regular file where a folder had to be, `lock --out` said "the folder …
    does not exist", `report --out` "create it first" (a file was there), `bundle --out` "is not writable by you"
    (as root) and `--save-answers` a bare "File exists". One check (`outputs.refuse_file_in_the_way`) names the file,
    before any work: nothing is installed, nothing written."""
    afile = tmp_path / "afile"
    afile.write_text("mine\n")
    target = afile / under if under else afile
    given = {"report": [], "install": tiny.args()}.get(command[0], tiny.args()[:4])  # --recipes-dir, --find-links
    proc = run_inproc(*command, str(target), *given)
    _clean(proc)
    assert proc.returncode == 2, proc.stderr
    assert f"{afile} is a file, not a folder" in proc.stderr and "or move that file" in proc.stderr, proc.stderr
    for wrong in ("does not exist", "create it first", "not writable", "File exists"):
        assert wrong not in proc.stderr, proc.stderr
    assert afile.read_text() == "mine\n" and tiny.history() == []
    assert "==> Bundling" not in proc.stdout, proc.stdout  # a refused place is never announced as the work's
