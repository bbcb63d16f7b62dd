"""Provides the error types the faces turn into exit codes.

Everything the user can get wrong (a recipe id, a malformed file, an option) raises `UserError`,
which the CLI prints as one or two plain sentences and exits 2 — never a traceback.
"""

from __future__ import annotations

import signal
from enum import IntEnum

from wizard.security import redact_secrets


class ExitCode(IntEnum):
    """The exit statuses of docs/interface.md ("Exit status"), by name."""

    OK = 0
    FAILED = 1
    BAD_INPUT = 2
    HANGUP = 129  # SIGHUP: the SSH connection dropped
    CANCELLED = 130  # SIGINT: Ctrl-C
    TERMINATED = 143  # SIGTERM: scancel, timeout, systemd


#: Every signal whose default action ends the process, and which a user, a scheduler or a limit sends to stop
#: the wizard: each must end it the same clean way (the run cancelled and recorded, its half-built env removed, an
#: in-place env put back), exit status 128 + its number. Beyond Ctrl-C, SIGTERM and a hang-up: Ctrl-\ (SIGQUIT),
#: Slurm's warning before a job's time limit (`--signal=USR1@T`, also USR2 or ALRM), CPU- and file-size limits
#: (`ulimit -t`/`-f`: XCPU, XFSZ) and the interval timers (VTALRM, PROF). Left at their default they killed the
#: wizard with no word and no clean-up (eleventh hostile pass #130/#132). The faces read this one list: the CLI's
#: guard (`wizard.commands.guard`), the install command's cancel handler and the app's signal handler.
STOP_SIGNALS: tuple[signal.Signals, ...] = tuple(
    getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT", "SIGUSR1", "SIGUSR2", "SIGALRM",
                                       "SIGXCPU", "SIGXFSZ", "SIGVTALRM", "SIGPROF", "SIGPWR", "SIGIO")
    if hasattr(signal, name))


def signal_words(signum: int) -> str:
    """The signal as a sentence names it: "Ctrl-C (SIGINT)", "SIGUSR1 (Slurm's warning before a time limit)"."""
    try:
        name = signal.Signals(signum).name
    except ValueError:
        return f"signal {signum}"
    return _SIGNAL_WORDS.get(name, name)


_SIGNAL_WORDS = {"SIGINT": "Ctrl-C (SIGINT)", "SIGHUP": "a hang-up (SIGHUP)", "SIGQUIT": "Ctrl-\\ (SIGQUIT)",
                 "SIGUSR1": "SIGUSR1 (a job scheduler's warning, e.g. Slurm's before a time limit)",
                 "SIGXCPU": "SIGXCPU (the CPU-time limit)", "SIGXFSZ": "SIGXFSZ (the file-size limit)"}


class WizardError(Exception):
    """Base class; `exit_code` is what the CLI returns for it.

    Its text is masked (`wizard.security.redact_secrets`) when it is made: an error quotes what it met — an
    installer's last lines, a `--find-links` URL with a token in its query — and every face shows it (a
    sentence on stderr, the `--json` "error", a dialog in the app), so the mask is applied once, here."""

    exit_code = ExitCode.FAILED

    def __init__(self, *args: object) -> None:
        super().__init__(*(redact_secrets(a, keep_user=True) if isinstance(a, str) else a for a in args))


class UserError(WizardError):
    """Bad input: unknown recipe, malformed recipe file, bad option value (exit 2)."""

    exit_code = ExitCode.BAD_INPUT


class OperationFailed(WizardError):
    """The operation ran and failed (exit 1)."""

    exit_code = ExitCode.FAILED


class LockHeld(WizardError):
    """Another wizard holds the state folder's lock."""

    exit_code = ExitCode.FAILED
