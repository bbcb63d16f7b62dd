"""32nd hostile pass (part A) P5: `--env` on /proc was "only 0.0 GiB are free at /proc … free some space"; the plan and
the install now say that no folder can be made there (`paths.pseudo_words`), before anything is done."""

from __future__ import annotations

import os

import pytest

from tests.fixtures.cli import run_inproc

pytestmark = pytest.mark.skipif(not os.path.isdir("/proc/self") or os.statvfs("/proc").f_blocks != 0,
                                reason="needs Linux's /proc")


@pytest.mark.parametrize("command", ["plan", "install"])
def test_env_on_proc_is_named_as_no_place_for_files(tiny, command):
    args = [a for a in tiny.args() if a != "--no-verify" or command == "install"]
    extra = ["--yes"] if command == "install" else []
    proc = run_inproc(command, "tiny-a", *extra, "--env", "/proc/gcw-test-env", *args)
    said = " ".join((proc.stderr + proc.stdout).split())
    assert proc.returncode != 0, said
    assert "proc file system" in said and "free some space" not in said and "full" not in said, said
    assert tiny.history() == []
