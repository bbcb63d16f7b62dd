"""Telling a full disk (or a used-up quota) apart from every other failure of a lock or bundle being written.

Why: `uv pip compile` and `pip download` report a full disk in their own words ("failed to write to file …:
No space left on device") and end with a status like any resolution failure, so the wizard said "uv could
not resolve recipe …" for a disk with no room at --out (sixth hostile pass 6e). The sentence must name the
place with no room and what to do, whoever noticed it — the wizard's own write (an OSError) or a child.
"""

from __future__ import annotations

import errno
import os
from pathlib import Path

from wizard.errors import OperationFailed
from wizard.security import shown_path

NO_ROOM = {errno.ENOSPC: "the disk is full", errno.EDQUOT: "your disk quota is used up"}


class NoRoom(OperationFailed):
    """A write that failed for want of room, already said as `no_room_sentence`; `why` is the short reason, so a
    caller that wraps the writer (the bundle wraps its lock) can say it of its own output."""

    def __init__(self, message: str, why: str) -> None:
        super().__init__(message)
        self.why = why


#: `no_room`'s reason when the disk had room but no inode left at the failure (`full_disk.out_of_files`).
NO_INODES = "no more files can be made there"


def no_room(exc: BaseException, place: Path | None = None) -> str | None:
    """"the disk is full" / "your disk quota is used up" when `exc` (an OSError, or a failure quoting a
    child's words) comes from a disk with no room left; None otherwise. With `place`, a full disk whose bytes are
    free but whose inodes are used up is told apart now (`NO_INODES`): ask it at the failure, before any clean-up,
    since removing what was made frees the inodes again — `bundle --out` on a disk whose inodes ran out mid-bundle
    said "the disk is full … free some space" with 50 MB free (33rd hostile pass (part A) P7)."""
    if isinstance(exc, NoRoom):
        return exc.why
    why = None
    if isinstance(exc, OSError) and exc.errno in NO_ROOM:
        why = NO_ROOM[exc.errno]
    else:
        text = str(exc)
        why = next((said for code, said in NO_ROOM.items() if os.strerror(code) in text), None)  # a child's words
    if why == NO_ROOM[errno.ENOSPC] and place is not None:
        from wizard.full_disk import out_of_files  # deferred: only a full disk needs it

        if out_of_files(place):
            return NO_INODES
    return why


def no_room_sentence(what: str, place: Path, why: str) -> str:
    """`cannot write the bundle /x/bun: the disk is full there. Free some space, or give --out on another disk.` — or,
    on a disk with room but no inode left (a file-count quota), that no more files can be made there (23rd pass P6):
    `why` is `NO_INODES` when `no_room` saw it at the failure, else the disk is asked now."""
    from wizard.full_disk import NO_FILES, NO_FILES_FIX, out_of_files  # deferred: only a full disk needs it

    if why == NO_INODES or why == NO_ROOM[errno.ENOSPC] and out_of_files(place):
        return f"cannot write {what} {shown_path(place)}: {NO_FILES}. To go on, {NO_FILES_FIX}, or give --out on another disk."
    return f"cannot write {what} {shown_path(place)}: {why} there. Free some space, or give --out on another disk."


def no_room_inside(exc: BaseException, place: Path) -> str | None:
    """`no_room` for a failed write whose file lies in `place` (a bundle's --out): a `NoRoom` (said already of
    `place` by its writer) or an OSError naming a file there; None for one elsewhere (the state's asset cache, the
    temporary folder), which its own sentence names by its path, and for one that names no file.

    Why by the file: 38th hostile pass (part A) P4 — gc-wizard's own wheels filled --out's disk, and the sentence
    named the state folder and /tmp; a full disk is said of the place the failed write was in, and no other."""
    if isinstance(exc, NoRoom):
        return exc.why
    if not isinstance(exc, OSError):
        return None
    written = exc.filename2 if exc.errno in NO_ROOM and exc.filename2 is not None else exc.filename
    if written is None:
        return None
    real = os.path.abspath(os.fsdecode(written))
    root = os.path.abspath(place)
    if real != root and not real.startswith(root.rstrip("/") + "/"):
        return None
    return no_room(exc, place)
