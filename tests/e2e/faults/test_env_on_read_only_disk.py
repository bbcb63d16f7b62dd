"""`plan --env DIR` on a read-only file system says so, as `install` does (30th hostile pass (part A) P7: the plan
exited 0 with "0 GiB free there" for a read-only 64 MiB tmpfs, and only `install` refused). Both refuse with one
sentence naming the read-only file system, and nothing is made."""

from __future__ import annotations

import os
import shutil
import subprocess

import pytest

from tests.fixtures.cli import run_inproc


@pytest.fixture
def read_only_disk(tmp_path):
    if os.geteuid() != 0 or not shutil.which("mount"):
        pytest.skip("a read-only tmpfs needs root and mount(8), as on the CI machine")
    disk = tmp_path / "ro"
    disk.mkdir()
    proc = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=8m,ro", "tmpfs", str(disk)], capture_output=True,
                          text=True)
    if proc.returncode != 0:
        pytest.skip(f"this machine refuses the mount ({proc.stderr.strip()})")
    yield disk
    subprocess.run(["umount", str(disk)], check=False)


@pytest.mark.parametrize("command", ["plan", "install"])
def test_plan_and_install_name_the_read_only_disk(tiny, read_only_disk, command):
    args = [a for a in tiny.args() if command == "install" or a != "--no-verify"]  # plan takes no --no-verify
    proc = run_inproc(command, "tiny-a", "--env", str(read_only_disk / "env"), *args,
                      *(["--yes"] if command == "install" else []))
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    assert f"{read_only_disk} is on a read-only file system" in " ".join(proc.stderr.split()), proc.stderr
    assert "Traceback" not in proc.stderr and not (read_only_disk / "env").exists()
