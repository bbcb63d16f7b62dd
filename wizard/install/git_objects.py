"""Reads a commit's file list (path → blob id) from a git folder's object store, in Python, running nothing.

Why: a GraphCast checkout's index tells which files differ from the index, not from the commit — a change
staged with `git add` was invisible (fifth hostile pass 8f: an edited, staged graphcast.py read "unchanged since
that commit"). Comparing the index with the commit's tree needs git's objects. Running `git` in the user's
checkout would read its `.git/config`, whose settings can name commands git runs; this reader only reads files:
loose objects (zlib) and pack files (a version-2 `.idx` and its `.pack`, with offset and reference deltas).

Bounded: at most `MAX_OBJECT` bytes per inflated object, `MAX_DEPTH` deltas per chain, `MAX_FILES` paths; past
any of them, or on anything unexpected, it raises `GitReadError` and the caller says the state cannot be told.
Only SHA-1 repositories: a SHA-256 one raises `GitReadError` as well.

`git_dirs` finds which folders hold what: a checkout made by `git worktree add` has a `.git` *file*
(`gitdir: …/.git/worktrees/NAME`) whose folder holds that worktree's own HEAD and index, and a `commondir` file
naming the main repository's `.git`, which holds the objects, refs and config (fourth hostile pass G10/G11: a
worktree's objects were looked for in its own folder, so a staged change went unseen).
"""

from __future__ import annotations

import os
import re
import struct
import zlib
from pathlib import Path

from wizard import bounded
from wizard.git_dirs import PACKED_REFS_BYTES, GitDirs, read_git_file
from wizard.git_dirs import first_line as _first_line

MAX_OBJECT = 16 * 1024 * 1024
MAX_DEPTH = 64
MAX_FILES = 20_000
_TYPES = {1: b"commit", 2: b"tree", 3: b"blob", 4: b"tag"}


class GitReadError(Exception):
    """The object store could not be read (missing object, damaged file, a form this reader does not know)."""


_HEX = re.compile(r"^[0-9a-f]{40}([0-9a-f]{24})?$")


def head_commit(dirs: GitDirs) -> str | None:
    """The commit the checkout's HEAD names: a detached id, or its branch read from the worktree's own refs, the
    common refs, then `packed-refs`; None when it cannot be told (a branch with no commit yet). OSError passes."""
    head = _first_line(dirs.own / "HEAD")
    if not head.startswith("ref: "):
        return head if _HEX.match(head) else None
    ref = head[5:].strip()
    if ".." in ref.split("/"):
        return None
    for folder in (dirs.own, dirs.common):
        if (folder / ref).is_file():
            found = _first_line(folder / ref)
            return found if _HEX.match(found) else None
    packed = dirs.common / "packed-refs"
    if packed.exists():  # read bounded, a regular file only (35th hostile pass (part A) P6: 3 GB of one line)
        for line in read_git_file(packed, PACKED_REFS_BYTES).splitlines():
            if line.endswith(" " + ref) and _HEX.match(line.split()[0]):
                return line.split()[0]
    return None


def no_commit_words(dirs: GitDirs) -> str:
    """Why `head_commit` found no commit, as a clause: "its branch master has no commit yet, as after `git init`
    and `git add`", "its HEAD names no commit". For the sentence that says the checkout's state cannot be told
    (twenty-first hostile pass P3: such a checkout was called unchanged since a commit it does not have)."""
    try:
        head = _first_line(dirs.own / "HEAD")
    except OSError as exc:
        return f"its HEAD cannot be read ({exc.strerror or exc})"
    if not head.startswith("ref: "):
        return "its HEAD names no commit" + (f" ({head[:40]!r})" if head else " (it is empty)")
    ref = head[5:].strip()
    branch = ref.removeprefix("refs/heads/")
    if any((folder / ref).is_file() for folder in (dirs.own, dirs.common)):
        return f"its branch {branch} names no commit id"
    return f"its branch {branch} has no commit yet, as after `git init` and `git add`"


def commit_files(git_dir: str | os.PathLike[str], commit: str) -> dict[str, bytes]:
    """{path: blob id (20 bytes)} of every regular file and symlink in `commit`'s tree."""
    store = _Store(Path(git_dir))
    kind, body = store.read(commit)
    if kind != b"commit" or not body.startswith(b"tree "):
        raise GitReadError(f"{commit[:12]} is not a commit")
    out: dict[str, bytes] = {}
    store.walk(body[5:45].decode("ascii"), "", out)
    return out


class _Store:
    def __init__(self, git_dir: Path) -> None:
        self.objects = git_dir / "objects"
        self._packs: list[tuple[Path, bytes]] | None = None

    # ------------------------------------------------------------------ trees
    def walk(self, tree: str, prefix: str, out: dict[str, bytes], depth: int = 0) -> None:
        kind, body = self.read(tree)
        if kind != b"tree" or depth > 64:
            raise GitReadError(f"{tree[:12]} is not a tree")
        at = 0
        while at < len(body):
            space = body.index(b" ", at)
            nul = body.index(b"\0", space)
            mode = int(body[at:space], 8)
            name = body[space + 1:nul].decode("utf-8", "surrogateescape")
            blob = body[nul + 1:nul + 21]
            at = nul + 21
            path = f"{prefix}{name}"
            if mode == 0o40000:
                self.walk(blob.hex(), path + "/", out, depth + 1)
            elif mode >> 12 in (0o10, 0o12):  # files and links; gitlinks (submodules) are not files here
                out[path] = blob
                if len(out) > MAX_FILES:
                    raise GitReadError("the commit holds more files than any GraphCast checkout")

    # ------------------------------------------------------------------ objects
    def read(self, sha: str, depth: int = 0) -> tuple[bytes, bytes]:
        if len(sha) != 40 or any(c not in "0123456789abcdef" for c in sha):
            raise GitReadError(f"{sha[:12]!r} is not a SHA-1 object id")
        loose = self.objects / sha[:2] / sha[2:]
        if loose.is_file():
            raw = _inflate(_bounded(loose, bounded.GIT_LOOSE_OBJECT_BYTES))
            head, _, body = raw.partition(b"\0")
            kind, _, _size = head.partition(b" ")
            return kind, body
        for pack, index in self._pack_list():
            offset = _find(index, bytes.fromhex(sha))
            if offset is not None:
                return self._packed(pack, offset, depth)
        raise GitReadError(f"object {sha[:12]} is not in the repository")

    def _pack_list(self) -> list[tuple[Path, bytes]]:
        if self._packs is None:
            self._packs = []
            folder = self.objects / "pack"
            for idx in sorted(folder.glob("pack-*.idx")) if folder.is_dir() else []:
                data = _bounded(idx, bounded.GIT_PACK_INDEX_BYTES)
                if data[:8] != b"\377tOc\0\0\0\2":
                    raise GitReadError(f"{idx.name} is not a version-2 pack index")
                self._packs.append((idx.with_suffix(".pack"), data))
        return self._packs

    def _packed(self, pack: Path, offset: int, depth: int) -> tuple[bytes, bytes]:
        if depth > MAX_DEPTH:
            raise GitReadError("a delta chain is longer than git makes them")
        with open(pack, "rb") as handle:
            handle.seek(offset)
            head = handle.read(64)
            byte = head[0]
            kind, size, shift, at = (byte >> 4) & 7, byte & 15, 4, 1
            while byte & 0x80:
                byte = head[at]
                size |= (byte & 0x7F) << shift
                shift, at = shift + 7, at + 1
            if size > MAX_OBJECT:
                raise GitReadError("an object is larger than any GraphCast file")
            if kind == 6:  # offset delta: the base is earlier in the same pack
                byte = head[at]
                back, at = byte & 0x7F, at + 1
                while byte & 0x80:
                    byte = head[at]
                    back, at = ((back + 1) << 7) | (byte & 0x7F), at + 1
                base = self._packed(pack, offset - back, depth + 1)
            elif kind == 7:  # reference delta: the base is named by its id
                base = self.read(head[at:at + 20].hex(), depth + 1)
                at += 20
            elif kind in _TYPES:
                base = None
            else:
                raise GitReadError(f"unknown pack object type {kind}")
            handle.seek(offset + at)
            data = _inflate_stream(handle, size)
        if base is None:
            return _TYPES[kind], data
        return base[0], _apply_delta(base[1], data)


def _find(index: bytes, sha: bytes) -> int | None:
    """The offset of `sha` in a version-2 pack index (binary search within its fan-out bucket)."""
    fanout = struct.unpack(">256I", index[8:8 + 1024])
    count = fanout[255]
    low = fanout[sha[0] - 1] if sha[0] else 0
    high = fanout[sha[0]]
    names = 8 + 1024
    while low < high:
        mid = (low + high) // 2
        name = index[names + mid * 20:names + mid * 20 + 20]
        if name == sha:
            offsets = names + count * 24  # after the names (20 bytes each) and the CRCs (4 each)
            value = struct.unpack(">I", index[offsets + mid * 4:offsets + mid * 4 + 4])[0]
            if value & 0x80000000:  # a large offset, in the 8-byte table that follows
                large = offsets + count * 4 + (value & 0x7FFFFFFF) * 8
                value = struct.unpack(">Q", index[large:large + 8])[0]
            return value
        if name < sha:
            low = mid + 1
        else:
            high = mid
    return None


def _bounded(path: Path, limit: int) -> bytes:
    """A git file's bytes, refused (GitReadError) past `limit`: never read whole when grown or sparse (#110)."""
    try:
        return bounded.read_bytes(path, limit)
    except bounded.ParseLimitError as exc:
        raise GitReadError(f"{path.name}: {exc}") from None


def _inflate(data: bytes) -> bytes:
    inflater = zlib.decompressobj()
    out = inflater.decompress(data, MAX_OBJECT + 64)
    if inflater.unconsumed_tail:
        raise GitReadError("an object is larger than any GraphCast file")
    return out


def _inflate_stream(handle, size: int) -> bytes:
    inflater = zlib.decompressobj()
    out = bytearray()
    while len(out) < size and not inflater.eof:
        chunk = handle.read(65536)
        if not chunk:
            break
        out += inflater.decompress(chunk, size + 1 - len(out))
    if len(out) != size:
        raise GitReadError("a packed object is damaged")
    return bytes(out)


def _varint(data: bytes, at: int) -> tuple[int, int]:
    value = shift = 0
    while True:
        byte = data[at]
        value |= (byte & 0x7F) << shift
        shift, at = shift + 7, at + 1
        if not byte & 0x80:
            return value, at


def _apply_delta(base: bytes, delta: bytes) -> bytes:
    """git's delta format: the base's size, the result's size, then copy-from-base and insert instructions."""
    source, at = _varint(delta, 0)
    target, at = _varint(delta, at)
    if source != len(base) or target > MAX_OBJECT:
        raise GitReadError("a delta does not fit its base")
    out = bytearray()
    while at < len(delta):
        op = delta[at]
        at += 1
        if op & 0x80:
            offset = length = 0
            for bit in range(4):
                if op & (1 << bit):
                    offset |= delta[at] << (8 * bit)
                    at += 1
            for bit in range(3):
                if op & (0x10 << bit):
                    length |= delta[at] << (8 * bit)
                    at += 1
            out += base[offset:offset + (length or 0x10000)]
        elif op:
            out += delta[at:at + op]
            at += op
        else:
            raise GitReadError("a delta holds a reserved instruction")
    if len(out) != target:
        raise GitReadError("a delta did not give the size it promised")
    return bytes(out)
