"""Runs plan steps as real child processes in a pty, live, logged, answerable and cancellable.

Why a pty (pexpect) and not pipes: installers line-buffer and show their prompts only on a terminal,
and a prompt nobody sees is exactly how hand-made installs hang. Each step is an argv list (never a
shell string) with an explicit environment (`build_env`). Output goes through `LineAssembler` (clean
lines + the unfinished `live` line), to the step log and to `RunnerEvents`.

Prompts: known ones are answered by rule (`DEFAULT_PROMPTS`, the step's recipe rules, the caller's
`extra_prompts`) once the output has paused for a moment. An unknown prompt is output stalled for
`stall_seconds` while the child waits for input: the kernel says so (`wizard.install.process_table`: a process
blocked reading the terminal), or, where it cannot tell, the stalled line ends in `?` or `:`. It goes
to `events.prompt`; `None` back stops the step. Answers are logged; answers to secret-looking
questions (password, token, passphrase) are never written anywhere.

Cancellation is a `threading.Event`, polled every 100 ms: SIGINT, then SIGTERM, then SIGKILL, each
after a short grace, to the child's process group and to every process of its session or descended
from it (collected from /proc before each signal), until none is left.

pexpect traps avoided: a bad `cwd` or env value would make the forked
child run *our* code, so both are checked before spawning and the chdir happens in a `preexec_fn`,
whose failure pexpect reports to the parent; `delaybeforesend=None`; `echo=False`; 200 columns; reads
with `read_nonblocking`, never `expect` with a timeout.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import queue
import re
import shlex
import signal
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, Protocol

import pexpect

from wizard import paths
from wizard.children import child_environ, die_with_parent, which
from wizard.detect.libpath import split_cuda_dirs
from wizard.errors import OperationFailed, UserError, pty_sentence
from wizard.install import process_table as procfs
from wizard.install.cache_trust import step_cache_env
from wizard.install.lines import LineAssembler, TracebackFolder, is_destructive_hint
from wizard.install.linkmode import cache_linked, unlinked_words
from wizard.install.private_args import PrivateArguments, temporary_folder
from wizard.install.resolution_settings import resolution_notes
from wizard.install.uv_overrides import uv_overrides
from wizard.installer_files import (
    placement_problem,
    requirement_problem,
    settings_problem,
    with_absolute_paths,
)
from wizard.patterns import decimal_number
from wizard.security import (
    LineRedactor,
    is_secret_question,
    make_folders,
    open_private_log,
    redact_secrets,
)

#: Variables passed from the user's environment to installer steps; everything else is dropped, so a
#: stray PYTHONPATH/PYTHONHOME (breaks venv creation), VIRTUAL_ENV or CONDA_PREFIX (uv would install
#: there) or a CUDA_HOME cannot change what gets installed. What stays is what an installer needs to
#: reach an index the way the user's shell does: PATH and HOME, certificates and proxies, netrc
#: credentials, the XDG folders (uv/pip caches, config, uv's Pythons), ssh-agent for git+ssh sources,
#: and every UV_*/PIP_* setting the user made on purpose (a mirror index, a cache folder).
PASSED_VARS = (
    "PATH", "HOME", "USER", "LOGNAME", "TMPDIR", "TZ",
    "XDG_CACHE_HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME",
    "SSL_CERT_FILE", "SSL_CERT_DIR", "REQUESTS_CA_BUNDLE", "CURL_CA_BUNDLE", "NETRC", "SSH_AUTH_SOCK",
    "http_proxy", "https_proxy", "no_proxy", "all_proxy", "HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY", "ALL_PROXY",
    "LD_LIBRARY_PATH",
)
PASSED_PREFIXES = ("UV_", "PIP_")
#: Set for every step (a step's own `env` may override): English, UTF-8 messages — what diagnosis
#: matches and what the assembler decodes — whatever the user's locale; unbuffered Python; no colour;
#: `TERM=dumb`, so tools that look at it draw no cursor-addressed bars (the output is read as lines,
#: not shown on a screen). Tool-specific progress switches (`UV_NO_PROGRESS`, pip's
#: `--progress-bar raw`, which pip < 24.1 rejects) belong to the plan, which knows the tool's version.
STEP_DEFAULTS = {
    "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "PYTHONUNBUFFERED": "1", "NO_COLOR": "1", "TERM": "dumb",
}
#: Confirmations of the very command the wizard chose to run (conda's and pip's); recipes add their
#: own. Generic `[y/N]` questions are deliberately *not* answered: a default-no question may guard
#: something destructive, so it goes to the user.
DEFAULT_PROMPTS = ((r"Proceed \(\[y\]/n\)\?\s*$", "y"), (r"Proceed \(Y/n\)\?\s*$", "y"))
#: For unattended runs: the switches that make installers fail instead of asking (pip's for index
#: credentials and confirmations, git's for a git+https source that wants a user name). uv has none.
NO_INPUT_ENV = {"PIP_NO_INPUT": "1", "GIT_TERMINAL_PROMPT": "0"}
#: Seconds given after SIGINT and after SIGTERM before the next signal.
GRACE_SECONDS = (1.0, 1.0)
TAIL_LINES = 40
#: The step inactivity limit (see `inactivity_limit`).
INACTIVITY_ENV = "GC_WIZARD_INACTIVITY_TIMEOUT"
DEFAULT_INACTIVITY_SECONDS = 1800.0
#: How often one question is answered by rule before the rule is deemed wrong (the child re-asks).
MAX_RULE_REPEATS = 3
READ_SIZE = 65536
POLL_SECONDS = 0.1


class StepSetupError(UserError):
    """A step that cannot be started as given (bad folder, bad environment value, bad prompt rule).

    `check_step` raises it; `run_step` turns it into a failed `StepResult` whose `error` is its text,
    so the caller records the failure like any other (and nothing was forked).
    """


class StepRefused(StepSetupError):
    """A step the wizard's own rules refuse (a settings file or package source another user could swap, a setting
    that installs elsewhere or other packages, an environment that fails its rule): `refusal` is the rule's sentence.

    Why apart from a step that cannot start: the same sentence said before the install is the wizard's refusal
    (exit 2, "gc-wizard: …"); said from inside a step it came out as "Install failed … The installer said: Step
    create-env: …", exit 1, as if uv had said it (28th hostile pass (part B) P9). `run_step` marks its result
    `refusal`, and the install hands it on as its own refusal."""

    def __init__(self, step_name: str, refusal: str):
        super().__init__(f"Step {step_name}: {refusal}")
        self.refusal = refusal


class StepRefusal(UserError):
    """`StepRefused`'s sentence handed on by whoever ran the step (`StepResult.refusal`), as the wizard's refusal."""


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
    """One note per answered prompt: "answered 'y' to 'Proceed ([y]/n)?' (by rule)"."""
    error: str | None = None
    """Why the step failed when it is not just the exit status (could not start, unanswered question)."""
    refusal: str | None = None
    """The wizard's own refusal of the step (`StepRefused`), not the installer's failure: the caller says it as its
    refusal."""

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


class RunnerEventsProtocol(Protocol):
    """What the runner calls, on its own thread, while a step runs. Keep each call cheap."""

    def step_started(self, step) -> None: ...

    def line(self, step, text: str) -> None: ...

    def live(self, step, text: str) -> None: ...

    def prompt(self, step, text: str) -> str | None: ...

    def step_finished(self, step, result: StepResult) -> None: ...


def await_answer(reply: queue.Queue, cancel: threading.Event, poll: float = 0.2) -> str | None:
    """A face's answer to an installer's question, put on `reply` by whoever asked the user; None once the
    step is cancelled first. Both faces' `prompt` wait this way (the runner's thread must stay stoppable)."""
    while not cancel.is_set():
        try:
            return reply.get(timeout=poll)
        except queue.Empty:
            continue
    return None


class RunnerEvents:
    """The no-op events object: subclass it and override what you need.

    `line_batch(step, texts)` receives all the lines of one read at once; its default calls `line` for
    each, so overriding `line` is enough, and a consumer that batches anyway (a TUI log) overrides
    `line_batch`.
    An events object that is not a subclass needs only the `RunnerEventsProtocol` methods.
    """

    def step_started(self, step) -> None: ...

    def line(self, step, text: str) -> None: ...

    def line_batch(self, step, texts: list[str]) -> None:
        line = self.line
        if type(self).line is RunnerEvents.line:  # nobody listens line by line
            return
        for text in texts:
            line(step, text)

    def live(self, step, text: str) -> None: ...

    def prompt(self, step, text: str) -> str | None:
        """An unknown question; return the answer to type, or None to stop the step."""
        return None

    def step_finished(self, step, result: StepResult) -> None: ...


def redact(text: str) -> str:
    """Credentials of every form (`wizard.security.redact_secrets`) masked, for anything written to a log;
    a URL keeps its user name (`https://me:***@host`: which account was used)."""
    return redact_secrets(text, keep_user=True)


class StepLog:
    """One log file per run: a timestamped header per step, every clean line, answers, a footer.

    Appends (a verify run adds to an install's log, a rollback's steps and check share one); writes are
    buffered and flushed after every chunk of output, so a crash loses at most the chunk being handled.
    The one log writer: the runner's steps, the transactions' notes and the verify probe's two reader
    threads (`line`) all write through it, so every log has the same masking and the same mode 0600.
    Writes hold a lock: lines from two threads never interleave inside one another.
    """

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        make_folders(self.path.parent)
        # 0600 whatever the umask: installer output can quote a private index's address.
        # Never through a link, never into a FIFO (30th pass (part A) P6); a path's byte that is not UTF-8 is written as
        # the byte it is, any other lone surrogate (a hand-edited history entry's) escaped (32nd pass (part A) P6).
        self._file = open_private_log(self.path, buffering=1 << 16)
        self._redact = LineRedactor(keep_user=True)  # a private-key block spans lines
        self._lock = threading.Lock()

    def _write(self, text: str, *, flush: bool = False) -> None:
        with self._lock:
            self._file.write(text)
            if flush:
                self._file.flush()

    def header(self, step, *, cwd: str | None = None, env_notes: list[str] = ()) -> None:
        stamp = datetime.now().astimezone().isoformat(timespec="seconds")
        title = getattr(step, "title", "") or step.name
        notes = "".join(f"  {redact(note)}\n" for note in env_notes)
        self._write(f"\n===== {stamp}  {step.name}: {title}\n"
                    f"$ {redact(shlex.join(step.argv))}\n"
                    f"  (cwd {cwd or os.getcwd()})\n{notes}", flush=True)

    def lines(self, lines: list[str]) -> None:
        if lines:
            with self._lock:  # the redactor keeps state across lines (a key block): one caller at a time
                self._file.write("\n".join(self._redact(line) for line in lines) + "\n")

    def line(self, text: str) -> None:
        """One line, on disk at once: for output that arrives a line at a time (the verify probe)."""
        with self._lock:
            self._file.write(self._redact(text.rstrip("\n")) + "\n")
            self._file.flush()

    def note(self, text: str) -> None:
        self._write(f"[gc-wizard] {redact(text)}\n")

    def footer(self, step, result: StepResult) -> None:
        if result.cancelled:
            status = "cancelled"
        elif result.signal is not None:
            status = f"killed by signal {result.signal} ({_signal_name(result.signal)})"
        elif result.exit_status is not None:
            status = f"exit status {result.exit_status}"
        else:
            status = "not started"
        self._write(f"===== {step.name}: {'ok' if result.ok else 'FAILED'} ({status}) in {result.seconds:.1f} s\n",
                    flush=True)

    def flush(self) -> None:
        with self._lock:
            self._file.flush()

    def close(self) -> None:
        with self._lock:
            self._file.close()

    def __enter__(self) -> StepLog:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return "unknown"


def build_env(step_env: dict[str, str], environ: dict[str, str] | None = None,
              notes: list[str] | None = None) -> dict[str, str]:
    """The explicit environment a step runs with; what it changed is appended to `notes` (for the log).

    The user's `PASSED_VARS`/`PASSED_PREFIXES` (relative paths in them made absolute against the user's folder:
    `installer_files.with_absolute_paths`), then `STEP_DEFAULTS`, then the step's own variables;
    CUDA/cuDNN folders are dropped from `LD_LIBRARY_PATH` last (a step cannot bring one back):
    pip-installed JAX must load its own `nvidia-*` libraries, never a system cuDNN. Then what the loader would load
    from a place another user could swap (`children.guard_child_loader`: LD_LIBRARY_PATH folders, LD_PRELOAD/LD_AUDIT
    libraries a step's own variables name) is left out and named in `notes`: uv needs librt.so.1 and ld.so takes it
    from LD_LIBRARY_PATH first, so another user's folder there ran their code as root in every step (34th hostile
    pass (part B) P4).
    """
    source = os.environ if environ is None else environ
    # A relative path the user gave (UV_CONFIG_FILE=cfg/uv.toml) means their folder, not the step's `<state>/envs`.
    env = with_absolute_paths({k: v for k, v in source.items() if k in PASSED_VARS or k.startswith(PASSED_PREFIXES)})
    env.setdefault("PATH", os.defpath)
    env.update(STEP_DEFAULTS)
    env.update(step_env)
    notes = [] if notes is None else notes
    if step_env:
        notes.append(f"env: {' '.join(f'{k}={v}' for k, v in step_env.items())}")
    library_path = env.pop("LD_LIBRARY_PATH", "")
    if isinstance(library_path, str) and library_path:
        kept, removed = split_cuda_dirs(library_path)
        if kept:
            env["LD_LIBRARY_PATH"] = os.pathsep.join(kept)
        notes += [f"LD_LIBRARY_PATH: left out {folder} ({reason})" for folder, reason in removed]
    elif library_path:
        env["LD_LIBRARY_PATH"] = library_path  # not text: reported by the checks before spawning
    # the rule of every child (`children.child_environ`): a library another user could swap (34th hostile pass (part B)
    # P4), and git's command-line settings, which a step's own variables bring none of either
    return child_environ(env, notes)


def _rules(step, extra_prompts) -> list[tuple[re.Pattern, str, str]]:
    """(compiled pattern, answer, where from) for every prompt rule that applies to the step."""
    found = [(p, a, "by rule") for p, a in DEFAULT_PROMPTS]
    for where, rules in (("by the recipe's rule", getattr(step, "prompts", ()) or ()), ("by rule", extra_prompts)):
        for rule in rules:
            pattern, reply = (rule.pattern, rule.answer) if hasattr(rule, "pattern") else rule
            found.append((pattern, reply, where))
    compiled = []
    for pattern, reply, where in found:
        try:
            compiled.append((re.compile(pattern), str(reply), where))
        except re.error as exc:
            raise StepSetupError(f"Step {step.name}: the prompt pattern {pattern!r} is not a valid regular "
                                 f"expression ({exc}).") from None
    return compiled


def _has_nul(value: str) -> bool:
    return "\x00" in value


def check_step(step, env: dict[str, str]) -> tuple[str, str | None]:
    """Everything that would fail after pexpect's fork, checked before it: (program path, cwd).

    Raises `StepSetupError` with one sentence naming the bad value. A missing program is not raised
    here (it is the step's failure, reported in its result).
    """
    argv = tuple(step.argv)
    if not argv:
        raise StepSetupError(f"Step {step.name} has no command.")
    bad = [repr(a) for a in argv if not isinstance(a, str) or _has_nul(a)]
    if bad:
        raise StepSetupError(f"Step {step.name}: command arguments must be text without NUL bytes; "
                             f"not so for {', '.join(bad)}.")
    bad = [f"{k}={v!r}" for k, v in env.items()
           if not isinstance(k, str) or not isinstance(v, str) or not k or "=" in k or _has_nul(k) or _has_nul(v)]
    if bad:
        raise StepSetupError(f"Step {step.name}: environment variables must be text (name=value); "
                             f"not so for {', '.join(bad)}.")
    cwd = None if step.cwd in (None, "") else str(step.cwd)
    if cwd is not None:
        if not Path(cwd).is_dir():
            raise StepSetupError(f"Step {step.name}: its working folder {cwd} does not exist "
                                 "(or is not a folder).")
        if not os.access(cwd, os.X_OK):
            raise StepSetupError(f"Step {step.name}: its working folder {cwd} cannot be entered (permissions).")
        cwd = os.path.abspath(cwd)
    program = argv[0]
    if os.sep in program and not os.path.isabs(program):
        program = os.path.join(cwd or os.getcwd(), program)
    if os.path.basename(program) == "uv":
        # uv reads the uv.toml/pyproject.toml of the folder it runs in and of every folder above it: a state folder
        # under a project whose settings file is a FIFO or /dev/zero hung the step or grew uv to a gigabyte
        # (eighteenth hostile pass P7). `uv_bin` checks the wizard's own folder; this, the step's.
        problem = settings_problem("uv", env, cwd or os.getcwd())
        if problem:
            raise StepRefused(step.name, problem)
    target_env = installer_env(argv)
    if target_env is not None:  # every installer step pointed at an env: the env's rule first (24th pass (B) P7)
        try:
            paths.guard_env_python(target_env)
        except OperationFailed as exc:
            raise StepRefused(step.name, str(exc)) from None
    installer = step_installer(argv)
    if installer == "pip":  # pip's own settings files and the places they name: the rule uv's are held to above
        problem = settings_problem("pip", env, cwd or os.getcwd())
        if problem:
            raise StepRefused(step.name, problem)
    if installer is not None:  # a PIP_TARGET or a uv.toml `[pip] prefix` would install outside the environment;
        # a UV_OVERRIDE or PIP_REQUIREMENT would install other packages than the step's (25th pass (part B) P4)
        problem = (placement_problem(installer, env, cwd or os.getcwd())
                   or requirement_problem(installer, env, cwd or os.getcwd()))
        if problem:
            raise StepRefused(step.name, problem)
    return program, cwd


def installer_env(argv) -> Path | None:
    """The environment a step points an installer at: ENV for `uv pip … --python ENV/bin/python` (or
    `--python=…`) and for `ENV/bin/python -m pip …`; None for any other step (`uv venv --python BASE` names the
    Python an env is made from, not one to change).

    Why: rollback's re-sync ran `uv pip sync --python ENV/bin/python` where that python led to another venv, and uv
    synced that venv (24th hostile pass (part B) P7); the runner checks the env of every such step before it runs."""
    words = [str(word) for word in argv]
    python = None
    if words and os.path.basename(words[0]) == "uv" and words[1:2] == ["pip"]:
        for at, word in enumerate(words):
            if word == "--python" and at + 1 < len(words):
                python = words[at + 1]
            elif word.startswith("--python="):
                python = word.split("=", 1)[1]
    elif words[1:3] == ["-m", "pip"]:
        python = words[0]
    if python is None or "/" not in python:
        return None
    path = Path(os.path.abspath(python))
    return path.parent.parent if path.parent.name == "bin" and path.name.startswith("python") else None


def step_installer(argv) -> str | None:
    """"uv" or "pip" for a step that installs packages (`uv pip install|sync`, `python -m pip install`), else None."""
    words = [str(word) for word in argv]
    if os.path.basename(words[0]) == "uv" and words[1:2] == ["pip"] and words[2:3] in (["install"], ["sync"]):
        return "uv"
    if words[1:3] == ["-m", "pip"] and "install" in words[3:]:
        return "pip"
    return None


def _resolve(program: str, env: dict[str, str]) -> str | None:
    """The program's full path as the child would find it (the step's PATH), or None."""
    if os.sep in program:
        return program if os.path.isfile(program) and os.access(program, os.X_OK) else None
    return which(program, env.get("PATH", os.defpath))  # the PATH trust rule (25th hostile pass (part B) P5)


def _chdir_to(cwd: str | None):
    """A preexec_fn: chdir in the child, where a failure goes back to the parent as an exception."""
    if cwd is None:
        return None

    def chdir() -> None:
        os.chdir(cwd)

    return chdir


#: How a plan step is stopped: SIGINT (an installer cleans up on Ctrl-C), then SIGTERM, then SIGKILL,
#: each followed by its grace in seconds.
STEP_STOP_SIGNALS = ((signal.SIGINT, GRACE_SECONDS[0]), (signal.SIGTERM, GRACE_SECONDS[1]), (signal.SIGKILL, 5.0))


class ProcessTreeStopper:
    """Stops a child and everything it started: each signal to its process group and to every process
    of its session or descended from it (collected from /proc before each signal), until none is left.

    The one way the wizard stops a child's tree: the runner's plan steps (in a pty) and the GraphCast
    check's probe (on pipes, `wizard.verify.check`) both use it. `is_alive` tells whether the child
    itself still runs (and reaps it once it has exited); `drain`, called while waiting, keeps a child
    that is still printing from blocking on a full pty.
    """

    RESCAN_SECONDS = 0.25

    def __init__(self, pid: int, is_alive: Callable[[], bool], *,
                 signals: Sequence[tuple[int, float]] = STEP_STOP_SIGNALS,
                 drain: Callable[[], None] | None = None) -> None:
        self.pid = pid
        self.is_alive = is_alive
        self.signals = tuple(signals)
        self.drain = drain
        self.known: set[int] = set()
        self.scanned = 0.0

    def _targets(self, *, rescan: bool = False) -> set[int]:
        """The child's live processes; /proc is scanned again at most every RESCAN_SECONDS."""
        if rescan or time.monotonic() - self.scanned >= self.RESCAN_SECONDS:
            self.known |= procfs.step_processes(self.pid)
            self.scanned = time.monotonic()
        self.known = {pid for pid in self.known if procfs.is_alive(pid)}
        if self.is_alive():  # also reaps the child when it has exited
            self.known.add(self.pid)
        return self.known

    def _send(self, sig: int) -> None:
        try:
            os.killpg(self.pid, sig)
        except (ProcessLookupError, PermissionError):
            pass
        for pid in self._targets(rescan=True):
            try:
                os.kill(pid, sig)
            except (ProcessLookupError, PermissionError):
                pass

    def _pause(self) -> None:
        if self.drain is not None:
            self.drain()
        else:
            time.sleep(0.02)

    def stop(self) -> set[int]:
        """Signal until the tree is gone; returns the pids still present after the last signal."""
        self._targets(rescan=True)
        for sig, grace in self.signals:
            if not self.known:
                return set()
            self._send(sig)
            deadline = time.monotonic() + grace
            while time.monotonic() < deadline:
                self._pause()
                if not self._targets():
                    return set()
        return set(self.known)


class _Stopper:
    """A plan step's stopper: the process-tree stopper, draining the pty while it waits, with a note in
    the step log of why and of anything left."""

    def __init__(self, child, log: StepLog | None) -> None:
        self.tree = ProcessTreeStopper(child.pid, child.isalive, drain=lambda: _drain(child))
        self.log = log

    def stop(self, reason: str, *, note: str | None = None) -> None:
        if self.log is not None:
            self.log.note(note or f"stopping the step ({reason})")
        left = self.tree.stop()
        if self.log is not None and left:
            self.log.note(f"processes still present after SIGKILL: {sorted(left)}")


def _drain(child) -> None:
    """Read what the child still prints, so it never blocks writing to a full pty while exiting."""
    try:
        child.read_nonblocking(READ_SIZE, timeout=0.05)
    except Exception:  # EOF or TIMEOUT: we only drain; the pty may already be closed
        time.sleep(0.02)


class _FsArg(str):
    """An argument pexpect encodes as the bytes it stands for (`os.fsencode`): pexpect encodes each argument
    with `str.encode(encoding)`, strictly, so a path holding a byte that is not UTF-8 (a surrogate in
    Python's str: a state folder named so) failed the install before its first step."""

    def encode(self, encoding: str = "utf-8", errors: str = "strict") -> bytes:  # noqa: ARG002 - the fs encoding
        return os.fsencode(str(self))


def run_step(step, *, log: StepLog | None, events: RunnerEventsProtocol | None = None,
             cancel: threading.Event | None = None, extra_prompts=(), stall_seconds: float = 2.0,
             environ: dict[str, str] | None = None, inactivity_seconds: float | None = None) -> StepResult:
    """Run one step to its end (or its cancellation); return how it went. See the module docstring.

    `step` needs `name, argv, env, cwd` and may have `title, prompts` (duck typing on `wizard.install.plan.Step`);
    `extra_prompts` are more rules, as objects with `pattern`/`answer` or (pattern, answer) pairs;
    `environ` replaces `os.environ` as the user's environment (tests).
    A missing folder, a value that is not text or a missing program fail the step before anything is
    forked (`result.error` says which).
    """
    events = events if events is not None else RunnerEvents()
    cancel = cancel if cancel is not None else threading.Event()
    started = time.monotonic()
    env_notes: list[str] = []
    env = build_env(dict(step.env or {}), environ, env_notes)
    # Its cache passes the swap rule, or the state's private one is used (25th pass (part B) P1): every uv step
    # (`uv venv` reads its interpreter cache too), and pip's that install.
    installer = step_installer(step.argv or ("",)) or ("uv" if os.path.basename(str(step.argv[0])) == "uv"
                                                         else None)
    if installer:
        env.update(step_cache_env(installer, str(step.argv[0]), env, env_notes))
    if installer == "uv":  # `uv venv` too: a variable that changes what the environment holds is set back, named
        overrides, override_notes = uv_overrides(env)
        env.update(overrides)
        env_notes.extend(override_notes)
        for note in override_notes:
            paths.note_at_end(note, installer_env(step.argv) or paths.state_dir())
    if step_installer(step.argv or ("",)):  # a UV_REQUIRE_HASHES, a pip.conf's `pre`: in the log, by the step it
        # changes (rollback's and sync's too; 32nd hostile pass (part B) P2)
        env_notes.extend(resolution_notes(step_installer(step.argv), env,
                                          None if step.cwd in (None, "") else str(step.cwd)))
    if step_installer(step.argv or ("",)) == "uv":
        # every uv step that installs (rollback's and sync's too) keeps its files in the environment, not as links
        # into uv's cache that `uv cache clean` breaks (30th hostile pass (part B) P7); a plan's steps say so already
        linked = cache_linked(env, None if step.cwd in (None, "") else str(step.cwd))
        if linked is not None:
            env["UV_LINK_MODE"] = "copy"
            env_notes.append(unlinked_words(linked, "copy"))
            paths.note_at_end(unlinked_words(linked, "copy"), installer_env(step.argv) or paths.state_dir())
    try:
        program, cwd = check_step(step, env)
        rules = _rules(step, extra_prompts)
    except StepSetupError as exc:
        result = StepResult(ok=False, error=str(exc), refusal=getattr(exc, "refusal", None))
        if log is not None:
            log.header(step, cwd=None if step.cwd is None else str(step.cwd), env_notes=env_notes)
            log.note(str(exc))
            log.footer(step, result)
        events.step_started(step)
        events.step_finished(step, result)
        return result
    if log is not None:
        log.header(step, cwd=cwd, env_notes=env_notes)
    events.step_started(step)

    def finish(result: StepResult) -> StepResult:
        result.seconds = round(time.monotonic() - started, 3)
        if log is not None:
            if result.error:
                log.note(result.error)
            log.footer(step, result)
        events.step_finished(step, result)
        return result

    if cancel.is_set():
        return finish(StepResult(ok=False, cancelled=True, error="cancelled before it started"))
    resolved = _resolve(program, env)
    if resolved is None:
        where = "" if os.sep in program else " on the step's PATH"
        return finish(StepResult(ok=False, error=f"could not start {step.argv[0]}: no such program{where} "
                                                 "(or it is not executable)"))
    private = PrivateArguments(step.argv)  # a secret never on the child's world-readable command line
    scratch = contextlib.ExitStack()
    environ = _scratch_environment(private.environ(env), step, scratch)
    try:
        child = pexpect.spawn(resolved, [_FsArg(a) for a in private.argv[1:]], env=environ, cwd=None,
                              preexec_fn=die_with_parent(_chdir_to(cwd)), encoding="utf-8", codec_errors="replace",
                              dimensions=(24, 200), echo=False, timeout=None)
    except (pexpect.ExceptionPexpect, OSError) as exc:
        private.close()
        scratch.close()
        # An OSError here is the pty or the fork: its errno decides the words (`pty_sentence`), never the `pty`
        # module's "out of pty devices", which it says for a low `ulimit -n` too (hostile pass P9).
        why = pty_sentence(exc) if isinstance(exc, OSError) else str(exc)
        return finish(StepResult(ok=False, error=f"could not start {step.argv[0]}: {why}"))
    child.delaybeforesend = None
    session = _Session(step, child, log, events, cancel, rules, stall_seconds,
                       inactivity_limit() if inactivity_seconds is None else inactivity_seconds)
    try:
        result = session.run()
    except BaseException:  # an event handler raised, or Ctrl-C in this thread: leave no process behind
        _Stopper(child, log).stop("the wizard itself stopped")
        child.close(force=True)
        raise
    finally:
        private.close()
        scratch.close()
    return finish(result)


def _scratch_environment(env: dict[str, str], step, scratch: contextlib.ExitStack) -> dict[str, str]:
    """`env` with `TMPDIR` pointing at a private folder of the step's own (unless the step names one itself),
    entered on `scratch`, whose closing removes it with all it holds.

    Why: what installers leave in the temporary folder stayed there, open to every user — uv's build lock
    `uv-setuptools-<hash>.lock`, mode 0666, one per checkout build (fifteenth hostile pass P9). The step's folder is
    0700, named with the wizard's pid (a later wizard clears it if this one is killed outright) and removed when
    the step ends, so nothing a step writes there outlives it or is anyone else's to read."""
    if "TMPDIR" in dict(getattr(step, "env", None) or {}):
        return env
    try:
        folder = scratch.enter_context(temporary_folder("step"))
    except OSError:  # a temporary folder that cannot be written: the step meets it itself, in its own words
        return env
    return {**env, "TMPDIR": str(folder)}


class _Session:
    """The read loop of one running step."""

    def __init__(self, step, child, log, events, cancel, rules, stall_seconds: float,
                 inactivity_seconds: float = 0) -> None:
        self.inactivity_seconds = inactivity_seconds
        self.step, self.child, self.log, self.events, self.cancel = step, child, log, events, cancel
        self.rules = rules
        self.stall_seconds = stall_seconds
        self.assembler = LineAssembler()
        self.tail: deque[str] = deque(maxlen=TAIL_LINES)
        self.answered: list[str] = []
        self.position = 0  # characters read so far
        self.answered_at = -1  # the position of the last answer: one prompt is answered once
        self.repeats: dict[str, int] = {}  # rule answers per question, to stop a rule that loops
        self.last_output = time.monotonic()
        self.last_probe = 0.0
        batch = getattr(events, "line_batch", None)
        self._emit = batch if callable(batch) else None
        self.shown = LineRedactor(keep_user=True)  # a private-key block spans lines
        # A child's Python traceback leaves the runner as one line, its error, on every channel (27th hostile pass
        # (part A) P5: pip's twelve frames reached stderr, `--json` and history); the log keeps it whole.
        self.folded = TracebackFolder(step_installer(step.argv) or "the installer",
                                      "the log" if log is not None else None)

    def take(self, lines: list[str]) -> None:
        if not lines:
            return
        if self.log is not None:
            self.log.lines(lines)
        # What leaves the runner — the lines each face shows live, and the tail every failure sentence and
        # `--json` "error" quotes — is masked here, once, for every face (the log has its own redactor).
        # An installer's advice to wipe (uv's "Use the `--clear` flag") never leaves the runner: not in the tail
        # the wizard's failure sentences quote, nor live, where it reads as the wizard's advice (sixth pass 11e:
        # for an env whose python was gone). The log keeps it.
        lines = self.folded.lines([self.shown(line) for line in lines if not is_destructive_hint(line)])
        if not lines:
            return
        self.tail.extend(lines)
        if self._emit is not None:
            self._emit(self.step, lines)
        else:
            for text in lines:
                self.events.line(self.step, text)

    def answer(self, question: str, reply: str, how: str) -> None:
        secret = is_secret_question(question)
        try:
            self.child.sendline(reply)
        except OSError:  # the child went away meanwhile; EOF follows
            pass
        self.answered_at = self.position
        self.last_output = time.monotonic()
        # echo is off, so the child's output lacks the answer: finish the prompt's line ourselves.
        self.take(self.assembler.feed(("" if secret else reply) + "\n"))
        shown = "(hidden)" if secret else repr(reply)
        note = f"answered {shown} to {question.strip()!r} ({how})"
        self.answered.append(note)
        if self.log is not None:
            self.log.note(note)

    def stop_leftovers(self) -> None:
        """The step is over, but something it started may still run (it ignored the pty's hang-up)."""
        left = procfs.step_processes(self.child.pid) - {self.child.pid}
        if left:
            _Stopper(self.child, self.log).stop(
                "leftovers", note=f"stopping processes the step left running: {', '.join(map(str, sorted(left)))}")

    def waiting_for_input(self) -> bool | None:
        return procfs.waiting_for_input(procfs.step_processes(self.child.pid))

    def unknown_question(self, live: str) -> str | None:
        """The question to ask when output stalled at a prompt nobody has a rule for, else None."""
        now = time.monotonic()
        if now - self.last_output < self.stall_seconds or now - self.last_probe < self.stall_seconds / 2:
            return None
        self.last_probe = now
        waiting = self.waiting_for_input()
        text = live.strip()
        if waiting is True:
            return text or (self.tail[-1].strip() if self.tail else "") or "(the step waits for input)"
        if waiting is None and text.endswith(("?", ":")):
            return text
        return None

    def run(self) -> StepResult:
        child, cancel, assembler = self.child, self.cancel, self.assembler
        last_live = ""
        error = None
        cancelled = False
        while True:
            if cancel.is_set():
                cancelled = True
                _Stopper(child, self.log).stop("cancelled")
                break
            try:
                chunk = child.read_nonblocking(READ_SIZE, timeout=POLL_SECONDS)
            except pexpect.TIMEOUT:
                chunk = ""
            except pexpect.EOF:
                break
            if chunk:
                self.position += len(chunk)
                self.last_output = time.monotonic()
                self.take(assembler.feed(chunk))
                if self.log is not None:
                    self.log.flush()
            live = assembler.live
            if live != last_live:
                last_live = live
                self.events.live(self.step, live)
            quiet = 0.0 if chunk else time.monotonic() - self.last_output
            if self.inactivity_seconds and quiet >= self.inactivity_seconds:
                error = (f"no output for {quiet:.0f} s, the inactivity limit ({INACTIVITY_ENV}="
                         f"{self.inactivity_seconds:g}); the step looked stuck and was stopped. Raise the "
                         f"limit with {INACTIVITY_ENV}=SECONDS if it only needs longer")
                _Stopper(child, self.log).stop("inactivity limit")
                break
            if chunk or self.answered_at == self.position:
                continue  # prompts are matched once output pauses, and answered once
            if live.strip():
                rule = next(((reply, how) for rx, reply, how in self.rules if rx.search(live)), None)
                if rule is not None:
                    asked = self.repeats[live.strip()] = self.repeats.get(live.strip(), 0) + 1
                    if asked <= MAX_RULE_REPEATS:
                        self.answer(live, *rule)
                        continue
                    error = (f"the step asked {live.strip()!r} again after {MAX_RULE_REPEATS} answers "
                             f"of {rule[0]!r}; the rule's answer is not accepted")
                    _Stopper(child, self.log).stop("a rule's answer is not accepted")
                    break
            question = self.unknown_question(live)
            if question is None:
                continue
            reply = self.events.prompt(self.step, question)
            if cancel.is_set():
                continue  # the loop's top stops the step as cancelled
            if reply is None:
                error = f"stopped at a question nobody answered: {question!r}"
                _Stopper(child, self.log).stop("unanswered question")
                break
            self.answer(question, str(reply), "by the user")
        self.take(assembler.flush())
        while not cancelled and child.isalive():  # EOF: the pty closed; the process may still be exiting
            if cancel.is_set():
                cancelled = True
                _Stopper(child, self.log).stop("cancelled")
                break
            time.sleep(0.02)
        if not cancelled:
            self.stop_leftovers()
        child.close(force=True)
        exit_status, sig = child.exitstatus, child.signalstatus
        return StepResult(ok=not cancelled and error is None and exit_status == 0, exit_status=exit_status,
                          signal=sig, cancelled=cancelled, tail=list(self.tail), answered=self.answered,
                          error=error)


def inactivity_limit(environ: dict[str, str] | None = None) -> float:
    """Seconds a step may print nothing before it is stopped: `GC_WIZARD_INACTIVITY_TIMEOUT`, else 30 min.

    Why a limit at all: a step that neither prints nor asks (a download stuck on a dead proxy, a build
    waiting on a lock) would otherwise hold the state lock forever. Thirty minutes is far beyond any
    silent stretch of a real install (uv and pip print per package; a from-source build prints per
    compiler call). A value that is not a positive number of seconds is refused (`UserError`, naming it), and read where an
    install or rollback starts, before anything runs: `0`, `-1` or `nan`, read as "no limit" or the
    default without a word, left a user who meant a short limit waiting for half an hour (eleventh hostile pass
    #208).
    """
    problem = inactivity_problem(environ)
    if problem is not None:
        raise UserError(problem)
    raw = (os.environ if environ is None else environ).get(INACTIVITY_ENV, "").strip()
    return (decimal_number(raw) or DEFAULT_INACTIVITY_SECONDS) if raw else DEFAULT_INACTIVITY_SECONDS


def inactivity_problem(environ: dict[str, str] | None = None) -> str | None:
    """A sentence naming a `GC_WIZARD_INACTIVITY_TIMEOUT` that is not a positive, finite number of seconds."""
    raw = (os.environ if environ is None else environ).get(INACTIVITY_ENV, "").strip()
    if not raw:
        return None
    value = decimal_number(raw)  # 0-9 only: '٣٠' is not taken as 30 (33rd hostile pass (part A) P5)
    if value is not None and 0 < value < float("inf"):
        return None
    return (f"{INACTIVITY_ENV}={raw!r} is not a number of seconds above 0 (how long an installer step may print "
            f"nothing before it is stopped; default {DEFAULT_INACTIVITY_SECONDS:g}); fix or unset it.")


def run_plan(plan, *, log_path: Path, events: RunnerEventsProtocol | None = None, cancel: threading.Event | None = None,
             extra_prompts=(), stall_seconds: float = 2.0, no_input: bool = False) -> list[StepResult]:
    """Run the plan's steps in order into one log; stop at the first that fails or is cancelled.

    `no_input=True` (unattended: `--yes`, no terminal) adds `NO_INPUT_ENV` to every step, so pip and git
    fail at once instead of asking. Each step's folder is created first (a plan's steps run in the new environment's parent). A step
    that cannot be started comes back as a failed result saying why, like any other failure.
    """
    events = events if events is not None else RunnerEvents()
    results: list[StepResult] = []
    with StepLog(log_path) as log:
        for step in plan.steps:
            if step.cwd:
                try:
                    make_folders(step.cwd)
                except OSError:
                    pass  # check_step says what is wrong with it
            if no_input:
                step = dataclasses.replace(step, env={**NO_INPUT_ENV, **dict(step.env or {})})
            result = run_step(step, log=log, events=events, cancel=cancel, extra_prompts=extra_prompts,
                              stall_seconds=stall_seconds)
            results.append(result)
            if not result.ok:
                break
    return results
