"""A rollback rebuilds only from a lock the wizard wrote into the state's frozen/ (fifth hostile pass 10e: an
entry whose `requirements_file` named a file elsewhere made the rebuild install what that file said)."""

from __future__ import annotations

import pytest

from wizard.errors import UserError
from wizard.install.envs import frozen_dir, requirements_source


def test_a_lock_outside_frozen_is_refused_with_the_folder_it_must_be_in(tmp_path):
    elsewhere = tmp_path / "evil.txt"
    elsewhere.write_text("pkg-b==2.0\n")
    with pytest.raises(UserError, match="is not one gc-wizard wrote"):
        requirements_source(["pkg-a==1.0"], str(elsewhere), tmp_path)


def test_a_link_in_frozen_to_a_file_elsewhere_is_refused_too(tmp_path):
    elsewhere = tmp_path / "evil.txt"
    elsewhere.write_text("pkg-b==2.0\n")
    frozen_dir().mkdir(parents=True)
    (frozen_dir() / "e1.txt").symlink_to(elsewhere)
    with pytest.raises(UserError, match="is not one gc-wizard wrote"):
        requirements_source(["pkg-a==1.0"], str(frozen_dir() / "e1.txt"), tmp_path)


def test_the_wizards_own_lock_is_used(tmp_path):
    frozen_dir().mkdir(parents=True)
    lock = frozen_dir() / "e1.txt"
    lock.write_text("pkg-a==1.0 --hash=sha256:" + "0" * 64 + "\n")
    assert requirements_source(["pkg-a==1.0"], str(lock), tmp_path) == str(lock)
