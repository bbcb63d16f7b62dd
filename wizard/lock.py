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
import time
from pathlib import Path

from wizard import paths
from wizard.errors import LockHeld


class StateLock:
    """Exclusive, non-blocking lock on the state folder. Use as a context manager."""

    def __init__(self, purpose: str, path: Path | None = None) -> None:
        self.purpose = purpose
        self.path = path or paths.lock_path()
        self._fd: int | None = None

    def acquire(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _read_holder(fd)
            os.close(fd)
            raise LockHeld(
                f"Another gc-wizard is already working in {self.path.parent} ({holder}). "
                "Wait for it to finish, or stop it, then try again."
            ) from None
        os.ftruncate(fd, 0)
        info = {
            "pid": os.getpid(),
            "host": socket.gethostname(),
            "purpose": self.purpose,
            "since": time.strftime("%Y-%m-%dT%H:%M:%S"),
        }
        os.write(fd, json.dumps(info).encode())
        os.fsync(fd)
        self._fd = fd

    def release(self) -> None:
        if self._fd is not None:
            fcntl.flock(self._fd, fcntl.LOCK_UN)
            os.close(self._fd)
            self._fd = None

    def __enter__(self) -> StateLock:
        self.acquire()
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


def _read_holder(fd: int) -> str:
    try:
        os.lseek(fd, 0, os.SEEK_SET)
        info = json.loads(os.read(fd, 4096).decode() or "{}")
        return f"pid {info.get('pid')} on {info.get('host')}, {info.get('purpose')} since {info.get('since')}"
    except (OSError, ValueError):
        return "holder unknown"
