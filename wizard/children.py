"""Makes the wizard's child processes die with it, even when it is killed outright.

Shared by every stage that starts a process (interpreter probes, installers, the GraphCast probe,
uv's freeze/sync), so it lives beside `wizard.paths` and `wizard.lock`, outside the stage layers.
"""

from __future__ import annotations

import os
import re

_PR_SET_PDEATHSIG = 1
_prctl = None


def _load_prctl():
    global _prctl
    if _prctl is None:
        try:
            import ctypes

            _prctl = ctypes.CDLL(None, use_errno=True).prctl
        except (OSError, AttributeError):  # not Linux: the child then outlives a killed wizard
            _prctl = False
    return _prctl


def die_with_parent(then=None):
    """A `preexec_fn` that makes the child get SIGKILL when the wizard dies, even by SIGKILL.

    Why: a wizard killed outright (`kill -9`, the OOM killer, a Slurm job hitting its limit) runs no
    clean-up, and a GraphCast probe left running holds GPU memory on a shared server for as long as
    its jit init takes. Linux's parent-death signal (`prctl(PR_SET_PDEATHSIG)`) is delivered when the
    thread that started the child exits; the wizard's runner and probe wait for their child on that
    same thread, so it outlives the child in every normal run. If the wizard died between the fork and
    the prctl the child exits at once. `then` is another preexec function to run afterwards.
    """
    prctl = _load_prctl()  # resolved before the fork: the child only calls it
    parent = os.getpid()

    def preexec() -> None:
        if prctl:
            prctl(_PR_SET_PDEATHSIG, 9, 0, 0, 0)
            if os.getppid() != parent:
                os._exit(1)
        if then is not None:
            then()

    return preexec


# --------------------------------------------------------------------------- short helpers, stoppable

_running: set = set()
_stopping = False
_lock = None


def _registry_lock():
    global _lock
    if _lock is None:
        import threading

        _lock = threading.Lock()
    return _lock


def run_capture(argv: list[str], *, timeout: float, raw: bool = False, stoppable: bool = True, **kwargs):
    """`subprocess.run(argv, capture_output=True, text=True, errors="replace", timeout=...)` for short helper processes
    started from worker threads (interpreter probes), which `stop_all` can end from any thread: a
    signal in the main thread must not wait for a probe's own timeout. Its output is read by `communicate_bounded`:
    one that prints more than `OUTPUT_BYTES` is stopped and raises `OutputLimitError` (an OSError, which every
    caller already answers as "does not run"), whose text names the program and the limit. `raw`: stdout and stderr
    as bytes (a path printed by the child is decoded as the file system names it). `stoppable=False` is for a step
    of an install or a bundle (uv's freeze, compile, download): it stays in the wizard's process group, where the
    terminal's Ctrl-C reaches it as before, and it still runs while the wizard stops (a rollback's freeze)."""
    import subprocess

    if _stopping and stoppable:
        raise OSError("the wizard is stopping")
    # The lock is never held across the fork: the child would inherit it held, and a stop signal that
    # reaches the child before exec runs the handler there (`stop_all`), which would wait for it forever.
    if stoppable:
        kwargs.setdefault("start_new_session", True)  # its own group: whatever it starts is stopped with it
    kwargs["env"] = child_environ(kwargs.get("env"))  # the one rule of every child's environment
    try:
        proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, preexec_fn=die_with_parent(),
                                **kwargs)
    except UnicodeEncodeError as error:
        # A name this process cannot turn back into bytes — a path another child printed lossily (U+FFFD for each
        # byte it could not show) under a locale that is not UTF-8 — is no file a child can be given: said as the
        # OSError every caller already answers ("does not run"), never a traceback (uv's `python find` of a Python
        # in such a folder, LC_ALL=C PYTHONUTF8=0).
        raise OSError(f"{error.object!a} cannot be named in this locale's encoding") from None
    if stoppable:
        with _registry_lock():
            _running.add(proc)
            stopping = _stopping
        if stopping:  # stop_all ran while this one was starting: it did not see it
            proc.kill()
    try:
        try:
            out, err, timed_out, too_much = communicate_bounded(proc, timeout, raw=raw)
        except BaseException:
            kill_group(proc)
            proc.wait()
            raise
        if too_much:
            raise OutputLimitError(too_much)
        if timed_out:
            raise subprocess.TimeoutExpired(argv, timeout, out, err)
        return subprocess.CompletedProcess(argv, proc.returncode, out, err)
    finally:
        with _registry_lock():
            _running.discard(proc)


#: How long a child that has ended may leave its output open (something it started holds the pipe) before that is
#: stopped: its own output is all there by then.
AFTER_EXIT_GRACE = 0.5

#: The most a helper the wizard asks something (an interpreter, nvidia-smi, ldconfig, uv's short queries, srun's
#: detection) may print, in bytes, both streams together; past it the helper is stopped. The largest real answer —
#: ldconfig's cache on a big system, nvidia-smi's XML for eight GPUs, a node's facts — is a few MiB at most.
OUTPUT_BYTES = 16 * 1024 * 1024
#: What is kept of one stream: its first and its last bytes (what lies between is left out, and said so).
KEPT_HEAD = 1024 * 1024
KEPT_TAIL = 4 * 1024 * 1024
#: The longest line handed to a line callback; a longer one is handed on in pieces.
LINE_BYTES = 64 * 1024


class OutputLimitError(OSError):
    """A helper printed more than `OUTPUT_BYTES` and was stopped; the text is one sentence naming it and the limit."""


def output_limit_sentence(program: str, limit: int = OUTPUT_BYTES) -> str:
    """The one sentence for a helper stopped for its output's size."""
    size = f"{limit / 2**20:g} MiB" if limit >= 2**20 else f"{limit} bytes"
    return (f"{program} printed more than {size} of output, far more than any answer gc-wizard asks of it, so it "
            "was stopped (is it looping, or a wrapper that prints without end?)")


class Kept:
    """One stream of a child's output, kept bounded: all of it up to `head` bytes, then only its last `tail` bytes.

    Why: every helper's output was kept whole until its deadline, so an nvidia-smi or a `python3.X` wrapper that
    printed without end grew the wizard to 1.7 GB in 17 s, and srun's to 24 GB, until the kernel's OOM killer
    fired (30th hostile pass (part A) P1, P2)."""

    def __init__(self, head: int = KEPT_HEAD, tail: int = KEPT_TAIL) -> None:
        import collections  # loaded by `subprocess`'s imports already: costs nothing

        self.head = bytearray()
        self.tail: collections.deque[bytes] = collections.deque()
        self.tail_bytes = 0
        self.total = 0
        self._head_max, self._tail_max = head, tail

    def add(self, data: bytes) -> None:
        self.total += len(data)
        room = self._head_max - len(self.head)
        if room > 0:
            self.head += data[:room]
            data = data[room:]
        if data:
            self.tail.append(data)
            self.tail_bytes += len(data)
            while self.tail and self.tail_bytes - len(self.tail[0]) >= self._tail_max:
                self.tail_bytes -= len(self.tail.popleft())

    def data(self) -> bytes:
        tail = b"".join(self.tail)[-self._tail_max:] if self.tail else b""
        left_out = self.total - len(self.head) - len(tail)
        gap = f"\n[... {left_out} bytes left out ...]\n".encode() if left_out > 0 else b""
        return bytes(self.head) + gap + tail

    def text(self) -> str:
        """The kept bytes as text, as `text=True, errors="replace"` read them (UTF-8, universal newlines)."""
        return self.data().decode("utf-8", "replace").replace("\r\n", "\n").replace("\r", "\n")


class Collector:
    """Reads a child's stdout and stderr on one thread of its own, each into a `Kept`, handing each line to a
    callback when one is given; sets `over` once both together pass `limit` (the caller then stops the child).

    The one bounded reader of every helper's output (`communicate_bounded`, detection through srun). The thread owns
    the pipes: it closes each at its end, or when `close` is called (a member that left the child's group may hold
    the pipe open for ever), so no other thread closes a pipe it reads."""

    def __init__(self, proc, *, limit: int = OUTPUT_BYTES, on_out_line=None, on_err_line=None) -> None:
        import threading  # loaded by `subprocess` already

        self.proc = proc
        self.limit = limit
        self.out, self.err = Kept(), Kept()
        self.over = threading.Event()
        self.finished = threading.Event()
        self._closing = False
        args = proc.args
        self.program = str(args[0] if isinstance(args, (list, tuple)) and args else args)
        self._streams = [(pipe, kept, callback) for pipe, kept, callback in
                         ((proc.stdout, self.out, on_out_line), (proc.stderr, self.err, on_err_line)) if pipe is not None]
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def sentence(self) -> str:
        return output_limit_sentence(self.program, self.limit)

    def _run(self) -> None:
        import selectors  # loaded by `subprocess` already

        selector = selectors.DefaultSelector()
        pending: dict[int, bytearray] = {}
        try:
            for pipe, kept, callback in self._streams:
                selector.register(pipe.fileno(), selectors.EVENT_READ, (pipe, kept, callback))
                pending[pipe.fileno()] = bytearray()
            while selector.get_map() and not self._closing:
                for key, _ in selector.select(0.1):
                    pipe, kept, callback = key.data
                    try:
                        data = os.read(key.fd, 1 << 16)
                    except OSError:
                        data = b""
                    if not data:
                        selector.unregister(key.fd)
                        if callback is not None and pending[key.fd]:
                            callback(_line(pending[key.fd]))
                        pipe.close()
                        continue
                    if not self.over.is_set():
                        kept.add(data)
                        if self.out.total + self.err.total > self.limit:
                            self.over.set()
                    if callback is not None:
                        _lines(pending[key.fd], data, callback)
        finally:
            for key in list(selector.get_map().values()):
                key.data[0].close()
            selector.close()
            self.finished.set()

    def done(self) -> bool:
        """Whether every pipe has ended (or was closed)."""
        return self.finished.is_set()

    def close(self, timeout: float = 1.0) -> None:
        """Stop reading (the pipes are closed by the reading thread) and wait up to `timeout` for it."""
        self._closing = True
        self.finished.wait(timeout)


def _lines(pending: bytearray, data: bytes, callback) -> None:
    """Hand every whole line of `pending + data` to `callback`, a line longer than `LINE_BYTES` in pieces."""
    pending += data
    while True:
        end = pending.find(b"\n")
        if end < 0 or end > LINE_BYTES:
            if len(pending) <= LINE_BYTES:
                return
            end = LINE_BYTES
            callback(_line(pending[:end]))
            del pending[:end]
            continue
        callback(_line(pending[:end]))
        del pending[:end + 1]


def _line(data: bytearray) -> str:
    text = bytes(data).decode("utf-8", "replace")
    data.clear()
    return text.rstrip("\r")


def communicate_bounded(proc, timeout: float, *, limit: int = OUTPUT_BYTES, collector: Collector | None = None,
                        raw: bool = False) -> tuple:
    """(stdout, stderr, timed_out, too_much) of `proc` (started with binary pipes), never waiting past `timeout`, nor
    long past the child's own end, nor keeping more than `Kept` keeps: a child that prints more than `limit` bytes is
    stopped, and `too_much` is the sentence that says so (None otherwise).

    Why: `communicate()` waits for the end of the child's output, and a background process the child started keeps
    it open: an interpreter given with `--python` that was a wrapper (`sleep 300 & exec python3 "$@"`) answered at
    once, then `plan` waited 590 s, and after the timeout `communicate()` again without one, for ever (nineteenth
    hostile pass P6). And it keeps every byte: a wrapper that printed without end grew the wizard to 1.7 GB before
    its deadline (30th hostile pass (part A) P1). Once the child has ended and `AFTER_EXIT_GRACE` passed, the timeout
    is reached, or its output passes `limit`, its group (`start_new_session`) is killed and what was kept of its
    output is returned. `collector` is one already reading the child (`detect.deadline.Running` starts one with it);
    `raw` gives stdout and stderr as bytes.
    """
    import subprocess
    import time

    collector = collector or Collector(proc, limit=limit)
    deadline = time.monotonic() + timeout
    ended_at = None
    try:
        while True:
            if collector.finished.wait(0.05):  # its pipes ended: wait on the child itself, not on an event already set
                try:
                    proc.wait(timeout=0.05)
                except subprocess.TimeoutExpired:
                    pass
            now = time.monotonic()
            if proc.poll() is not None:
                ended_at = now if ended_at is None else ended_at
                if collector.done():
                    proc.wait()
                    return *_kept(collector, raw), False, None
            too_much = collector.over.is_set()
            if too_much or now >= deadline or (ended_at is not None and now - ended_at >= AFTER_EXIT_GRACE):
                kill_group(proc)
                collector.finished.wait(2)  # a member that left the group: its pipe is closed under it
                collector.close()
                proc.wait()
                return (*_kept(collector, raw), ended_at is None and not too_much,
                        collector.sentence() if too_much else None)
    finally:
        collector.close(0)


def _kept(collector: Collector, raw: bool) -> tuple:
    return (collector.out.data(), collector.err.data()) if raw else (collector.out.text(), collector.err.text())


def close_read_pipes(proc, readers, *, timeout: float) -> None:
    """End a child read live by `readers` (threads, one per pipe: `(stream, thread)` pairs): wait up to `timeout`
    for each reader, then close every pipe whose reader is done, and reap the child when it has ended.

    Why: a pipe left to the garbage collector warns (`ResourceWarning: unclosed file`), and under the user's
    `PYTHONWARNINGS=error` (or `-X dev`) Python printed "Exception ignored … Traceback" with the wizard's own
    source lines on stderr after every `verify` (22nd hostile pass P7). A pipe whose reader still waits (a member
    that left the child's group holds it open) is left to that reader: closing a stream another thread reads
    would block on its lock."""
    for _stream, reader in readers:
        reader.join(timeout=timeout)
    for stream, reader in readers:
        if stream is not None and not reader.is_alive():
            try:
                stream.close()
            except OSError:
                pass
    if proc.poll() is not None:
        proc.wait()


def kill_group(proc) -> None:
    """SIGKILL to `proc` and to the group it leads (`start_new_session`): while any member is alive the group's id
    cannot be another process's, so this never reaches a stranger."""
    import signal

    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except OSError:
        pass
    try:
        proc.kill()
    except OSError:
        pass


def track(child) -> bool:
    """Counts `child` (anything with a `kill()`: a detection probe's `deadline.Running`) among the helpers `stop_all`
    ends; False, with nothing tracked, once the wizard is stopping (the caller then starts nothing more).

    Why: `install` plans in a worker thread, and a Ctrl-C there killed the interpreter probes of `run_capture` but
    not detection's NVML probe, so on a wedged driver the wizard sat out the probe's 8-second deadline before it
    stopped (thirteenth hostile pass #23)."""
    with _registry_lock():
        if _stopping:
            return False
        _running.add(child)
        return True


def untrack(child) -> None:
    with _registry_lock():
        _running.discard(child)


def stopping() -> bool:
    """Whether `stop_all` has run: a helper about to start should not."""
    return _stopping


def stop_all() -> None:
    """Kill every helper `run_capture` is running or `track` was given (from any thread), and start no more."""
    global _stopping
    with _registry_lock():
        _stopping = True
        procs = list(_running)
    for proc in procs:
        try:
            proc.kill()
        except OSError:
            pass


def which(program: str, path: str | None = None) -> str | None:
    """The first executable file named `program` in the folders of `path` (a PATH value; None: this process's
    PATH) that passes the trust rule (`untrusted_program`), as `shutil.which` finds it on Linux; None if none.
    A candidate refused by the rule is skipped, and said once at the end of the run (`SKIPPED_PROGRAMS`).

    Why one finder for every program the wizard looks up on PATH (python3, nvidia-smi, srun, squeue, scancel,
    ptxas, uv, a step's program): the 25th hostile pass (part B) P5 put another user's folder first on root's
    PATH, and detect, plan, install and report ran its `python3` and `nvidia-smi` as root. Why not
    `shutil.which`: importing `shutil` brings zlib, bz2 and lzma with it, and detection — on every command's
    start-up path — needs only this (issue 23)."""
    path = os.environ.get("PATH", os.defpath) if path is None else path
    if not path:
        return None
    for folder in dict.fromkeys(path.split(os.pathsep)):  # an empty entry is the current folder, as for the shell
        candidate = os.path.join(folder, program)
        if os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            why = untrusted_program(candidate)
            if why is None:
                return candidate
            note = (f"{program}: {candidate} was not run, because {why}, so another user could have put their own "
                    f"program there and gc-wizard would run it as you; it looked further along PATH.")
            if note not in SKIPPED_PROGRAMS:
                SKIPPED_PROGRAMS.append(note)
    return None


#: The sentences `which` kept for the end of the run: each program on PATH it would not run, and why.
SKIPPED_PROGRAMS: list[str] = []


#: Variables whose value makes a program the wizard starts read and run a file before its own work: bash's and sh's
#: start-up file for a shell that is not interactive (a `#!/usr/bin/env bash` shim such as pyenv's python3 runs one),
#: and pyenv's hook folders, sourced by every shim.
_STARTUP_FILES = ("BASH_ENV", "ENV")
_HOOK_PATHS = ("PYENV_HOOK_PATH",)


def guard_inherited_environ(environ=os.environ) -> None:
    """Take out of `environ` (this process's, which every child inherits) what would make a child run a program or
    file another user could have put there, by the rule `which` applies: a folder of PATH or of a hook path that
    fails `untrusted_program`, and a start-up file (`BASH_ENV`, `ENV`) that fails it. Each one is said once at the
    end of the run (`SKIPPED_PROGRAMS`).

    Why here, once, before any command: pass 26's early look P3/P4 — `which` judged the python3 it found (root's
    pyenv shim, root's own), but the shim's `#!/usr/bin/env bash` then found `bash` in a folder tuser owned first on
    PATH, and `BASH_ENV`/`PYENV_HOOK_PATH` naming tuser's files were sourced by root's shell: what a child looks up
    or reads on its own is judged where the child gets it, its environment."""
    path = environ.get("PATH")
    if path:
        kept = []
        for folder in path.split(os.pathsep):
            # judged as the end of its way, where no sticky bit excuses it: anyone may add a program there; one not
            # there yet by whoever may make it (27th hostile pass (part B) P3)
            why = untrusted_place(folder) if os.path.isabs(folder) else None
            if why is None:
                kept.append(folder)
            else:
                _said(f"PATH: {folder} was left out of what gc-wizard's programs see, because {why}, so another "
                      "user could put a program there that would run as you.")
        if len(kept) != len(path.split(os.pathsep)):
            environ["PATH"] = os.pathsep.join(kept)
    for name in _HOOK_PATHS:
        value = environ.get(name)
        if value:
            bad = [f for f in value.split(os.pathsep) if (os.path.isabs(f) or os.path.exists(f)) and untrusted_place(f)]
            if bad:
                environ[name] = os.pathsep.join(f for f in value.split(os.pathsep) if f not in bad)
                _said(f"{name}: {', '.join(bad)} left out, because another user could put a file there that your "
                      "shell would run as you.")
    for name in _STARTUP_FILES:
        value = environ.get(name)
        if value and os.path.exists(value):
            why = untrusted_program(value)
            if why:
                del environ[name]
                _said(f"{name}: {value} was left out of what gc-wizard's programs see, because {why}, so a shell "
                      "they start would run another user's file as you.")
    _guard_user_site(environ)
    _guard_python_prefix(environ)
    for note in library_files_left_out(environ, "gc-wizard and its programs"):
        _said(note)


def _guard_python_prefix(environ) -> None:
    """Name once each of `PYTHON_PREFIX_VARS` whose folder another user could fill: this process's own Python read it
    before any wizard code ran, so it is said, not refused. It is kept here, so that `activate` still sees it to unset
    it; every Python child goes without it anyway (`python_child_env`, the activation verify runs under, the
    installers' `PASSED_VARS`). A relative value (PYTHONPLATLIBDIR=lib64) is inside the installation: not judged.

    Why: 29th hostile pass (part B) P2 — PYTHONPLATLIBDIR naming another user's folder reached verify's probe, and
    nothing said that it replaces the whole standard library with that folder's."""
    for name in PYTHON_PREFIX_VARS:
        value = environ.get(name)
        why = untrusted_place(value) if value and os.path.isabs(value) else None
        if why:
            _said(f"{name}: {value} is left out of every Python gc-wizard starts, and `activate` unsets it, because "
                  f"{why}, so Python would load another user's code from there as you; gc-wizard's own Python read it "
                  f"when it started (`unset {name}`).")


def _guard_user_site(environ) -> None:
    """Name once a user site another user could fill: `PYTHONUSERBASE`'s folder (then left out of every child's
    environment, as BASH_ENV is), else HOME's `~/.local`. Every Python the wizard probes starts without the user
    site anyway (`python_child_env` and `-s`/`-I`); this tells the user why a `.pth` there no longer runs here, and
    that their own Python would still run it as them.

    Why: 28th hostile pass (part B) P2 — detect, plan, install and report ran root's base python3 as a probe with the
    user site on, and a `.pth` under `PYTHONUSERBASE=/home/tuser/…` (or `HOME=/home/tuser`) ran as root, without a
    word; PYTHONPATH at the same folder was already dropped."""
    given = environ.get("PYTHONUSERBASE")
    if given and os.path.isabs(given):
        why = untrusted_place(given)
        if why:
            del environ["PYTHONUSERBASE"]
            _said(f"PYTHONUSERBASE: {given} was left out of what gc-wizard's programs see, because {why}, so a .pth "
                  "file put there would run as you in every Python that reads the user site.")
            given = None
    home = environ.get("HOME")
    if not given and home and os.path.isabs(home):
        base = os.path.join(home, ".local")
        why = untrusted_place(base)
        if why:
            _said(f"the user site under HOME ({base}): {why}, so a .pth file put there would run as you in every "
                  "Python that reads the user site; gc-wizard starts its Pythons without it (set PYTHONNOUSERSITE=1 "
                  "for your own).")


#: What makes a Python read code from outside its own installation at start: a search path, another standard
#: library, a start-up script, another user site, another `sys.executable` (a venv's `pyvenv.cfg` is looked up
#: beside it), another folder for its compiled modules. Dropped from every Python child's environment (with the user
#: site off, `PYTHONNOUSERSITE=1`), however the child is started.
#: Why PYTHONPLATLIBDIR, PYTHONEXECUTABLE and PYTHONPYCACHEPREFIX: 29th hostile pass (part B) P2 — PYTHONPLATLIBDIR
#: naming another user's folder reached verify's probe, and the env's python loaded their standard library as root.
PYTHON_START_VARS = ("PYTHONPATH", "PYTHONHOME", "PYTHONPLATLIBDIR", "PYTHONEXECUTABLE", "PYTHONPYCACHEPREFIX",
                     "PYTHONSTARTUP", "PYTHONUSERBASE")
#: Of those, the ones that move where the environment's python takes its standard library and its installation
#: from (`sys.prefix`-relative paths, `sys.executable`), or the code it loads for them: `activate` unsets each (with a
#: note), the kernelspec and the module file pin or unset them. PYTHONPATH is filtered entry by entry instead; the user
#: site and a start-up script are the user's own choice for their own shell.
PYTHON_PREFIX_VARS = ("PYTHONHOME", "PYTHONPLATLIBDIR", "PYTHONEXECUTABLE", "PYTHONPYCACHEPREFIX")


#: The switches of every probe of an interpreter the wizard asks about itself (its version, prefix, site folders):
#: `-I` (no environment variables, no user site, no script folder) and `-S` (no `site` at all), so nothing in its
#: site-packages runs, no `.pth` line and no `sitecustomize`: those folders are read as files (`site.getsitepackages`
#: computes them without importing anything from them). Why: 29th hostile pass (part B) P5 — detect's query and the
#: `--python` probe ran a base Python with its system site-packages on, and a `.pth` in a site-packages another user
#: could swap (or a root-owned `.pth` whose line led into their folder) ran as root.
PROBE_FLAGS = ("-I", "-S")


def python_child_env(base=None) -> dict[str, str]:
    """A copy of `base` (this process's environment) for a Python the wizard starts to ask it something: without
    `PYTHON_START_VARS`, and `PYTHONNOUSERSITE=1`. The one environment rule for every probe of an interpreter
    (detect's interpreter query through `detect.deadline.probe_env`, `recipes.pythons.probe_python`, the kernel's);
    its argv adds `-I` (or `-s`) as well: `-E` alone does not stop `site` reading PYTHONUSERBASE.

    Why: 28th hostile pass (part B) P2 — PYTHONPATH was dropped from the probe's environment and PYTHONUSERBASE was
    not, so another user's `.pth` in their user site ran as root in detect's probe of the base python3."""
    env = {k: v for k, v in (os.environ if base is None else base).items() if k not in PYTHON_START_VARS}
    env["PYTHONNOUSERSITE"] = "1"
    return env


def untrusted_place(path: str) -> str | None:
    """`untrusted_program` for a search-path folder (PATH, a hook path), also one that does not exist yet: that one
    is judged by the nearest existing folder above it, as written and where its links lead, where a sticky bit does
    not excuse it (anyone may make a new name in /tmp) — words for a sentence, or None.

    Why: 27th hostile pass (part B) P3 — `PATH=/home/tuser/nothere:…` was kept in the wizard's own cleaned
    environment, and in kernel.json and `activate`, because nothing was there to judge; its owner can make it
    later, and root's next run finds their program there."""
    if os.path.exists(path):
        return untrusted_program(path)
    given = os.path.abspath(path)
    for start in dict.fromkeys((given, os.path.realpath(given))):
        folder = start
        while not os.path.exists(folder) and os.path.dirname(folder) != folder:
            folder = os.path.dirname(folder)
        why = untrusted_program(folder)
        if why:
            return f"{why} (and {given}, not there yet, could be made in it)"
    return None


def note_own_installation() -> None:
    """Say once at the end of the run (`SKIPPED_PROGRAMS`) when gc-wizard's own installation fails the rule PATH's
    programs pass (`program_risk`): its Python, the folder of its package and the folder holding that (a
    site-packages whose `.pth` files every start runs). Said, not refused: this run has started already; the next
    one would run what another user put there. Called once the command is done, off the start-up path.

    Why: 27th hostile pass (part B) P6 — an o+w `.venv/bin/uv`, a 0777 `bin/` and a 0777 `site-packages` of
    gc-wizard's own venv passed without a word (its uv is now refused where it is run, `uv_tool.refuse_own_program`);
    a lab's gc-wizard in a group-writable shared folder is a likely place for it."""
    import sys  # already loaded: costs nothing

    from wizard.security import shell_word  # loaded by then; not at the top: this module imports no wizard

    package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # the folder `import wizard` reads from
    for place in (sys.executable, os.path.join(package, "wizard"), package):
        if not place or not os.path.exists(place):  # a zipapp's package is inside its archive
            continue
        found = program_risk(place)
        if found:
            where, why = found
            _said(f"gc-wizard's own installation: {why}, so another user could change the gc-wizard (or the Python) "
                  f"you run and have their code run as you; take that write away (`chmod go-w {shell_word(where)}`, as its "
                  "owner) or install gc-wizard in a folder only you (and root) can write.")
            return


def guard_library_path(env: dict[str, str]) -> dict[str, str]:
    """`env` with what the loader would load from a place another user could fill left out (`untrusted_place`, the
    rule activation applies to the same variables) — each `LD_LIBRARY_PATH` folder, and each library `LD_PRELOAD`
    or `LD_AUDIT` names by its path (`_LOADER_LISTS`) — each said once on stderr; `env` itself is changed and
    returned.

    Why for the probes only: detect's NVML and libcuda child loaded a `libnvidia-ml.so.1` planted in a folder every
    user could write, and said nothing (30th hostile pass (part A) P8); another user's library named by LD_PRELOAD or
    LD_AUDIT was passed on the same way (31st hostile pass (part B) P3). The user's own variables are left as they
    are for the rest of the run: detection reports which libraries load first for the user's programs, from them."""
    for note in loader_left_out(env, "gc-wizard's GPU probes"):
        _said(note)
    return env


def loader_left_out(env: dict[str, str], what: str) -> list[str]:
    """`guard_library_path`'s rule, said by no one: `env` is changed in place and the sentences of what was left out
    of it are returned (`what`: whose loading the sentence names).

    Why apart: 34th hostile pass (part B) P4 — the folder was left out of the GPU probes only, while every installer
    step (`runner.build_env`) and every helper child (`run_capture`: uv's compile, freeze, download) still loaded
    that user's librt.so.1 as root; those take the same rule and name what was left out in their own words."""
    notes: list[str] = []
    for variable, joiner in _LOADER_LISTS:
        value = env.get(variable)
        if not value or not isinstance(value, str):  # not text: the step's checks say so before spawning
            continue
        # ld.so splits LD_PRELOAD at blanks and colons, LD_LIBRARY_PATH at colons and semicolons, LD_AUDIT at colons
        entries = (value.replace(":", " ").split() if variable == "LD_PRELOAD"
                   else value.replace(";", ":").split(":") if variable == "LD_LIBRARY_PATH" else value.split(":"))
        tokens = [f for f in entries if loader_token(f)]  # ld.so's `$PLATFORM` …: judged as no literal path
        if variable == "LD_LIBRARY_PATH":
            bad = [f for f in entries if f not in tokens and os.path.isabs(f) and untrusted_place(f)]
        else:  # a library by its path; a bare name is looked up along the (guarded) library path
            bad = [f for f in entries
                   if f not in tokens and "/" in f and (not os.path.isabs(f) or untrusted_place(f))]
        if not bad and not tokens:
            continue
        kept = [entry for entry in entries if entry not in bad and entry not in tokens]
        if kept:
            env[variable] = joiner.join(kept)
        else:
            env.pop(variable)
        if bad:
            notes.append(f"{variable}: {', '.join(bad)} left out of what {what} load, because another user could "
                         "put a library there that would run as you.")
        if tokens:
            notes.append(f"{variable}: {', '.join(tokens)} left out of what {what} load, because "
                         f"{LOADER_TOKEN_REASON}.")
    return notes


def child_environ(env: dict[str, str] | None = None, notes: list[str] | None = None, *,
                  what: str = "gc-wizard's installer steps and helper programs") -> dict[str, str]:
    """A copy of `env` (default: this process's environment) for any child the wizard starts, by the one rule every
    child takes: what the loader would load from a place another user could swap left out (`guard_child_loader`,
    each said once at the end of the run and appended to `notes`; `what` names whose loading), and git's
    own variables left out but the few `GIT_KEPT` names (`without_git_settings`), and a child Python's output in the
    encoding the wizard reads it in (`CHILD_IO_ENCODING`).

    Why one rule: `run_capture` and the installer steps took both, while detect's probes (`detect.deadline`), the
    srun that runs `detect` on a node (`detect.slurm`), its scancel (`detect.srun_job`) and verify's probe
    (`verify.check`) started their children with their own copies of the environment, GIT_CONFIG_PARAMETERS and all."""
    env = without_git_settings(guard_child_loader(dict(os.environ if env is None else env), notes, what=what))
    env["PYTHONIOENCODING"] = CHILD_IO_ENCODING
    return env


#: The encoding every child Python writes its standard output in (`child_environ`): what the wizard reads it as
#: (`Kept.text`, the installer's and verify's readers decode UTF-8; `run_capture(raw=True)` decodes a printed path as
#: the file system names it, and `surrogateescape` hands back a name's bytes that are not UTF-8 as they are). The
#: user's own `PYTHONIOENCODING` is for what they read, never for what the wizard reads. Without `-I` a child takes
#: the variable; a probe with `-I` ignores it and writes in the locale's encoding, ASCII-compatible under every locale.
#: Why: 37th hostile pass (part B) P1 — under `PYTHONIOENCODING=utf-16` the probe of where a fresh start imports
#: `wizard` from (`paths._fresh_import_origin`) answered in UTF-16, read as UTF-8 it held NULs, and `history` and
#: `install` crashed ("embedded null byte"; `install` then removed the env it had built); under `latin-1` a path
#: holding `é` came back as another name.
CHILD_IO_ENCODING = "utf-8:surrogateescape"


def guard_child_loader(env: dict[str, str], notes: list[str] | None = None, *,
                       what: str = "gc-wizard's installer steps and helper programs") -> dict[str, str]:
    """`env` for a child the wizard starts (an installer step, uv's compile/freeze/download, a probe) with what the
    loader would load from a place another user could swap left out (`loader_left_out`), and each of
    `LIBRARY_FILE_VARIABLES` that names such a place (`library_files_left_out`: an environment built from another
    base than this process's, already guarded at start-up); each is said once at the end of the run and appended to
    `notes` (a step's log). `env` is changed and returned. Every child takes it through `child_environ`."""
    for note in loader_left_out(env, what) + library_files_left_out(env, what):
        _said(note)
        if notes is not None:
            notes.append(note)
    return env


#: git's own variables a child is handed from the wizard's environment (an allow-list; every other `GIT_…` is left
#: out), with why each is safe to keep:
GIT_KEPT: dict[str, str] = {
    # Which settings files git reads: those very files are judged by the swap rule (`installer_files.git_files`
    # reads these three as git does), so leaving them out would have git read files nobody judged.
    "GIT_CONFIG_GLOBAL": "names the global settings file, judged by the settings files' swap rule",
    "GIT_CONFIG_SYSTEM": "names the system settings file, judged by the settings files' swap rule",
    "GIT_CONFIG_NOSYSTEM": "a switch that only leaves the system settings file unread",
    # The wizard's own switch for unattended runs (`runner.NO_INPUT_ENV`): it only stops git asking on the terminal.
    "GIT_TERMINAL_PROMPT": "a switch that only stops git asking on the terminal",
    # The program git asks for a login: kept only where no other user could change it (`program_risk`, the PATH
    # rule) — the wizard's own, in its 0700 folder, for a `git+https://user:password@…` source.
    "GIT_ASKPASS": "kept only when it names a program no other user could change",
}
#: What git (and the ssh it starts) read outside `GIT_…` that names a program to run: git's last choice of a program
#: to ask for a login, after `GIT_ASKPASS` and `core.askPass`. Left out as they are.
OTHER_GIT_PROGRAMS = ("SSH_ASKPASS",)


def without_git_settings(env: dict[str, str]) -> dict[str, str]:
    """`env` without git's variables (every `GIT_…` but `GIT_KEPT`, and `OTHER_GIT_PROGRAMS`); changed and returned.

    Why an allow-list: git reads some 170 variables of its own, and many name a program, a folder of programs, a
    repository or a place it writes — `GIT_EXEC_PATH` (its `git-upload-pack` …), `GIT_TEMPLATE_DIR` (hooks copied into
    each clone and run), `GIT_DIR`/`GIT_WORK_TREE`/`GIT_OBJECT_DIRECTORY`/`GIT_ALTERNATE_OBJECT_DIRECTORIES`,
    `GIT_SSH`/`GIT_SSH_COMMAND`/`GIT_PROXY_COMMAND`/`GIT_EXTERNAL_DIFF`/`GIT_EDITOR`/`GIT_PAGER`, `GIT_TRACE*` (a file
    it appends to), `GIT_ALLOW_PROTOCOL` (lets `ext::` run a command) — and new ones come with each release; the git
    uv and pip start for a git GraphCast source needs none of them. 36th hostile pass (part A) P1: with
    `GIT_TEMPLATE_DIR` or `GIT_EXEC_PATH` at another user's folder, the git that bundle's `pip wheel git+file://…`
    started (a `run_capture` child, given the wizard's whole environment) ran their hooks and their `git-upload-pack`
    as root; the earlier rule left out only git's command-line settings (`GIT_CONFIG_PARAMETERS`, `GIT_CONFIG_COUNT`
    with `GIT_CONFIG_KEY_<n>`/`GIT_CONFIG_VALUE_<n>`, which set any key: `core.fsmonitor`, `core.sshCommand`).
    Installer steps already got none but their own (`runner.PASSED_VARS` names none); the same rule now holds for
    every child, a step's own variables included. Left out silently, as the steps' allow-list does."""
    for name in [name for name in env if _git_left_out(name, env[name])]:
        del env[name]
    return env


def _git_left_out(name: str, value) -> bool:
    """Whether `without_git_settings` leaves `name` (with `value`) out."""
    if name in OTHER_GIT_PROGRAMS:
        return True
    if not name.startswith("GIT_"):
        return False
    if name not in GIT_KEPT:
        return True
    if name == "GIT_ASKPASS":  # a program by its full path, which no other user could change
        return not isinstance(value, str) or not os.path.isabs(value) or program_risk(value) is not None
    return False


#: The variables the libraries of gc-wizard's own process and of every child read on their own, each naming a file or
#: folder to load, write or trust: (variable, the character between several entries — None: one —, what another
#: user who could change that place could then do). Read from openssl-env(7) (OpenSSL 3: read when libcrypto or
#: libssl starts, as Python's `_ssl` and `_hashlib` do, and git's curl), ld.so(8) and glibc's manual (the loader's
#: and the C library's own files), and CPython's `ssl` (SSLKEYLOGFILE, which uv, curl and OpenSSL 3.5 read too).
#: The CA variables (SSL_CERT_FILE, SSL_CERT_DIR) are not here: the installers' trust rule refuses them by name
#: (`installer_files.TRUSTED_VARIABLES`), and gc-wizard's own downloads ask the same rule
#: (`installer_files.certificate_problem`).
#:
#: Why: 35th hostile pass (part B) P1, P2, P6 — `OPENSSL_CONF` naming another user's settings file had root's
#: wizard load their provider library when it imported `ssl`; `SSLKEYLOGFILE` at their link had root append every
#: TLS secret of the plan's queries to the root file it pointed at (and lock's uv opened it); `LD_DEBUG_OUTPUT`
#: had every child write root's files into their folder; none was named.
_RUN_AS_YOU = "put a library or settings file there that would run as you"
_SENT_ELSEWHERE = "send what is written there to a file of their choosing, or read it"
LIBRARY_FILE_VARIABLES: tuple[tuple[str, str | None, str], ...] = (
    ("OPENSSL_CONF", None, _RUN_AS_YOU),  # its providers and engines are libraries OpenSSL loads
    ("OPENSSL_CONF_INCLUDE", None, _RUN_AS_YOU),
    ("OPENSSL_MODULES", None, _RUN_AS_YOU),
    ("OPENSSL_ENGINES", None, _RUN_AS_YOU),
    ("CTLOG_FILE", None, "choose which certificate logs are trusted"),
    ("SSLKEYLOGFILE", None, "read the secrets of every TLS connection appended there, or send them to a file of "
     "their choosing"),
    ("QLOGDIR", None, _SENT_ELSEWHERE),
    ("LD_DEBUG_OUTPUT", None, _SENT_ELSEWHERE),
    ("LD_PROFILE_OUTPUT", None, _SENT_ELSEWHERE),
    ("LD_ORIGIN_PATH", None, _RUN_AS_YOU),
    ("GCONV_PATH", ":", _RUN_AS_YOU),  # iconv's converters are libraries
    ("LOCPATH", ":", "change the locale data every program reads as you"),
    ("HOSTALIASES", None, "send a host name gc-wizard reaches to a server of their choosing"),
    ("MALLOC_TRACE", None, _SENT_ELSEWHERE),
    ("MEMUSAGE_OUTPUT", None, _SENT_ELSEWHERE),
    ("SEGFAULT_OUTPUT_NAME", None, _SENT_ELSEWHERE),
)


def library_files_left_out(env, what: str) -> list[str]:
    """Take out of `env` each entry of `LIBRARY_FILE_VARIABLES` that names a place another user could swap
    (`untrusted_place`: the file or folder, as written and where its links lead, or for one not there yet whoever
    may make it), or a relative one (read from whichever folder each program runs in, so not judged); the
    sentences of what was left out are returned (`what`: whose reading the sentence names)."""
    notes: list[str] = []
    for variable, separator, harm in LIBRARY_FILE_VARIABLES:
        value = env.get(variable)
        if not value or not isinstance(value, str):
            continue
        entries = value.split(separator) if separator else [value]
        bad, whys = [], []
        for entry in entries:
            if not entry:
                continue
            why = untrusted_place(entry) if os.path.isabs(entry) else (
                "it is not an absolute path, so each program reads it from the folder it runs in")
            if why:
                bad.append(entry)
                whys.append(why)
        if not bad:
            continue
        kept = [entry for entry in entries if entry and entry not in bad]
        if kept and separator:
            env[variable] = separator.join(kept)
        else:
            env.pop(variable)
        notes.append(f"{variable}: {', '.join(bad)} was left out of what {what} see, because {'; '.join(whys)}, "
                     f"so another user could {harm}.")
    return notes


#: The loader's variables that name what it loads into every process: (variable, what its kept entries are joined
#: with).
_LOADER_LISTS = (("LD_LIBRARY_PATH", ":"), ("LD_PRELOAD", " "), ("LD_AUDIT", ":"))
#: Why an entry of a loader variable holding `$` is left out (activation says it too).
LOADER_TOKEN_REASON = ("it holds `$`, which the loader replaces ($ORIGIN, $LIB, $PLATFORM and their ${…} forms: "
                       "ld.so(8)), so the folder it reads is not the one written here and cannot be judged; write the "
                       "folder out in full")


def loader_token(entry: str) -> bool:
    """Whether an entry of LD_LIBRARY_PATH, LD_PRELOAD or LD_AUDIT holds one of ld.so's dynamic string tokens — any
    `$` at all: the one rule, simpler than expanding each token to every value ld.so could give it (PLATFORM:
    x86_64, haswell, xeon_phi …, LIB: lib, lib64, lib/x86_64-linux-gnu …, ORIGIN: each program's own folder), and
    a real folder's name never needs one. Such an entry is left out, named (`LOADER_TOKEN_REASON`).

    Why: 33rd hostile pass (part B) P8 — `LD_LIBRARY_PATH='ROOTDIR/$PLATFORM'` was judged by its literal text (a
    folder not there, so by root's ROOTDIR) while ld.so read `ROOTDIR/x86_64`, another user's folder, and verify's
    probe loaded their libstdc++.so.6 as root. Only the tokens ld.so expands count (glibc's `is_dst`: ORIGIN,
    PLATFORM, LIB, bare or in braces, a bare one not followed by a letter, digit or `_`): any other `$` is a plain
    character of a folder's name, as ld.so reads it, and an env made in a folder named `$(x)` keeps its libraries."""
    return _LOADER_TOKEN.search(entry) is not None


_LOADER_TOKEN = re.compile(r"\$(?:\{(?:ORIGIN|PLATFORM|LIB)\}|(?:ORIGIN|PLATFORM|LIB)(?![A-Za-z0-9_]))")


def _said(note: str) -> None:
    if note not in SKIPPED_PROGRAMS:
        SKIPPED_PROGRAMS.append(note)


def untrusted_program(candidate: str) -> str | None:
    """Why `candidate`, a program found on PATH, could have been put there or changed by another local user
    (words for a sentence), or None. The rule every source goes through (`wizard.source_trust`, the --find-links
    swap rule), by stat alone so the start-up path loads nothing more: the file, and every folder from / down to
    it, both as given and where its links lead, and each link on the way —
    - every user may write it (a folder: without the sticky bit /tmp has);
    - for root, another user owns it, or (not a sticky folder) a group other than root's may write it: whoever
      can change what root runs gets root. For a user who is not root, a folder another user owns (a lab admin's
      shared bin) is theirs to trust, as it is for every source.

    Why: 25th hostile pass (part B) P5 — a folder another user owned, first on root's PATH, had its `python3` and
    `nvidia-smi` run as root by every command; pass 23 had rated the same lookup behind `--python X.Y` low."""
    found = program_risk(candidate)
    return None if found is None else found[1]


def program_risk(candidate: str) -> tuple[str, str] | None:
    """`untrusted_program`'s answer with the place it names: (place, words), or None."""
    import stat  # already loaded by `os.path`: costs nothing on the start-up path

    me = os.geteuid()
    real = os.path.realpath(candidate)
    seen: set[str] = set()
    for start in dict.fromkeys((os.path.abspath(candidate), real)):
        way = [start]  # from / down to the program, as `source_trust` names the first place on the way
        while os.path.dirname(way[0]) != way[0]:
            way.insert(0, os.path.dirname(way[0]))
        for place in way:
            if place in seen:
                continue
            seen.add(place)
            try:
                link = os.lstat(place)
                info = os.stat(place)
            except OSError:
                return place, f"{place} cannot be looked at"
            if stat.S_ISLNK(link.st_mode) and me == 0 and link.st_uid != 0:
                return place, f"{place} is a link that {owner_words(link.st_uid)} owns, and gc-wizard runs as root"
            folder = stat.S_ISDIR(info.st_mode) and place != start
            sticky = folder and bool(info.st_mode & stat.S_ISVTX)
            # a folder given itself (a PATH entry) is named a folder too (27th hostile pass (part B) P3's wording)
            kind = "folder" if stat.S_ISDIR(info.st_mode) else "file"
            # The words of `source_trust._risk`, so both lookups name one place in one sentence.
            if info.st_mode & 0o002 and not sticky:
                return place, f"{place} is a {kind} every user can write" + (
                    " (and has no sticky bit, as /tmp has)" if folder else "")
            if me == 0 and info.st_uid != 0:
                return place, f"{place} is a {kind} that {owner_words(info.st_uid)} owns, and gc-wizard runs as root"
            if me == 0 and info.st_mode & 0o020 and info.st_gid != 0 and not sticky:
                return place, f"{place} is a {kind} group {group_words(info.st_gid)} can write, and gc-wizard runs as root"
    return None


def owner_words(uid: int) -> str:
    """`user tuser (uid 1001)`, or `uid 1001` where the account has no name: the one wording of an owner, for the
    PATH rule here and the source swap rule (`source_trust`), so both name a place in one sentence."""
    import pwd  # deferred: only a refusal names an owner

    try:
        return f"user {pwd.getpwuid(uid).pw_name} (uid {uid})"
    except KeyError:
        return f"uid {uid}"


def group_words(gid: int) -> str:
    """`lab (gid 1001)`, or `gid 1001` where the group has no name."""
    import grp  # deferred: only a refusal names a group

    try:
        return f"{grp.getgrgid(gid).gr_name} (gid {gid})"
    except KeyError:
        return f"gid {gid}"
