"""Files that run code when used — a module file, a kernel spec, a lock, a bundle — are never written where
another local user could swap them: under a folder every user can write without the sticky bit (t24g P1, P2).
The rule `install --env` follows (`paths.swappable_ancestor`), one sentence, exit 2, naming the folder."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from tests.fixtures.envs import python_link_env
from wizard.after.kernel import kernel_install
from wizard.after.module import module_install
from wizard.errors import ExitCode, UserError
from wizard.install.envs import MARKER
from wizard.outputs import check_out_folder


@pytest.fixture
def env(tmp_path) -> Path:
    """A stand-in environment: a bin/python and a marker (nothing here runs it)."""
    root = python_link_env(tmp_path / "env", cfg=f"home = {Path(sys.executable).parent}\n")  # a venv's (guard_env_python)
    (root / MARKER).write_text(json.dumps({"recipe": "jax0.4.23-cpu", "backend": "cpu", "python": "3.11"}))
    return root


def _open_folder(path: Path, *, sticky: bool = False) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    path.chmod(0o1777 if sticky else 0o777)
    return path


def _refused(call, folder: Path) -> str:
    with pytest.raises(UserError) as info:
        call()
    assert info.value.exit_code == ExitCode.BAD_INPUT
    text = str(info.value)
    # The writer's own rule (a lock or module another user could replace) or, met first, the destination rule every
    # output goes through (23rd hostile pass P1: another user could send the write elsewhere)
    assert str(folder) in text and (("writable by every user" in text and "could put their own file" in text)
                                    or ("every user can write" in text and "nothing was written" in text)), text
    return text


def test_module_install_refuses_a_folder_every_user_can_write(env, tmp_path):
    mods = _open_folder(tmp_path / "mods777")
    text = _refused(lambda: module_install(env, mods), mods)
    assert text.startswith("--dir ") and "`module load` would run" in text
    assert not (mods / "graphcast").exists()


def test_module_install_refuses_a_swappable_folder_higher_up(env, tmp_path):
    _open_folder(tmp_path / "shared")
    mods = tmp_path / "shared" / "mine"
    mods.mkdir(mode=0o755)
    mods.chmod(0o755)
    _refused(lambda: module_install(env, mods), tmp_path / "shared")


def test_a_sticky_shared_folder_is_fine(env, tmp_path):
    mods = _open_folder(tmp_path / "tmp-like", sticky=True)
    done = module_install(env, mods)
    assert Path(done["path"]).is_file()


def test_kernel_install_refuses_a_kernels_folder_every_user_can_write(env, tmp_path):
    data = tmp_path / "jup777"
    kernels = _open_folder(data / "kernels")
    text = _refused(lambda: kernel_install(env, "p2k", environ={"JUPYTER_DATA_DIR": str(data)}), kernels)
    assert "JUPYTER_DATA_DIR" in text and not (kernels / "p2k").exists()


@pytest.mark.parametrize("name", ["pylock.toml", "bundle"])
def test_lock_and_bundle_out_refuse_a_folder_every_user_can_write(tmp_path, name):
    shared = _open_folder(tmp_path / "shared")
    out = shared / name
    _refused(lambda: check_out_folder("--out", out, runs="`install --lock` would then install"), shared)
    # a report or answers file (runs=None) too: another user could point the write at a file of root's choosing
    _refused(lambda: check_out_folder("--out", out), shared)


def test_a_bundle_out_that_is_itself_open_to_all_is_refused(tmp_path):
    out = _open_folder(tmp_path / "bundle")
    os.chmod(tmp_path, 0o755)
    text = _refused(lambda: check_out_folder("--out", out, runs="`install --bundle` would then install"), out)
    assert f"--out {out}: it is writable by every user" in text or f"{out} is a folder every user can write" in text
