"""Provides the error types the faces turn into exit codes.

Everything the user can get wrong (a recipe id, a malformed file, an option) raises `UserError`,
which the CLI prints as one or two plain sentences and exits 2 — never a traceback.
"""

from __future__ import annotations

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
