"""Reads the dynamic loader's cache, `/etc/ld.so.cache`, as `ldconfig -p` prints it, without running ldconfig.

Why: `ldconfig -p` only formats this file, and starting it cost `detect` a fork of the wizard and a wait on
every run. The file is small (tens of KB) and its layout is glibc's (`elf/cache.c`, `sysdeps/generic/
dl-cache.h`): the new format (`glibc-ld.so.cache1.1`, the default since glibc 2.32), the old one
(`ld.so-1.7.0`), or both in a row ("compat", what older glibc wrote). `text()` gives the lines `ldconfig -p`
prints (`\tlibcudnn.so.8 (libc6,x86-64) => /usr/lib/x86_64-linux-gnu/libcudnn.so.8`), in the file's order,
so the rest of detection reads one format whichever way the cache was read; None for a file it does not
know (the caller then runs `ldconfig -p`). Left out: the `hwcap`/`OS ABI` notes ldconfig adds inside the
parentheses of a glibc-hwcaps entry (nothing here reads them; the name, ABI and path are the same).
"""

from __future__ import annotations

import struct

CACHE = "/etc/ld.so.cache"
#: The most of the file read: a server's cache is a few hundred KB; anything past this is no cache of libraries.
MAX_BYTES = 64 * 1024 * 1024
#: Bytes read at a time. Why not one `read(MAX_BYTES)`: Python allocates the whole buffer it is asked for before it
#: reads, so under an address-space limit (`ulimit -v` 200000-250000 KB, which login nodes and Slurm jobs set) the
#: 64 MiB buffer for a file of 100 KB was a MemoryError that stopped `install` as "a bug" (24th hostile pass (part A)
#: P3). Memory now follows the file's real size.
READ_BYTES = 64 * 1024

_OLD_MAGIC = b"ld.so-1.7.0"
_NEW_MAGIC = b"glibc-ld.so.cache1.1"
#: struct file_entry_new: int32 flags, uint32 key, uint32 value, uint32 osversion, uint64 hwcap.
_NEW_ENTRY = struct.Struct("<iIIIQ")
#: struct file_entry (old format): int32 flags, uint32 key, uint32 value.
_OLD_ENTRY = struct.Struct("<iII")
_NEW_HEADER = 48  # magic and version (20), nlibs, len_strings, flags and padding, extension offset, unused[3]
_OLD_HEADER = 16  # magic (11) and padding, nlibs

#: ldconfig's words for an entry's type (flags & 0xff) and its ABI (flags & 0xff00), as `ldconfig -p` prints.
_TYPES = {0: "libc4", 1: "ELF", 2: "libc5", 3: "libc6"}
_ABIS = {
    0x0000: "", 0x0100: ",64bit", 0x0200: ",IA-64", 0x0300: ",x86-64", 0x0400: ",64bit", 0x0500: ",64bit",
    0x0600: ",N32", 0x0700: ",64bit", 0x0800: ",x32", 0x0900: ",hard-float", 0x0a00: ",AArch64",
    0x0b00: ",soft-float", 0x0c00: ",nan2008", 0x0d00: ",N32,nan2008", 0x0e00: ",64bit,nan2008",
    0x0f00: ",soft-float", 0x1000: ",double-float",
}


def _string(data: bytes, offset: int) -> str:
    end = data.index(b"\0", offset)
    return data[offset:end].decode(errors="replace")


def _arch(flags: int) -> str:
    kind = _TYPES.get(flags & 0xFF, "unknown")
    abi = _ABIS.get(flags & 0xFF00, f",{flags & 0xFF00}")
    return kind + abi


def entries(data: bytes, names: tuple[bytes, ...] | None = None) -> list[tuple[str, str, str]] | None:
    """[(soname, arch, path)] in the file's order; None when `data` is no cache this module knows.

    `names`: only the entries whose soname starts with one of these (b"libcudnn"), each tested on the file's
    bytes before anything is decoded — a server's cache lists hundreds of libraries, and decoding them all was
    a tenth of `detect`'s own time (issue 23)."""
    try:
        if data.startswith(_NEW_MAGIC):
            return _new_entries(data, 0, names)
        if data.startswith(_OLD_MAGIC):
            (count,) = struct.unpack_from("<I", data, 12)
            after_old = _OLD_HEADER + count * _OLD_ENTRY.size
            new_at = (after_old + 7) & ~7  # the new part, aligned as its header (8 bytes)
            if data[new_at:new_at + len(_NEW_MAGIC)] == _NEW_MAGIC:
                return _new_entries(data, new_at, names)
            return [(_string(data, after_old + key), _arch(flags), _string(data, after_old + value))
                    for flags, key, value in _OLD_ENTRY.iter_unpack(data[_OLD_HEADER:after_old])
                    if names is None or data.startswith(names, after_old + key)]
    except (struct.error, ValueError, IndexError):  # a truncated or garbled file
        return None
    return None


def _new_entries(data: bytes, start: int, names: tuple[bytes, ...] | None) -> list[tuple[str, str, str]]:
    # String offsets count from the new header's start (glibc's `cache_data` for this format).
    (count,) = struct.unpack_from("<I", data, start + len(_NEW_MAGIC))
    first = start + _NEW_HEADER
    table = data[first:first + count * _NEW_ENTRY.size]
    if len(table) != count * _NEW_ENTRY.size:
        raise ValueError("truncated cache")
    return [(_string(data, start + key), _arch(flags), _string(data, start + value))
            for flags, key, value, _, _ in _NEW_ENTRY.iter_unpack(table)
            if names is None or data.startswith(names, start + key)]


def read_bounded(path: str, limit: int = MAX_BYTES) -> bytes:
    """The file's first `limit` bytes, read `READ_BYTES` at a time (see READ_BYTES: never a buffer of `limit`)."""
    pieces: list[bytes] = []
    size = 0
    with open(path, "rb") as handle:
        while size < limit:
            piece = handle.read(min(READ_BYTES, limit - size))
            if not piece:
                break
            pieces.append(piece)
            size += len(piece)
    return b"".join(pieces)


def text(path: str = CACHE, names: tuple[str, ...] | None = None) -> str | None:
    """The cache as `ldconfig -p` lists it (without its count line), or only its libraries whose soname starts
    with one of `names`; None when it cannot be read here."""
    try:
        data = read_bounded(path)
    except OSError:
        return None
    found = entries(data, None if names is None else tuple(name.encode() for name in names))
    if found is None:
        return None
    return "".join(f"\t{name} ({arch}) => {where}\n" for name, arch, where in found)
