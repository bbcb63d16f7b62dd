"""32nd hostile pass (part A) P5: /proc and /sys (file systems the kernel makes up, mounted read-write) read as disks
with 0 bytes free, so `--env /proc/x`, `TMPDIR=/proc` and `UV_CACHE_DIR=/proc/uvc` were refused as "the disk is full",
with "free some space" as the fix. Every write check now names such a place by one wording (`paths.pseudo_words`):
the env and state check (`write_block_words`), the installer caches' and TMPDIR's (`cache_trust.unusable_folder`),
and the full-disk finder never calls one the full disk."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from wizard import full_disk, paths
from wizard.install import cache_trust, private_args

pytestmark = pytest.mark.skipif(not os.path.isdir("/proc/self") or os.statvfs("/proc").f_blocks != 0,
                                reason="needs Linux's /proc")


@pytest.mark.parametrize("place", ["/proc", "/proc/gcw-x/y"])
def test_a_folder_on_proc_is_named_as_no_place_for_files(place):
    said = paths.pseudo_words(place)
    assert said is not None and "/proc" in said and "proc file system" in said and "can be made" in said
    assert paths.write_block_words(Path(place)) == said
    why = cache_trust.unusable_folder(Path(place))
    assert why == said and "full" not in why


def test_a_disk_is_not_a_pseudo_file_system(tmp_path):
    assert paths.pseudo_words(tmp_path) is None and paths.write_block_words(tmp_path) is None


def test_tmpdir_on_proc_is_not_called_full(monkeypatch):
    monkeypatch.setenv("TMPDIR", "/proc")
    said = private_args.temporary_room_problem("/proc")
    assert said is not None and "TMPDIR" in said and "proc file system" in said and "full" not in said


def test_proc_is_never_the_full_disk():
    assert not full_disk._is_full(Path("/proc"))
