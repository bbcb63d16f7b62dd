"""`remove` never deletes through a file system mounted inside an env (fifth hostile pass 11a: a bind mount
inside an old env lost the mounted folder's file, and the entry still read "installed")."""

from __future__ import annotations

import os
import shutil
import subprocess
import venv

import pytest

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
