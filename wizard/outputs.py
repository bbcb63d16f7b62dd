"""Writes a file the user asked for or will use: a support report, an answers file, an Lmod module file, a
Jupyter kernel spec — one rule for all of them, and one sentence with one exit status when it fails.

Why one helper: each writer had its own copy of "temp file beside it, then rename", and they disagreed
(fifth hostile pass 6d/6e/6i): `report --out` wrote into a device and through a user's symlink while
`module install` renamed a regular file over both, and a full disk exited 2 for the report (bad input) but 1
for the module file. The rule, as a shell's `>` would have it:

- a device or a FIFO (`/dev/stdout`, `/dev/full`) is written into, never replaced by a regular file;
- a symlink the user put there is kept and the file it points to is written (atomically, beside it), so a
  module tree or a report path that links elsewhere keeps its link;
- anything else is replaced atomically (a temporary file beside it, fsynced, renamed), so a failure — a full
  disk, a signal mid-write — leaves the old file and no temporary one;
- a failure is `OperationFailed` (exit 1: the operation ran and failed; interface.md), naming the file and
  the reason in one sentence.

State files (history.json, locks) do not come here: a link planted in the state folder must be replaced, not
followed (`wizard.security.write_private_file`, `wizard.lock`).
"""

from __future__ import annotations

import errno
import os
from pathlib import Path

from wizard.errors import OperationFailed, UserError
from wizard.security import PRIVATE_MODE, write_private_file

#: A file other users may read (a module file a group loads, a kernel spec): no group/other write.
SHARED_MODE = 0o644


def write_output_file(path: str | os.PathLike[str], text: str, *, what: str, mode: int = PRIVATE_MODE) -> Path:
    """Write `text` to `path` by the rule above; returns the path as given (the link, if it is one).

    `what` names the file in the failure sentence ("the report", "the module file"). Raises
    OperationFailed when the file cannot be written.
    """
    given = Path(path).expanduser()
    target = given
    try:
        target = _through_links(given)
        write_private_file(target, text, mode=mode)
    except OSError as exc:
        shown = given if given == target else f"{given} (a link to {target})"
        raise OperationFailed(f"cannot write {what} {shown}: {exc.strerror or exc}.") from None
    return given


def _through_links(path: Path) -> Path:
    """The file a chain of symlinks at `path` ends at (relative links resolved from their own folder); `path`
    itself when it is no link. A loop raises ELOOP (`Too many levels of symbolic links`), as the kernel would."""
    for _ in range(40):
        if not path.is_symlink():
            return path
        link = Path(os.readlink(path))
        path = link if link.is_absolute() else path.parent / link
    raise OSError(errno.ELOOP, os.strerror(errno.ELOOP), str(path))


def check_out_folder(option: str, out: Path) -> None:
    """Refuse (exit 2), before any work, an `--out` the wizard cannot write: one sentence naming the option, the
    value and the folder it would be written in — the nearest folder of `out` that exists (`out` itself when it is
    an existing folder, as a bundle's may be).

    Why: `lock --out` on a read-only mount failed after the resolve, naming a temporary file beside the lock and
    the state folder's fix ("point GC_WIZARD_HOME at a writable folder", fourth hostile pass L2), neither of which
    the user gave or can act on."""
    folder = out if out.is_dir() else out.parent
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    why = unwritable_folder(folder)
    if why:
        raise UserError(f"{option} {out}: the folder {folder} {why}; choose an --out in a folder you can write.")


def unwritable_folder(folder: Path) -> str | None:
    """Why this user cannot create files in `folder` (a read-only file system, no permission), or None."""
    try:
        if os.statvfs(folder).f_flag & os.ST_RDONLY:
            return "is on a read-only file system"
    except OSError:
        return None  # said by the write itself, with its own reason
    if not os.access(folder, os.W_OK | os.X_OK):
        return "is not writable by you"
    return None
