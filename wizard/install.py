"""The install transaction, shared by the CLI and the TUI: plan → run → freeze → verify → current.

The promise: a failure, a crash, Ctrl-C or a dropped SSH session never touches the environment the
user had. So the new environment is built beside the others, recorded as "running" first (a dead
wizard is found on the next start), and made current only at the very end, after it installed and —
unless verification is off — passed the GraphCast check. Nothing here deletes another environment.
In-place mode (an existing env given with --env) snapshots the package set first, for rollback.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from wizard import envs, paths
from wizard.errors import OperationFailed
from wizard.history import Entry, load_history, now
from wizard.lock import StateLock
from wizard.plan import plan_install
from wizard.recipes import get_recipe
from wizard.runner import RunnerEvents, run_plan


@dataclass
class InstallOptions:
    recipe_id: str
    env: Path | None = None
    installer: str = "uv"
    find_links: list[str] = field(default_factory=list)
    offline: bool = False
    graphcast_src: str | None = None
    verify: bool = True
    level: str = "notebook"
    assume_yes: bool = False
    recipes_dirs: list[str] = field(default_factory=list)


class InstallEvents(RunnerEvents):
    """The runner's callbacks plus the install's own milestones (all called on the worker thread)."""

    def plan_ready(self, plan) -> None: ...

    def verify_started(self) -> None: ...

    def verify_tier(self, tier: dict) -> None: ...

    def message(self, text: str) -> None: ...


@dataclass
class InstallResult:
    ok: bool
    recipe: str
    env: str
    log: str
    entry_id: str | None
    seconds: float
    verify: dict | None = None
    error: str | None = None
    cancelled: bool = False
    status: str = "failed"

    def to_dict(self) -> dict[str, Any]:
        return {"ok": self.ok, "recipe": self.recipe, "env": self.env, "log": self.log,
                "entry_id": self.entry_id, "seconds": round(self.seconds, 2), "verify": self.verify,
                "error": self.error, "cancelled": self.cancelled, "status": self.status}


def verify_summary(verify: dict | None) -> dict | None:
    """What history keeps of a verify run."""
    if not verify:
        return None
    failed = next((t["name"] for t in verify.get("tiers", []) if not t.get("ok")), None)
    init = next((t for t in verify.get("tiers", []) if t.get("name") == "graphcast_jit_init"), {})
    return {"ok": verify.get("ok"), "backend": verify.get("backend"), "failed_tier": failed,
            "param_count": init.get("param_count"), "findings": [f["id"] for f in verify.get("findings", [])],
            "log": verify.get("log")}


def _failure_message(step, result, log: Path) -> str:
    lines = [line for line in result.tail if line.strip()][-8:]
    if result.error:
        lines.append(result.error)
    detail = "\n  ".join(lines) if lines else f"exit status {result.exit_status}"
    return f"step '{step.title}' failed:\n  {detail}\nFull log: {log}"


def run_install(options: InstallOptions, events: InstallEvents | None = None,
                cancel: threading.Event | None = None) -> InstallResult:
    events = events or InstallEvents()
    cancel = cancel or threading.Event()
    started = time.monotonic()
    recipe = get_recipe(options.recipe_id, options.recipes_dirs)
    plan = plan_install(recipe, env=options.env, installer=options.installer, find_links=tuple(options.find_links),
                        offline=options.offline, graphcast_src=options.graphcast_src)
    events.plan_ready(plan)
    free = envs.free_gib(plan.env_dir)
    if free < plan.disk_gib:
        raise OperationFailed(f"Only {free:.1f} GiB are free at {plan.env_dir.parent}; recipe {recipe.id} needs "
                              f"about {plan.disk_gib:g} GiB. Free some space or give --env on another disk.")

    with StateLock(f"install {recipe.id}"):
        history = load_history()
        entry = history.add(Entry(id="", kind="install", recipe=recipe.id, env=str(plan.env_dir), mode=plan.mode))
        entry.id = _unique_id(history)
        log = paths.logs_dir() / f"install-{entry.id}.log"
        entry.log = str(log)
        entry.python = plan.python.executable
        entry.find_links = list(plan.find_links)
        if plan.mode == "in-place":
            entry.snapshot = envs.freeze(plan.env_dir)
            events.message(f"in-place: saved the package set of {plan.env_dir} ({len(entry.snapshot)} packages) "
                           "so rollback can restore it")
        history.save()

        def finish(status: str, *, error: str | None = None, verify: dict | None = None,
                   make_current: bool = False) -> InstallResult:
            entry.status, entry.error, entry.finished = status, error, now()
            entry.verify = verify_summary(verify)
            if make_current:
                history.make_current(entry)
            history.save()
            return InstallResult(ok=status in ("verified", "installed"), recipe=recipe.id, env=str(plan.env_dir),
                                 log=str(log), entry_id=entry.id, seconds=time.monotonic() - started,
                                 verify=verify, error=error, cancelled=status == "cancelled", status=status)

        results = run_plan(plan, log_path=log, events=events, cancel=cancel)
        last = results[-1] if results else None
        if cancel.is_set() or (last is not None and last.cancelled):
            return finish("cancelled", error="cancelled by the user; the current environment is untouched")
        if last is None or not last.ok:
            step = plan.steps[len(results) - 1]
            return finish("failed", error=_failure_message(step, last, log))

        entry.packages = envs.freeze(plan.env_dir)
        marker = {"recipe": recipe.id, "title": recipe.title, "backend": recipe.backend,
                  "runtime_env": dict(recipe.runtime_env), "created": now(), "verified": None,
                  "entry_id": entry.id, "python": plan.python.version}
        envs.write_marker(plan.env_dir, marker)
        if not options.verify:
            return finish("installed", make_current=True)

        from wizard.verify import verify_env

        events.verify_started()
        result = verify_env(plan.env_dir, backend=recipe.backend, level=options.level,
                            graphcast_src=None, log_path=log, runtime_env=dict(recipe.runtime_env),
                            cancel=cancel, on_tier=events.verify_tier)
        verify = result.to_dict()
        if cancel.is_set():
            return finish("cancelled", error="cancelled during the GraphCast check", verify=verify)
        if not result.ok:
            first = (verify.get("findings") or [{}])[0]
            why = first.get("title") or "the GraphCast check failed"
            return finish("failed", verify=verify,
                          error=f"installed, but {why}. Fix: {first.get('fix', 'see the log')}\nFull log: {log}")
        marker["verified"] = now()
        envs.write_marker(plan.env_dir, marker)
        return finish("verified", verify=verify, make_current=True)


def _unique_id(history) -> str:
    from wizard.history import new_id

    while True:
        candidate = new_id()
        if history.get(candidate) is None:
            return candidate
