"""Proves an environment works by running a real GraphCast jit init in it, and says what broke if not.

Why a probe in a child process: the environment under test has its own Python, jaxlib and CUDA
libraries, which must never be loaded into the wizard's process; and a broken cuDNN can abort the
process outright. So `verify_env` runs `wizard/verify/probe/graphcast_probe.py` with the environment's own
`bin/python`, under the environment variables the environment is meant to run with (the recipe's
`runtime_env`, CUDA folders dropped from LD_LIBRARY_PATH/PATH, no GPU preallocation), streams its
progress lines to the caller, keeps everything it prints in a log, and hands the failure text to
`wizard.verify.diagnose`. The probe's JSON is the source of truth; when the probe dies without one (abort,
timeout, Ctrl-C) the result is rebuilt from its progress lines so the failing tier is still named.
"""

from __future__ import annotations

import os
import signal
import subprocess
import threading
import time
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path
from typing import Any

from wizard import bounded, paths
from wizard.children import child_environ, close_read_pipes, die_with_parent
from wizard.detect.facts import Facts
from wizard.detect.srun_errors import explain
from wizard.detect.srun_job import DEFAULT_WAIT, QUEUE_FIX, JobState, SrunJob, queue_cause
from wizard.errors import UserError, signal_words
from wizard.history.store import VerifySummary
from wizard.install.activation import (
    compute_activation,
)
from wizard.install.choices import LEVELS
from wizard.install.envs import Env, EnvMarker, read_marker
from wizard.install.runner import ProcessTreeStopper, StepLog
from wizard.install.source_places import refuse_swappable_sources
from wizard.install.source_spelling import local_source_path
from wizard.security import cut, expand_home
from wizard.verify.causes import Context
from wizard.verify.diagnose import Finding, diagnose_text
from wizard.verify.inspect_env import inspect_env
from wizard.verify.probe import PROBE_PATH
from wizard.verify.protocol import GENCAST_TIER, TIER_PREFIX, TIER_START_PREFIX, TIER_TITLES, TIERS, Tier
from wizard.verify.shadow import PRELOAD_ID, preload_finding
from wizard.verify.shadow import probe_shadow as _shadow_finding
from wizard.verify.user_variables import with_behaviour_finding

BACKENDS = ("gpu", "cpu", "auto")
STDERR_TAIL_LINES = 40
#: How the probe is stopped: SIGTERM, then SIGKILL, each with its grace in seconds. No SIGINT first
#: (the runner's installers clean up on Ctrl-C; the probe has nothing to clean up, and srun would
#: only print its status on a single SIGINT).
PROBE_STOP_SIGNALS = ((signal.SIGTERM, 3.0), (signal.SIGKILL, 3.0))


@dataclass
class VerifyResult:
    """What `gc-wizard verify` reports: the one shape both faces, the report and history read.

    `tiers` are typed `Tier`s in the probe's order; `to_dict()` is the interface's verify JSON
    (docs/interface.md), `from_dict` reads it back, and `summary()` is what history keeps.
    """

    ok: bool
    env: str
    backend: str
    level: str
    tiers: list[Tier]
    findings: list[Finding]
    log: str
    seconds: float
    cancelled: bool = False
    timed_out: bool = False
    exit_status: int | None = None
    removed_paths: list[dict[str, str]] = field(default_factory=list)
    python: str | None = None
    where: dict[str, Any] | None = None
    """Set when the check ran on a cluster node through srun: {"node", "via": "srun", "srun": argv}."""
    started: bool = True
    """False when the probe never began (srun refused the job, or it waited in the queue too long): no tier
    failed then, and the faces say the check never ran instead of naming a tier."""

    def tier(self, name: str) -> Tier | None:
        return next((t for t in self.tiers if t.name == name), None)

    @property
    def failed_tier(self) -> Tier | None:
        """The first tier that failed (a stopped check has a `cancelled` tier instead)."""
        return next((t for t in self.tiers if t.status == "failed"), None)

    @property
    def node(self) -> str | None:
        """The cluster node the check ran on (None: here)."""
        return (self.where or {}).get("node")

    def to_dict(self) -> dict[str, Any]:
        return {
            "ok": self.ok, "env": self.env, "backend": self.backend, "level": self.level,
            "tiers": [t.to_dict() for t in self.tiers], "findings": [f.to_dict() for f in self.findings],
            "log": self.log, "seconds": round(self.seconds, 3), "cancelled": self.cancelled,
            "timed_out": self.timed_out, "exit_status": self.exit_status, "removed_paths": self.removed_paths,
            "python": self.python, "where": self.where, "started": self.started,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> VerifyResult:
        """A result from its verify JSON (`gc-wizard verify --json`, an install's `verify`)."""
        return cls(
            ok=bool(data.get("ok")), env=str(data.get("env") or ""), backend=str(data.get("backend") or "auto"),
            level=str(data.get("level") or "notebook"),
            tiers=[Tier.from_probe(t) for t in data.get("tiers") or [] if isinstance(t, Mapping)],
            findings=[_finding_from_dict(f) for f in data.get("findings") or [] if isinstance(f, Mapping)],
            log=str(data.get("log") or ""), seconds=float(data.get("seconds") or 0.0),
            cancelled=bool(data.get("cancelled")), timed_out=bool(data.get("timed_out")),
            exit_status=data.get("exit_status"), removed_paths=list(data.get("removed_paths") or []),
            python=data.get("python"), where=data.get("where"), started=data.get("started", True) is not False)

    def summary(self) -> VerifySummary:
        """What history keeps of this check (the full result is in its log)."""
        stopped = next((t.name for t in self.tiers if t.status in ("failed", "cancelled")), None)
        init = self.tier("graphcast_jit_init")
        gencast = self.tier(GENCAST_TIER)
        return VerifySummary(
            ok=self.ok, backend=self.backend, failed_tier=stopped,
            param_count=init.details.get("param_count") if init else None,
            init_seconds=init.details.get("init_seconds") if init else None,
            findings=tuple(f.id for f in self.findings), log=self.log, node=self.node,
            finding_details=tuple({"id": f.id, "title": f.title, "fix": f.fix} for f in self.findings[:5]),
            gencast=gencast is not None,
            gencast_param_count=gencast.details.get("param_count") if gencast else None,
            gencast_init_seconds=gencast.details.get("init_seconds") if gencast else None,
            stopped=any(t.status == "cancelled" for t in self.tiers))


def _finding_from_dict(data: Mapping[str, Any]) -> Finding:
    return Finding(id=str(data.get("id") or ""), title=str(data.get("title") or ""),
                   explanation=str(data.get("explanation") or ""), fix=str(data.get("fix") or ""),
                   evidence=tuple(str(e) for e in data.get("evidence") or ()),
                   explains=tuple(str(e) for e in data.get("explains") or ()),
                   causes=tuple(dict(c) for c in data.get("causes") or () if isinstance(c, Mapping)))


# --------------------------------------------------------------------------------------------------
# The child's environment


#: Set for the probe on top of the activation: unbuffered output (tiers stream live), and no GPU
#: preallocation on a shared GPU unless the recipe's runtime variables say otherwise.
PROBE_ADDITIONS = {"PYTHONUNBUFFERED": "1"}
GPU_ADDITIONS = {"XLA_PYTHON_CLIENT_PREALLOCATE": "false"}


def probe_environment(env: Path, backend: str, runtime_env: dict[str, str] | None = None,
                      base: dict[str, str] | None = None) -> tuple[dict[str, str], list[dict[str, str]]]:
    """The variables the probe runs under, and the folders the activation took off the search paths.

    Exactly what `gc-wizard activate` gives a shell (`compute_activation(...).apply(base)`), so the
    check, the shell and the Jupyter kernel see the same PATH, LD_LIBRARY_PATH, PYTHONPATH and
    runtime variables — plus `PROBE_ADDITIONS` and, on a GPU, `GPU_ADDITIONS` where the recipe's
    runtime variables do not set them.
    """
    marker = EnvMarker(backend=backend, runtime_env=dict(runtime_env or {}))
    act = compute_activation(env, os.environ if base is None else base, marker)
    child = act.apply(os.environ if base is None else base)
    child.update(PROBE_ADDITIONS)
    if backend in ("gpu", "auto"):
        for name, value in GPU_ADDITIONS.items():
            if name not in act.set:  # the recipe's runtime variables (allowlisted) win
                child[name] = value
    removed = [{"variable": r.variable, "dir": r.folder, "reason": r.reason} for r in act.removals]
    return child, removed


# --------------------------------------------------------------------------------------------------
# Running the probe


@dataclass
class ProbeStream:
    stdout: deque[str] = field(default_factory=lambda: deque(maxlen=PROBE_STDOUT_LINES))
    stderr: deque[str] = field(default_factory=lambda: deque(maxlen=PROBE_STDERR_LINES))
    tiers: list[Tier] = field(default_factory=list)
    running: str | None = None
    tier_stderr: dict[str, deque[str]] = field(default_factory=dict)
    srun: list[str] = field(default_factory=list)
    """srun's own lines (its job's state, its errors): kept for the log and the launcher's finding."""
    job: SrunJob | None = None
    """The Slurm job the probe runs in, when it runs through srun."""
    started: bool = False
    """The probe itself printed something (a tier began): it ran, wherever it ran."""


@dataclass(frozen=True)
class ProbeListeners:
    """The caller's live callbacks (each on a reader thread): a tier ended, a tier began, any other line."""

    on_tier: Callable[[Tier], None] | None = None
    on_tier_start: Callable[[str], None] | None = None
    on_line: Callable[[str], None] | None = None


#: What is kept of the probe's output, in characters (the log gets all of it). The probe runs in an
#: environment whose imports may print anything (a stray package on PYTHONPATH, a library logging in a
#: loop), so its streams are read by size, not by line, and kept bounded: the last lines, each cut.
PROBE_READ_CHARS = 16 * 1024 * 1024  # the longest piece read at once (the result JSON is one line)
PROBE_LINE_CHARS = 32 * 1024
PROBE_STDERR_LINES = 1000
PROBE_STDOUT_LINES = 200
PROBE_TIER_LINES = 200


def _pieces(pipe, limit: int = PROBE_READ_CHARS):
    """The pipe's lines, a line longer than `limit` handed out in pieces (memory bounded by `limit`)."""
    return iter(lambda: pipe.readline(limit), "")


def _cut(line: str) -> str:
    """A probe's line fit to its bound, masked before it is cut (`security.cut`)."""
    return line if len(line) <= PROBE_LINE_CHARS else cut(line, PROBE_LINE_CHARS + 1)


def _read_stdout(pipe, stream: ProbeStream, log: StepLog, listeners: ProbeListeners) -> None:
    for line in _pieces(pipe):
        line = line.rstrip("\n")
        if stream.stdout:  # only the last line stays whole: it may be the result JSON
            stream.stdout[-1] = _cut(stream.stdout[-1])
        stream.stdout.append(line)
        log.line(line)
        if listeners.on_line is not None and line.strip():
            listeners.on_line(line)


def _tier_message(line: str, prefix: str) -> dict[str, Any] | None:
    try:
        value = bounded.loads_json(line[len(prefix):])
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def _read_stderr(pipe, stream: ProbeStream, log: StepLog, listeners: ProbeListeners) -> None:
    for line in _pieces(pipe):
        line = line.rstrip("\n")
        log.line(line)
        if stream.job is not None and stream.job.feed(line):
            stream.srun.append(_cut(line))
            continue
        if line.startswith((TIER_START_PREFIX, TIER_PREFIX)):
            stream.started = True
        else:
            line = _cut(line)
        if line.startswith(TIER_START_PREFIX):
            started = _tier_message(line, TIER_START_PREFIX)
            if started is None:
                continue
            stream.running = started.get("name")
            if listeners.on_tier_start is not None and stream.running:
                listeners.on_tier_start(stream.running)
            continue
        if line.startswith(TIER_PREFIX):
            data = _tier_message(line, TIER_PREFIX)
            if data is None:
                continue
            tier = Tier.from_probe(data)
            stream.tiers.append(tier)
            if stream.running == tier.name:
                stream.running = None
            if listeners.on_tier is not None:
                listeners.on_tier(tier)
            continue
        stream.stderr.append(line)
        if stream.running:
            stream.tier_stderr.setdefault(stream.running, deque(maxlen=PROBE_TIER_LINES)).append(line)
        if listeners.on_line is not None:
            listeners.on_line(line)


def _parse_result(stdout: list[str]) -> dict[str, Any] | None:
    for line in reversed(stdout):
        if not line.strip():
            continue
        try:
            value = bounded.loads_json(line)
        except ValueError:
            return None
        return value if isinstance(value, dict) and isinstance(value.get("tiers"), list) else None
    return None


def runs_gencast(graphcast_version: str | None) -> bool | None:
    """Whether an environment with this GraphCast gets the GenCast tier (v0.2 and later); None: unknown."""
    if not graphcast_version:
        return None
    from packaging.version import InvalidVersion, Version

    try:
        return Version(graphcast_version) >= Version("0.2")
    except InvalidVersion:
        return None


def _rebuild_tiers(stream: ProbeStream, why: dict[str, str], gencast: bool | None = None) -> list[Tier]:
    """The tiers the probe reported before it died, the one it was in marked failed, the rest not run."""
    done = {t.name: t for t in stream.tiers}
    tiers: list[Tier] = []
    failed: str | None = next((t.name for t in stream.tiers if not t.ok), None)
    names = TIERS + ((GENCAST_TIER,) if gencast or (gencast is None and GENCAST_TIER in done) else ())
    for name in names:
        if name in done:
            tiers.append(done[name])
        elif failed is None:
            failed = name
            # A stop by the user is not a failure of the environment: the tier says "cancelled".
            status = "cancelled" if why.get("type") == "Cancelled" else "failed"
            tiers.append(Tier(name, status, seconds=None, error=dict(why)))
        else:
            stopped = "was cancelled" if why.get("type") == "Cancelled" else "failed"
            step = TIER_TITLES.get(failed, failed)
            tiers.append(Tier(name, "not_run", seconds=0.0, details={"reason": f"not run: “{step}” {stopped}"}))
    return tiers


def _failure_text(stream: ProbeStream, tiers: list[Tier]) -> str:
    parts = list(stream.stderr)
    printed = "\n".join(stream.stderr)
    for tier in tiers:
        error = tier.error
        # The probe prints its failures to stderr; add the message only where it did not (a crash).
        if tier.status == "failed" and error is not None and str(error.get("message")) not in printed:
            parts.append(f"{error.get('type', 'Error')}: {error.get('message', '')}")
        parts.extend(str(w) for w in tier.details.get("warnings", []) or [])
    parts.extend(line for line in stream.stdout if not line.startswith("{"))
    return "\n".join(parts)


def _env_context(env: Path, child_env: dict[str, str]):
    """What the environment's files say (jaxlib build, the cuDNN its loader picks under the probe's own
    variables) to rank the causes of a symptom-only failure; None when it cannot be read."""
    try:
        return inspect_env(env, child_env, read_driver=False).context()
    except Exception:  # ranking is a refinement: a failure here must never hide the finding itself
        return None


def _login_node(facts: Facts | None) -> bool:
    """Whether this machine is a cluster's login node: detection finds no GPU here and Slurm answers.
    Walk 24 #3: a GPU check pasted without `--slurm` ran here and failed with `no_cuda_device`, whose causes never
    said "add --slurm" although the app on the same machine said "This node has no GPU, but Slurm is here". Walk 33
    #1: the same test as that first screen's (`gpu_node_offer`), not an `srun` on PATH beside two detected GPUs."""
    from wizard.detect.slurm_cluster import gpu_node_offer  # deferred: only a failed check asks

    return gpu_node_offer(facts) is not None


def _fallback_finding(tier: Tier | None, log: Path, timed_out: bool, timeout: float) -> Finding:
    name = tier.name if tier else "the probe"
    error = (tier.error if tier else None) or {}
    message = f"{error.get('type', 'Error')}: {error.get('message', '')}".strip()
    if timed_out:
        return Finding(
            id="verify_timeout", title=f"The GraphCast check did not finish within {timeout:g} s",
            explanation=f"The probe was still in {name} when the time limit ran out, so it was stopped. On a "
            "busy or slow machine the notebook-level jit init can take minutes; a hang usually means the GPU "
            "is busy or JAX is waiting on a lock.",
            fix=f"Run `gc-wizard verify --level quick` for a faster check, or look at the log {log} to see "
            "where it stopped.", evidence=tuple(filter(None, [message])), priority=90)
    return Finding(
        id="verify_failed", title=f"The GraphCast check failed in {name}",
        explanation=f"The probe failed with {message or 'no message'}, which matches no known failure.",
        fix=f"Read the full log {log}; `gc-wizard report` bundles it with this machine's details for an "
        "administrator.", evidence=tuple(filter(None, [message])), priority=90)


def _launcher_finding(stream: ProbeStream, launcher: Sequence[str], run: ProbeRun, log: Path) -> list[Finding]:
    """srun (the launcher) failed, or waited too long, before the probe said anything: the cause and fix in
    plain words (`srun_errors`), srun's own lines as the evidence (all of them are in the log)."""
    if run.queue_timeout and stream.job is not None:
        return [Finding(
            id="slurm_queue_timeout", title="The GraphCast check never started: no node was free in time",
            explanation="The check's " + queue_cause(stream.job, _where(launcher)), fix=QUEUE_FIX,
            evidence=tuple(line.strip() for line in stream.srun[-2:]), priority=90)]
    said = [line.strip() for line in [*stream.srun, *stream.stderr] if line.strip().startswith(("srun:", "slurmstepd"))]
    if not said and not stream.stderr:
        return []
    problem = explain("\n".join([*stream.srun, *stream.stderr]), partition=_partition(launcher),
                      what="run the GraphCast check")
    return [Finding(
        id="srun_failed", title="The GraphCast check never started on a GPU node",
        explanation=f"Slurm refused or ended the job before the check began (srun's own lines are in {log}).",
        fix=problem.sentence, evidence=tuple(line for line in said[-4:] if "error" in line or "fatal" in line)
        or tuple(said[-2:]), priority=90)]


def _ended_by_slurm(stream: ProbeStream, launcher: Sequence[str], log: Path) -> list[Finding]:
    """The check began on a node, and Slurm ended it (time limit, node failure, an admin's scancel)."""
    problem = explain("\n".join([*stream.srun, *stream.stderr]), partition=_partition(launcher),
                      what="finish the GraphCast check")
    node = stream.job.state.node if stream.job is not None else None
    return [Finding(
        id="srun_failed", title=f"Slurm ended the GraphCast check on node {node or '?'}",
        explanation=f"The check had started, then its Slurm job ended (srun's own lines are in {log}).",
        fix=problem.sentence, evidence=tuple(line.strip() for line in stream.srun[-3:]), priority=90)]


def _partition(launcher: Sequence[str]) -> str | None:
    """The partition srun's argv names (None: the cluster's default)."""
    named = [arg.split("=", 1)[1] for arg in launcher if arg.startswith("--partition=")]
    return named[-1] if named else None


def _where(launcher: Sequence[str]) -> str:
    partition = _partition(launcher)
    return f"partition {partition}" if partition else "the default partition"


# --------------------------------------------------------------------------------------------------
# verify_env, step by step


def _environment_python(env: Path, backend: str, level: str) -> Path:
    """The environment's Python, after checking the arguments; UserError naming the bad one."""
    if backend not in BACKENDS:
        raise UserError(f"unknown backend {backend!r}; use one of {', '.join(BACKENDS)}.")
    if level not in LEVELS:
        raise UserError(f"unknown verify level {level!r}; use quick or notebook.")
    python = Env(env).python
    if not python.exists():
        raise UserError(f"{env} is not a Python environment: there is no {python}.")
    return python


def _gencast_from_marker(env: Path) -> bool | None:
    """Whether the environment's GraphCast (recorded at install) has GenCast; None: unknown."""
    try:
        marker = read_marker(env)
        return runs_gencast(str((marker.extra if marker is not None else {}).get("graphcast_version") or ""))
    except Exception:  # no marker, or an unreadable one: the probe looks for GenCast itself
        return None


#: What verify would do with a swapped `--graphcast-src` checkout: it installs nothing, the probe imports it.
CHECKOUT_HARM = "import (and so run) their code in the check"


def _probe_argv(python: Path, *, backend: str, level: str, gencast: bool | None,
                graphcast_src: str | Path | None, launcher: Sequence[str]) -> list[str]:
    argv = [*launcher, str(python), str(paths.package_file(PROBE_PATH)), "--backend", backend, "--level", level,
            "--gencast", {True: "yes", False: "no", None: "auto"}[gencast]]
    if graphcast_src is not None:
        # any spelling of a folder (`file:///DIR` too), read as the install reads it (31st pass (part B) P5)
        src = local_source_path(str(graphcast_src)) or Path(expand_home(graphcast_src)).absolute()
        if not src.is_dir():
            raise UserError(f"--graphcast-src {graphcast_src} is not a folder; verify needs a GraphCast checkout.")
        # The swap rule plan, install and bundle hold the same argument to (`refuse_swappable_sources`, the one
        # check), before the probe puts the checkout first on its sys.path and imports it; the probe is given where
        # its links lead, as checked. 33rd hostile pass (part B) P5: another user's checkout was imported as root.
        located = refuse_swappable_sources(None, (), str(src), graphcast_harm=CHECKOUT_HARM)[2]
        argv += ["--graphcast-src", str(local_source_path(located) or located)]
    return argv


def _open_log(log_file: Path, argv: list[str], *, env: Path, backend: str, level: str,
              removed: list[dict[str, str]], runtime_env: dict[str, str] | None) -> StepLog:
    """The verify log, opened with a header: what ran, and what the activation changed for it."""
    log = StepLog(log_file)
    log.line(f"# gc-wizard verify {datetime.now().isoformat(timespec='seconds')}: env={env} backend={backend} "
              f"level={level}")
    log.line("# argv: " + " ".join(argv))
    for item in removed:
        log.line(f"# removed from {item['variable']} for this run: {item['dir']} ({item['reason']})")
    for key in sorted(runtime_env or {}):
        log.line(f"# runtime_env: {key}={(runtime_env or {})[key]}")
    return log


@dataclass(frozen=True)
class ProbeRun:
    """How the probe's process ended."""

    returncode: int | None
    seconds: float
    cancelled: bool
    timed_out: bool
    queue_timeout: bool = False
    """Stopped because its Slurm job waited in the queue longer than the wait allowed (--slurm-wait)."""


def _wait(proc: subprocess.Popen, deadline: float, cancel: threading.Event | None,
          job: SrunJob | None = None) -> str | None:
    """Wait for the probe to exit; None, or why it had to be stopped: "cancelled", "timeout" or "queue".
    Time spent waiting for a node does not count against the probe's own `deadline`."""
    while proc.poll() is None:
        if cancel is not None and cancel.is_set():
            return "cancelled"
        if job is not None:
            job.tick()
            if job.queued_too_long():
                return "queue"
            if job.state.phase in ("starting", "queued"):
                deadline += 0.1  # srun has no node yet: the check's own time has not begun
        if time.monotonic() > deadline:
            return "timeout"
        if cancel is not None:
            cancel.wait(0.05)
        else:
            time.sleep(0.05)
    return None


def run_probe(argv: list[str], child_env: dict[str, str], cwd: Path, stream: ProbeStream, log: StepLog, *,
               timeout: float, cancel: threading.Event | None, listeners: ProbeListeners) -> ProbeRun:
    """Run the probe in its own session, read both pipes live, and stop its whole process tree when it
    is cancelled, times out or the wizard itself is interrupted (the runner's stopper)."""
    started = time.monotonic()
    stopped: str | None = None
    proc = subprocess.Popen(
        # the activation's variables, under the rule of every child (`children.child_environ`: no git settings, no
        # loader file another user could swap)
        argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        env=child_environ(child_env, what="gc-wizard's check"),
        cwd=str(cwd), text=True, encoding="utf-8", errors="replace", bufsize=1, start_new_session=True,
        preexec_fn=die_with_parent(),  # it dies with the wizard, even on SIGKILL: no orphan holding GPU memory
    )
    readers = [
        (proc.stdout, threading.Thread(target=_read_stdout, args=(proc.stdout, stream, log, listeners), daemon=True)),
        (proc.stderr, threading.Thread(target=_read_stderr, args=(proc.stderr, stream, log, listeners), daemon=True)),
    ]
    for _pipe, reader in readers:
        reader.start()
    try:
        stopped = _wait(proc, started + timeout, cancel, stream.job)
    finally:
        if proc.poll() is None:
            ProcessTreeStopper(proc.pid, lambda: proc.poll() is None, signals=PROBE_STOP_SIGNALS).stop()
            if stream.job is not None:
                stream.job.cancel()  # srun revokes a pending allocation on SIGTERM; scancel makes sure
        close_read_pipes(proc, readers, timeout=10)
    return ProbeRun(proc.returncode, time.monotonic() - started, stopped == "cancelled", stopped == "timeout",
                    queue_timeout=stopped == "queue")


@dataclass(frozen=True)
class _Outcome:
    """The tiers and what the probe said about itself: from its JSON, or rebuilt when it had none."""

    tiers: list[Tier]
    backend: str
    python: str | None
    host: str | None


def _outcome(stream: ProbeStream, run: ProbeRun, *, backend: str, timeout: float, gencast: bool | None) -> _Outcome:
    result_json = _parse_result(stream.stdout)
    if result_json is not None and not run.cancelled and not run.timed_out:
        tiers = [Tier.from_probe(t) for t in result_json["tiers"] if isinstance(t, Mapping)]
        return _Outcome(tiers, result_json.get("backend") or backend, result_json.get("python"),
                        result_json.get("host"))
    if not stream.started and stream.job is not None and stream.job.state.phase != "running":
        # srun never started the probe: no tier ran, so none failed (the finding, or the stop, says why).
        never = ("not run: stopped while the job waited for a node" if run.cancelled
                 else "not run: the check never started on a node")
        tiers = [Tier(name, "not_run", seconds=0.0, details={"reason": never}) for name in
                 TIERS + ((GENCAST_TIER,) if gencast else ())]
        return _Outcome(tiers, backend, None, None)
    if run.cancelled:
        why = {"type": "Cancelled", "message": "verification was cancelled"}
    elif run.timed_out:
        why = {"type": "Timeout", "message": f"the probe did not finish within {timeout:g} s"}
    elif run.returncode is not None and run.returncode < 0:  # a signal ended it: say which, as the install's steps do
        why = {"type": "ProbeDied", "message": f"the probe was killed by {signal_words(-run.returncode)} without a "
               "result (see the log for what it printed last)"}
    else:
        why = {"type": "ProbeDied", "message": f"the probe exited with status {run.returncode} "
               "without a result (see the log for what it printed last)"}
    tiers = _rebuild_tiers(stream, why, gencast)
    return _Outcome(tiers, next((t.details["backend_expected"] for t in tiers if t.details.get("backend_expected")),
                                backend),
                    next((t.details["python"] for t in tiers if t.details.get("python")), None), None)


def _with_stderr_tails(tiers: list[Tier], stream: ProbeStream) -> list[Tier]:
    """Each failed tier with the last lines it printed to stderr (what a reader needs first)."""
    out = []
    for tier in tiers:
        tail = [line for line in stream.tier_stderr.get(tier.name, []) if line.strip()]
        out.append(tier.with_details(stderr_tail=tail[-STDERR_TAIL_LINES:]) if tier.status == "failed" and tail
                   else tier)
    return out


def _findings(stream: ProbeStream, tiers: list[Tier], run: ProbeRun, *, facts: Facts | None, env: Path,
              child_env: dict[str, str], launcher: Sequence[str], log_file: Path, timeout: float,
              removed: Sequence[Mapping[str, str]] = ()) -> list[Finding]:
    """Known failures in what the probe printed; else srun's own words; else a plain "it failed"."""
    context = _env_context(env, child_env)
    if not launcher and _login_node(facts):
        context = replace(context or Context(), slurm_login_node=True)
    findings = diagnose_text(_failure_text(stream, tiers), facts, context=context)
    if launcher and not stream.started:
        findings = _launcher_finding(stream, launcher, run, log_file) or findings
    elif launcher and not findings and any(" error" in line or "slurmstepd" in line for line in stream.srun):
        findings = _ended_by_slurm(stream, launcher, log_file)
    shadow = _shadow_finding(tiers, env, child_env, removed)
    if shadow is not None and shadow.priority < 50:  # the root cause of whatever the stray copy did: first
        findings = [shadow, *findings]
    elif shadow is not None:  # left out of the check: a note after what did fail
        findings = [*findings, shadow]
    preload = preload_finding(removed)
    if preload is not None:  # left out of the check too: a note after what did fail
        findings = [*findings, preload]
    failed = next((t for t in tiers if t.status == "failed"), None)
    if not [f for f in findings if f.id != PRELOAD_ID]:
        findings = [_fallback_finding(failed, log_file, run.timed_out, timeout), *findings]
    if stream.started or not launcher:
        # The user's PYTHONWARNINGS=error, JAX_*, XLA_* (31st hostile pass (part B) P12): named, with `unset` as fix.
        error = (failed.error if failed else None) or {}
        message = f"{error.get('type', 'Error')}: {error.get('message', '')}" if error else "no message"
        findings = with_behaviour_finding(findings, child_env, os.environ, failure=message,
                                          text=_failure_text(stream, tiers), what="The GraphCast check",
                                          known=("verify_failed", PRELOAD_ID))
    return findings


def verify_env(env: Path, *, backend: str, level: str = "notebook", graphcast_src: str | Path | None = None,
               timeout: float = 900, log_path: Path | None = None, runtime_env: dict[str, str] | None = None,
               cancel: threading.Event | None = None,
               on_tier: Callable[[Tier], None] | None = None,
               on_tier_start: Callable[[str], None] | None = None,
               on_line: Callable[[str], None] | None = None,
               facts: Facts | None = None, launcher: Sequence[str] = (), gencast: bool | None = None,
               job_wait: float = DEFAULT_WAIT, on_job: Callable[[JobState], None] | None = None) -> VerifyResult:
    """Run the GraphCast probe in `env` and return what it found.

    Args:
        backend: "gpu" (a CPU landing fails the backend tier), "cpu", or "auto" (judge by the jaxlib
            build: a `+cuda` jaxlib or a CUDA plugin means gpu).
        on_tier: called with each finished `Tier`, on a reader thread, as soon as the probe reports it.
        on_tier_start: called with a tier's name when the probe starts it (reader thread).
        on_line: called with every other line the probe prints (reader thread), for a live log view.
        cancel: when set, the probe's process tree is stopped and the result says `cancelled`.
        facts: detection facts, used to sharpen the diagnosis.
        launcher: a command the probe runs under, e.g. `wizard.detect.slurm.SlurmTarget.srun(...)`: the
            check then runs on a cluster's GPU node (srun passes the probe's environment along and
            forwards its output line by line; stopping srun cancels the job step).
        gencast: whether to run the GenCast tier too (GraphCast v0.2 and later); None reads the
            environment's marker (`graphcast_version`, written at install), else lets the probe look.
        job_wait, on_job: with a launcher (srun), how long its job may wait for a node before it is
            cancelled (`--slurm-wait`), and a callback with the job's state as it changes (queued with
            Slurm's reason and the time waited, running on a node), on a reader thread.
    """
    env = Path(expand_home(env)).absolute()
    python = _environment_python(env, backend, level)
    if gencast is None:
        gencast = _gencast_from_marker(env)
    argv = _probe_argv(python, backend=backend, level=level, gencast=gencast, graphcast_src=graphcast_src,
                       launcher=launcher)
    child_env, removed = probe_environment(env, backend, runtime_env)
    log_file = Path(log_path) if log_path is not None else paths.new_log("verify")
    log = _open_log(log_file, argv, env=env, backend=backend, level=level, removed=removed, runtime_env=runtime_env)

    stream = ProbeStream(job=SrunJob(on_job, wait=job_wait) if launcher else None)
    run = run_probe(argv, child_env, env, stream, log, timeout=timeout, cancel=cancel,
                     listeners=ProbeListeners(on_tier, on_tier_start, on_line))
    outcome = _outcome(stream, run, backend=backend, timeout=timeout, gencast=gencast)
    tiers = _with_stderr_tails(outcome.tiers, stream)
    ok = bool(tiers) and all(t.ok for t in tiers) and not run.cancelled and not run.timed_out and \
        not run.queue_timeout
    findings: list[Finding] = []
    if not ok and not run.cancelled:
        findings = _findings(stream, tiers, run, facts=facts, env=env, child_env=child_env, launcher=launcher,
                             log_file=log_file, timeout=timeout, removed=removed)

    result = VerifyResult(
        ok=ok, env=str(env), backend=outcome.backend, level=level, tiers=tiers, findings=findings,
        log=str(log_file), seconds=run.seconds, cancelled=run.cancelled, timed_out=run.timed_out,
        exit_status=run.returncode, removed_paths=removed, python=outcome.python,
        where={"node": outcome.host or (stream.job.state.node if stream.job else None), "via": "srun",
               "srun": list(launcher), "job_id": stream.job.state.job_id if stream.job else None}
        if launcher else None, started=stream.started or not launcher,
    )
    summary = "passed" if ok else ("cancelled" if run.cancelled else "FAILED")
    log.line(f"# verify {summary} in {run.seconds:.1f} s; findings: {', '.join(f.id for f in findings) or 'none'}")
    log.close()
    return result
