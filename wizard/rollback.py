"""Guided rollback: make a previous working environment current again, re-checked, deleting nothing.

Managed environments live side by side, so a rollback is a switch, not a reinstall. If the target's
folder was deleted, it is rebuilt from its frozen package set (offline from uv's cache first, then
online). An in-place install is undone by syncing the environment back to the package set saved
before the wizard touched it. The target is verified *before* it becomes current: a rollback that
fails leaves the current environment as it was.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from wizard import envs, paths
from wizard.errors import OperationFailed, UserError
from wizard.history import GOOD, Entry, History, load_history, new_id, now
from wizard.lock import StateLock


@dataclass
class RollbackResult:
    ok: bool
    from_id: str | None
    to_id: str
    env: str
    verify: dict | None
    rebuilt: bool = False
    restored: bool = False
    error: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"ok": self.ok, "from": self.from_id, "to": self.to_id, "env": self.env, "verify": self.verify,
                "rebuilt": self.rebuilt, "restored": self.restored, "error": self.error}


def choose_target(history: History, entry_id: str | None) -> Entry:
    """The entry to go back to: the one named, else the newest good install that is not current."""
    current = history.current()
    if entry_id:
        target = history.get(entry_id)
        if target is None:
            raise UserError(f"There is no history entry {entry_id!r}; see `gc-wizard history`.")
        if target.kind != "install":
            raise UserError(f"Entry {entry_id} is a {target.kind}, not an install; pick an install entry.")
        if target.status not in GOOD:
            raise UserError(f"Entry {entry_id} {target.status}; only an installed or verified environment can be "
                            "rolled back to.")
        return target
    for entry in reversed(history.entries):
        if entry.kind == "install" and entry.status in GOOD and entry is not current and (
                current is None or entry.env != current.env):
            return entry
    if current is not None and current.mode == "in-place" and current.snapshot is not None:
        return current  # undo the in-place install itself
    raise UserError("There is no previous working environment to roll back to (see `gc-wizard history`).")


def describe_change(current: Entry | None, target: Entry) -> list[str]:
    """What a rollback will change, for the confirmation question."""
    def line(label: str, entry: Entry | None, packages: list[str]) -> str:
        if entry is None:
            return f"{label}: (none)"
        versions = envs.key_versions(packages)
        shown = ", ".join(f"{k} {v}" for k, v in versions.items() if k != "graphcast") or "versions unknown"
        return f"{label}: {entry.recipe} [{entry.id}] — {shown}\n         {entry.env}"

    undo = target is current
    lines = [line("current", current, current.packages if current else [])]
    lines.append(line("target ", target, (target.snapshot or []) if undo else target.packages))
    if undo:
        lines.append("This restores the environment's packages as they were before the in-place install.")
    return lines


def _uv() -> str:
    from uv import find_uv_bin

    return find_uv_bin()


def _sync(env: Path, packages: list[str], find_links: list[str] = ()) -> None:
    """Make the env's package set exactly `packages`: offline from uv's cache first, then online."""
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as handle:
        handle.write("\n".join(packages) + "\n")
    errors = []
    links = [arg for link in find_links for arg in ("--find-links", link)]
    for extra in (["--offline"], []):
        proc = subprocess.run([_uv(), "pip", "sync", "--python", str(envs.env_python(env)), *links, *extra,
                               handle.name],
                              capture_output=True, text=True, timeout=1800)
        if proc.returncode == 0:
            Path(handle.name).unlink(missing_ok=True)
            return
        errors.append(proc.stderr.strip().splitlines()[-1] if proc.stderr.strip() else f"exit {proc.returncode}")
    Path(handle.name).unlink(missing_ok=True)
    raise OperationFailed(f"Could not restore the package set of {env}: {' / '.join(errors)}")


def _rebuild(target: Entry) -> None:
    env = Path(target.env)
    python = target.python if target.python and Path(target.python).exists() else sys.executable
    proc = subprocess.run([_uv(), "venv", "--python", python, str(env)], capture_output=True, text=True, timeout=300)
    if proc.returncode != 0:
        raise OperationFailed(f"Could not recreate {env}: {proc.stderr.strip()}")
    _sync(env, target.packages, target.find_links)


def rollback(entry_id: str | None = None, *, verify: bool = True, level: str = "notebook",
             cancel: threading.Event | None = None, confirm=None) -> RollbackResult:
    """Switch back to `entry_id` (default: the previous good one). `confirm(lines) -> bool` may veto."""
    with StateLock("rollback"):
        history = load_history()
        current = history.current()
        target = choose_target(history, entry_id)
        if confirm is not None and not confirm(describe_change(current, target)):
            raise UserError("Rollback not confirmed; nothing changed.")
        env = Path(target.env)
        record = history.add(Entry(id=new_id(), kind="rollback", recipe=target.recipe, env=target.env,
                                   target=target.id, mode=target.mode))
        history.save()
        rebuilt = restored = False
        try:
            if target is current:
                _sync(env, target.snapshot or [], target.find_links)
                restored = True
            elif not envs.env_python(env).exists():
                _rebuild(target)
                rebuilt = True
            elif target.mode == "in-place" and envs.freeze(env) != sorted(target.packages):
                _sync(env, target.packages, target.find_links)
                restored = True
        except OperationFailed as exc:
            record.status, record.error, record.finished = "failed", str(exc), now()
            history.save()
            return RollbackResult(False, current.id if current else None, target.id, target.env, None,
                                  rebuilt, restored, str(exc))
        verify_dict = None
        if verify and target is not current:
            from wizard.verify import verify_env

            marker = envs.read_marker(env) or {}
            result = verify_env(env, backend=marker.get("backend", "auto"), level=level,
                                runtime_env=marker.get("runtime_env"), cancel=cancel,
                                log_path=paths.logs_dir() / f"rollback-{record.id}.log")
            verify_dict = result.to_dict()
            if not result.ok:
                record.status, record.finished = "failed", now()
                record.error = "the target environment failed its GraphCast check; the current one is unchanged"
                history.save()
                return RollbackResult(False, current.id if current else None, target.id, target.env, verify_dict,
                                      rebuilt, restored, record.error)
        if target is current:
            target.status = "installed"  # its recipe was removed again: it is the pre-install env now
            target.recipe = f"(before {target.recipe})"
        else:
            history.make_current(target)
        record.status = "verified" if verify_dict and verify_dict.get("ok") else "installed"
        record.finished = now()
        from wizard.install import verify_summary

        record.verify = verify_summary(verify_dict)
        history.save()
        return RollbackResult(True, current.id if current else None, target.id, target.env, verify_dict,
                              rebuilt, restored)


def remove(entry_id: str, *, confirm=None) -> dict[str, Any]:
    """Delete a managed, non-current environment's folder (its history entry stays, marked removed)."""
    with StateLock("remove"):
        history = load_history()
        entry = history.get(entry_id)
        if entry is None:
            raise UserError(f"There is no history entry {entry_id!r}; see `gc-wizard history`.")
        if entry.current or (history.current() and history.current().env == entry.env):
            raise OperationFailed(f"{entry.env} is the current environment; roll back to another one first.")
        env = Path(entry.env).resolve()
        if paths.envs_dir().resolve() not in env.parents:
            raise OperationFailed(f"{env} is not a managed environment (not under {paths.envs_dir()}); "
                                  "gc-wizard only deletes environments it created.")
        if confirm is not None and not confirm(f"Delete {env} ({envs.disk_usage(env) / 2**30:.1f} GiB)?"):
            raise UserError("Not confirmed; nothing deleted.")
        freed = envs.disk_usage(env) if env.exists() else 0
        shutil.rmtree(env, ignore_errors=True)
        entry.error = (entry.error or "") + " [environment removed]"
        history.save()
        return {"ok": True, "entry_id": entry.id, "env": str(env), "freed_bytes": freed}
