"""Which disk is full when a write names no path: the places gc-wizard writes in, with links resolved, and the one
whose file system has no room left (`full_disk_words`).

Why: a write through an open file (a log, a download) that fails with ENOSPC or EDQUOT names no file. The sentence
named "the state folder or /tmp", but the state's own folders may be links to other disks (the README allows
`logs -> /scratch/me/logs`): with `logs/` on a full disk, both folders named had room and the `df` it suggested
showed nothing full (twenty-first hostile pass P8). So every place is looked at where it really is, and the full one
is named with its file system and mount point.

Only read when such a write fails (error_sentences.describe_os_error imports it then), so it costs nothing at start-up.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from wizard import paths
from wizard.paths import mount_of
from wizard.security import shell_word, shown_path

#: Below this much free space (or with no free inode) a file system counts as full: a write of a log line or a
#: wheel's next block fails there.
ROOM = 1 << 20


def write_places() -> list[tuple[str, Path]]:
    """(how the user knows it, real folder) of every place gc-wizard writes in: the state folder, each folder in it
    that is a link to another place (`logs`, `envs`, `assets`, …) where it leads, and the temporary folder."""
    state = paths.state_dir()
    places = [(f"the state folder {shown_path(state)}", Path(os.path.realpath(state)))]
    try:
        with os.scandir(state) as entries:
            links = sorted(Path(e.path) for e in entries if e.is_symlink())
    except OSError:
        links = []
    for link in links:
        if link.is_dir():
            places.append((f"the state's {shown_path(link.name)}/ (a link to {shown_path(os.path.realpath(link))})",
                           Path(os.path.realpath(link))))
    # TMPDIR as set: `tempfile.gettempdir()` passes over a folder it cannot write a file in — a full one — and named
    # /tmp instead of the TMPDIR that was full (22nd hostile pass P7).
    tmp = os.environ.get("TMPDIR") or tempfile.gettempdir()
    places.append((f"the temporary folder {shown_path(tmp)}", Path(os.path.realpath(tmp))))
    return places


def _is_full(folder: Path) -> bool:
    try:
        info = os.statvfs(folder)
    except OSError:
        return False
    if not info.f_blocks:  # no disk at all (/proc, /sys: `paths.pseudo_words`), never the full one
        return False
    return info.f_bavail * info.f_frsize < ROOM or out_of_files(folder)


def nearest_existing(path: str | os.PathLike[str]) -> Path:
    """`path`, or the nearest folder above it that exists: the file system a write there would land on."""
    place = Path(path)
    while not place.exists() and place != place.parent:
        place = place.parent
    return place


def out_of_files(folder: str | os.PathLike[str]) -> bool:
    """Whether the file system of `folder` (or of the nearest folder above it that exists) has room but no free
    inode: no file can be made there while `df -h` shows it nearly empty. Home and project folders on clusters have
    a file-count limit as well as a byte one, and environments (tens of thousands of small files) are what reach it;
    "the disk is full" with `df -h` at 1% sent the user looking in the wrong place (22nd hostile pass P5)."""
    try:
        info = os.statvfs(nearest_existing(folder))
    except OSError:
        return False
    # a file system without inode counts (btrfs) says 0 files
    return info.f_files > 0 and info.f_favail == 0 and info.f_bavail * info.f_frsize >= ROOM


def rewrite_needs(path: str) -> str | None:
    """For a file that could not be written anew for want of room while its disk still has some: "the disk has 7.3 MB
    free, less than the 8.8 MB it takes to write history.json anew beside the old one"; None when the disk is full or
    the file is not there. Files are rewritten whole beside themselves (`write_private_file`), so a big history needs
    its own size free: "the disk is full" with `df -h` at 55% sent the user looking elsewhere (22nd pass P7)."""
    try:
        size = os.stat(path).st_size
        info = os.statvfs(os.path.dirname(path) or ".")
    except OSError:
        return None
    free = info.f_bavail * info.f_frsize
    if free < ROOM or size <= free:
        return None
    return (f"the disk has {_megabytes(free)} free, less than the {_megabytes(size)} it takes to write "
            f"{os.path.basename(path)} anew beside the old one")


def _megabytes(size: int) -> str:
    return f"{size / 1e6:,.1f} MB"


#: What ENOSPC means on a file system out of inodes: the one wording every sentence uses.
NO_FILES = ("no more files can be made there: its file system has room, but its count of files (inodes) is used up, "
            "as `df -i` shows")
NO_FILES_FIX = "remove files you no longer need there (old environments: `gc-wizard history` lists them, `gc-wizard remove ENTRY_ID` deletes one)"


def no_room_advice(text: str) -> str | None:
    """For a child's failure that quotes ENOSPC or EDQUOT (`No space left on device (os error 28) at path "…"`):
    which disk, and whether it is out of room or out of files; None when `text` quotes neither."""
    import errno
    import re  # deferred: only a failure that quotes a full disk needs it

    why = next((words for code, words in ((errno.ENOSPC, "the disk is full"), (errno.EDQUOT, "your disk quota is used up"))
                if os.strerror(code) in text), None)  # the C library's words, as a child prints them
    if why is None:
        return None
    # uv: `at path "…"`, `Failed to copy to `…``; pip and others: `… to '…'`, `cannot create '…'`
    places = [m.group(1) or m.group(2) for m in re.finditer(
        r"at path \"([^\"\n]+)\"|(?:to|create|write|open|file|directory) [`'\"](/[^`'\"\n]+)[`'\"]", text)]
    place = next((p for p in reversed(places) if p), None)
    if place is None:
        return f"The installer stopped because {why}; `df -h` and `df -i` on the folders it writes in show which."
    folder = os.path.dirname(place.rstrip("/")) or "/"
    existing = nearest_existing(folder)  # the failed step's folders may be gone already
    mount = mount_of(existing)
    disk = (f"the {mount[1]} file system mounted at {shown_path(mount[0])}" if mount
            else f"the disk of {shown_path(existing)}")
    if why == "the disk is full" and out_of_files(existing):
        return (f"The installer stopped because no more files can be made on {disk}: it has room, but its count of "
                f"files (inodes) is used up (`df -i {shell_word(mount[0] if mount else str(existing))}`); {NO_FILES_FIX}, or use another disk.")
    return (f"The installer stopped because {why} on {disk} (`df -h {shell_word(str(existing))}`); free some space "
            "there, or use another disk.")


def full_disk_words(what: str) -> tuple[str, str]:
    """(where, fix) for a write that failed with `what` ("the disk is full") and named no file: the place(s) whose
    file system has no room, with their mount, else every place gc-wizard writes in with the `df` that tells."""
    places = write_places()
    seen: set[int] = set()
    full = []
    for name, folder in places:
        try:
            device = os.stat(folder).st_dev
        except OSError:
            continue
        if device not in seen and _is_full(folder):
            seen.add(device)
            full.append((name, folder))
    if full:
        said = []
        for name, folder in full:
            mount = mount_of(folder)
            on = f", on the {mount[1]} file system mounted at {shown_path(mount[0])}" if mount else ""
            files = out_of_files(folder)
            said.append(f"{name}{on} (`df -{'i' if files else 'h'} {shell_word(str(folder))}`"
                        + (": it has room, but no more files can be made there, its count of files (inodes) is used up)"
                           if files else ")"))
        linked = [name for name, _ in full if name.startswith("the state's ")]
        state_full = any(name == places[0][0] for name, _ in full)  # the state's own disk: TMPDIR moves none of it
        fix = ("free some space there, or point that link at a folder on another disk" if linked
               else "free some space there, or point GC_WIZARD_HOME at another disk" if state_full
               else "free some space there, or point TMPDIR at a folder on another disk")
        return f"{what} — the disk of {' and of '.join(said)} has no room left", fix
    folders = " ".join(shell_word(str(folder)) for _, folder in places)
    names = ", ".join(name for name, _ in places)
    return (f"{what} — the disk of one of the places gc-wizard writes in: {names} (`df -h {folders}` shows which; "
            "`df -i` shows a disk out of inodes, full while it has room)",
            "free some space there, or point GC_WIZARD_HOME at another disk")


def disk_words(where: str | os.PathLike[str]) -> str:
    """The disk a write to `where` went to, for a full one: "it is on the tmpfs file system mounted at /mnt/x (`df -h
    /mnt/x/out`)", from the nearest folder of it that is still there (a failed bundle's folder is removed by then)."""
    folder = nearest_existing(os.path.dirname(os.path.abspath(where)) or "/")
    mount = mount_of(folder)
    on = f"the {mount[1]} file system mounted at {shown_path(mount[0])}" if mount else f"the disk of {shown_path(folder)}"
    return f"it is on {on} (`df -h {shell_word(str(folder))}`)"


def through_a_link(where: str, state: str) -> str | None:
    """For a path in the state folder that a link in it leads elsewhere (`state/logs/x.log` with `logs -> /d/logs`):
    "it is /d/logs/x.log, through a link in the state folder, on the tmpfs file system mounted at /d (`df -h
    /d/logs`)"; None when it stays in the state's own folder (whose disk the state folder's sentence names)."""
    real_state = os.path.realpath(state)
    real = os.path.realpath(where)
    if real == real_state or real.startswith(real_state.rstrip("/") + "/"):
        return None
    folder = real if os.path.isdir(real) else os.path.dirname(real)
    mount = mount_of(Path(folder))
    on = f", on the {mount[1]} file system mounted at {shown_path(mount[0])}" if mount else ""
    return f"it is {shown_path(real)}, through a link in the state folder{on} (`df -h {shell_word(folder)}`)"
