"""Every forecast-file download is held to a size and to the disk it lands on (38th hostile pass (part A) P1).

A mirror answering with an endless body (HTTP/1.0, no Content-Length) was written until the state's disk was full,
and the `.part` was kept there "to resume" into the same full disk; a stop (SIGTERM) said "nothing was left half-done"
beside a 4.8 GB `.part`; inside `bundle` the words said "run the forecast again". Here a real HTTP server on loopback
serves such answers; the free-space reader is patched only at its boundary (`_free_bytes`), and a real full disk is a
small tmpfs where this test may mount one (root, as in CI).
"""

from __future__ import annotations

import http.server
import os
import subprocess
import threading

import pytest

from tests.fixtures.assets_server import mirror_of_first_files
from wizard.after import assets, bundle_assets
from wizard.after.assets import Asset, AssetError
from wizard.errors import left_words

MODEL = f"params/{assets.DEFAULT_MODEL}"


class _Endless(http.server.BaseHTTPRequestHandler):
    """An answer of `server.mib` MiB after the model's first bytes, with `server.stated` as its Content-Length (None:
    no length, as an endless stream has none)."""

    protocol_version = "HTTP/1.0"
    server: _EndlessServer

    def log_message(self, *args) -> None:
        pass

    def do_GET(self) -> None:
        self.send_response(200)
        if self.server.stated is not None:
            self.send_header("Content-Length", str(self.server.stated))
        self.end_headers()
        try:
            self.wfile.write(b"PK\x03\x04")
            for _ in range(self.server.mib):
                self.wfile.write(b"\0" * (1 << 20))
        except OSError:  # the client stopped reading
            pass


class _EndlessServer(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), _Endless)
        self.mib = 8
        self.stated: int | None = None

    @property
    def source(self) -> assets.Source:
        return assets.Source(f"http://127.0.0.1:{self.server_address[1]}/")


@pytest.fixture
def endless():
    server = _EndlessServer()
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield server
    server.shutdown()
    server.server_close()


def _parts(state) -> list:
    return list((state / "assets").rglob("*.part"))


def test_an_endless_answer_of_no_stated_size_stops_at_its_kinds_ceiling_and_leaves_no_part(endless, isolated_state,
                                                                                          monkeypatch):
    monkeypatch.setitem(assets.CEILINGS, "params", 2 << 20)  # the one table of ceilings, made small for the test
    source = endless.source
    with pytest.raises(AssetError) as caught:
        assets.fetch(source, Asset(MODEL))
    said = str(caught.value)
    assert assets.shown_url(source.url(MODEL)) in said and f"{2 << 20:,}" in said, said
    assert "params file of no stated size" in said and "removed" in said, said
    assert _parts(isolated_state) == []


def test_more_than_the_listing_states_is_stopped_there(endless, isolated_state):
    with pytest.raises(AssetError, match=r"more than the 1,000 of the size the source's listing states"):
        assets.fetch(endless.source, Asset(MODEL, size=1000))
    assert _parts(isolated_state) == []


def test_a_server_stating_more_than_the_listing_is_refused_before_a_byte_is_written(endless, isolated_state):
    endless.stated = 5000
    with pytest.raises(AssetError, match=r"the server states 5,000 bytes, more than the 1,000 of the size the "
                                         r"source's listing states"):
        assets.fetch(endless.source, Asset(MODEL, size=1000))
    assert _parts(isolated_state) == []


def test_a_body_longer_than_its_content_length_is_held_to_it(endless, isolated_state):
    endless.stated = 1000
    fetched = assets.fetch(endless.source, Asset(MODEL))
    assert fetched.path.stat().st_size == 1000


def test_a_stated_size_the_disk_cannot_hold_is_refused_first_naming_the_assets_folder(endless, isolated_state,
                                                                                    monkeypatch):
    endless.stated = 50_000_000
    monkeypatch.setattr(assets, "_free_bytes", lambda folder: 3_000_000)
    with pytest.raises(AssetError) as caught:
        assets.fetch(endless.source, Asset(MODEL))
    said = str(caught.value)
    assert "needs 50.0 MB more" in said and f"the assets folder {isolated_state / 'assets'} " in said, said
    assert "3.0 MB free" in said and "again to resume" not in said, said
    assert _parts(isolated_state) == []


@pytest.fixture
def small_disk(tmp_path, monkeypatch, isolated_state):
    """GC_WIZARD_HOME on a 4 MiB tmpfs (skipped where this test may not mount one)."""
    disk = tmp_path / "disk"
    disk.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", str(disk)], capture_output=True,
                             check=False)
    if mounted.returncode != 0:
        pytest.skip("mounting a tmpfs needs root")
    monkeypatch.setenv("GC_WIZARD_HOME", str(disk / "h"))
    yield disk
    subprocess.run(["umount", str(disk)], check=False)


def test_a_full_disk_removes_the_part_and_names_the_assets_folders_disk(endless, small_disk):
    with pytest.raises(AssetError) as caught:
        assets.fetch(endless.source, Asset(MODEL))
    said = str(caught.value)
    assert f"the assets folder {small_disk / 'h' / 'assets'} " in said and "is full" in said, said
    assert "removed" in said and "again to resume" not in said, said
    assert _parts(small_disk / "h") == []
    info = os.statvfs(small_disk)
    assert info.f_bavail * info.f_frsize > 3 << 20  # the disk is not left full


def test_a_stop_mid_download_says_the_part_it_keeps_to_resume(endless, isolated_state):
    cancel = threading.Event()

    def progress(name: str, done: int, total: int | None) -> None:
        if done > 1 << 20:
            cancel.set()

    with pytest.raises(KeyboardInterrupt) as caught:
        assets.fetch(endless.source, Asset(MODEL), progress=progress, cancel=cancel)
    [part] = _parts(isolated_state)
    assert left_words(caught.value) == f"kept to resume: {part}, {part.stat().st_size / 1e6:,.1f} MB"
    assert part.stat().st_size > 1 << 20


def test_a_broken_download_inside_bundle_says_run_the_bundle_again(tmp_path, assets_server, isolated_state):
    mirror = mirror_of_first_files(tmp_path / "mirror")
    server = assets_server(mirror)
    server.drop_after = 1000
    with pytest.raises(AssetError) as caught:
        bundle_assets.add_assets(tmp_path / "bundle", source=server.url, model=None, dataset=None)
    said = str(caught.value)
    assert "Run the same `bundle` command again to resume it." in said and "forecast again" not in said, said
    assert "kept to resume: " in said, said
