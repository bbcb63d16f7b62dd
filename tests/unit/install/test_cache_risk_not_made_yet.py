"""A download cache not made yet is judged by the nearest folder that exists, as a folder above it: a sticky one
(/tmp, /dev/shm) excuses it, as on every way the swap rule walks; one every user can write without it does not.

Why: the first merge of the 25th hostile pass (part B) P1 judged that nearest folder as the cache itself, so
`UV_CACHE_DIR=/dev/shm/new-cache` (a lab's fast cache on another file system) was turned away for /dev/shm's mode."""

from __future__ import annotations

import os

from wizard.install.cache_trust import cache_risk


def test_a_cache_not_made_yet_in_a_sticky_folder_passes(tmp_path):
    sticky = tmp_path / "shared-tmp"
    sticky.mkdir()
    os.chmod(sticky, 0o1777)
    assert cache_risk(sticky / "uv-cache") is None
    assert cache_risk(sticky / "deeper" / "uv-cache") is None


def test_a_cache_not_made_yet_in_a_folder_every_user_can_write_is_refused(tmp_path):
    open_folder = tmp_path / "open"
    open_folder.mkdir()
    os.chmod(open_folder, 0o777)
    why = cache_risk(open_folder / "uv-cache")
    assert why is not None and str(open_folder) in why and "every user can write" in why


def test_a_made_cache_every_user_can_write_is_refused_even_with_the_sticky_bit(tmp_path):
    cache = tmp_path / "uv-cache"
    cache.mkdir()
    os.chmod(cache, 0o1777)
    assert cache_risk(cache) is not None
