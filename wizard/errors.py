"""Provides the error types the faces turn into exit codes.

Everything the user can get wrong (a recipe id, a malformed file, an option) raises `UserError`,
which the CLI prints as one or two plain sentences and exits 2 — never a traceback.
"""

from __future__ import annotations


class WizardError(Exception):
    """Base class; `exit_code` is what the CLI returns for it."""

    exit_code = 1


class UserError(WizardError):
    """Bad input: unknown recipe, malformed recipe file, bad option value (exit 2)."""

    exit_code = 2


class OperationFailed(WizardError):
    """The operation ran and failed (exit 1)."""

    exit_code = 1


class Cancelled(WizardError):
    """The user pressed Ctrl-C (exit 130)."""

    exit_code = 130


class LockHeld(WizardError):
    """Another wizard holds the state folder's lock."""

    exit_code = 1
