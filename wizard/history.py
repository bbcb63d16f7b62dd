"""Keeps `history.json`: every install, verify and rollback, and which environment is current.

Why it is boring on purpose: a user must always be able to get back to what worked. So the file is
written atomically (temp file, fsync, rename) by callers holding the state lock; a corrupt file is
moved aside with a warning — never a traceback, never silently emptied; and a run that died mid-way
(the wizard killed, the SSH session dropped) is still "running" in the file with a dead pid: the next
load marks it failed and interrupted. "Current" flips only when an install or rollback succeeded.
"""

from __future__ import annotations

import json
import os
import secrets
import socket
import time
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

from wizard import paths

STATUSES = ("verified", "installed", "failed", "cancelled", "running")
GOOD = ("verified", "installed")
INTERRUPTED = "interrupted: the wizard stopped before finishing (killed, or the SSH session dropped)"


def now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S")


def new_id() -> str:
    return time.strftime("%Y%m%d-%H%M%S-") + secrets.token_hex(2)


@dataclass
class Entry:
    id: str
    kind: str
    """"install", "verify" or "rollback"."""
    recipe: str
    env: str
    status: str = "running"
    current: bool = False
    started: str = field(default_factory=now)
    finished: str | None = None
    log: str | None = None
    packages: list[str] = field(default_factory=list)
    """The environment's exact package set (a frozen requirements list) once installed."""
    verify: dict | None = None
    """A summary of the verify run: ok, backend, failed tier, param_count, finding ids."""
    mode: str = "new"
    snapshot: list[str] | None = None
    """In-place installs: the environment's package set before the wizard changed it."""
    error: str | None = None
    pid: int = field(default_factory=os.getpid)
    host: str = field(default_factory=socket.gethostname)
    interrupted: bool = False
    target: str | None = None
    """Rollbacks: the entry rolled back to."""
    find_links: list[str] = field(default_factory=list)
    """Where the install found packages besides the index (a rebuild looks there again)."""
    python: str | None = None
    """The interpreter the environment was built with (to rebuild it if its folder is deleted)."""

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Entry:
        known = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in data.items() if k in known})


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:  # a zombie is dead for our purposes
        with open(f"/proc/{pid}/stat") as handle:
            return handle.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return True


class History:
    def __init__(self, path: Path, entries: list[Entry], warnings: list[str]) -> None:
        self.path = path
        self.entries = entries
        self.warnings = warnings

    def current(self) -> Entry | None:
        return next((e for e in self.entries if e.current), None)

    def get(self, entry_id: str) -> Entry | None:
        return next((e for e in self.entries if e.id == entry_id), None)

    def add(self, entry: Entry) -> Entry:
        self.entries.append(entry)
        return entry

    def make_current(self, entry: Entry) -> None:
        for other in self.entries:
            other.current = other is entry

    def save(self) -> None:
        """Atomic write: readers see the old file or the new one, never half of either."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_name(f".{self.path.name}.{os.getpid()}.tmp")
        data = {"version": 1, "entries": [e.to_dict() for e in self.entries]}
        with open(tmp, "w", encoding="utf-8") as handle:
            json.dump(data, handle, indent=1)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, self.path)

    def to_list(self) -> list[dict[str, Any]]:
        return [e.to_dict() for e in self.entries]


def load_history(path: Path | None = None) -> History:
    """Read history.json; set a corrupt one aside (with a warning) and mark interrupted runs."""
    path = path or paths.history_path()
    warnings: list[str] = []
    entries: list[Entry] = []
    if path.exists():
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            if not isinstance(data, dict) or not isinstance(data.get("entries"), list):
                raise ValueError("it has no list of entries")
            entries = [Entry.from_dict(e) for e in data["entries"]]
        except (OSError, ValueError, TypeError, UnicodeDecodeError) as exc:
            aside = path.with_name(f"{path.name}.corrupt-{time.strftime('%Y%m%d-%H%M%S')}")
            try:
                os.replace(path, aside)
                warnings.append(f"{path} could not be read ({exc}); it was moved to {aside} and a fresh "
                                "history started. Your environments are untouched.")
            except OSError as move_error:
                warnings.append(f"{path} could not be read ({exc}) nor moved aside ({move_error}).")
            entries = []
    history = History(path, entries, warnings)
    host = socket.gethostname()
    changed = False
    for entry in history.entries:
        if entry.status == "running" and entry.host == host and not _pid_alive(entry.pid):
            entry.status, entry.interrupted, entry.error = "failed", True, INTERRUPTED
            entry.current = False
            entry.finished = entry.finished or now()
            changed = True
    if sum(e.current for e in history.entries) > 1:  # never more than one current: keep the newest
        currents = [e for e in history.entries if e.current]
        for entry in currents[:-1]:
            entry.current = False
        changed = True
    if changed:
        try:
            history.save()
        except OSError:
            pass
    return history
