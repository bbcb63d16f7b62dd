"""What the wizard makes under a folder whose default ACL gives another user write carries no such entry (27th
hostile pass (part B) P1): the state's `envs/` and `logs/`, an `--env`, a bundle, a module folder and the Jupyter
kernel folders inherited `user:tuser:rwx`, so another user swapped root's `kernel.json` and `.lua`, and each
install refused the new environment it had just made, naming a folder it had then removed. Real `setfacl` on
real folders, the real CLI and uv on the tiny recipes."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
from pathlib import Path

import pytest

from tests.fixtures.modes import NOBODY
from tests.fixtures.state import run_cli
from wizard.security import make_folders, write_private_file
from wizard.source_trust import ACL_ACCESS, ACL_DEFAULT, acl_writers


def _handing_down_write(folder: Path) -> Path:
    """`folder` made, with a default ACL that gives uid 65534 write on everything made in it (`setfacl -d -m`)."""
    if shutil.which("setfacl") is None:
        pytest.skip("needs setfacl (the acl package)")
    folder.mkdir(parents=True, exist_ok=True)
    made = subprocess.run(["setfacl", "-d", "-m", f"u:{NOBODY}:rwx", str(folder)], capture_output=True, text=True)
    if made.returncode != 0:
        pytest.skip(f"this file system keeps no POSIX ACLs ({made.stderr.strip()})")
    return folder


def _others_may_write(root: Path) -> list[str]:
    """Each place under `root` (itself not included) that a user other than its owner may write or hand write down
    to: an ACL entry, or group/other write in its mode."""
    found = []
    for top, dirs, files in os.walk(root):
        for name in [*dirs, *files]:
            place = Path(top) / name
            info = os.lstat(place)
            if stat.S_ISLNK(info.st_mode):
                continue
            if acl_writers(place, ACL_ACCESS) or acl_writers(place, ACL_DEFAULT) or info.st_mode & 0o022:
                found.append(f"{place} {stat.filemode(info.st_mode)}")
    return found


def test_folders_made_under_a_default_acl_keep_none_of_it(tmp_path):
    above = _handing_down_write(tmp_path / "lab")
    made = make_folders(above / "a" / "b")
    write_private_file(made / "kernel.json", "{}\n", mode=0o644)
    assert made.is_dir() and _others_may_write(above) == []


def test_an_install_whose_state_is_under_a_default_acl_works_and_leaves_nothing_others_may_write(tiny, tmp_path):
    above = _handing_down_write(tmp_path / "lab")
    state = above / "state"
    proc, result = tiny.install("tiny-a", env={"GC_WIZARD_HOME": str(state)})
    assert proc.returncode == 0, proc.stderr
    assert "ACL" not in proc.stderr and "Traceback" not in proc.stderr
    assert _others_may_write(state) == []
    env = above / "myenv"
    proc, result = tiny.install("tiny-b", "--env", str(env), env={"GC_WIZARD_HOME": str(state)})
    assert proc.returncode == 0, proc.stderr
    assert _others_may_write(env) == []


def test_bundle_module_and_kernel_folders_made_under_a_default_acl_are_not_others_to_write(tiny, tmp_path, monkeypatch):
    tiny.house.add("ipykernel", "6.0")
    tiny.write("tiny-k", ["pkg-a==1.0", "ipykernel==6.0"])
    installed, _ = tiny.install("tiny-k")
    assert installed.returncode == 0, installed.stderr
    above = _handing_down_write(tmp_path / "lab")
    module = run_cli("module", "install", "--dir", str(above / "newmod"))
    assert module.returncode == 0, module.stderr
    kernel = run_cli("kernel", "install", env={"JUPYTER_DATA_DIR": str(above / "jd"), "PATH": "/usr/bin:/bin"})
    assert kernel.returncode == 0, kernel.stderr
    bundle = tiny.bundle(above / "bun", monkeypatch)
    assert bundle.returncode == 0, bundle.stderr
    assert (above / "jd" / "kernels").is_dir() and (above / "newmod").is_dir() and (above / "bun").is_dir()
    assert _others_may_write(above) == []
