"""Guided rollback: make a previous working environment current again, re-checked, deleting nothing.

Why it is a switch and not conda-style revision surgery: managed environments live side by side, so
going back is flipping which one is current. Only when the target's folder was deleted is it rebuilt,
from its frozen package set (hash-pinned when the install could record hashes): offline from uv's
cache first, then online. A rebuilt or re-synced target is verified *before* it becomes current, so a
rollback that fails leaves the current environment as it was. Nothing is deleted by a rollback;
`remove` is the one explicit, confirmed way to delete an environment, and never the current one.

In-place installs (`install --env EXISTING`) saved the environment's package set before changing it.
Rolling back *that* install ("undo") syncs the environment back to exactly that set — the frozen
versions reinstalled, what the recipe added uninstalled — and puts back the env marker it had. An
undo is not verified: it restores what the user had, which gc-wizard never checked either.

Which target without an id: the undo of the current install when it was made in place, else the
install that was current just before the current one (what "previous" means to the user), else the
newest verified install that is not current (in another folder), else the newest installed one.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import threading
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from wizard import paths
from wizard.children import die_with_parent
from wizard.errors import OperationFailed, UserError
from wizard.history.store import GOOD, Entry, History, load_history, now
from wizard.install import envs
from wizard.lock import StateLock

if TYPE_CHECKING:
    from wizard.verify.check import VerifyResult

_LABELS = {"nvidia-cudnn-cu12": "cuDNN", "nvidia-cudnn-cu11": "cuDNN"}


@dataclass
class RollbackResult:
    ok: bool
    from_id: str | None
    to_id: str
    env: str
    verify: VerifyResult | None
    rebuilt: bool = False
    restored: bool = False
    error: str | None = None
    cancelled: bool = False
    entry_id: str | None = None
    """The rollback's own history entry."""
    changes: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"ok": self.ok, "from": self.from_id, "to": self.to_id, "env": self.env,
                "verify": self.verify.to_dict() if self.verify is not None else None,
                "rebuilt": self.rebuilt, "restored": self.restored, "error": self.error,
                "cancelled": self.cancelled, "entry_id": self.entry_id, "changes": self.changes}


@dataclass
class Target:
    entry: Entry
    undo: bool = False
    """Restore the package set `entry` found before it changed the environment (in-place installs)."""

    @property
    def packages(self) -> list[str]:
        return list(self.entry.snapshot or []) if self.undo else list(self.entry.packages)


def _undoable(entry: Entry) -> bool:
    return entry.kind == "install" and entry.mode == "in-place" and entry.snapshot is not None


def check_target(history: History, entry_id: str | None) -> Target:
    """What a rollback goes back to — the entry named, else the previous good one (see the module
    docstring) — or one UserError sentence saying why it cannot. The one eligibility rule: the CLI's
    rollback and the terminal app (before it asks the user to confirm) both ask it."""
    current = history.current()
    if entry_id:
        entry = history.get(entry_id)
        if entry is None:
            raise UserError(f"There is no history entry {entry_id!r}; see `gc-wizard history`.")
        if entry.kind != "install":
            raise UserError(f"Entry {entry_id} is a {entry.kind}, not an install; pick an install entry.")
        if entry.current:
            if _undoable(entry):
                return Target(entry, undo=True)
            raise UserError(f"Entry {entry_id} is already the current environment; nothing to roll back.")
        if entry.status in GOOD:
            return Target(entry)
        if _undoable(entry):  # a failed or interrupted in-place install: put its environment back
            return Target(entry, undo=True)
        raise UserError(f"Entry {entry_id} {entry.status}; only an installed or verified environment can be "
                        "rolled back to.")
    if current is not None and _undoable(current):
        return Target(current, undo=True)
    # The environment that was current before this one, when it is still there and good.
    before = history.get(current.previous_current) if current is not None and current.previous_current else None
    if before is not None and before.kind == "install" and before.status in GOOD and not before.removed \
            and before.env != current.env and Path(before.env).is_dir():
        return Target(before)
    others = [e for e in history.good_installs() if not e.current and (current is None or e.env != current.env)]
    best = next((e for e in others if e.status == "verified"), None) or next(iter(others), None)
    if best is None:
        raise UserError("There is no previous working environment to roll back to (see `gc-wizard history`).")
    return Target(best)


def _versions(packages: list[str]) -> str:
    found = envs.key_versions(packages)
    shown = [f"{_LABELS.get(name, name)} {version}" for name, version in found.items() if name != "graphcast"]
    return ", ".join(shown) or "versions unknown"


def describe_change(current: Entry | None, target: Entry | Target, *, undo: bool = False) -> list[str]:
    """What a rollback will change (current and target: recipe, key versions, path), for the question."""
    if isinstance(target, Target):
        target, undo = target.entry, target.undo
    lines = []
    if current is None:
        lines.append("current: (none)")
    else:
        lines += [f"current: {current.recipe} [{current.id}] — {_versions(current.packages)}",
                  f"         {current.env}"]
    if undo:
        lines += [f"target : {target.env} as it was before {target.recipe} [{target.id}] — "
                  f"{_versions(target.snapshot or [])}",
                  f"         {target.env}",
                  f"This reinstalls the {len(target.snapshot or [])} packages it had and removes what the "
                  "install added."]
    else:
        lines += [f"target : {target.recipe} [{target.id}] — {_versions(target.packages)}", f"         {target.env}"]
        if not envs.env_python(target.env).exists():
            lines.append("Its folder is gone: it will be rebuilt from its frozen package set (offline from the "
                         "installer's cache when possible).")
    lines.append("Nothing is deleted; the current environment stays on disk.")
    return lines


def _known_interpreter(path: str) -> bool:
    """Whether `path` is an interpreter this machine has anyway (the wizard's own, one on PATH or pyenv's).

    history.json is data, not code: an entry naming `/tmp/x/python` must not make a rollback run it.
    The interpreters found the usual way are the only ones a rebuild runs; any other falls back to the
    entry's version number, which uv resolves itself.
    """
    import sys

    from wizard.recipes.pythons import find_pythons

    try:
        wanted = Path(path).resolve()
    except (OSError, ValueError):
        return False
    if not wanted.is_file():
        return False
    if wanted == Path(sys.executable).resolve():
        return True
    return any(Path(choice.executable).resolve() == wanted for choice in find_pythons())


def _rebuild(target: Entry) -> str:
    """Recreate a deleted environment from its frozen package set; returns "offline"/"online"."""
    from uv import find_uv_bin

    env = Path(target.env)
    if target.python and _known_interpreter(target.python):
        python = target.python
    elif target.python_version and re.fullmatch(r"3\.\d{1,2}(\.\d{1,3})?", target.python_version):
        python = target.python_version  # uv finds (or fetches) a matching interpreter
    else:
        raise OperationFailed(f"cannot rebuild {env}: the Python it was built with ({target.python}) is gone.")
    proc = subprocess.run([find_uv_bin(), "venv", "--quiet", "--python", python, str(env)],
                          capture_output=True, text=True, timeout=600, preexec_fn=die_with_parent())
    if proc.returncode != 0:
        raise OperationFailed(f"could not recreate {env}: {proc.stderr.strip()}")
    how = envs.sync(env, target.packages, find_links=target.find_links, requirements_file=target.requirements_file)
    if target.marker:
        envs.write_marker(env, target.marker)
    return how


def rollback(entry_id: str | None = None, *, verify: bool = True, level: str = "notebook",
             cancel: threading.Event | None = None,
             confirm: Callable[[list[str]], bool] | None = None,
             on_message: Callable[[str], None] | None = None) -> RollbackResult:
    """Go back to `entry_id` (default: the previous good one). `confirm(lines) -> bool` may veto."""
    say = on_message or (lambda _text: None)
    with StateLock("rollback"):
        history = load_history(locked=True)
        current = history.current()
        target = check_target(history, entry_id)
        entry = target.entry
        changes = describe_change(current, target)
        if confirm is not None and not confirm(changes):
            raise UserError("Rollback not confirmed; nothing changed.")
        record = history.add(Entry(
            id=history.new_entry_id(), kind="rollback", env=entry.env, target=entry.id, mode=entry.mode,
            recipe=f"(before {entry.recipe})" if target.undo else entry.recipe,
            python=entry.python, python_version=entry.python_version, find_links=list(entry.find_links)))
        record.log = str(paths.new_log("rollback", record.id))
        history.save()
        from_id = current.id if current else None

        def done(status: str, *, error: str | None = None, checked: VerifyResult | None = None, rebuilt=False,
                 restored=False) -> RollbackResult:
            record.status, record.error, record.finished = status, error, now()
            record.verify = checked.summary() if checked is not None else None
            history.save()
            return RollbackResult(status in GOOD, from_id, entry.id, entry.env, checked, rebuilt, restored,
                                  error, status == "cancelled", record.id, changes)

        try:
            return _switch(history, record, target, current, verify=verify, level=level, cancel=cancel, say=say,
                           done=done)
        except KeyboardInterrupt:
            # Ctrl-C, SIGTERM or SIGHUP (the CLI raises them as KeyboardInterrupt): the current environment
            # stays current, an environment this rollback was rebuilding from nothing is removed again,
            # and the entry says what happened.
            if record.extra.pop("rebuilding", False):
                shutil.rmtree(entry.env, ignore_errors=True)
            record.status, record.finished = "cancelled", now()
            record.error = "stopped by a signal; the current environment is unchanged."
            history.save()
            raise


def _same_set(found: list[str], frozen: list[str]) -> bool:
    def norm(lines: list[str]) -> list[str]:
        return sorted(line.strip().lower().replace("_", "-") for line in lines if line.strip())

    return norm(found) == norm(frozen)


def _switch(history: History, record: Entry, target: Target, current: Entry | None, *, verify: bool, level: str,
            cancel: threading.Event | None, say: Callable[[str], None], done) -> RollbackResult:
    """The rollback's work once its entry is recorded (see `rollback`)."""
    entry = target.entry
    env = Path(entry.env)
    rebuilt = restored = False
    before: tuple[list[str], envs.EnvMarker | None] | None = None
    try:
        if target.undo:
            say(f"restoring the package set {env} had before {entry.recipe}")
            envs.sync(env, target.packages, find_links=entry.find_links)
            envs.restore_marker(env, entry.previous_marker)
            restored = True
        elif not envs.env_python(env).exists():
            if not entry.packages:
                raise OperationFailed(f"{env} is gone and history holds no package set to rebuild it from")
            say(f"{env} is gone; rebuilding it from its {len(entry.packages)} frozen packages")
            record.extra["rebuilding"] = not env.exists()
            say(f"rebuilt {env} ({_rebuild(entry)})")
            record.extra.pop("rebuilding", None)
            rebuilt = True
        elif not entry.packages and entry.extra.get("rebuilt_from_marker"):
            # Entered again from its marker after history.json was lost: its package set is the one
            # it has; record it so later rollbacks can check against it.
            entry.packages = envs.freeze(env)
        elif not _same_set(envs.freeze(env), entry.packages):
            say(f"{env} has changed since {entry.id}; putting its package set back")
            before = (envs.freeze(env), envs.read_marker(env))
            envs.sync(env, entry.packages, find_links=entry.find_links, requirements_file=entry.requirements_file)
            if entry.marker:
                envs.write_marker(env, entry.marker)
            restored = True
    except OperationFailed as exc:
        return done("failed", error=f"{exc}; the current environment is unchanged.", rebuilt=rebuilt)

    def put_back() -> None:
        """A re-synced in-place env failed its check: give it the package set it had before the rollback."""
        if before is not None:
            try:
                envs.sync(env, before[0], find_links=entry.find_links)
                envs.restore_marker(env, before[1])
            except OperationFailed as exc:
                say(f"could not put {env} back as it was: {exc}")
    # Never current with a package set other than the frozen one: a rebuild or re-sync that did not
    # land exactly (an index serving other files, a partial sync) fails here, before any check.
    try:
        record.packages = envs.freeze(env)
    except OperationFailed as exc:
        put_back()
        return done("failed", error=f"{exc}; the current environment is unchanged.", rebuilt=rebuilt,
                    restored=restored)
    if not _same_set(record.packages, target.packages):
        missing = sorted(set(target.packages) - set(record.packages))[:3]
        extra = sorted(set(record.packages) - set(target.packages))[:3]
        put_back()
        return done("failed", rebuilt=rebuilt, restored=restored,
                    error=f"{env} does not hold the package set frozen for {entry.id} (missing "
                          f"{', '.join(missing) or 'nothing'}; extra {', '.join(extra) or 'nothing'}), so it "
                          "was not made current; the current environment is unchanged.")

    checked = None
    if verify and not target.undo:
        from wizard.verify.check import verify_env

        marker = envs.read_marker(env)
        say(f"checking {env} (GraphCast {level} check)")
        result = verify_env(env, backend=marker.backend if marker else "auto", level=level,
                            runtime_env=dict(marker.runtime_env) if marker else {}, cancel=cancel,
                            log_path=Path(record.log))
        checked = result
        if cancel is not None and cancel.is_set():
            put_back()
            return done("cancelled", error="cancelled during the GraphCast check; the current environment is "
                        "unchanged.", checked=checked, rebuilt=rebuilt, restored=restored)
        if not result.ok:
            put_back()
            return done("failed", checked=checked, rebuilt=rebuilt, restored=restored,
                        error="the target environment failed its GraphCast check; the current one is unchanged. "
                              f"Log: {record.log}")
        if marker:
            envs.write_marker(env, replace(marker, verified=now()))
    if target.undo:
        # The environment is the user's own again. It becomes current only if it was (or was
        # its folder) — restoring some other env must not change which one the user works in.
        if current is None or current is entry or current.env == entry.env:
            history.make_current(record)
    else:
        history.make_current(entry)
    return done("verified" if checked is not None and checked.ok else "installed", checked=checked,
                rebuilt=rebuilt, restored=restored)


def remove(entry_id: str, *, confirm: Callable[[str], bool] | None = None) -> dict[str, Any]:
    """Delete a managed, non-current environment's folder; its history entries stay, marked removed."""
    with StateLock("remove"):
        history = load_history(locked=True)
        entry = history.get(entry_id)
        if entry is None:
            raise UserError(f"There is no history entry {entry_id!r}; see `gc-wizard history`.")
        current = history.current()
        env = Path(entry.env)
        if entry.current or (current is not None and Path(current.env) == env):
            raise OperationFailed(f"{env} is the current environment; roll back to another one first, then "
                                  "remove this one.")
        if not envs.is_managed(env):
            raise OperationFailed(f"{env} is not a managed environment (not under {paths.envs_dir()}); "
                                  "gc-wizard only deletes environments it created.")
        if not env.exists():
            raise UserError(f"{env} is already gone (entry {entry_id}).")
        size = envs.disk_usage(env)
        if confirm is not None and not confirm(f"Delete {env} ({size / 2**30:.2f} GiB)?"):
            raise UserError("Not confirmed; nothing deleted.")
        freed = envs.remove_env(env)
        stamp = now()
        for other in history.entries:
            if Path(other.env) == env and other.removed is None:
                other.removed = stamp
        history.save()
        return {"ok": True, "entry_id": entry.id, "env": str(env), "freed_bytes": freed}
