"""Provides the state folder's lock, so two wizards never install into one state folder at once.

An `flock` on `wizard.lock`: the kernel drops it when the holder dies (a killed wizard, a dropped
SSH session), so a stale lock can never block the user. The holder writes who it is into the file
so the second wizard can say who holds it.
"""

from __future__ import annotations

import fcntl
import json
import os
import socket
import stat
import time
from pathlib import Path

from wizard import bounded, paths
from wizard.children import owner_words
from wizard.errors import LockHeld, UserError
from wizard.security import one_line


class _Flock:
    """What both locks share: release (the kernel drops an flock with its fd) and the `with` form."""

    _fd: int | None = None

    def acquire(self) -> None:
        raise NotImplementedError

    @staticmethod
    def _take(fd: int, busy: str) -> None:
        """flock `fd` without waiting; when another wizard holds it, close `fd` and raise LockHeld with `busy`
        (a sentence with `{holder}` where the file says who holds it)."""
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _read_holder(fd)
            os.close(fd)
            raise LockHeld(busy.format(holder=holder)) from None

    def release(self) -> None:
        if self._fd is not None:
            fcntl.flock(self._fd, fcntl.LOCK_UN)
            os.close(self._fd)
            self._fd = None

    def __enter__(self):
        self.acquire()
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


class StateLock(_Flock):
    """Exclusive, non-blocking lock on the state folder. Use as a context manager."""

    def __init__(self, purpose: str, path: Path | None = None) -> None:
        self.purpose = purpose
        self.path = path or paths.lock_path()
        self._fd: int | None = None

    def acquire(self) -> None:
        # Checked before the lock, changed only once it is held: a command the lock turns away changes no mode
        # in the state another wizard is working in (24th hostile pass (part B) N1).
        paths.ensure_state_dir(self.path.parent, tighten=False)
        fd = _open_lock_file(self.path)
        self._take(fd, f"Another gc-wizard is already working in {_braced(self.path.parent)} ({{holder}}). "
                       "Wait for it to finish, or stop it, then try again.")
        _write_holder(fd, self.purpose)
        os.fsync(fd)
        self._fd = fd
        try:
            paths.ensure_state_dir(self.path.parent, locked=True)
        except BaseException:
            self.release()
            raise


def _open_lock_file(path: Path) -> int:
    """Open (or make, 0600) a lock file, never through a symbolic link: the holder line is written into it, and
    a link planted at the lock's name (in a shared or world-writable folder) would have that line overwrite
    whatever file it points at, with the wizard's rights."""
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o600)
    except OSError:
        if path.is_symlink():
            raise UserError(f"the lock file {path} is a symbolic link (to {os.readlink(path)}); gc-wizard will not "
                            "write through it. Remove the link, then try again.") from None
        raise  # a read-only or full state folder: the faces' one sentence about the state folder says it
    if not stat.S_ISREG(os.fstat(fd).st_mode):  # a FIFO or device at the lock's name
        os.close(fd)
        raise UserError(f"the lock file {path} is not a regular file; remove it, then try again.")
    return fd


def _braced(path: Path) -> str:
    """A path for a `str.format` template: its own braces doubled (a folder may be named `{x}`)."""
    return str(path).replace("{", "{{").replace("}", "}}")


def _write_holder(fd: int, purpose: str) -> None:
    """Say who holds the lock, in the file, for the second wizard's message (`_read_holder`)."""
    os.ftruncate(fd, 0)
    os.write(fd, json.dumps({"pid": os.getpid(), "host": socket.gethostname(), "purpose": purpose,
                             "since": time.strftime("%Y-%m-%dT%H:%M:%S")}).encode())


#: The most characters of one holder field (host, purpose, time) the refusal quotes: the wizard writes a host name,
#: a command's purpose and a time, each far shorter.
HOLDER_FIELD_CHARS = 80
#: The largest process id Linux gives (`pid_max`'s ceiling, 2**22).
_PID_MAX = 4194304


def _read_holder(fd: int) -> str:
    """Who holds the lock, for the second wizard's refusal: the fields `_write_holder` writes, each only when it has
    the type written there (an int pid, text for host, purpose and time), on one line and cut short.

    Why (38th hostile pass (part B) P5): the file's words were printed as read, so a purpose holding a newline put
    a line of its own (`==> Installed OK: run curl … | sh`) into root's output, and a list, a dict or `1e400` was
    shown as Python's repr. A lock file that another user owns (a target lock beside `--env /tmp/X` is made in a
    folder every user can write) is not quoted at all: only its owner is named."""
    try:
        owner = os.fstat(fd).st_uid
        if owner != os.geteuid():
            return f"held by {owner_words(owner)}"
        os.lseek(fd, 0, os.SEEK_SET)
        info = bounded.loads_json(os.read(fd, 4096).decode() or "{}")
    except (OSError, ValueError):
        return "holder unknown"
    if not isinstance(info, dict):  # `[1]` or `"x"` written over the holder: not ours to trust
        return "holder unknown"
    pid, host, purpose, since = (info.get(name) for name in ("pid", "host", "purpose", "since"))
    who = " ".join(part for part in (
        f"pid {pid}" if type(pid) is int and 0 < pid <= _PID_MAX else "",
        f"on {_field(host)}" if _field(host) else "")
        if part)
    what = " ".join(part for part in (_field(purpose), f"since {_field(since)}" if _field(since) else "") if part)
    return ", ".join(part for part in (who, what) if part) or "holder unknown"


def _field(value: object) -> str:
    """One holder field as the refusal shows it: text only, on one line (`security.one_line`), at most
    `HOLDER_FIELD_CHARS` characters of it; "" for anything else."""
    if not isinstance(value, str) or not value.strip():
        return ""
    return one_line(value[:HOLDER_FIELD_CHARS] + ("…" if len(value) > HOLDER_FIELD_CHARS else ""))


class TargetLock(_Flock):
    """Exclusive lock on one target environment folder (`install --env DIR`), across state folders.

    Why: the state lock keeps two wizards of one state folder apart, but two users (or one user with
    two `GC_WIZARD_HOME`s) can point `--env` at the same folder; two installers writing one
    site-packages leave it broken. The lock is an `flock` on `.<name>.gc-wizard.lock` beside the
    folder (the folder itself may not exist yet, and a file inside it would make it non-empty). The
    file is removed on release; a holder re-checks after locking that the file it locked is still the
    one at the path, so a release racing an acquire never leaves two holders.
    """

    def __init__(self, env: Path, purpose: str) -> None:
        self.env = Path(env).absolute()
        self.path = self.env.parent / f".{self.env.name}.gc-wizard.lock"
        self.purpose = purpose
        self._fd: int | None = None

    def acquire(self) -> None:
        while True:
            fd = _open_lock_file(self.path)
            self._take(fd, f"Another gc-wizard is already installing into {_braced(self.env)} ({{holder}}). Wait "
                           "for it to finish, or choose another folder.")
            try:
                same = os.fstat(fd).st_ino == os.stat(self.path).st_ino
            except FileNotFoundError:
                same = False
            if same:
                break
            os.close(fd)  # the previous holder removed it between our open and our lock: try again
        _write_holder(fd, self.purpose)
        self._fd = fd

    def release(self) -> None:
        if self._fd is not None:
            try:
                os.unlink(self.path)
            except OSError:
                pass
        super().release()
