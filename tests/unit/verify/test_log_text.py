"""What a packed log may cost `diagnose` is bounded in bytes (`wizard.verify.log_text`), not only in memory (twenty-first
hostile pass P2): packings inside packings were unpacked to any depth, so 13 KB of three gzip layers was 4 GB of log,
about 25 minutes of reading with nothing said. Real gzip/bzip2/xz data made here; the assertions are on the bytes
read and the sentence, never on seconds."""

from __future__ import annotations

import bz2
import gzip
import io
import lzma

import pytest

from wizard.errors import UserError
from wizard.verify import log_text
from wizard.verify.log_text import UnpackLimit, open_log_text

CAUSE = b"E cuda_dnn.cc:439] Loaded runtime CuDNN library: 8.2.1 but source was compiled with: 8.9.4.\n"


class _Counted(io.RawIOBase):
    """A file's bytes, counting how many were read: what the bound is judged against."""

    def __init__(self, data: bytes) -> None:
        super().__init__()
        self.data, self.at = data, 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        size = min(len(buffer), len(self.data) - self.at)
        buffer[:size] = self.data[self.at:self.at + size]
        self.at += size
        return size


def _read_all(packed: bytes, limit: UnpackLimit | None = None) -> bytes:
    handle = open_log_text(_Counted(packed), "run.log.gz", limit)
    return "".join(iter(lambda: handle.read(1 << 16), "")).encode()


@pytest.mark.parametrize("layers", [
    [gzip.compress] * 3,
    [gzip.compress] * 10,
    [gzip.compress, bz2.compress, lzma.compress],
], ids=["gzip x3", "gzip x10", "gzip in bzip2 in xz"])
def test_a_log_packed_more_than_twice_is_refused_naming_the_packings(layers):
    data = b"starting\n" + CAUSE
    for pack in layers:
        data = pack(data)
    with pytest.raises(UserError) as refused:
        _read_all(data)
    said = str(refused.value)
    assert said.startswith("run.log.gz is packed more than 2 times over (") and "unpack it yourself" in said
    if layers[1] is bz2.compress:
        assert "(gzip inside bzip2 inside xz …)" in said, said  # the innermost packing first, as said aloud


@pytest.mark.parametrize("outer", [gzip.compress, bz2.compress, lzma.compress], ids=["gzip", "bzip2", "xz"])
def test_a_log_packed_twice_is_read_whole(outer):
    data = b"".join(b"step %d loss 0.%d\n" % (i, i % 10) for i in range(20_000)) + CAUSE
    limit = UnpackLimit()
    assert _read_all(outer(gzip.compress(data)), limit) == data
    assert limit.stopped is None and limit.packings[1] == "gzip"


def test_a_bomb_is_read_to_the_bound_and_the_sentence_says_what_was_read_and_why_it_stopped():
    """bzip2 holding gzip of 40 MB of one line repeated (a few KB packed): the first `FREE_BYTES` and no more."""
    inner = io.BytesIO()
    with gzip.GzipFile(fileobj=inner, mode="wb", compresslevel=9) as packer:
        for _ in range(40):
            packer.write((b"a" * 1023 + b"\n") * 1024)  # 1 MB
        packer.write(CAUSE)
    packed = bz2.compress(inner.getvalue(), 9)
    assert len(packed) * log_text.MAX_RATIO < log_text.FREE_BYTES  # the floor is the bound here
    limit = UnpackLimit()
    text = _read_all(packed, limit)
    assert len(text) == log_text.FREE_BYTES
    assert CAUSE not in text
    assert limit.stopped == (
        f"run.log.gz unpacks (gzip inside bzip2) to more than {log_text.MAX_RATIO} times its packed size, more than "
        f"a log packs to, so gc-wizard read only the first {log_text.FREE_BYTES >> 20} MB of it unpacked and not the "
        "rest; to read it all, unpack it yourself and pipe it in: `bzip2 -dc FILE | gzip -dc | gc-wizard diagnose -`")


def test_past_the_floor_the_bound_is_the_ratio_to_the_bytes_read(monkeypatch):
    """A log bigger than the floor is read whole while it packs no better than DEFLATE can (a real gzip'd log never
    trips the bound); xz of one repeated line packs a thousand times better and stops near `MAX_RATIO` times the
    packed bytes read."""
    monkeypatch.setattr(log_text, "FREE_BYTES", 1 << 20)
    varied = b"".join(b"%08d step loss %d\n" % (i, i * 7919 % 1000) for i in range(200_000))  # ~5 MB
    assert _read_all(gzip.compress(varied, 9)) == varied
    limit = UnpackLimit()
    packed = lzma.compress(b"x" * (8 << 20) + b"\n")
    text = _read_all(packed, limit)
    assert limit.stopped is not None and len(text) < 8 << 20
    assert len(text) <= log_text.MAX_RATIO * len(packed)


_LOG = b"".join(b"line %d ok\n" % i for i in range(2000)) + CAUSE


@pytest.mark.parametrize("pack, what", [(gzip.compress, "gzip"), (lzma.compress, "xz"), (bz2.compress, "bzip2")])
def test_a_packed_log_cut_short_is_read_as_far_as_it_goes_and_says_so(pack, what):
    """Twenty-second hostile pass P4: a `.gz` cut by an upload limit gave "No known problem found", exit 0."""
    packed = pack(_LOG)
    limit = UnpackLimit()
    text = _read_all(packed[: len(packed) // 2], limit)
    assert _LOG.startswith(text) and len(text) < len(_LOG)
    assert limit.partial == limit.cut and f"is cut short: its {what} packing ends" in limit.cut
    assert f"after {len(packed) // 2:,} packed bytes" in limit.cut and "give the whole file" in limit.cut


def test_a_damaged_packing_is_named_damaged_and_a_whole_one_is_not_partial():
    packed = bytearray(gzip.compress(_LOG))
    packed[-6] ^= 0xFF  # the CRC at the end: every byte unpacks, the check fails
    limit = UnpackLimit()
    _read_all(bytes(packed), limit)
    assert limit.cut and "is damaged: its gzip packing breaks" in limit.cut
    whole = UnpackLimit()
    assert _read_all(gzip.compress(_LOG), whole) == _LOG and whole.partial is None


def test_a_bare_magic_number_reads_none_of_the_log():
    limit = UnpackLimit()
    assert _read_all(b"\x1f\x8b", limit) == b""
    assert "could read none of the log" in limit.cut


@pytest.mark.parametrize("at", [-8, -6, -3, -1])
def test_a_gzip_log_damaged_only_in_its_trailer_is_read_whole_and_said_damaged(at):
    """Twenty-third hostile pass P5: a CRC or length check failing at the end raised away all the step had unpacked,
    and a log `gzip -dc` prints whole was "could read none of the log", its finding missed."""
    packed = bytearray(gzip.compress(_LOG))
    packed[at] ^= 0xFF
    limit = UnpackLimit()
    assert _read_all(bytes(packed), limit) == _LOG
    assert limit.cut and "is damaged: its gzip packing breaks" in limit.cut and "read only the" in limit.cut


def test_a_gzip_log_damaged_in_its_middle_keeps_what_came_before():
    packed = bytearray(gzip.compress(_LOG, compresslevel=1))
    packed[len(packed) // 2] ^= 0xFF
    limit = UnpackLimit()
    text = _read_all(bytes(packed), limit)
    assert limit.cut and ("is damaged" in limit.cut or "is cut short" in limit.cut)
    assert _LOG.startswith(text[:1000])
