"""`remove` never deletes through a file system mounted inside an env (fifth hostile pass 11a: a bind mount
inside an old env lost the mounted folder's file, and the entry still read "installed")."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import venv

import pytest

from tests.fixtures.state import REPO
from wizard.errors import OperationFailed
from wizard.install import envs
from wizard.paths import envs_dir


def test_a_bind_mount_inside_an_env_is_named_and_nothing_is_deleted(tmp_path):
    if os.geteuid() != 0 or not shutil.which("mount"):
        pytest.skip("a bind mount needs root and mount(8), as on the CI machine")
    env = envs_dir() / "old-env"
    venv.create(env, with_pip=False)
    outside = tmp_path / "precious"
    outside.mkdir()
    (outside / "precious.txt").write_text("keep me\n")
    inside = env / "lib" / "mounted"
    inside.mkdir()
    proc = subprocess.run(["mount", "--bind", str(outside), str(inside)], capture_output=True, text=True)
    if proc.returncode != 0:
        pytest.skip(f"this machine refuses bind mounts ({proc.stderr.strip()})")
    try:
        with pytest.raises(OperationFailed, match="mounted inside"):
            envs.remove_env(env)
        assert (outside / "precious.txt").read_text() == "keep me\n" and (env / "pyvenv.cfg").is_file()
    finally:
        subprocess.run(["umount", str(inside)], check=False)
    assert envs.remove_env(env) >= 0 and not env.exists()  # unmounted: removed as usual


@pytest.mark.parametrize("kind", ["bind", "tmpfs"])
def test_an_env_that_is_itself_a_mount_point_is_refused_before_anything_is_deleted(tmp_path, kind):
    """Sixth hostile pass 11f: envs/<old> was a tmpfs; remove emptied it, then said "could not delete all"."""
    if os.geteuid() != 0 or not shutil.which("mount"):
        pytest.skip("a mount needs root and mount(8), as on the CI machine")
    env = envs_dir() / "old-env"
    env.mkdir(parents=True)
    source = tmp_path / "mounted-files"
    source.mkdir()
    argv = ["mount", "--bind", str(source), str(env)] if kind == "bind" else ["mount", "-t", "tmpfs", "tmpfs", str(env)]
    proc = subprocess.run(argv, capture_output=True, text=True)
    if proc.returncode != 0:
        pytest.skip(f"this machine refuses the mount ({proc.stderr.strip()})")
    try:
        venv.create(env, with_pip=False)
        (env / "PRECIOUS.txt").write_text("keep me\n")
        with pytest.raises(OperationFailed, match=f"{env} is itself a mount point"):
            envs.remove_env(env)
        assert (env / "PRECIOUS.txt").read_text() == "keep me\n" and (env / "pyvenv.cfg").is_file()
    finally:
        subprocess.run(["umount", str(env)], check=False)


@pytest.mark.parametrize("how", ["bind", "tmpfs", "bind-deep", "bind-of-the-envs-parent"])
def test_the_size_of_an_env_stops_at_a_file_system_mounted_inside_it(tmp_path, how):
    """Eleventh hostile pass #195: `history` sized an env with / bind-mounted inside by walking all of / (58 s,
    334 MB; with /usr/lib bound in, the env was "3.79 GiB"). The walk stops where `remove` does: at any mount
    inside the env, a bind mount of the same disk included, however deep; the env's own files still count."""
    if os.geteuid() != 0 or not shutil.which("mount"):
        pytest.skip("a mount needs root and mount(8), as on the CI machine")
    import json

    from tests.fixtures.cli import run_inproc

    env = envs_dir() / "sized-env"
    venv.create(env, with_pip=False)
    (env / "own.bin").write_bytes(os.urandom(2 * 2**20))
    alone = envs.disk_usage(env)
    big = tmp_path / "big"
    big.mkdir()
    (big / "data.bin").write_bytes(os.urandom(24 * 2**20))
    where = env / "lib" / ("a/b/c/mnt" if how == "bind-deep" else "mnt")
    where.mkdir(parents=True)
    source = envs_dir().parent if how == "bind-of-the-envs-parent" else big  # a loop back into the state itself
    argv = (["mount", "-t", "tmpfs", "tmpfs", str(where)] if how == "tmpfs"
            else ["mount", "--bind", str(source), str(where)])
    proc = subprocess.run(argv, capture_output=True, text=True)
    if proc.returncode != 0:
        pytest.skip(f"this machine refuses the mount ({proc.stderr.strip()})")
    try:
        if how == "tmpfs":
            (where / "data.bin").write_bytes(os.urandom(24 * 2**20))
        sized = envs.disk_usage(env)
        assert alone <= sized < alone + 2**20, (alone, sized)
        history = envs_dir().parent / "history.json"
        history.write_text(json.dumps({"version": 1, "entries": [
            {"id": "e1", "kind": "install", "recipe": "tiny-a", "env": str(env), "status": "installed",
             "current": True}]}))
        listed = run_inproc("history", "--json")
        assert listed.returncode == 0, listed.stderr
        (row,) = json.loads(listed.stdout.splitlines()[-1])
        assert alone <= row["disk_bytes"] < alone + 2**20
    finally:
        subprocess.run(["umount", str(where)], check=False)


def test_remove_refuses_a_mounted_env_before_it_says_deleting_or_asks(tmp_path):
    """25th hostile pass (part B) P7: `remove ID --yes` of an env that is itself a mount point printed "Deleting <env>
    …" on stdout and then refused, deleting nothing. Every refusal comes before the question and the progress line."""
    if os.geteuid() != 0 or not shutil.which("mount"):
        pytest.skip("a mount needs root and mount(8), as on the CI machine")
    import json

    from tests.fixtures.cli import run_inproc

    old, current = envs_dir() / "old-env", envs_dir() / "current-env"
    for env in (old, current):
        venv.create(env, with_pip=False)
    source = tmp_path / "mounted-venv"  # another venv's files, so the mounted env still reads as an env
    venv.create(source, with_pip=False)
    (source / "PRECIOUS.txt").write_text("keep me\n")
    (envs_dir().parent / "history.json").write_text(json.dumps({"version": 1, "entries": [
        {"id": "e1", "kind": "install", "recipe": "tiny-a", "env": str(old), "status": "installed"},
        {"id": "e2", "kind": "install", "recipe": "tiny-b", "env": str(current), "status": "installed",
         "current": True}]}))
    proc = subprocess.run(["mount", "--bind", str(source), str(old)], capture_output=True, text=True)
    if proc.returncode != 0:
        pytest.skip(f"this machine refuses the mount ({proc.stderr.strip()})")
    try:
        for args, stdin in ((("remove", "e1", "--yes"), None), (("remove", "e1"), "y\n")):
            result = run_inproc(*args, input=stdin)
            assert result.returncode != 0
            assert "Deleting" not in result.stdout and "Delete " not in result.stdout + result.stderr, result
            assert f"{old} is itself a mount point" in result.stderr, result.stderr
            assert (old / "PRECIOUS.txt").read_text() == "keep me\n"
    finally:
        subprocess.run(["umount", str(old)], check=False)


def test_without_proc_nothing_is_deleted_because_nothing_can_be_checked(tmp_path):
    """30th hostile pass (part A) P5: in a mount namespace without /proc (a chroot, a sandbox) the mount list and the
    process table read as empty, and `remove` deleted a file through a bind mount inside the env. What cannot be
    checked is not deleted: the refusal says why, and the env and the mounted folder stay whole."""
    if os.geteuid() != 0 or not shutil.which("unshare") or not shutil.which("mount"):
        pytest.skip("a private mount namespace needs root, unshare(1) and mount(8), as on the CI machine")
    env = envs_dir() / "old-env"
    venv.create(env, with_pip=False)
    outside = tmp_path / "precious"
    outside.mkdir()
    (outside / "keep.txt").write_text("keep me\n")
    (env / "data").mkdir()
    script = (f"mount --bind {outside} {env / 'data'} && umount -l /proc && exec {sys.executable} -c "
              "'import sys; from wizard.install import envs; from wizard.errors import OperationFailed\n"
              "try:\n    envs.remove_env(sys.argv[1])\nexcept OperationFailed as exc:\n    print(exc); sys.exit(3)' "
              f"{env}")
    proc = subprocess.run(["unshare", "-m", "--propagation", "private", "sh", "-c", script], capture_output=True,
                          text=True, cwd=REPO, env={**os.environ, "PYTHONPATH": str(REPO)})
    if "unshare failed" in proc.stderr or "Operation not permitted" in proc.stderr:
        pytest.skip(f"this machine refuses a private mount namespace ({proc.stderr.strip()})")
    assert proc.returncode == 3, (proc.stdout, proc.stderr)
    assert "/proc is not mounted or not readable here" in proc.stdout and "deletes nothing" in proc.stdout
    assert (outside / "keep.txt").read_text() == "keep me\n" and (env / "pyvenv.cfg").is_file()
