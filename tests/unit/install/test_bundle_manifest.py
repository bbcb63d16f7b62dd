"""A bundle's manifest and a lock are read with a size cap, and a manifest names only files of its own folder
(fifth hostile pass: a manifest linked to /dev/zero grew the wizard to 24 GB; `../../../etc/hostname` was read)."""

from __future__ import annotations

import json

import pytest

from wizard.errors import UserError
from wizard.install.bundle import FORMAT, MANIFEST, read_manifest
from wizard.install.lockfile import lock_packages


def test_a_manifest_linked_to_an_endless_device_is_a_sentence(tmp_path):
    (tmp_path / MANIFEST).symlink_to("/dev/zero")
    with pytest.raises(UserError, match="a character device, not a regular file"):  # never opened, never read
        read_manifest(tmp_path)


@pytest.mark.parametrize("name", ["../../../etc/hostname", "/etc/hostname", "wheels/../../x.whl", "..", ""])
def test_a_manifest_naming_a_file_outside_its_folder_is_refused(tmp_path, name):
    (tmp_path / MANIFEST).write_text(json.dumps({"format": FORMAT, "files": [{"name": name, "sha256": "0" * 64}]}))
    with pytest.raises(UserError, match="not a file of the bundle's own folder"):
        read_manifest(tmp_path)


def test_a_lock_far_larger_than_any_lock_is_refused_before_it_is_read_whole(tmp_path):
    lock = tmp_path / "requirements.lock.txt"
    with lock.open("wb") as handle:
        handle.truncate(9 * 1024 * 1024)
    with pytest.raises(UserError, match="larger than"):
        lock_packages(lock)
