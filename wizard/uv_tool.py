"""Where the `uv` program is: the one gc-wizard installs with.

Its `uv` package (a dependency) ships the binary; a gc-wizard copied or installed without its dependencies
may still find a `uv` on PATH. Without either, the command that needs uv says so in one sentence instead
of stopping on an ImportError.
"""

from __future__ import annotations

import os
import sys

from wizard.children import which
from wizard.errors import OperationFailed, UserError
from wizard.installer_files import settings_problem


def uv_bin() -> str:
    """The path of the uv binary; raises `OperationFailed` (one sentence with the fix) when there is none, and
    `UserError` when a settings file uv would read here is a FIFO, a device or a giant (`settings_problem`): every
    uv child starts through this, so none waits on such a file."""
    try:
        problem = settings_problem("uv", os.environ, os.getcwd())
    except OSError:  # the folder it runs in is gone: uv finds no project settings there either
        problem = settings_problem("uv", os.environ, None)
    if problem:
        raise UserError(problem)
    try:
        from uv import (
            find_uv_bin,  # deferred for start-up time: only the commands that run uv load its package
        )

        return find_uv_bin()
    except (ImportError, FileNotFoundError):
        found = which("uv")  # the PATH trust rule (25th hostile pass (part B) P5)
        if found:
            return found
    from wizard.self_install import repair_advice

    raise OperationFailed(f"uv, which gc-wizard installs with (and, with --installer pip too, records and checks "
                          f"every environment's package set with), is not installed for {sys.executable} and not on "
                          f"PATH: {repair_advice('uv')}.")
