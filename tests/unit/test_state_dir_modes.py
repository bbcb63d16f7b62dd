"""A state folder that exists already loses write for group and others, with its envs/ and logs/ (fifth hostile
pass 7d/7h: a 0777 state folder was used as it was, and another user planted a link at the lock's name)."""

from __future__ import annotations

import os
import stat

from wizard.paths import ensure_state_dir


def test_an_existing_world_writable_state_folder_is_closed_to_other_writers(tmp_path):
    state = tmp_path / "state"
    for folder in (state, state / "envs", state / "logs", state / "envs" / "e1"):
        folder.mkdir()
        os.chmod(folder, 0o777)
    ensure_state_dir(state)
    for folder in (state, state / "envs", state / "logs"):
        assert stat.S_IMODE(folder.stat().st_mode) == 0o755, folder
    assert stat.S_IMODE((state / "envs" / "e1").stat().st_mode) == 0o777  # an env's own modes are its own


def test_a_new_state_folder_is_private():
    state = ensure_state_dir()
    assert stat.S_IMODE(state.stat().st_mode) == 0o700
