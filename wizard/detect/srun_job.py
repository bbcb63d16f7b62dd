"""One srun's Slurm job as the user should see it: queued (and why), then running on a node — and stopped.

Why a module of its own: every step that runs through srun (detection, the GraphCast check) can sit in
a queue for minutes or hours on a busy cluster, and srun itself says only one line about it ("srun:
job 12 queued and waiting for resources"). Both faces need the same three things from that wait: the
job's state as it changes, with how long it has waited; a stop that cancels the job at once (a pending
allocation that is not revoked runs later, for nothing); and a bound on the wait, so a full partition
ends in a clear sentence instead of a terminal that never comes back. srun runs with `--verbose`, whose
`jobid N: nodes(1):`vm'` line names the job and node even when no queue was met; `feed` reads srun's
lines, `tick` asks `squeue` for the pending reason, and `stop` revokes the job.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from wizard.children import child_environ, run_capture, which
from wizard.detect.slurm_env import DEFAULT_WAIT  # how long a job may wait in the queue (`--slurm-wait`)

#: How often a queued job's reason is read again with squeue, in seconds.
SQUEUE_EVERY = 3.0

_QUEUED = re.compile(r"^srun: job ([0-9]+) queued and waiting for resources")
_ALLOCATED = re.compile(r"^srun: job ([0-9]+) has been allocated resources")
_STARTED = re.compile(r"^srun: jobid ([0-9]+): nodes\([0-9]+\):`([^']*)'")


@dataclass(frozen=True)
class JobState:
    """Where an srun job is: "starting" (asked for), "queued" (pending, with Slurm's reason) or "running"."""

    phase: str
    job_id: str | None = None
    reason: str | None = None
    node: str | None = None
    waited: float = 0.0
    """Seconds since srun asked for the job."""

    def describe(self, *, waited: bool = True) -> str:
        """One line for both faces: "waiting for a node: job 12 queued (Resources: every node it may use is busy; …),
        0:35 so far" — Slurm's reason with its plain words (`reason_words`); "cancelled Slurm job 12" once stopped.
        `waited` False leaves the time out, for a terminal whose line below ticks it (`still_queued`; walk 29 N4: the
        full line kept "0:00 so far" above the ticking one)."""
        job = f"job {self.job_id}" if self.job_id else "the job"
        if self.phase == "queued":
            reason = f" ({reason_words(self.reason)})" if self.reason and self.reason != "None" else ""
            return f"waiting for a node: {job} queued{reason}" + (f", {clock(self.waited)} so far" if waited else "")
        if self.phase == "running":
            return f"running on node {self.node or '?'} ({job})"
        if self.phase == "cancelled":
            return f"cancelled Slurm {job}" + (f" on node {self.node}" if self.node else " (it never got a node)")
        return "asking Slurm for a node"

    def still_queued(self) -> str:
        """The short line a terminal redraws each second below the full one: "job 17 still queued, 0:35 so far"."""
        return f"{f'job {self.job_id}' if self.job_id else 'the job'} still queued, {clock(self.waited)} so far"


#: The plain words of Slurm's pending reasons, a table of data (walk 28 #10), under `paths.DATA_DIR`.
REASONS_FILE = "slurm_reasons.yaml"
_reasons: dict[str, str] | None = None


def reason_words(reason: str) -> str:
    """Slurm's pending reason with its plain words: "Priority: other jobs are ahead of yours"; a reason the table does
    not know, as Slurm says it. Read once, when a job first queues (never on `detect`'s start-up path)."""
    global _reasons
    if _reasons is None:
        _reasons = {}
        try:
            from wizard import paths  # deferred: only a queued job reads the table
            from wizard.yaml_data import load_table

            _reasons = load_table(paths.package_file(paths.DATA_DIR / REASONS_FILE), reasons_from)
        except Exception:  # the words are a help, never a failure: the code alone is still true
            _reasons = {}
    words = _reasons.get(reason.split(",")[0].strip())
    return f"{reason}: {words}" if words else reason


def reasons_from(data: object) -> dict[str, str]:
    """The table's data as {code: words}, or one of `yaml_data.SHAPE_ERRORS`: `load_table` uses a cache of the state
    only when its data passes this, so a swapped one is parsed again, never read as no words (38th hostile pass
    (part B) P4)."""
    table = data["reasons"] if isinstance(data, dict) else None
    if not isinstance(table, dict) or not table:
        raise ValueError("'reasons' is not a mapping of codes to words")
    if not all(isinstance(code, str) and isinstance(words, str) for code, words in table.items()):
        raise TypeError("a reason's code or words are not text")
    return dict(table)


def clock(seconds: float) -> str:
    """0:35, 12:03, 1:02:09."""
    whole = int(max(seconds, 0))
    hours, rest = divmod(whole, 3600)
    return f"{hours}:{rest // 60:02d}:{rest % 60:02d}" if hours else f"{rest // 60}:{rest % 60:02d}"


class SrunJob:
    """Follows one srun process's job. `feed` every stderr line, `tick` now and then; `state` is the latest."""

    def __init__(self, on_state: Callable[[JobState], None] | None = None, *, wait: float = DEFAULT_WAIT,
                 squeue_every: float = SQUEUE_EVERY) -> None:
        self.on_state = on_state
        self.wait = wait
        self.squeue_every = squeue_every
        self.started = time.monotonic()
        self.state = JobState("starting")
        self.queued_since: float | None = None
        self._last_squeue = 0.0
        self._last_told = 0.0
        self._lock = threading.Lock()

    def feed(self, line: str) -> bool:
        """Read one of srun's lines; True when it was srun's own chatter about the job (not the task's)."""
        text = line.strip()
        if not text.startswith("srun:"):
            return False
        if match := _QUEUED.match(text):
            self.queued_since = time.monotonic()
            self._set(JobState("queued", match.group(1), self._reason(match.group(1)), waited=self.waited()))
        elif match := _STARTED.match(text):
            self._set(JobState("running", match.group(1), node=match.group(2).split(",")[0] or None,
                               waited=self.waited()))
        elif match := _ALLOCATED.match(text):
            self._set(JobState("running", match.group(1), node=self.state.node, waited=self.waited()))
        return True

    def waited(self) -> float:
        return time.monotonic() - self.started

    def queued_too_long(self) -> bool:
        return self.queued_since is not None and self.state.phase == "queued" and \
            time.monotonic() - self.queued_since > self.wait

    def tick(self) -> None:
        """While queued: the reason again from squeue now and then, and the waited time once a second."""
        state = self.state
        if state.phase != "queued":
            return
        now = time.monotonic()
        reason = state.reason
        if now - self._last_squeue >= self.squeue_every and state.job_id:
            self._last_squeue = now
            reason = self._reason(state.job_id) or reason
        if now - self._last_told >= 1.0 or reason != state.reason:
            self._set(JobState("queued", state.job_id, reason, waited=self.waited()))

    def _set(self, state: JobState) -> None:
        with self._lock:
            self.state = state
            self._last_told = time.monotonic()
        if self.on_state is not None:
            self.on_state(state)

    def _reason(self, job_id: str) -> str | None:
        """Slurm's pending reason (Resources, Priority, QOSMaxJobsPerUserLimit…), or None."""
        squeue = which("squeue")
        if squeue is None:
            return None
        try:
            proc = run_capture([squeue, "-h", "-j", job_id, "-o", "%r"], timeout=5, stdin=subprocess.DEVNULL)
        except (OSError, subprocess.TimeoutExpired):
            return None
        reason = proc.stdout.strip().splitlines()[0].strip() if proc.returncode == 0 and proc.stdout.strip() else ""
        return reason or None

    def cancel(self) -> None:
        """scancel the job, when srun named one: a pending allocation must not run later, for nothing. The faces are
        told ("cancelled Slurm job 17"): walk 28 #10, a Ctrl-C while queued cancelled the job without naming it."""
        state = self.state
        job_id = state.job_id
        scancel = which("scancel")
        if not job_id or state.phase == "cancelled":
            return
        if scancel is not None:
            try:
                # its words are not needed (nothing kept), and it runs while the wizard stops: not through `run_capture`
                subprocess.run([scancel, job_id], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL, timeout=10, env=child_environ())  # the rule of every child
            except (OSError, subprocess.TimeoutExpired):
                pass
        self._set(JobState("cancelled", job_id, state.reason, state.node if state.phase == "running" else None,
                           waited=self.waited()))


def stop_srun(proc: subprocess.Popen, job: SrunJob | None = None, *, grace: float = 3.0) -> None:
    """Stop srun and its job: SIGTERM to its process group (srun revokes a pending allocation and
    cancels a running step), SIGKILL after `grace`, and scancel on the job it named either way."""
    for sig in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(proc.pid, sig)
        except (ProcessLookupError, PermissionError):
            break
        try:
            proc.wait(timeout=grace)
            break
        except subprocess.TimeoutExpired:
            continue
    if job is not None:
        job.cancel()


def wait_for(proc: subprocess.Popen, job: SrunJob, *, deadline: float, cancel: threading.Event | None,
             too_much: threading.Event | None = None) -> str:
    """Wait for srun to end: "done", or why it had to be stopped ("cancelled", "queue", "timeout", or "output" once
    `too_much` is set: its output passed the bounded reader's limit, `children.Collector.over`).

    The caller stops it (`stop_srun`); this only watches, ticking the job's queue state."""
    while proc.poll() is None:
        if cancel is not None and cancel.is_set():
            return "cancelled"
        if too_much is not None and too_much.is_set():
            return "output"
        if job.queued_too_long():
            return "queue"
        if time.monotonic() > deadline:
            return "timeout"
        job.tick()
        if cancel is not None:
            cancel.wait(0.1)
        else:
            time.sleep(0.1)
    return "done"


#: What to do about a wait in the queue that was given up.
QUEUE_FIX = "Try again later, another partition (`sinfo` lists them), or a longer --slurm-wait."


def queue_cause(job: SrunJob, where: str) -> str:
    """Why a wait in the queue was given up."""
    state = job.state
    reason = f" ({state.reason})" if state.reason and state.reason != "None" else ""
    return (f"job {state.job_id or '?'} waited {clock(job.wait)} in the queue of {where}{reason} without getting a "
            f"node, longer than --slurm-wait {job.wait:g} s, so it was cancelled.")


def queue_sentence(job: SrunJob, where: str) -> str:
    """Why a wait in the queue was given up, and what to do instead."""
    return f"{queue_cause(job, where)} {QUEUE_FIX}"
