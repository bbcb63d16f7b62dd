"""A log file's bytes as the text `diagnose` scans: UTF-8, or the encoding its byte-order mark names, or unpacked
from gzip/xz/bzip2 — and a sentence, not a clean bill of health, for bytes that are no text log at all.

Why: the same cuDNN-mismatch log that gave `cudnn_version_mismatch` as UTF-8 was "No known problem found", exit 0,
when saved as UTF-16 (what PowerShell's `>` and Notepad's "Unicode" write), gzip'd (`run.log.gz`, as clusters
rotate logs) or replaced by a binary file (nineteenth hostile pass P4): read as UTF-8 with replacement, none of its
lines matched anything. Every way `diagnose` reads a log (a file, standard input) comes through `open_log_text`.

A log may change its encoding partway (plain lines, then a Windows tool's UTF-16): it is read stretch by stretch
(`_Stretches`). A tar, packed or not, is read member by member (`TarMembers`): its text members are scanned, its
binary ones skipped and named, within the same byte bounds (24th hostile pass (part A) P8: both were "binary data").

What a packed log may cost is bounded in bytes, not only in memory (`UnpackLimit`): a packing inside a packing was
unpacked again to any depth, each layer multiplying the ratio, so a 13 KB file of three gzip layers was 4 GB of log,
about 25 minutes of reading with nothing said (twenty-first hostile pass P2). A log is packed once, perhaps twice
(a rotated `.gz` bzip2'd again): a third layer is refused, and the unpacked text may be at most what DEFLATE could
make of the bytes read (`MAX_RATIO` times them) or `FREE_BYTES`, whichever is more; past that the reading stops,
and the sentence saying so (`UnpackLimit.stopped`) is the command's to say.
"""

from __future__ import annotations

import bz2
import codecs
import io
import lzma
import re
import zlib
from typing import BinaryIO, TextIO

from wizard.errors import UserError
from wizard.security import one_line

#: Bytes looked at to tell the encoding or the packing: enough for a BOM, a magic number and a few lines.
PEEK_BYTES = 8192
#: Packed bytes read at a time, and unpacked bytes made at a time at most: a packing's ratio is no bound (8 KB of
#: bzip2 or xz unpack to gigabytes: a 14 KB `.bz2` took 2.6 GB of memory, twentieth hostile pass P2), so each step
#: asks its decompressor for at most `UNPACK_BYTES` (`max_length`) and keeps the rest of the input for the next.
CHUNK_BYTES = 8192
UNPACK_BYTES = 1 << 20
#: The memory xz's decoder may take: its dictionary is the packer's choice, up to gigabytes, and allocated whole
#: before the first byte comes out. `xz -9` needs 65 MB; a file that asks for more gets a sentence.
XZ_MEMORY_BYTES = 256 << 20
#: Packings inside one another that are unpacked: a log packed twice (`.bz2` of a rotated `.gz`) is read, one packed
#: three times is no log anyone saved.
MAX_LAYERS = 2
#: Unpacked bytes always read, whatever the packing's ratio: more than a small packed log holds (a 10 KB `.gz` is at
#: most 10 MB of log), and few enough that a bomb costs seconds, not minutes: the scanner reads lines of one repeated
#: character at about 1 MB/s, and 64 MB of the tester's took 65 s.
FREE_BYTES = 16 << 20
#: Past `FREE_BYTES`, the unpacked text may be at most this many times the packed bytes read: DEFLATE's own limit
#: (gzip makes at most 1032 bytes of one), so no gzip'd log ever reaches it, and a bzip2 or xz log only when it is
#: one line repeated for gigabytes — or a bomb (1.5 KB of bzip2 holding 200 MB).
MAX_RATIO = 1032
#: Byte-order marks, longest first (UTF-32's starts with UTF-16's).
_BOMS = ((codecs.BOM_UTF32_LE, "utf-32"), (codecs.BOM_UTF32_BE, "utf-32"), (codecs.BOM_UTF8, "utf-8-sig"),
         (codecs.BOM_UTF16_LE, "utf-16"), (codecs.BOM_UTF16_BE, "utf-16"))
#: Packed logs Python unpacks itself, by their magic numbers, with a streaming decompressor each.
_PACKED = ((b"\x1f\x8b", "gzip", lambda: _Zlib()),
           (b"\xfd7zXZ\x00", "xz", lambda: lzma.LZMADecompressor(memlimit=XZ_MEMORY_BYTES)),
           (b"BZh", "bzip2", bz2.BZ2Decompressor))
#: Packings it does not: named with the command that unpacks them.
_FOREIGN = ((b"\x28\xb5\x2f\xfd", "zstd", "zstd -d FILE"), (b"PK\x03\x04", "zip", "unzip FILE"),
            (b"7z\xbc\xaf\x27\x1c", "7z", "7z x FILE"))


class UnpackLimit:
    """How much of a packed log is unpacked, shared by its layers: the packed bytes read from the file (or stream),
    the packings met, and `stopped` — the sentence for a log whose reading stopped at the bound, else None."""

    def __init__(self) -> None:
        self.name = ""
        self.packings: list[str] = []
        self.packed_bytes = 0
        self.stopped: str | None = None
        self.cut: str | None = None
        """The sentence for a packed log whose packing ends early or breaks (a copy cut by an upload or mail limit, a
        flipped byte): what came before is read, but no clean bill may be given for the rest (22nd pass P4)."""
        self.skipped: str | None = None
        """The sentence for a tar whose binary members were skipped, naming them and the text members read (24th
        hostile pass (part A) P8)."""

    def allowed(self) -> int:
        """The unpacked bytes a layer may make, given the packed bytes read so far."""
        return max(FREE_BYTES, MAX_RATIO * self.packed_bytes)

    def stop(self, made: int) -> None:
        """Record that a layer reached the bound after making `made` bytes."""
        packing = " inside ".join(reversed(self.packings))
        self.stopped = (f"{self.name} unpacks ({packing}) to more than {MAX_RATIO} times its packed size, more than "
                        f"a log packs to, so gc-wizard read only the first {round(made / (1 << 20)):,} MB of it unpacked and not the "
                        f"rest; to read it all, unpack it yourself and pipe it in: `{self.unpack_command()}`")

    def broke(self, what: str, made: int, *, damaged: bool) -> None:
        """Record that the `what` packing ended early, or broke (`damaged`: a checksum or a block that does not
        unpack), after `made` unpacked bytes; the first break is the one said."""
        if self.cut is None:
            how = f"is damaged: its {what} packing breaks" if damaged else f"is cut short: its {what} packing ends"
            read = f"read only the {made:,} bytes of log before that" if made else "could read none of the log"
            rest = (f"what follows the damage cannot be read, so give an undamaged copy (`{what} -t FILE` checks one)"
                    if damaged else "the rest of the log is not in this copy (an upload or mail size limit cuts files "
                    "like this), so give the whole file")
            self.cut = (f"{self.name} {how} after {self.packed_bytes:,} packed bytes, so gc-wizard "
                        f"{read}; {rest}")

    @property
    def partial(self) -> str | None:
        """Why only part of the log was read (the bound, a packing cut short, a tar's binary members skipped), or None:
        it was read whole."""
        return "; and ".join(part for part in (self.stopped or self.cut, self.skipped) if part) or None

    def unpack_command(self) -> str:
        """The shell line that unpacks every layer met and pipes the log to `diagnose`."""
        tools = [{"gzip": "gzip -dc", "xz": "xz -dc", "bzip2": "bzip2 -dc"}[what] for what in self.packings]
        return " | ".join([f"{tools[0]} FILE", *tools[1:], "gc-wizard diagnose -"])


def open_log_text(raw: BinaryIO, name: str, limit: UnpackLimit | None = None) -> TextIO:
    """`raw` (a binary stream at its start) as text for the scanner; UserError for bytes that are no text log.
    With `limit`, the caller learns afterwards whether the reading stopped at the unpacking bound (`stopped`)."""
    limit = limit if limit is not None else UnpackLimit()
    limit.name = limit.name or name
    buffered = raw if isinstance(raw, io.BufferedReader) else io.BufferedReader(raw)  # type: ignore[arg-type]
    head = buffered.peek(PEEK_BYTES)[:PEEK_BYTES]
    for magic, what, opener in _PACKED:
        if head.startswith(magic):
            if len(limit.packings) >= MAX_LAYERS:
                packing = " inside ".join(reversed([*limit.packings, what]))
                raise UserError(f"{limit.name} is packed more than {MAX_LAYERS} times over ({packing} …), which "
                                "no saved log is, so gc-wizard does not unpack it; unpack it yourself and give the log "
                                "inside, as text.")
            limit.packings.append(what)
            unpacked = _Unpacked(buffered, opener, name, limit, outermost=len(limit.packings) == 1)
            return open_log_text(unpacked, f"{name} (unpacked from {what})", limit)  # type: ignore[arg-type]
    for magic, what, command in _FOREIGN:
        if head.startswith(magic):
            raise UserError(f"{name} is packed with {what}, which gc-wizard does not unpack; unpack it first "
                            f"(`{command}`) and give the log inside.")
    if head[257:262] == b"ustar":  # a tar (unpacked or not): its text members, member by member
        members = io.BufferedReader(TarMembers(buffered, name, limit), UNPACK_BYTES)  # type: ignore[arg-type]
        return _text(io.BufferedReader(_Stretches(members), UNPACK_BYTES))  # type: ignore[arg-type]
    encoding = next((codec for bom, codec in _BOMS if head.startswith(bom)), None) or _bomless_utf16(head)
    if encoding is None and _binary(_UTF16_RUN.sub(b"", head)):  # a stretch of UTF-16 in text is text (24th pass P8)
        raise UserError(f"{name} is not a text log (its first bytes are binary data, "
                        f"{head[:8].hex(' ')} …); give the log the run printed, as text.")
    if encoding == "utf-16":  # its byte-order mark says which end first, and is dropped
        encoding = "utf-16-le" if buffered.read(2) == codecs.BOM_UTF16_LE else "utf-16-be"
    if encoding in (None, "utf-16-le", "utf-16-be"):  # read stretch by stretch: the encoding may change partway
        return _text(io.BufferedReader(_Stretches(buffered, encoding or "utf-8"), UNPACK_BYTES))  # type: ignore[arg-type]
    return io.TextIOWrapper(buffered, encoding=encoding, errors="replace", newline=None)


def _text(utf8: BinaryIO) -> TextIO:
    return io.TextIOWrapper(utf8, encoding="utf-8", errors="replace", newline=None)


class _Produced(io.RawIOBase):
    """A raw stream whose bytes a subclass makes piece by piece (`_more` fills `ready`) until `_finished`: the
    read loop of the unpacker, the encoding stretches and the tar members, written once. `at` is how much of `ready`
    was handed on (an offset: slicing the rest off copied it on every read)."""

    ready = b""
    at = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        while self.at >= len(self.ready) and not self._finished():
            self._more()
        size = min(len(buffer), len(self.ready) - self.at)
        buffer[:size] = self.ready[self.at:self.at + size]
        self.at += size
        return size

    def _more(self) -> None:
        raise NotImplementedError

    def _finished(self) -> bool:
        raise NotImplementedError


class _Unpacked(_Produced):
    """A packed log's unpacked bytes, streamed (memory stays bounded by bytes, whatever the packing's ratio or the
    length of a line), member after member (`cat a.gz b.gz`), and ending where its packing breaks: a log cut off
    mid-copy (`run.log.gz` still being written) is scanned as far as it goes, not refused for its last block — and
    `UnpackLimit.cut` says so, as a clean verdict on the part read would send the user away from the cause."""

    def __init__(self, packed: BinaryIO, decompressor, name: str, limit: UnpackLimit, *, outermost: bool) -> None:
        super().__init__()
        self.what = limit.packings[-1]  # this layer's packing, named if it ends early
        self.packed, self.new, self.unpacker, self.name = packed, decompressor, decompressor(), name
        self.limit, self.outermost = limit, outermost
        self.ready = b""
        self.at = 0  # how much of `ready` was handed on (an offset: slicing the rest off copied it on every read)
        self.made = 0  # unpacked bytes made so far
        self.done = False

    def _finished(self) -> bool:
        return self.done

    def _more(self) -> None:
        if self.unpacker.eof:  # the member ended: another may follow
            rest = self.unpacker.unused_data
            self.unpacker = self.new()
            if not rest:
                rest = self._read_packed()
            if not rest:
                self.done = True
                return
        elif self.unpacker.needs_input:
            rest = self._read_packed()
            if not rest:  # the input ended before its end marker: what was unpacked is all there is
                self.limit.broke(self.what, self.made, damaged=False)
                self.done = True
                return
        else:  # the last step stopped at `UNPACK_BYTES`: the decompressor holds more
            rest = b""
        try:
            self.ready, self.at = self.unpacker.decompress(rest, max_length=UNPACK_BYTES), 0
            self.made += len(self.ready)
            over = self.made - self.limit.allowed()
            if over > 0:  # the bound: what is within it is handed on, nothing more is unpacked
                self.ready, self.made = self.ready[:len(self.ready) - over], self.made - over
                self.limit.stop(self.made)
                self.done = True
        except lzma.LZMAError as exc:
            if "memory" in str(exc).lower():  # not damage: read on as "damaged", the log would pass as clean
                raise UserError(f"{self.name} is packed with an xz dictionary that needs more than "
                                f"{XZ_MEMORY_BYTES >> 20} MB of memory to unpack, which gc-wizard does not take; unpack "
                                "it first (`xz -d FILE`) and give the log inside.") from None
            self.limit.broke(self.what, self.made, damaged=True)
            self.done = True  # damaged from here on
        except _Damaged as damage:  # what came before the damage is read, and the break is said
            self.ready, self.at = damage.salvaged[:max(0, self.limit.allowed() - self.made)], 0
            self.made += len(self.ready)
            self.limit.broke(self.what, self.made, damaged=True)
            self.done = True
        except (OSError, ValueError, EOFError, zlib.error):  # damaged from here on
            self.limit.broke(self.what, self.made, damaged=True)
            self.done = True


    def _read_packed(self) -> bytes:
        """The next packed bytes; the outermost layer's are the file's own, which the bound is counted against."""
        data = self.packed.read(CHUNK_BYTES)
        if self.outermost:
            self.limit.packed_bytes += len(data)
        return data


class _Zlib:
    """gzip's decompressor with the `needs_input` bz2's and lzma's have: zlib leaves the input it did not get to in
    `unconsumed_tail` (given back with the next input), and one step that stopped at `max_length` may still hold
    output, so another step is asked for before more input is read."""

    def __init__(self) -> None:
        self.inner = zlib.decompressobj(31)
        self.needs_input = True

    @property
    def eof(self) -> bool:
        return self.inner.eof

    @property
    def unused_data(self) -> bytes:
        return self.inner.unused_data

    def decompress(self, data: bytes, max_length: int) -> bytes:
        before = self.inner.copy()
        data = self.inner.unconsumed_tail + data
        try:
            out = self.inner.decompress(data, max_length)
        except zlib.error:
            # A check that fails at the member's end (its CRC or length, the last 8 bytes) raised away everything this
            # step had unpacked: a log whole but for its trailer read as none at all (23rd hostile pass P5). The step
            # is done again in small pieces from where it began, so what came before the damage is kept.
            raise _Damaged(self._salvage(before, data)) from None
        self.needs_input = not self.inner.unconsumed_tail and len(out) < max_length
        return out

    @staticmethod
    def _salvage(inner, data: bytes) -> bytes:
        """What `data` unpacks to before the damage: in pieces, then the piece that breaks byte by byte (the check
        fails on the trailer's bytes, after the last of the log came out)."""
        out = bytearray()
        for start in range(0, len(data), _SALVAGE_PIECE):
            before = inner.copy()
            try:
                out += inner.decompress(data[start:start + _SALVAGE_PIECE])
            except zlib.error:
                for byte in range(start, min(start + _SALVAGE_PIECE, len(data))):
                    try:
                        out += before.decompress(data[byte:byte + 1])
                    except zlib.error:
                        break
                break
        return bytes(out)


#: Packed bytes given at a time when a damaged step is done again: what one piece unpacks to is what may be lost.
_SALVAGE_PIECE = 64


class _Damaged(Exception):
    """A packing that broke in a step, with what that step unpacked before the damage."""

    def __init__(self, salvaged: bytes) -> None:
        super().__init__("damaged")
        self.salvaged = salvaged


#: NULs in a run as long as no binary format writes between data and as a file system's hole leaves.
_HOLES = re.compile(b"\x00{16,}")


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
    # A run of NULs is a hole, not data: a log whose node crashed mid-write, or a sparse copy, has blocks of them between
    # its lines (22nd hostile pass N2: a text log with a hole after its first line was "not a text log"). Judged on what
    # is left; a head of nothing but NULs stays binary (`/dev/zero`).
    text_part = _HOLES.sub(b"", head)
    if not text_part:
        return True
    head = text_part
    if head.count(0) > max(2, len(head) // 100):
        return True
    text = head.decode("utf-8", errors="replace")
    controls = sum(1 for ch in text if ch == "\ufffd" or (ord(ch) < 32 and ch not in "\t\n\r\f\v\x1b"))
    return controls > len(text) * 0.3


#: A stretch of UTF-16 in a byte stream: eight or more ASCII characters, each with its NUL (little- or big-endian).
#: Text in UTF-8 has no NUL, and a hole's NULs come in runs, so neither is taken for one.
_UTF16_RUN = re.compile(rb"(?:[\x01-\x7f]\x00){8,}|(?:\x00[\x01-\x7f]){8,}")
#: Back to a one-byte encoding from UTF-16: 64 bytes of ASCII text holding a line end and no NUL (UTF-16's ASCII has a
#: NUL in every pair, and no real text in UTF-16 is 32 characters whose bytes are all printable ASCII).
_ASCII_RUN = re.compile(rb"[\t\r\n\x20-\x7e]{64,}")
#: Bytes kept back at the end of a read in case a stretch's start is cut by it.
_STRETCH_CARRY = 128


class _Stretches(_Produced):
    """A log whose encoding changes partway, read as UTF-8 stretch by stretch: plain text, then UTF-16 (a Windows
    tool's output appended to a job log), and back, each switch taken only where it is unambiguous (`_UTF16_RUN`,
    `_ASCII_RUN`); a byte-order mark at a switch is dropped.

    Why: 40 ASCII lines and then a UTF-16 log was "not a text log (its first bytes are binary data, 53 74 61 72 …)",
    quoting "Star…" as binary, and the log was not read (24th hostile pass (part A) P8). Work is linear: a read with
    no NUL in it (every UTF-8 log's) is handed on as it is after one `memchr`."""

    def __init__(self, source: BinaryIO, mode: str = "utf-8") -> None:
        super().__init__()
        self.source, self.mode = source, mode
        self.decoder = codecs.getincrementaldecoder(mode)(errors="replace") if mode != "utf-8" else None
        self.carry = b""
        self.ready = b""
        self.at = 0
        self.ended = False

    def _finished(self) -> bool:
        return self.ended and not self.carry

    def _more(self) -> None:
        chunk = self.source.read(UNPACK_BYTES)
        self.ended = not chunk
        data, self.carry = self.carry + chunk, b""
        out: list[bytes] = []
        while data:
            if self.mode == "utf-8":
                found = _UTF16_RUN.search(data) if b"\x00" in data else None
                if found is None:
                    keep = 0 if self.ended else min(len(data), _STRETCH_CARRY)
                    out.append(data[:len(data) - keep])
                    self.carry = data[len(data) - keep:]
                    break
                start = found.start()
                mode = "utf-16-le" if data[start] else "utf-16-be"
                bom = codecs.BOM_UTF16_LE if mode == "utf-16-le" else codecs.BOM_UTF16_BE
                out.append(data[:start - 2] if data[max(0, start - 2):start] == bom else data[:start])
                self.mode, self.decoder = mode, codecs.getincrementaldecoder(mode)(errors="replace")
                data = data[start:]
            else:
                found = next((run for run in _ASCII_RUN.finditer(data)
                              if b"\n" in run.group(0) or b"\r" in run.group(0)), None)
                if found is None:
                    keep = 0 if self.ended else min(len(data), _STRETCH_CARRY)
                    out.append(self.decoder.decode(data[:len(data) - keep], final=self.ended).encode("utf-8"))
                    self.carry = data[len(data) - keep:]
                    break
                out.append(self.decoder.decode(data[:found.start()], final=True).encode("utf-8"))
                self.mode, self.decoder = "utf-8", None
                data = data[found.start():]
        self.ready, self.at = b"".join(out), 0


#: A tar member's header: 512 bytes, "ustar" at 257 (POSIX and GNU tar both write it).
_TAR_BLOCK = 512
#: Names and pax records read at most from a member that holds them (a GNU long name, a pax header): a path is short.
_TAR_NAME_BYTES = 64 * 1024


class TarMembers(_Produced):
    """A tar archive's text members, one after another (a line end between), its binary members skipped and named
    (`skipped`), read member by member from the stream: nothing of it is held but a header and a piece.

    Why: a tar.gz with a binary member before the log was "not a text log (its first bytes are binary data, 62 69 6e
    2e 64 61 74 00 …)", the member's name in the tar header quoted as binary, and the log inside was not read; one with
    the log first was read only by accident, the headers as text (24th hostile pass (part A) P8)."""

    def __init__(self, source: BinaryIO, name: str, limit: UnpackLimit) -> None:
        super().__init__()
        self.source, self.name, self.limit = source, name, limit
        self.read_members: list[str] = []
        self.skipped: list[str] = []
        self.left = 0  # bytes of the current text member not yet handed on
        self.padding = 0
        self.ready = b""
        self.at = 0
        self.done = False
        self.long_name: str | None = None
        self.made = 0  # bytes of text members handed on

    def _finished(self) -> bool:
        return self.done

    def _take(self, size: int) -> bytes:
        data = self.source.read(size)
        if len(data) < size:
            raise EOFError
        return data

    def _skip(self, size: int) -> None:
        while size > 0:
            size -= len(self._take(min(size, UNPACK_BYTES)))

    def _more(self) -> None:
        try:
            if self.left:
                self.ready, self.at = self._take(min(self.left, UNPACK_BYTES)), 0
                self.left -= len(self.ready)
                self.made += len(self.ready)
                if not self.left:
                    self._skip(self.padding)
                    self.ready += b"\n"
                return
            self._next_member()
        except EOFError:  # the archive ends inside a member: what came before is read, and the cut said
            if self.limit.cut is None:  # the first break is the one said (a packing's below this, if any)
                read = (f"read only the {self.made:,} bytes of text members before that" if self.made else
                        "could read none of its text members")
                self.limit.cut = (f"{self.name} is cut short: the tar archive ends inside a member, so gc-wizard "
                                  f"{read}; the rest is not in this copy (an upload or mail size limit cuts files "
                                  "like this), so give the whole file")
            self._finish()

    def _next_member(self) -> None:
        header = self.source.read(_TAR_BLOCK)
        if 0 < len(header) < _TAR_BLOCK:
            raise EOFError  # cut inside a header
        if not header.strip(b"\x00"):  # the end blocks, or the end of the stream
            self._finish()
            return
        try:
            size = _tar_number(header[124:136])
        except ValueError:
            size = -1
        if header[257:262] != b"ustar" or size < 0:
            raise UserError(f"{self.name} is a tar archive whose member headers are damaged after "
                            f"{', '.join(self.read_members + self.skipped) or 'its start'}; unpack it yourself "
                            "(`tar xf FILE`) and give the log inside, as text.")
        kind = header[156:157]
        padding = -size % _TAR_BLOCK
        name = self.long_name or _tar_name(header)
        self.long_name = None
        if kind in (b"L", b"x"):  # a GNU long name, a pax header: the next member's name
            data = self._take(min(size, _TAR_NAME_BYTES))
            self._skip(size - len(data) + padding)
            if kind == b"L":
                self.long_name = data.rstrip(b"\x00").decode("utf-8", "replace")
            else:
                found = re.search(rb"[0-9]+ path=([^\n]*)\n", data)
                self.long_name = found.group(1).decode("utf-8", "replace") if found else None
            self.ready, self.at = b"", 0
            return
        if kind not in (b"0", b"\x00", b"7") or not size:  # a folder, a link, a device: nothing to read
            self._skip(size + padding)
            self.ready, self.at = b"", 0
            return
        first = self._take(min(size, PEEK_BYTES))
        if (_binary(_UTF16_RUN.sub(b"", first)) and not any(first.startswith(bom) for bom, _ in _BOMS)
                and _bomless_utf16(first) is None):  # judged as a whole log's first bytes are
            self.skipped.append(name)
            self._skip(size - len(first) + padding)
            self.ready, self.at = b"", 0
            return
        self.read_members.append(name)
        self.made += len(first)
        self.left, self.padding = size - len(first), padding
        self.ready, self.at = first + (b"" if self.left else b"\n"), 0
        if not self.left:
            self._skip(padding)

    def _finish(self) -> None:
        self.done = True
        self.ready, self.at = b"", 0
        if self.skipped and not self.read_members and self.limit.partial is None:
            members = (f"its member {_names(self.skipped)} is binary" if len(self.skipped) == 1 else
                       f"its members {_names(self.skipped)} are binary")
            raise UserError(f"{self.name} is a tar archive with no text log in it ({members}); unpack it "
                            "(`tar xf FILE`) and give the log inside, as text.")
        if self.skipped:
            read = (f"read its text member{'s' if len(self.read_members) > 1 else ''} "
                    f"{_names(self.read_members)} and " if self.read_members else "")
            self.limit.skipped = (f"{self.name} is a tar archive: gc-wizard {read}skipped its binary "
                                  f"member{'s' if len(self.skipped) > 1 else ''} {_names(self.skipped)}")


def _names(names: list[str]) -> str:
    """Members named in a sentence: the first five, and an ellipsis for the rest."""
    return ", ".join(one_line(name) for name in names[:5]) + (" …" if len(names) > 5 else "")


def _tar_number(field: bytes) -> int:
    """A tar header's size: octal digits, or GNU's base-256 (first byte 0x80) for sizes past 8 GB."""
    if field[:1] == b"\x80":
        return int.from_bytes(field[1:], "big")
    digits = field.replace(b"\x00", b" ").strip()
    return int(digits, 8) if digits else 0


def _tar_name(header: bytes) -> str:
    """The member's path: ustar's prefix (345) and name (0)."""
    name = header[:100].split(b"\x00", 1)[0]
    prefix = header[345:500].split(b"\x00", 1)[0]
    return (prefix + b"/" + name if prefix else name).decode("utf-8", "replace")
