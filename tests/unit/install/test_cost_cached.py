"""The plan's download line counts what uv's cache holds already (walk 17: "237 MB (84 from PyPI)" was shown
with every wheel cached), read from a cache a real uv filled; the plan names that cache folder."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from wizard.flows.describe_plan import _cache_line
from wizard.install.cost import DownloadSize, in_uv_cache
from wizard.install.linkmode import download_cache
from wizard.uv_tool import uv_bin


def _fill_cache(tmp_path):
    """A real `uv pip install six==1.16.0` from PyPI into a throwaway venv, with a cache of its own."""
    cache = tmp_path / "uv-cache"
    env = {**os.environ, "UV_CACHE_DIR": str(cache), "UV_NO_CONFIG": "1"}  # the machine's proxy and CA settings kept
    for name in ("UV_INDEX_URL", "UV_DEFAULT_INDEX", "UV_FIND_LINKS", "UV_OFFLINE", "UV_NO_CACHE"):
        env.pop(name, None)
    uv = uv_bin()
    subprocess.run([uv, "venv", "--python", sys.executable, str(tmp_path / "venv")], env=env, check=True,
                   capture_output=True)
    proc = subprocess.run([uv, "pip", "install", "--python", str(tmp_path / "venv" / "bin" / "python"),
                           "six==1.16.0"], env=env, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return cache, env


@pytest.mark.network
def test_a_wheel_uv_downloaded_from_pypi_reads_as_cached_and_others_do_not(tmp_path):
    cache, env = _fill_cache(tmp_path)
    assert in_uv_cache(cache, "six", "1.16.0")
    assert not in_uv_cache(cache, "six", "1.15.0")  # another version: downloaded
    assert not in_uv_cache(cache, "pkg-b", "2.0")  # never installed
    assert not in_uv_cache(tmp_path / "no-such-cache", "six", "1.16.0")
    assert download_cache(uv_bin(), env) == cache
    assert download_cache(uv_bin(), {**env, "UV_NO_CACHE": "1"}) is None


def test_the_download_line_says_what_the_cache_spares():
    fresh = DownloadSize(bytes=237_000_000, known=84, from_index=84)
    assert fresh.describe() == "about 237 MB (84 packages from PyPI)"
    warm = DownloadSize(bytes=237_000_000, known=84, from_index=84, cached=84, cached_bytes=237_000_000)
    assert warm.describe() == "about 237 MB (84 packages from PyPI; all in uv's cache already)"
    part = DownloadSize(bytes=237_000_000, known=84, from_index=84, cached=80, cached_bytes=200_000_000)
    assert part.describe() == "about 237 MB (84 packages from PyPI; 80 of them in uv's cache already: about 37 MB to fetch)"


class _Review:
    def __init__(self, cache, free=None, no_cache=None):
        self.plan = type("P", (), {"download_cache": cache, "installer": "uv", "no_cache": no_cache})()
        self.cache_free_gib = free


def test_the_plan_names_the_cache_folder_and_its_free_space_when_it_is_another_disk():
    assert _cache_line(_Review("/home/u/.cache/uv")) == [
        "Download cache: /home/u/.cache/uv (uv's; UV_CACHE_DIR=DIR moves it)"]
    assert _cache_line(_Review("/home/u/.cache/uv", 3.2)) == [
        "Download cache: /home/u/.cache/uv (uv's; UV_CACHE_DIR=DIR moves it); 3 GiB free there"]
    assert _cache_line(_Review(None)) == []  # no cache, and no sentence for it
    # UV_NO_CACHE, PIP_NO_CACHE_DIR: the sentence, its `unset` kept on one row (tests/cli/test_no_download_cache.py)
    assert _cache_line(_Review(None, no_cache="UV_NO_CACHE=1 turns it off; `unset UV_NO_CACHE` keeps them."), 40) == [
        "Download cache: none. UV_NO_CACHE=1", "  turns it off; `unset UV_NO_CACHE`", "  keeps them."]
