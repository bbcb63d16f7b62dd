"""The one copy of a GraphCast checkout a build reads: folders, regular files and links, nothing else, bounded in size.

Why: 31st hostile pass (part A) P1 — the copy was `shutil.copytree`, which hands a named pipe to `copyfile` (one
`shutil.Error` holding a raw list of (source, copy, why) triples, said as "a file system error: [('…', …)]" with the
state folder's fix) and reads a character device (`mknod … c 1 5`, a `/dev/zero`) as a stream until TMPDIR is full;
a 30 GB sparse file filled a 50 MB TMPDIR the same way, and the bundle called it a failure of its `--out`. So the
checkout is looked at first (`copy_problem`): a named pipe, socket or device in it is refused by its path before a
byte is copied, and so is a checkout larger than `MAX_COPY_BYTES` or than the room left in the temporary folder. The
copy itself opens each file without following a link and without blocking, and copies it only when it still is a
regular file, so one swapped in after the look is refused the same way. A failure reading the checkout names the
checkout's file; one writing the copy names the temporary folder (TMPDIR), never the state folder or an `--out`.
"""

from __future__ import annotations

import errno
import os
import stat
import tempfile
from pathlib import Path

from wizard.errors import OperationFailed, UserError
from wizard.install.tree_digest import left_out
from wizard.paths import temporary_words
from wizard.security import make_folders, strip_acls
from wizard.tree_walk import walk

#: A GraphCast checkout is a few MB; past this the folder holds something else (a dataset, a sparse disk image),
#: which a build does not need and a copy in TMPDIR would fill the disk with.
MAX_COPY_BYTES = 2 << 30
#: Room left over in the temporary folder beyond the copy itself (`full_disk.ROOM`'s size: a disk with less is full).
_SPARE = 1 << 20
_CHUNK = 1 << 20
#: What came of a refused copy, in its sentence.
_NOTHING = "so nothing was copied"
#: How each kind of special file is named.
_KINDS = ((stat.S_ISFIFO, "a named pipe"), (stat.S_ISSOCK, "a socket"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"))


class CopyFailed(OperationFailed):
    """The checkout could not be copied, said as the place at fault (the checkout's file, or TMPDIR) and the fix;
    a caller that wraps its own writes (the bundle's `--out`) passes it on as it is."""


def _kind(mode: int) -> str:
    return next((words for test, words in _KINDS if test(mode)), "a special file")


def _entries(source: Path) -> list[tuple[str, os.stat_result]]:
    """(path relative to `source`, its lstat) of each folder, file and link a build's copy holds, parents first;
    what `tree_digest.left_out` names is not entered, and a link is never followed."""
    found: list[tuple[str, os.stat_result]] = []

    def fail(exc: OSError) -> None:
        raise exc

    for folder, dirs, files in walk(source, onerror=fail):
        rel = os.path.relpath(folder, source)
        kept = []
        for name in sorted([*dirs, *files]):
            if left_out(name):
                continue
            path = name if rel == "." else os.path.join(rel, name)
            info = os.lstat(os.path.join(folder, name))
            found.append((path, info))
            if stat.S_ISDIR(info.st_mode):
                kept.append(name)
        dirs[:] = kept
    return found


def _free_room(folder: str) -> int | None:
    try:
        info = os.statvfs(folder)
    except OSError:
        return None
    return info.f_bavail * info.f_frsize


def _temporary_words() -> str:
    """The temporary folder as the user sets it: every private folder of the wizard's is made there (`mkdtemp`)."""
    return temporary_words(tempfile.gettempdir())


def _megabytes(size: int) -> str:
    return f"{size / (1 << 20):,.0f} MB"


def copy_problem(source: Path, *, room_in: str | None = None, outcome: str = _NOTHING) -> str | None:
    """Why a build's copy of checkout `source` cannot be made, as one sentence naming the file or folder at fault
    and the fix, or None: a special file in it (named by path, up to three), a checkout past `MAX_COPY_BYTES`, or
    one larger than the room left in `room_in` (the temporary folder; not looked at when None). `outcome`: what
    came of it, in the sentence ("so nothing was copied"; the plan's "so `install` refuses it")."""
    return _problem(source, _entries(source), room_in, outcome)


def _leaves(source: Path, path: str, target: str) -> bool:
    """Whether the link at `path` (relative to `source`, its text `target`) leads out of the checkout: an absolute
    target, one that climbs above the checkout's top read from the link's own folder (so it leads elsewhere in the
    copy too), or one whose chain of links ends outside the checkout."""
    if os.path.isabs(target) or os.path.normpath(os.path.join(os.path.dirname(path), target)).split(os.sep, 1)[0] == "..":
        return True
    top = os.path.realpath(source)
    real = os.path.realpath(os.path.join(source, path))
    return real != top and not real.startswith(top + os.sep)


def _leaving_links(source: Path, entries: list[tuple[str, os.stat_result]]) -> list[str]:
    """"graphcast/x.py -> /etc/shadow" for each link of the checkout that leads out of it (`_leaves`)."""
    found = []
    for path, info in entries:
        if stat.S_ISLNK(info.st_mode):
            target = os.readlink(os.path.join(source, path))
            if _leaves(source, path, target):
                found.append(f"{path} -> {target}")
    return found


def _problem(source: Path, entries: list[tuple[str, os.stat_result]], room_in: str | None,
             outcome: str = _NOTHING) -> str | None:
    leaving = _leaving_links(source, entries)
    if leaving:  # 35th hostile pass (part B) P5: `leak.py -> /etc/shadow` became a 0644 file of the env
        named = ", ".join(leaving[:3]) + (f" and {len(leaving) - 3} more" if len(leaving) > 3 else "")
        return (f"the GraphCast checkout {source} holds {len(leaving)} link{'s' if len(leaving) > 1 else ''} leading "
                f"out of it ({named}): a build would copy what {'they lead' if len(leaving) > 1 else 'it leads'} to "
                "into the environment (a file only you may read would become one every user can read), and a build "
                f"copies only what is in the checkout, {outcome}. Replace "
                f"{'each link' if len(leaving) > 1 else 'the link'} with the file itself (or remove it), then run again.")
    special = [(path, _kind(info.st_mode)) for path, info in entries
               if not (stat.S_ISDIR(info.st_mode) or stat.S_ISREG(info.st_mode) or stat.S_ISLNK(info.st_mode))]
    if special:
        named = ", ".join(f"{source / path} ({kind})" for path, kind in special[:3])
        more = f" and {len(special) - 3} more" if len(special) > 3 else ""
        return (f"the GraphCast checkout {source} holds what a build cannot copy as a file: {named}{more}; only "
                f"folders, regular files and links are copied, {outcome}. Remove it from the checkout "
                "(or give a copy of the checkout without it), then run again.")
    files = [(path, info.st_size) for path, info in entries if stat.S_ISREG(info.st_mode)]
    total = sum(size for _, size in files)
    biggest = max(files, key=lambda item: item[1], default=("", 0))
    if total > MAX_COPY_BYTES:
        return (f"the GraphCast checkout {source} holds {_megabytes(total)} of files (the largest {source / biggest[0]}, "
                f"{_megabytes(biggest[1])}), more than the {_megabytes(MAX_COPY_BYTES)} a build's copy of a checkout "
                f"may take (GraphCast's own is a few MB), {outcome}. Move what the build does not need out "
                "of the checkout, then run again.")
    free = _free_room(room_in) if room_in is not None else None
    if free is not None and total + _SPARE > free:
        return (f"{_temporary_words()} has {_megabytes(free)} free, too little for the build's copy of the GraphCast "
                f"checkout {source} ({_megabytes(total)}), {outcome}. Free some space there, or point "
                "TMPDIR at a folder on a disk with room (`export TMPDIR=$HOME/tmp`, after `mkdir -p` it).")
    return None


def check_copyable(source: Path | None) -> None:
    """Refuse (exit 2) a checkout a build's copy cannot be made of (`copy_problem`), before anything is begun."""
    if source is None:
        return
    try:
        problem = copy_problem(source, room_in=tempfile.gettempdir())
    except OSError as exc:
        raise UserError(_read_words(source, exc)) from None
    if problem is not None:
        raise UserError(problem)


def _read_words(source: Path, exc: OSError) -> str:
    where = exc.filename or source
    return (f"cannot read {where} in the GraphCast checkout {source}: {exc.strerror or exc}, so nothing was built. "
            "Check that file, or give another checkout.")


def _write_words(copy: Path, exc: OSError) -> str:
    if exc.errno in (errno.ENOSPC, errno.EDQUOT):
        why = "the disk is full" if exc.errno == errno.ENOSPC else "your disk quota is used up"
        return (f"{_temporary_words()} filled up while the GraphCast checkout was copied there to be built: {why}, "
                "so nothing was built. Free some space there, or point TMPDIR at a folder on a disk with room "
                "(`export TMPDIR=$HOME/tmp`, after `mkdir -p` it).")
    return (f"cannot write the build's copy of the GraphCast checkout in {_temporary_words()} "
            f"({exc.filename or copy}): {exc.strerror or exc}, so nothing was built. Point TMPDIR at a folder you can "
            "write (`export TMPDIR=$HOME/tmp`, after `mkdir -p` it).")


class _ReadFailed(Exception):
    def __init__(self, exc: OSError) -> None:
        super().__init__(str(exc))
        self.exc = exc


def _copy_file(src: str, dst: str, budget: list[int], source: Path) -> None:
    """`src` copied to `dst` when it is (still) a regular file, opened without following a link or blocking; the
    bytes count against `budget` (what is left of `MAX_COPY_BYTES`)."""
    try:
        fd = os.open(src, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise _ReadFailed(exc) from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):  # swapped in after the look (`copy_problem`)
            raise UserError(f"the GraphCast checkout {source} holds what a build cannot copy as a file: {src} "
                            f"({_kind(info.st_mode)}); nothing was built. Remove it from the checkout, then run again.")
        out = os.open(dst, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), 0o600)
        try:
            while True:
                try:
                    block = os.read(fd, _CHUNK)
                except OSError as exc:
                    raise _ReadFailed(exc) from None
                if not block:
                    break
                budget[0] -= len(block)
                if budget[0] < 0:
                    raise UserError(f"the GraphCast checkout {source} grew past the {_megabytes(MAX_COPY_BYTES)} a "
                                    f"build's copy may take while it was copied ({src}); nothing was built.")
                view = memoryview(block)
                while view:
                    view = view[os.write(out, view):]
            os.fchmod(out, stat.S_IMODE(info.st_mode))
            os.utime(out, ns=(info.st_atime_ns, info.st_mtime_ns))
        finally:
            os.close(out)
    finally:
        os.close(fd)


def copy_tree(source: Path, copy: Path) -> None:
    """`source` copied to the new folder `copy` as a build reads it (`_entries`), or `UserError` for what cannot be
    copied, or `CopyFailed` naming the place a read or write failed (the checkout's file, or TMPDIR)."""
    try:
        entries = _entries(source)
    except OSError as exc:
        raise CopyFailed(_read_words(source, exc)) from None
    try:
        make_folders(copy.parent, 0o700)
    except OSError as exc:
        raise CopyFailed(_write_words(copy, exc)) from None
    problem = _problem(source, entries, str(copy.parent))
    if problem is not None:
        raise UserError(problem)
    budget = [MAX_COPY_BYTES]
    folders: list[tuple[str, os.stat_result]] = []
    try:
        os.mkdir(copy, 0o700)
        strip_acls(copy)  # no ACL the temporary folder hands down (27th hostile pass (part B) P1)
        for path, info in entries:
            src, dst = os.path.join(source, path), os.path.join(copy, path)
            if stat.S_ISDIR(info.st_mode):
                os.mkdir(dst, 0o700)
                strip_acls(dst)
                folders.append((dst, info))
            elif stat.S_ISLNK(info.st_mode):
                try:
                    target = os.readlink(src)
                except OSError as exc:
                    raise _ReadFailed(exc) from None
                if _leaves(source, path, target):  # changed after the look: refused the same way
                    raise UserError(_problem(source, [(path, os.lstat(src))], None) or "")
                os.symlink(target, dst)
            else:
                _copy_file(src, dst, budget, source)
        for dst, info in reversed(folders):  # a folder's own mode once it is filled: the owner's to write, no one else's
            os.chmod(dst, (stat.S_IMODE(info.st_mode) | stat.S_IRWXU) & ~0o022)
    except _ReadFailed as failed:
        raise CopyFailed(_read_words(source, failed.exc)) from None
    except OSError as exc:
        raise CopyFailed(_write_words(copy, exc)) from None
