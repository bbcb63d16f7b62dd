"""`plan --env DIR` on a read-only file system says so, as `install` does (30th hostile pass (part A) P7: the plan
exited 0 with "0 GiB free there" for a read-only 64 MiB tmpfs, and only `install` refused). Both refuse with one
sentence naming the read-only file system, and nothing is made."""

from __future__ import annotations

import pytest

from tests.fixtures.cli import run_inproc


@pytest.mark.parametrize("command", ["plan", "install"])
def test_plan_and_install_name_the_read_only_tmpfs(tiny, read_only_tmpfs, command):
    args = [a for a in tiny.args() if command == "install" or a != "--no-verify"]  # plan takes no --no-verify
    proc = run_inproc(command, "tiny-a", "--env", str(read_only_tmpfs / "env"), *args,
                      *(["--yes"] if command == "install" else []))
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    assert f"{read_only_tmpfs} is on a read-only file system" in " ".join(proc.stderr.split()), proc.stderr
    assert "Traceback" not in proc.stderr and not (read_only_tmpfs / "env").exists()
