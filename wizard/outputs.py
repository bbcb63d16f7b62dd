"""Writes a file the user asked for or will use: a support report, an answers file, an Lmod module file, a
Jupyter kernel spec — one rule for all of them, and one sentence with one exit status when it fails.

Why one helper: each writer had its own copy of "temp file beside it, then rename", and they disagreed
(fifth hostile pass 6d/6e/6i): `report --out` wrote into a device and through a user's symlink while
`module install` renamed a regular file over both, and a full disk exited 2 for the report (bad input) but 1
for the module file. The rule, as a shell's `>` would have it:

- a device or a FIFO (`/dev/stdout`, `/dev/full`) is written into, never replaced by a regular file, even when
  the path is a link to it (`/dev/stdout` is one);
- a symlink to anything else is refused before a byte is written (UserError, exit 2, naming the link and where
  it points): gc-wizard never writes through a link it did not make. Why: a link at a module file's or a kernel
  spec's path in a group folder let any member of the group have the wizard overwrite a victim's file outside
  it (eleventh hostile pass #188/#189); the earlier rule (keep the link, write its target; fifth pass 6e) made
  every destination a write-anywhere. The rename below replaces a link planted after this check, never its
  target, so a race only loses the planted link;
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
import stat
from pathlib import Path

from wizard.errors import OperationFailed, UserError
from wizard.paths import state_dir, swappable_ancestor
from wizard.security import (
    OWN_DESCRIPTOR,
    PRIVATE_MODE,
    expand_home,
    keep_local_path,
    shown_path,
    write_private_file,
)
from wizard.source_trust import refuse_swappable_destination

#: A file other users may read (a module file a group loads, a kernel spec): no group/other write.
SHARED_MODE = 0o644


def write_output_file(path: str | os.PathLike[str], text: str, *, what: str, mode: int = PRIVATE_MODE) -> Path:
    """Write `text` to `path` by the rule above; returns the path as given.

    `what` names the file in the sentences ("the report to", "the module file"). Raises UserError for a link to
    something other than a device or a FIFO, OperationFailed when the file cannot be written.
    """
    given = Path(expand_home(path))
    target = given
    refuse_folder_or_state(str(path), given, what)
    # Written where the folders on its way lead once checked (no link or folder another user can change on the
    # way: source_trust's rule), so a link flipped after the check changes nothing written.
    checked = refuse_swappable_destination(f"cannot write {what} {given}", given)
    try:
        target = refuse_link(checked, what)
        refuse_odd_target(f"cannot write {what}", given, target)
        if not _write_held(target, text):
            write_private_file(target, text, mode=mode)
    except OSError as exc:
        shown = shown_path(given) if checked == target else f"{shown_path(given)} (a link to {shown_path(target)})"
        if exc.errno == errno.ENXIO and _is_fifo(target):  # its reader left since the check (or none was made)
            raise OperationFailed(f"cannot write {what} {shown}: {_NO_READER}.") from None
        # which kind of full, and what to do (23rd hostile pass P6); a device (/dev/full) keeps its own words
        if exc.errno in (errno.ENOSPC, errno.EDQUOT) and not Path(target).is_char_device():
            from wizard.full_disk import (  # deferred: only a full disk needs it
                NO_FILES,
                NO_FILES_FIX,
                out_of_files,
            )

            if exc.errno == errno.ENOSPC and out_of_files(Path(target).parent):
                raise OperationFailed(f"cannot write {what} {shown}: {NO_FILES}. To go on, {NO_FILES_FIX}, or choose "
                                      "a folder on another disk.") from None
            why = "the disk is full" if exc.errno == errno.ENOSPC else "your disk quota is used up"
            raise OperationFailed(f"cannot write {what} {shown}: {why} there. Free some space, or choose a folder on "
                                  "another disk.") from None
        raise OperationFailed(f"cannot write {what} {shown}: {exc.strerror or exc}.") from None
    _kept(given)
    return given


def _kept(written: Path) -> None:
    """The file just written and its folder, as the next-step lines name them, never masked (27th pass (A) N2)."""
    for path in (written, written.absolute(), written.parent, written.absolute().parent):
        keep_local_path(path)


def write_destination(path: Path, text: str, *, what: str, mode: int = PRIVATE_MODE) -> Path:
    """`write_output_file` for a writer that says its own OSError (a lock's full disk is `NoRoom`): the same
    link rule (UserError), then the same atomic write; an OSError is raised as it is."""
    given = Path(expand_home(path))
    checked = refuse_swappable_destination(f"cannot write {what} {given}", given)
    target = refuse_link(checked, what)
    if _write_held(target, text):
        return target
    written = write_private_file(target, text, mode=mode)
    _kept(given)
    return written


#: A FIFO nothing reads: opening it to write would wait for a reader forever, without a word.
_NO_READER = ("it is a FIFO (a named pipe) that nothing is reading, and writing it would wait forever; start its "
              "reader first (e.g. `cat FIFO > FILE &`), or give the path of a file")
#: FIFOs a reader had when they were checked (`refuse_odd_target`), held open until written: a check that opened
#: and closed one would hand its reader an end of file, and the write would then wait for a reader that left.
_held: dict[tuple[int, int], int] = {}


def _is_fifo(path: Path) -> bool:
    try:
        return stat.S_ISFIFO(os.stat(path).st_mode)
    except (OSError, ValueError):
        return False


def refuse_odd_target(prefix: str, given: Path, target: Path | None = None) -> None:
    """Refuse (UserError, exit 2), before any work, an output path that is not a file to write: a FIFO nothing is
    reading, a socket, a block device; named by the path the user gave (`prefix given: why`). A character device
    (/dev/null, /dev/full, a terminal) is written into, as a shell's `>` would; a FIFO with a reader is held open
    here and written when the work is done (`_write_held`).

    Why one rule, before the work (24th hostile pass (part A) P10): `report --out FIFO` gathered the report and
    then waited forever, without a word, to open a FIFO nothing read; `lock --out /dev/null` resolved first, then
    refused naming "null". `target`: where `given` leads once its links are followed (`refuse_link`)."""
    target = given if target is None else target
    if OWN_DESCRIPTOR.match(str(target)):
        return  # `/dev/stdout`: a stream the user's shell opened for this very command, written into as it is
    try:
        info = os.stat(target)
    except (OSError, ValueError):
        return  # nothing there yet (the usual case), or said by the write with its own reason
    why = None
    if stat.S_ISFIFO(info.st_mode):
        if (info.st_dev, info.st_ino) in _held:
            return
        try:
            fd = os.open(target, os.O_WRONLY | os.O_NONBLOCK | os.O_NOCTTY)  # never waits for a reader
        except OSError as exc:
            if exc.errno != errno.ENXIO:
                return  # said by the write with its own reason
            why = _NO_READER
        else:
            os.set_blocking(fd, True)
            _held[(info.st_dev, info.st_ino)] = fd
    elif stat.S_ISSOCK(info.st_mode):
        why = "it is a socket, which takes no file; give the path of a file"
    elif stat.S_ISBLK(info.st_mode):
        why = "it is a block device (a disk or a partition), which gc-wizard never writes over; give the path of a file"
    if why:
        shown = given if Path(target) == Path(given) else f"{given} (a link to {target})"
        raise UserError(f"{prefix} {shown}: {why}.")


def _write_held(target: Path, text: str) -> bool:
    """Write `text` into the FIFO at `target` when `refuse_odd_target` holds it open (then close it); False when
    it does not, for the usual write."""
    try:
        info = os.stat(target)
    except (OSError, ValueError):
        return False
    fd = _held.pop((info.st_dev, info.st_ino), None)
    if fd is None:
        return False
    try:
        write_private_file(f"/proc/self/fd/{fd}", text)  # written into the open descriptor (`OWN_DESCRIPTOR`)
    finally:
        os.close(fd)
    return True


#: The parts of the state folder a file the user asked for may go into: module files (`module install`'s default).
_STATE_PLACES_FOR_USERS = ("modules",)


def refuse_folder_or_state(text: str, path: Path, what: str) -> None:
    """Refuse (UserError, exit 2) a destination that names a folder (`/`, `.`, `..`, an existing folder, a path
    ending in `/`) or a file the wizard keeps in its state folder (history.json, logs/, envs/, frozen/).

    Why: `report --out /` ended as "an error of its own (ValueError: PosixPath('/') has an empty name)" with a
    crash log, `--save-answers ..` as "Device or resource busy", `--out newd/` wrote a file named `newd`, and
    `report --out $GC_WIZARD_HOME/history.json` replaced the history, which the next start set aside as corrupt:
    logs, frozen sets and the way back lost (thirteenth hostile pass #51, #54-#56)."""
    if text.endswith(os.sep) or path.name in ("", ".", "..") or path.is_dir():
        raise UserError(f"cannot write {what} {text}: it names a folder; give the path of a file in it.")
    refuse_file_in_the_way(f"cannot write {what}", path, "give another path")
    refuse_state_path(path, what)


def file_in_the_way(path: Path, *, itself: bool = False) -> Path | None:
    """The nearest folder on the way to `path` (with `itself`, `path` too: a folder to write into) that exists but is
    not a folder — a regular file, a device — or None. Followed through links, as the kernel would."""
    given = Path(path).absolute()  # not normalised: `FILE/../x` fails in the kernel too, on FILE
    for place in ([given] if itself else []) + list(given.parents):
        try:
            info = os.stat(place)
        except FileNotFoundError:
            continue
        except OSError as exc:
            if exc.errno == errno.ENOTDIR:
                continue  # a file further up is in the way: found on the next step
            return None  # said by the write with its own reason
        return None if stat.S_ISDIR(info.st_mode) else place
    return None


def refuse_file_in_the_way(prefix: str, path: Path, fix: str, *, itself: bool = False) -> None:
    """Refuse (UserError, exit 2), before any work, a path to write whose way goes through a file (`--out FILE/x`),
    naming that file: `prefix path: FILE is a file, not a folder; fix or move that file.`

    Why one check for every path a user names to write (25th hostile pass (part A) P3): with a regular file where a
    folder had to be, `lock --out` said "the folder … does not exist", `report --out` "create it first" (a file was
    there), `bundle --out` "is not writable by you" (as root) and `--save-answers` a bare "File exists". `fix` says
    what to choose instead ("choose another --out"); `itself`: `path` is a folder to write into (a bundle's)."""
    found = file_in_the_way(path, itself=itself)
    if found is None:
        return
    try:
        regular = stat.S_ISREG(os.stat(found).st_mode)
    except OSError:
        regular = False
    kind = "a file, not a folder" if regular else "not a folder"  # a device or a socket: not "a file"
    raise UserError(f"{prefix} {path}: {found} is {kind}; {fix} or move that file.")


def check_output_file(path: str | os.PathLike[str], what: str) -> None:
    """Everything `write_output_file` will refuse about `path`, refused before the work that makes the text (a
    folder, the state folder, a FIFO nothing reads, a socket, a block device, a link): one sentence, exit 2."""
    given = Path(expand_home(path))
    refuse_folder_or_state(str(path), given, what)
    try:
        refuse_odd_target(f"cannot write {what}", given, refuse_link(given, what))
    except OSError:
        return  # a link loop: said by the write with its own reason


def refuse_state_path(path: Path, what: str) -> None:
    """`refuse_folder_or_state`'s second half, for a destination that may be a folder (`bundle --out`)."""
    state = Path(os.path.realpath(state_dir()))
    real = Path(os.path.realpath(path))
    if real == state or (state in real.parents and real.relative_to(state).parts[0] not in _STATE_PLACES_FOR_USERS):
        raise UserError(f"cannot write {what} {path}: it is inside gc-wizard's state folder {state}, which holds "
                        "its history, logs and environments; write it somewhere else.")


def refuse_linked_folders(root: Path, target: Path, what: str) -> None:
    """Refuse (UserError, exit 2) a folder between `root` — the place the user named, itself a link if they like —
    and `target` that is a symbolic link: the wizard makes those folders (`graphcast/` for module files, `kernels/`),
    and one a link replaced sends the file wherever it points (thirteenth hostile pass #4/#7: a module file was
    written into another user's folder through `DIR/graphcast -> …`)."""
    for folder in reversed(target.parents):
        if folder != root and root in folder.parents and folder.is_symlink():
            raise UserError(f"cannot write {what} {target}: {folder} is a symbolic link (to {os.readlink(folder)}), "
                            "and gc-wizard writes only into folders it made or you named; remove the link, or give "
                            "the folder it points to as the place itself.")


def refuse_link(path: Path, what: str) -> Path:
    """The path to write for `path`: `path` itself when it is no symlink, the device or FIFO a chain of links ends
    at (`/dev/stdout`); any other link is refused (UserError, exit 2), naming the link and its target.

    A loop or an unreadable link raises OSError (ELOOP: "Too many levels of symbolic links"), as the kernel
    would."""
    if not path.is_symlink():
        return path
    end = _through_links(path)
    if OWN_DESCRIPTOR.match(str(end)):
        # `/dev/stdout`, `/dev/fd/1`, `/proc/self/fd/1`: a stream the user's shell opened for this very command
        # (`> file`, `| tail`), which a link there always names; written into as the shell would (thirteenth
        # hostile pass #9-#11: `report --out /dev/stdout` was refused as "a symbolic link to pipe:[…]").
        return end
    try:
        kind = os.stat(end).st_mode
    except OSError:
        kind = None
    if kind is not None and not (stat.S_ISREG(kind) or stat.S_ISDIR(kind)):
        return end  # a device or a FIFO: written into, as a shell's `>` would
    raise UserError(f"cannot write {what} {path}: it is a symbolic link (to {end}), and gc-wizard never writes "
                    "through a link it did not make, since the file it points to may be anyone's; remove the link "
                    "or give the path of the file itself.")




def _through_links(path: Path) -> Path:
    """The file a chain of symlinks at `path` ends at (relative links resolved from their own folder); `path`
    itself when it is no link, and the descriptor when the chain reaches one of this process's (`/proc/self/fd/1`,
    whose own link names a pipe or the file the shell opened). A loop raises ELOOP (`Too many levels of symbolic
    links`), as the kernel would."""
    for _ in range(40):
        if not path.is_symlink() or OWN_DESCRIPTOR.match(str(path)):
            return path
        link = Path(os.readlink(path))
        path = link if link.is_absolute() else path.parent / link
    raise OSError(errno.ELOOP, os.strerror(errno.ELOOP), str(path))


def refuse_swappable(named: str, path: Path, runs: str, fix: str) -> None:
    """Refuse (UserError, exit 2), before anything is written, a file that runs code when it is used — a module
    file, a kernel spec, a lock, a bundle — in a place another local user could swap: under a folder, up to /,
    that every user can write without the sticky bit /tmp has (`paths.swappable_ancestor`, the rule `install
    --env` follows). Such a user renames the folder on the way and puts their own file there.

    Why: seventh hostile pass t24g P1/P2 — `module install --dir` into a 0777 folder and `kernel install` under a
    0777 JUPYTER_DATA_DIR/kernels wrote there without a word, and the next `module load` or notebook would have
    run whatever replaced them. `named` is how the user gave the place ("--dir", "JUPYTER_DATA_DIR's kernel
    spec"); `runs` says what would run it; `fix` says where to write instead."""
    # A folder the files go into (a bundle's --out) is on the way too: its files could be swapped inside it.
    shared = swappable_ancestor(path / "file" if path.is_dir() else path)
    if shared is None:
        return
    folder, why = shared
    where = ("it" if folder == path else f"its folder {folder}" if folder == path.parent
             else f"the folder {folder} above it")
    raise UserError(f"{named} {path}: {where} {why}, so any local user could put their own file in its place, "
                    f"which {runs}; {fix}.")


def check_out_folder(option: str, out: Path, *, runs: str | None = None, folder: bool = False) -> Path:
    """Refuse (exit 2), before any work, an `--out` the wizard cannot write: one sentence naming the option, the
    value and the folder it would be written in — the nearest folder of `out` that exists (`out` itself when it is
    an existing folder, as a bundle's may be).

    Why: `lock --out` on a read-only mount failed after the resolve, naming a temporary file beside the lock and
    the state folder's fix ("point GC_WIZARD_HOME at a writable folder", fourth hostile pass L2), neither of which
    the user gave or can act on. `runs`: what the written files would run (a lock's and a bundle's packages are
    installed from them), refused in a folder others can swap (`refuse_swappable`); `folder`: `out` is a folder to
    write into (a bundle's), so a file there is in the way (`refuse_file_in_the_way`). Returns where `out` is once
    the links on its way are followed (`source_trust.refuse_swappable_destination`): the path to write."""
    refuse_file_in_the_way(option, out, "choose another --out", itself=folder)
    refuse_state_path(out, option)
    # Nothing written through a link or folder on the way that another user can change (source_trust's rule); the
    # files themselves go through `write_destination`, which checks again and writes where the way leads.
    checked = refuse_swappable_destination(f"{option} {out}", out / "file" if out.is_dir() else out)
    checked = checked.parent if out.is_dir() else checked
    if runs is not None:
        refuse_swappable(option, out, runs, "choose an --out in a folder only you can write")
    if not out.is_dir():
        try:  # before the work, not after it (the rule of write_output_file)
            refuse_odd_target(option, out, refuse_link(out, f"{option}"))
        except OSError as exc:
            raise UserError(f"{option} {out}: {exc.strerror or exc}; choose another --out.") from None
    folder = out if out.is_dir() else out.parent
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    why = unwritable_folder(folder)
    if why:
        raise UserError(f"{option} {out}: the folder {folder} {why}; choose an --out in a folder you can write.")
    return checked


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
