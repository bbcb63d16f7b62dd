"""Runs plan steps as real child processes in a pty, live, logged, answerable and cancellable.

Why a pty (pexpect) and not pipes: installers line-buffer and show their prompts only on a terminal,
and a prompt nobody sees is exactly how hand-made installs hang. Each step is an argv list (never a
shell string) with an explicit environment. Output goes through `LineAssembler` (clean lines + the
unfinished `live` line), to the step log and to `RunnerEvents`. Known prompts are answered by rule;
output stalled on a line ending in `?` or `:` is an unknown prompt, handed to `events.prompt`.
Cancellation is a `threading.Event`: SIGINT, then SIGTERM, then SIGKILL to the child's process group
(pexpect makes the child a session leader, so grandchildren go too).
"""

from __future__ import annotations

import os
import re
import shlex
import signal
import threading
import time
from dataclasses import asdict, dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from wizard.libpath import split_cuda_dirs
from wizard.lines import LineAssembler

#: Variables passed from the user's environment to installer steps; everything else is dropped so a
#: stray PYTHONPATH or conda variable cannot change what gets installed.
PASSED_VARS = (
    "PATH", "HOME", "USER", "LOGNAME", "LANG", "LC_ALL", "TMPDIR", "XDG_CACHE_HOME", "SSL_CERT_FILE",
    "SSL_CERT_DIR", "REQUESTS_CA_BUNDLE", "CURL_CA_BUNDLE", "PIP_CERT", "http_proxy", "https_proxy",
    "no_proxy", "HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY", "ALL_PROXY", "LD_LIBRARY_PATH",
)
PASSED_PREFIXES = ("UV_", "PIP_")
#: Prompts every step may meet (conda-style confirmations); recipes add their own.
DEFAULT_PROMPTS = ((r"Proceed \(\[y\]/n\)\?\s*$", "y"),)
GRACE_SECONDS = 1.5
TAIL_LINES = 40


@dataclass
class StepResult:
    ok: bool
    exit_status: int | None = None
    signal: int | None = None
    seconds: float = 0.0
    cancelled: bool = False
    tail: list[str] = field(default_factory=list)
    """The last lines the step printed: the installer's own error, for messages."""
    answered: list[str] = field(default_factory=list)
    error: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


class RunnerEvents:
    """Callbacks from the runner's thread; override what you need. Keep them cheap."""

    def step_started(self, step) -> None: ...

    def line(self, step, text: str) -> None: ...

    def live(self, step, text: str) -> None: ...

    def prompt(self, step, text: str) -> str | None:
        """An unknown question; return the answer to type, or None to stop the step."""
        return None

    def step_finished(self, step, result: StepResult) -> None: ...


class StepLog:
    """One log file per run: a timestamped header per step, every clean line, answers, a footer."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._file = open(self.path, "a", encoding="utf-8", buffering=1 << 16)

    def header(self, step) -> None:
        stamp = datetime.now().isoformat(timespec="seconds")
        self._file.write(f"\n===== {stamp}  {step.name}: {step.title}\n$ {shlex.join(step.argv)}\n"
                         f"  (cwd {step.cwd or os.getcwd()})\n")

    def lines(self, lines: list[str]) -> None:
        if lines:
            self._file.write("\n".join(lines) + "\n")

    def note(self, text: str) -> None:
        self._file.write(f"[gc-wizard] {text}\n")

    def footer(self, step, result: StepResult) -> None:
        status = ("cancelled" if result.cancelled else f"exit status {result.exit_status}"
                  if result.signal is None else f"killed by signal {result.signal}")
        self._file.write(f"===== {step.name}: {'ok' if result.ok else 'FAILED'} ({status}) in {result.seconds:.1f} s\n")
        self.flush()

    def flush(self) -> None:
        self._file.flush()

    def close(self) -> None:
        self._file.close()

    def __enter__(self) -> StepLog:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def build_env(step_env: dict[str, str], environ: dict[str, str] | None = None) -> dict[str, str]:
    """The explicit environment a step runs with (see PASSED_VARS), CUDA folders out of LD_LIBRARY_PATH."""
    source = os.environ if environ is None else environ
    env = {k: v for k, v in source.items() if k in PASSED_VARS or k.startswith(PASSED_PREFIXES)}
    env.setdefault("PATH", os.defpath)
    env.setdefault("LANG", "C.UTF-8")
    env.update(step_env)
    kept, _removed = split_cuda_dirs(env.pop("LD_LIBRARY_PATH", ""))
    if kept:
        env["LD_LIBRARY_PATH"] = os.pathsep.join(kept)
    env["PYTHONUNBUFFERED"] = "1"
    env.setdefault("NO_COLOR", "1")
    return env


def _check_before_spawn(step, env: dict[str, str]) -> str | None:
    """pexpect forks before it chdirs/execs: a bad cwd or env would run *our* code in the child."""
    if not step.argv:
        return "the step has no command"
    if step.cwd is not None and not Path(step.cwd).is_dir():
        return f"the step's working folder {step.cwd} does not exist"
    bad = [k for k, v in env.items() if not isinstance(k, str) or not isinstance(v, str)]
    if bad:
        return f"environment values must be text; not so for {', '.join(map(str, bad))}"
    return None


def _stop(child, cancel_reason: str, log: StepLog) -> None:
    """SIGINT, SIGTERM, SIGKILL to the child's process group, each after a short grace."""
    log.note(f"stopping the step ({cancel_reason})")
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(child.pid, sig)
        except (ProcessLookupError, PermissionError):
            return
        deadline = time.monotonic() + GRACE_SECONDS
        while time.monotonic() < deadline:
            try:
                child.read_nonblocking(65536, timeout=0.05)
            except Exception:  # EOF / TIMEOUT: only draining the pty so the child can exit
                pass
            if not child.isalive():
                break
        try:  # the leader may be gone while others in its group still run
            os.killpg(child.pid, 0)
        except ProcessLookupError:
            return


def run_step(step, *, log: StepLog, events: RunnerEvents | None = None, cancel: threading.Event | None = None,
             extra_prompts=(), stall_seconds: float = 2.0, environ: dict[str, str] | None = None) -> StepResult:
    import pexpect

    events = events or RunnerEvents()
    cancel = cancel or threading.Event()
    env = build_env(dict(step.env), environ)
    started = time.monotonic()
    log.header(step)
    events.step_started(step)
    problem = _check_before_spawn(step, env)
    if problem is not None:
        result = StepResult(ok=False, error=problem)
        log.note(problem)
        log.footer(step, result)
        events.step_finished(step, result)
        return result
    rules = [(re.compile(p), a) for p, a in DEFAULT_PROMPTS]
    rules += [(re.compile(r.pattern), r.answer) for r in (*getattr(step, "prompts", ()), *extra_prompts)]
    try:
        child = pexpect.spawn(step.argv[0], list(step.argv[1:]), env=env, cwd=step.cwd, encoding="utf-8",
                              codec_errors="replace", dimensions=(24, 200), echo=False, timeout=None)
    except (pexpect.ExceptionPexpect, OSError) as exc:
        result = StepResult(ok=False, seconds=time.monotonic() - started,
                            error=f"could not start {step.argv[0]}: {exc}")
        log.note(result.error)
        log.footer(step, result)
        events.step_finished(step, result)
        return result
    child.delaybeforesend = None

    assembler = LineAssembler()
    tail: list[str] = []
    answered: list[str] = []
    answered_at = -1  # the output position of the last answer, so one prompt is answered once
    position = 0
    last_output = time.monotonic()
    last_live = ""
    cancelled = False
    error = None

    def take(lines: list[str]) -> None:
        if not lines:
            return
        log.lines(lines)
        tail.extend(lines)
        del tail[:-TAIL_LINES]
        for text in lines:
            events.line(step, text)

    def answer(text: str, reply: str, why: str) -> None:
        nonlocal answered_at
        child.sendline(reply)
        answered_at = position
        take(assembler.feed(reply + "\n"))  # echo is off: show the answer on the prompt's line ourselves
        note = f"answered {reply!r} to {text.strip()!r}{why}"
        answered.append(note)
        log.note(note)

    while True:
        if cancel.is_set():
            cancelled = True
            _stop(child, "cancelled", log)
            break
        try:
            chunk = child.read_nonblocking(65536, timeout=0.1)
        except pexpect.TIMEOUT:
            chunk = ""
        except pexpect.EOF:
            break
        if chunk:
            position += len(chunk)
            last_output = time.monotonic()
            take(assembler.feed(chunk))
            log.flush()
        live = assembler.live
        if live != last_live:
            last_live = live
            events.live(step, live)
        if not live.strip() or answered_at == position:
            continue
        rule = next((a for rx, a in rules if rx.search(live)), None)
        if rule is not None:
            answer(live, rule, " (by rule)")
        elif time.monotonic() - last_output >= stall_seconds and live.rstrip().endswith(("?", ":")):
            reply = events.prompt(step, live.strip())
            if reply is None:
                error = f"stopped at a question nobody answered: {live.strip()!r}"
                _stop(child, error, log)
                break
            answer(live, reply, " (by the user)")
    take(assembler.flush())
    child.close(force=True)
    exit_status, sig = child.exitstatus, child.signalstatus
    ok = not cancelled and error is None and exit_status == 0
    result = StepResult(ok=ok, exit_status=exit_status, signal=sig, seconds=round(time.monotonic() - started, 3),
                        cancelled=cancelled, tail=list(tail), answered=answered, error=error)
    log.footer(step, result)
    events.step_finished(step, result)
    return result


def run_plan(plan, *, log_path: Path, events: RunnerEvents | None = None, cancel: threading.Event | None = None,
             extra_prompts=()) -> list[StepResult]:
    """Run the plan's steps in order; stop at the first that fails or is cancelled."""
    results: list[StepResult] = []
    with StepLog(log_path) as log:
        for step in plan.steps:
            if step.cwd:
                Path(step.cwd).mkdir(parents=True, exist_ok=True)
            result = run_step(step, log=log, events=events, cancel=cancel, extra_prompts=extra_prompts)
            results.append(result)
            if not result.ok:
                break
    return results
