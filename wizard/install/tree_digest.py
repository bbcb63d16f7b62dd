"""One sha256 for a source folder as a build sees it, so a checkout can be recorded as exactly as a wheel file.

Why: an install from `--graphcast-src ~/graphcast` recorded `graphcast @ file:///…/graphcast` with nothing about
what the folder held, and a rollback that rebuilt the env later built the checkout as it was then — code added
since ran in the "restored" env without a word (fifteenth hostile pass P3). A file's record carries its sha256;
a folder's now carries this digest of what the build copies (`source_copy` leaves out the same names).

The digest covers every entry's relative path, its kind, a file's executable bit and content, and a link's own
target text (links are never followed: a build copies them as links). It is computed only for folders an install
was given, which are small (GraphCast's checkout is a few MB); a folder past `MAX_ENTRIES` gets None, and the record
then says nothing, as it did before.
"""

from __future__ import annotations

import fnmatch
import hashlib
import os
import stat
from pathlib import Path

from wizard.tree_walk import walk

#: What a build needs none of, left out of the copy a build reads (`source_copy`) and so out of its digest.
#: Compiled modules (`*.pyc`, `*.pyo`) are among them: no GraphCast release ships one, and a build puts the
#: checkout first on `sys.path`, where a sourceless `wheel.pyc` was imported by setuptools and ran (as root) while
#: the plan called the checkout identical to its release (28th hostile pass (part B) P10).
LEFT_OUT = (".git", "build", "dist", "*.egg-info", "__pycache__", ".eggs", ".tox", ".venv", "*.pyc", "*.pyo")
#: Of those, what a build could import were it copied (a compiled module, setuptools' `.eggs/`): the copy still
#: leaves it out, but a comparison with a release counts it as new and says it was left out, never "identical"
#: (28th hostile pass (part B) P10); the rest (`build/`, `*.egg-info/` …) is an earlier build's output, named apart.
IMPORTABLE = (".eggs", "*.pyc", "*.pyo")
#: Past this many entries the folder is not a GraphCast checkout; no digest is made.
MAX_ENTRIES = 50_000
_CHUNK = 1 << 20


def left_out(name: str) -> bool:
    """Whether a file or folder named `name` is left out of a build's copy (and of the digest)."""
    return any(fnmatch.fnmatch(name, pattern) for pattern in LEFT_OUT)


def importable(name: str) -> bool:
    """Whether a file or folder named `name` is left out of a build's copy although a build could import it."""
    return any(fnmatch.fnmatch(name, pattern) for pattern in IMPORTABLE)


def tree_sha256(root: Path) -> str | None:
    """The digest of `root` as a build copies it, or None when it cannot be read whole or is far too large."""
    digest = hashlib.sha256(b"gc-wizard tree 1\0")
    seen = 0
    try:
        for folder, dirs, files in walk(root, onerror=_raise):
            dirs[:] = sorted(d for d in dirs if not left_out(d))
            rel = os.path.relpath(folder, root)
            names = sorted([*files, *(d for d in dirs if os.path.islink(os.path.join(folder, d)))])
            for name in names:
                if left_out(name):
                    continue
                seen += 1
                if seen > MAX_ENTRIES:
                    return None
                full = os.path.join(folder, name)
                path = os.fsencode(name if rel == "." else os.path.join(rel, name))
                digest.update(path + b"\0" + _entry(full) + b"\0")
    except (OSError, ValueError):
        return None
    return digest.hexdigest()


def _entry(full: str) -> bytes:
    """What one entry contributes: `L` and a link's target, or `F`/`X` (executable) and a file's sha256."""
    info = os.lstat(full)
    if stat.S_ISLNK(info.st_mode):
        return b"L" + os.fsencode(os.readlink(full))
    if not stat.S_ISREG(info.st_mode):
        raise ValueError(f"{full} is neither a file nor a link")
    return (b"X" if info.st_mode & 0o111 else b"F") + file_sha256(full).encode()


def file_sha256(path: str | os.PathLike[str]) -> str:
    """A file's sha256, read in blocks (the one reader of a file's digest: a lock, a bundle's wheels, a recorded
    GraphCast file, each file of a folder's digest). OSError passes through."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        while block := handle.read(_CHUNK):
            digest.update(block)
    return digest.hexdigest()


def _raise(error: OSError) -> None:
    """os.walk's errors are not skipped: a folder that cannot be read gives no digest at all."""
    raise error
