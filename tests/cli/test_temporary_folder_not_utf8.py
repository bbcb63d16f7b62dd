"""A TMPDIR whose name is not UTF-8 is named, in one sentence, before any installer is given a path in it.

24th hostile pass (part A) P5: with `TMPDIR=/tmp/…/tmp\\xff` (a real folder), `lock` and `bundle` said "uv could not
resolve recipe tiny-a … invalid UTF-8 was detected in one or more arguments" (the lock's requirements file is made
there) and `install --installer pip` said "ensurepip … exit status 1"; TMPDIR was named nowhere. The real CLI runs
here with such a folder as TMPDIR.
"""

from __future__ import annotations

import os

import pytest

from tests.fixtures.state import run_cli


@pytest.mark.parametrize("command", ["lock", "install-pip", "bundle"])
def test_a_tmpdir_that_is_not_utf8_is_named_with_its_byte(tmp_path, isolated_state, tiny, command):
    folder = os.fsencode(tmp_path) + b"/tmp\xff"
    os.mkdir(folder)
    env = {"TMPDIR": os.fsdecode(folder)}
    if command == "lock":
        proc = run_cli("lock", "tiny-a", "--recipes-dir", str(tiny.recipes), "--find-links", str(tiny.house.path),
                       "--out", str(tmp_path / "lock.txt"), env=env)
    elif command == "bundle":
        proc = run_cli("bundle", "tiny-a", "--recipes-dir", str(tiny.recipes), "--find-links", str(tiny.house.path),
                       "--out", str(tmp_path / "bundle"), env=env)
    else:
        proc, _ = tiny.install("tiny-a", "--installer", "pip", env=env)
    assert proc.returncode == 2, proc.stderr
    assert "TMPDIR" in proc.stderr and "tmp\\xff" in proc.stderr, proc.stderr
    assert "Traceback" not in proc.stderr + proc.stdout and "ensurepip" not in proc.stderr, proc.stderr
    assert "Create the environment" not in proc.stderr, "the install began before saying so"
    assert not (isolated_state / "envs").exists() or not any((isolated_state / "envs").iterdir())
