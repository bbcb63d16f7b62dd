"""The state and target locks never write through a link planted at their name (fourth hostile pass, 10g/7h):
the holder line would overwrite the file the link points at, with the wizard's rights."""

from __future__ import annotations

import os

import pytest

from wizard.errors import UserError
from wizard.lock import StateLock, TargetLock


@pytest.mark.parametrize("dangling", [False, True])
def test_a_state_lock_that_is_a_link_is_refused_and_its_target_untouched(tmp_path, dangling):
    victim = tmp_path / "victim.txt"
    if not dangling:
        victim.write_text("precious\n")
    state = tmp_path / "state"
    state.mkdir()
    (state / "wizard.lock").symlink_to(victim)
    with pytest.raises(UserError, match="is a symbolic link"):
        with StateLock("rollback", state / "wizard.lock"):
            pass
    assert (victim.read_text() == "precious\n") if not dangling else not victim.exists()


def test_a_target_lock_that_is_a_link_is_refused(tmp_path):
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    (tmp_path / ".env.gc-wizard.lock").symlink_to(victim)
    with pytest.raises(UserError, match="is a symbolic link"):
        with TargetLock(tmp_path / "env", "install"):
            pass
    assert victim.read_text() == "precious\n"


def test_a_fifo_at_the_locks_name_is_refused_without_hanging(tmp_path):
    os.mkfifo(tmp_path / "wizard.lock")
    with pytest.raises(UserError, match="not a regular file"):
        with StateLock("install", tmp_path / "wizard.lock"):
            pass


@pytest.mark.parametrize("written", [b"[1, 2]", b'"me"', b"\xff\xfe", b"{}"])
def test_a_held_lock_whose_holder_line_is_not_ours_says_holder_unknown(tmp_path, written):
    """The second wizard reads who holds the lock from the file: whatever it finds there, it says so in a
    sentence (a list or a string in place of the holder's object was an AttributeError)."""
    from wizard.lock import LockHeld

    path = tmp_path / "wizard.lock"
    with StateLock("install", path):
        os.truncate(path, 0)
        with open(path, "r+b") as handle:
            handle.write(written)
        with pytest.raises(LockHeld, match=r"Another gc-wizard is already working in .*\((holder unknown|pid None)"):
            with StateLock("rollback", path):
                pass


def test_a_held_lock_in_a_folder_with_braces_names_it_whole(tmp_path):
    from wizard.lock import LockHeld

    state = tmp_path / "{lab} state"
    state.mkdir()
    with StateLock("install", state / "wizard.lock"):
        with pytest.raises(LockHeld, match=r"working in .*/\{lab\} state \(pid \d+ on "):
            with StateLock("rollback", state / "wizard.lock"):
                pass
    with TargetLock(state / "env", "install"):
        with pytest.raises(LockHeld, match=r"installing into .*/\{lab\} state/env \(pid \d+ on "):
            with TargetLock(state / "env", "install"):
                pass
