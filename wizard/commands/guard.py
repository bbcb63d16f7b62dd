"""Turns signals and machine faults into the CLI's promised endings: a clean stop, one sentence, one JSON line.

Why in the face and not the core: the exit status (130 for SIGINT, 143 for SIGTERM, 129 for SIGHUP,
docs/interface.md "Exit status") and the last JSON line are the command line's contract.

Signals: Slurm's `scancel`, `timeout` and systemd send SIGTERM, a dropped SSH session SIGHUP, Slurm's
`--signal=USR1@T` SIGUSR1 before a time limit; every signal whose default would end the process
(`wizard.errors.STOP_SIGNALS`: QUIT, USR1/2, ALRM, XCPU, XFSZ, … too) becomes `Stopped` (a `KeyboardInterrupt`, so every `finally` and every `except
KeyboardInterrupt` already written for Ctrl-C runs: the GraphCast probe's process group is killed,
a subprocess is killed by `subprocess.run`, the runner stops its step's whole tree). Only the first
signal raises; later ones are remembered but do not interrupt the clean-up they would otherwise
break. Commands that run their work on a worker thread (install) install their own handlers that set
a cancel event instead, and read `signal_exit` for their status.

Faults: a state folder on a full disk, a read-only mount, one owned by someone else or a path that is
a file surface as `OSError` anywhere in the core; `wizard.error_sentences.describe_os_error` says which in one sentence that
names the path and what to do.
"""

from __future__ import annotations

import os
import signal
import sys

from wizard.commands.output import json_line
from wizard.error_sentences import (
    describe_os_error as describe_os_error,  # its home since the app says it too
)
from wizard.errors import STOP_SIGNALS, WizardError, signal_words
from wizard.errors import (
    memory_limit_sentence as memory_limit_sentence,  # a MemoryError's words (24th pass P3)
)

TYPE_CHECKING = False  # `typing.TYPE_CHECKING` without importing `typing` (start-up time, issue 23)
if TYPE_CHECKING:
    from typing import Any

#: The one list (see `wizard.errors.STOP_SIGNALS`): a signal left out of it killed the wizard mid-install with no
#: clean-up (eleventh hostile pass #130/#132: QUIT, USR1, USR2, ALRM).
SIGNALS = STOP_SIGNALS


class Stopped(KeyboardInterrupt):
    """A stop signal arrived; `exit_code` is 128 + its number."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum

    @property
    def exit_code(self) -> int:
        return 128 + self.signum

    @property
    def what(self) -> str:
        return signal_words(self.signum)


_received: list[int] = []


def signal_exit(default: int = 130) -> int:
    """The exit status for a cancelled command: 128 + the first stop signal received, else `default`."""
    return 128 + _received[0] if _received else default


def received() -> int | None:
    return _received[0] if _received else None


def note_signal(signum: int) -> None:
    """Remember a stop signal (for handlers that cancel instead of raising)."""
    _received.append(signum)


def _raise_once(signum: int, _frame: Any) -> None:
    first = not _received
    _received.append(signum)
    if first:
        raise Stopped(signum)


def install_handlers() -> None:
    """Every stop signal (`SIGNALS`) raises `Stopped` in the main thread, once."""
    for sig in SIGNALS:
        try:
            signal.signal(sig, _raise_once)
        except (OSError, ValueError):  # not the main thread, or an odd platform
            pass


def emit_error_json(message: str, exit_code: int, **fields: Any) -> None:
    """The interface's failure line: `{"ok": false, "error": "...", "exit": N}` as the last stdout line."""
    try:
        sys.stdout.write(json_line({"ok": False, "error": message, "exit": exit_code, **fields}) + "\n")
        sys.stdout.flush()
    except (OSError, ValueError, WizardError):  # stdout closed or failing: stderr has said why
        pass


def ignore_further_signals() -> None:
    """While the CLI prints its last words: a second signal must not turn them into a traceback."""
    for sig in SIGNALS:
        try:
            signal.signal(sig, lambda signum, _frame: _received.append(signum))
        except (OSError, ValueError):
            pass


def exit_quietly(code: int) -> int:
    """Flush what can be flushed; a closed stdout (the terminal went away) is not an error now."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError, WizardError):
            try:  # stop the interpreter's own flush at exit from printing "Exception ignored"
                os.dup2(os.open(os.devnull, os.O_WRONLY), stream.fileno())
            except (OSError, ValueError):
                pass
    return code
