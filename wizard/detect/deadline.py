"""Runs probe programs with a deadline, so a wedged driver can slow detection but never hang it.

Every child gets its own session (a timeout kills its whole process group), dies with the wizard however the
wizard ends (`children.die_with_parent`: a probe on a wedged driver hangs for ever, and one begun early, then
left by a SIGTERM, a Ctrl-C or a SIGKILL, stayed behind as an orphan; twelfth hostile pass #24-#26), no stdin, the C
locale (stable output to parse), and no `CUDA_VISIBLE_DEVICES`: that variable hides GPUs from CUDA
programs, and a probe that inherits `CUDA_VISIBLE_DEVICES=""` must still see the driver.
"""

from __future__ import annotations

import os
import time

from wizard.children import (
    Collector,
    child_environ,
    communicate_bounded,
    die_with_parent,
    python_child_env,
    stopping,
    track,
    untrack,
)
from wizard.detect.record import record
from wizard.errors import os_error_words

#: Seconds any single probe may take before it becomes a `probe_timeout` warning.
PROBE_TIMEOUT = 8.0
#: Variables removed from every probe's environment (see the module docstring).
HIDDEN_VARS = ("CUDA_VISIBLE_DEVICES",)


@record
class Completed:
    argv: list[str]
    returncode: int | None
    stdout: str
    stderr: str
    timed_out: bool = False
    missing: bool = False
    """The program could not be started at all (not found, not executable)."""
    seconds: float = 0.0
    too_much: str | None = None
    """The sentence for a probe stopped because it printed more than `children.OUTPUT_BYTES` (30th hostile pass
    (part A) P1: a looping nvidia-smi grew detect to 1.4 GB before its deadline); it is also stderr's last line."""

    @property
    def ok(self) -> bool:
        return self.returncode == 0 and not self.timed_out

    @property
    def output(self) -> str:
        """stdout and stderr together (nvidia-smi prints its failures on stdout)."""
        return (self.stdout + "\n" + self.stderr).strip()


def probe_env(base: dict[str, str] | None = None) -> dict[str, str]:
    # Every probe's environment is a Python child's (`children.python_child_env`): no PYTHONPATH, PYTHONUSERBASE …,
    # the user site off — the interpreter query runs the user's base python3 (28th hostile pass (part B) P2).
    env = python_child_env(os.environ if base is None else base)
    for name in HIDDEN_VARS:
        env.pop(name, None)
    env["LC_ALL"] = "C"
    # then the rule of every child (`children.child_environ`): the loader's and library files' variables another user
    # could swap, and git's command-line settings, left out (each said once at the end of the run)
    return child_environ(env, what="gc-wizard's GPU probes")


class Running:
    """A started probe; `finish()` collects it, killing it at the deadline."""

    def __init__(self, argv: list[str], env: dict[str, str], timeout: float) -> None:
        self.argv = argv
        self.deadline = time.monotonic() + timeout
        self.started = time.monotonic()
        self.error: str | None = None
        self.popen = None
        self.collector: Collector | None = None
        if stopping():  # a stop signal came while detecting: nothing more starts
            self.error = f"{argv[0]}: not started, the wizard is stopping"
            return
        import subprocess  # deferred: a GPU-less host starts no probe, and `detect` pays no import for it (issue 23)

        try:
            self.popen = subprocess.Popen(
                argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                env=env, start_new_session=True, preexec_fn=die_with_parent(),
            )
        except OSError as exc:  # a limit (`ulimit -n`) is named as one, not as the program's fault
            self.error = f"{argv[0]}: {os_error_words(exc)}"
            return
        # read from now on, bounded (`children.Collector`): never kept whole, never blocked on a full pipe
        self.collector = Collector(self.popen)
        if not track(self):  # stop_all ran while this one was starting: it did not see it
            self.kill()

    def kill(self) -> None:
        """SIGKILL to the probe's whole group, from any thread (`children.stop_all`); `finish` then collects it."""
        if self.popen is not None and self.popen.poll() is None:  # never a group whose leader is gone
            try:
                os.killpg(self.popen.pid, 9)  # SIGKILL
            except OSError:
                pass

    def finish_within(self, seconds: float) -> Completed | None:
        """The probe's result if it ends within `seconds` (and its deadline), else None and it runs on:
        a later `finish()` (or `finish_within`) still gets its output."""
        if self.popen is None or time.monotonic() + seconds >= self.deadline:
            return self.finish()
        import subprocess  # loaded by `__init__` already, for a probe that started

        until = time.monotonic() + seconds
        while not (self.collector.done() and self.popen.poll() is not None):
            if self.collector.over.is_set():
                return self.finish()
            left = until - time.monotonic()
            if left <= 0:
                return None
            if self.collector.finished.wait(min(left, 0.05)):  # its pipes ended: wait on the probe itself
                try:
                    self.popen.wait(timeout=min(left, 0.05))
                except subprocess.TimeoutExpired:
                    pass
        return self.finish()

    def stop(self) -> tuple[str, str]:
        """Kill the probe's whole process group and collect what it printed; ("", "") when it never started."""
        if self.popen is None:
            return "", ""
        self.kill()
        out, err, _, _ = communicate_bounded(self.popen, 2, collector=self.collector)  # a member it started too
        untrack(self)
        return out, err

    def finish(self) -> Completed:
        if self.popen is None:
            return Completed(self.argv, None, "", self.error or "", missing=True)
        # Bounded by the deadline and by the probe's own end: a background process it started (a wrapper script's)
        # may hold its output open long after it answered (nineteenth hostile pass P6).
        out, err, timed_out, too_much = communicate_bounded(self.popen, max(self.deadline - time.monotonic(), 0.01),
                                                            collector=self.collector)
        untrack(self)
        if too_much:
            return Completed(self.argv, None, out, f"{err.rstrip()}\n{too_much}".lstrip(), too_much=too_much,
                             seconds=time.monotonic() - self.started)
        if timed_out:
            return Completed(self.argv, None, out, err, timed_out=True, seconds=time.monotonic() - self.started)
        return Completed(self.argv, self.popen.returncode, out, err, seconds=time.monotonic() - self.started)


def start(argv: list[str], *, env: dict[str, str] | None = None, timeout: float) -> Running:
    return Running(argv, probe_env(env), timeout)


def run(argv: list[str], *, env: dict[str, str] | None = None, timeout: float) -> Completed:
    return start(argv, env=env, timeout=timeout).finish()
