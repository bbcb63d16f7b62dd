"""A log file's bytes as the text `diagnose` scans: UTF-8, or the encoding its byte-order mark names, or unpacked
from gzip/xz/bzip2 — and a sentence, not a clean bill of health, for bytes that are no text log at all.

Why: the same cuDNN-mismatch log that gave `cudnn_version_mismatch` as UTF-8 was "No known problem found", exit 0,
when saved as UTF-16 (what PowerShell's `>` and Notepad's "Unicode" write), gzip'd (`run.log.gz`, as clusters
rotate logs) or replaced by a binary file (nineteenth hostile pass P4): read as UTF-8 with replacement, none of its
lines matched anything. Every way `diagnose` reads a log (a file, standard input) comes through `open_log_text`.
"""

from __future__ import annotations

import bz2
import codecs
import io
import lzma
import zlib
from typing import BinaryIO, TextIO

from wizard.errors import UserError

#: Bytes looked at to tell the encoding or the packing: enough for a BOM, a magic number and a few lines.
PEEK_BYTES = 8192
#: Packed bytes read at a time: small, so one step's unpacked bytes stay a few megabytes even for a log that
#: packs a thousandfold (a progress bar's repeated line).
CHUNK_BYTES = 8192
#: Byte-order marks, longest first (UTF-32's starts with UTF-16's).
_BOMS = ((codecs.BOM_UTF32_LE, "utf-32"), (codecs.BOM_UTF32_BE, "utf-32"), (codecs.BOM_UTF8, "utf-8-sig"),
         (codecs.BOM_UTF16_LE, "utf-16"), (codecs.BOM_UTF16_BE, "utf-16"))
#: Packed logs Python unpacks itself, by their magic numbers, with a streaming decompressor each.
_PACKED = ((b"\x1f\x8b", "gzip", lambda: zlib.decompressobj(31)),
           (b"\xfd7zXZ\x00", "xz", lzma.LZMADecompressor),
           (b"BZh", "bzip2", bz2.BZ2Decompressor))
#: Packings it does not: named with the command that unpacks them.
_FOREIGN = ((b"\x28\xb5\x2f\xfd", "zstd", "zstd -d FILE"), (b"PK\x03\x04", "zip", "unzip FILE"),
            (b"7z\xbc\xaf\x27\x1c", "7z", "7z x FILE"))


def open_log_text(raw: BinaryIO, name: str) -> TextIO:
    """`raw` (a binary stream at its start) as text for the scanner; UserError for bytes that are no text log."""
    buffered = raw if isinstance(raw, io.BufferedReader) else io.BufferedReader(raw)  # type: ignore[arg-type]
    head = buffered.peek(PEEK_BYTES)[:PEEK_BYTES]
    for magic, what, opener in _PACKED:
        if head.startswith(magic):
            return open_log_text(_Unpacked(buffered, opener), f"{name} (unpacked from {what})")  # type: ignore[arg-type]
    for magic, what, command in _FOREIGN:
        if head.startswith(magic):
            raise UserError(f"{name} is packed with {what}, which gc-wizard does not unpack; unpack it first "
                            f"(`{command}`) and give the log inside.")
    encoding = next((codec for bom, codec in _BOMS if head.startswith(bom)), None) or _bomless_utf16(head)
    if encoding is None and _binary(head):
        raise UserError(f"{name} is not a text log (its first bytes are binary data, "
                        f"{head[:8].hex(' ')} …); give the log the run printed, as text.")
    return io.TextIOWrapper(buffered, encoding=encoding or "utf-8", errors="replace", newline=None)


class _Unpacked(io.RawIOBase):
    """A packed log's unpacked bytes, streamed (memory stays bounded), member after member (`cat a.gz b.gz`), and
    ending where its packing breaks: a log cut off mid-copy (`run.log.gz` still being written) is scanned as far as
    it goes, not refused for its last block."""

    def __init__(self, packed: BinaryIO, decompressor) -> None:
        super().__init__()
        self.packed, self.new, self.unpacker = packed, decompressor, decompressor()
        self.ready = b""
        self.done = False

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        while not self.ready and not self.done:
            self._unpack_more()
        size = min(len(buffer), len(self.ready))
        buffer[:size], self.ready = self.ready[:size], self.ready[size:]
        return size

    def _unpack_more(self) -> None:
        if self.unpacker.eof:  # the member ended: another may follow
            rest = self.unpacker.unused_data
            self.unpacker = self.new()
            if not rest:
                rest = self.packed.read(CHUNK_BYTES)
            if not rest:
                self.done = True
                return
        else:
            rest = self.packed.read(CHUNK_BYTES)
            if not rest:  # the input ended before its end marker: what was unpacked is all there is
                self.done = True
                return
        try:
            self.ready = self.unpacker.decompress(rest)
        except (OSError, ValueError, EOFError, lzma.LZMAError, zlib.error):  # damaged from here on
            self.done = True


def _bomless_utf16(head: bytes) -> str | None:
    """UTF-16 written without a byte-order mark (a NUL after, or before, nearly every ASCII character)."""
    pairs = len(head) // 2
    if pairs < 8:
        return None
    odd_nuls = sum(1 for i in range(1, 2 * pairs, 2) if head[i] == 0)
    even_nuls = sum(1 for i in range(0, 2 * pairs, 2) if head[i] == 0)
    if odd_nuls > 0.9 * pairs and even_nuls < 0.1 * pairs:
        return "utf-16-le"
    if even_nuls > 0.9 * pairs and odd_nuls < 0.1 * pairs:
        return "utf-16-be"
    return None


def _binary(head: bytes) -> bool:
    """Whether the first bytes hold NULs or are mostly neither text nor UTF-8 (a log with a stray NUL or two, or
    some Latin-1 bytes, is still a log)."""
    if not head:
        return False
    if head.count(0) > max(2, len(head) // 100):
        return True
    text = head.decode("utf-8", errors="replace")
    controls = sum(1 for ch in text if ch == "\ufffd" or (ord(ch) < 32 and ch not in "\t\n\r\f\v\x1b"))
    return controls > len(text) * 0.3
