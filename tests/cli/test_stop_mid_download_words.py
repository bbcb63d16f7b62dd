"""A stop signal in the middle of a forecast-file download says the `.part` it keeps to resume (38th hostile pass
(part A) P1): `bundle --with-assets` stopped by SIGTERM said "nothing was left half-done" beside a 4.8 GB `.part` in
the state's assets folder. The real CLI in this process, a loopback mirror; the signal arrives where its handler
raises (`guard.Stopped`), between two blocks of the body."""

from __future__ import annotations

import signal

from tests.fixtures.assets_server import mirror_of_first_files
from wizard.after import assets
from wizard.commands import guard


def test_a_stop_mid_download_names_the_part_kept_never_nothing_left_half_done(tiny, tmp_path, monkeypatch,
                                                                               isolated_state, assets_server):
    mirror = mirror_of_first_files(tmp_path / "mirror")
    server = assets_server(mirror)
    real_chunks = assets.chunks

    def stopped_after_one_block(*args, **kwargs):
        for block in real_chunks(*args, **kwargs):
            yield block
            raise guard.Stopped(signal.SIGTERM)  # what the guard's handler raises when SIGTERM arrives

    monkeypatch.setattr(assets, "chunks", stopped_after_one_block)
    proc = tiny.bundle(tmp_path / "b", monkeypatch, "--with-assets", "--assets", server.url)
    assert proc.returncode == 128 + signal.SIGTERM, proc.stderr
    [part] = list((isolated_state / "assets").rglob("*.part"))
    said = " ".join(proc.stderr.split())
    assert "nothing was left half-done" not in said, said
    assert "stopped by SIGTERM" in said and f"kept to resume: {part}, 5,004 bytes." in said, said
