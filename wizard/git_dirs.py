"""Where a checkout's git data lives, read from its files as git follows them (a `.git` folder, or a `.git` *file*
naming one, and that folder's `commondir`), running nothing.

Why one module, below every layer: the object reader (`install.git_objects`, which compares a checkout with its
commit) and the swap rule (`source_trust`, which must judge the git folder a `.git` file names as it judges a
`.git/` folder inside a checkout, 27th hostile pass (part B) P10) read the same two one-line files; two readers
would drift apart on how git resolves them.
"""

from __future__ import annotations

import errno
import os
from dataclasses import dataclass
from pathlib import Path

from wizard import bounded

#: `.git` files, `commondir`, HEAD and refs are one line; anything longer is no git's.
SMALL = 4096
#: `packed-refs` holds a line per branch and tag: tens of KiB for a large repository's thousands of tags.
PACKED_REFS_BYTES = 16 * 1024 * 1024


@dataclass(frozen=True)
class GitDirs:
    """Where a checkout's git data lives: `own` holds its HEAD and index, `common` its objects, refs and config
    (the same folder in a plain clone; a linked worktree's `.git/worktrees/NAME` and the main `.git` otherwise)."""

    own: Path
    common: Path


def git_dirs(checkout: str | os.PathLike[str]) -> GitDirs | None:
    """The git folders of `checkout`, following a `.git` file (`gitdir: …`, relative to the checkout) and the
    git folder's `commondir` (relative to it) as git does; None when the checkout has no `.git`. OSError
    passes through."""
    dot = Path(checkout) / ".git"
    if dot.is_dir():
        own = Path(os.path.normpath(dot))
    elif dot.is_file():
        own = named_gitdir(dot)
        if own is None:
            raise OSError(f"{dot} is a file that names no git folder")
    else:
        return None
    return GitDirs(own, common_dir(own))


def named_gitdir(dot: Path) -> Path | None:
    """The git folder a `.git` file names (`gitdir: X`, relative to the file's folder), or None when its first line
    names none. OSError passes through."""
    line = first_line(dot)
    if not line.startswith("gitdir:"):
        return None
    return Path(os.path.normpath(dot.parent / line[len("gitdir:"):].strip()))


def common_dir(own: Path) -> Path:
    """Where the objects, refs and config of git folder `own` are: the folder its `commondir` file names (relative
    to it), else `own`. OSError passes through."""
    common_file = own / "commondir"
    common = first_line(common_file) if common_file.is_file() else ""
    return Path(os.path.normpath(own / common)) if common else own


def first_line(path: Path) -> str:
    """The first line of a small git file, stripped. OSError for anything but a regular file (`read_git_file`)."""
    text = read_git_file(path, SMALL, whole=False)
    return text.splitlines()[0].strip() if text.strip() else ""


def read_git_file(path: Path, limit: int, *, whole: bool = True) -> str:
    """A checkout's git file as text (undecodable bytes replaced): its first `limit` bytes, or with `whole` all of
    it, a larger one refused. Only a regular file is read (`bounded`): anything else — a FIFO, a device — is an
    OSError that says what it is, as every caller already turns an unreadable git file into a sentence.

    Why: 35th hostile pass (part A) P6 — `.git/HEAD` a FIFO hung plan, install and bundle in `open()` (install's
    worker thread with it, so SIGTERM could not end the run), and a 3 GB `packed-refs` of one line was read whole."""
    try:
        data = bounded.read_bytes(path, limit) if whole else bounded.read_regular_head(path, limit)
    except bounded.ParseLimitError as exc:
        raise OSError(errno.EINVAL, str(exc), str(path)) from None
    return data.decode("utf-8", "replace")
