"""Where the `uv` program is: the one gc-wizard installs with.

Its `uv` package (a dependency) ships the binary; a gc-wizard copied or installed without its dependencies
may still find a `uv` on PATH. Without either, the command that needs uv says so in one sentence instead
of stopping on an ImportError.
"""

from __future__ import annotations

import os
import sys

from wizard.children import program_risk, which
from wizard.errors import OperationFailed, UserError
from wizard.installer_files import settings_problem
from wizard.security import shell_word


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

        found = find_uv_bin()
    except (ImportError, FileNotFoundError):
        found = None
    if found:  # its own, under the rule PATH's programs pass (27th hostile pass (part B) P6)
        return refuse_own_program(found, "gc-wizard's own uv")
    found = which("uv")  # the PATH trust rule (25th hostile pass (part B) P5)
    if found:
        return found
    from wizard.self_install import repair_advice

    raise OperationFailed(f"uv, which gc-wizard installs with (and, with --installer pip too, records and checks "
                          f"every environment's package set with), is not installed for {sys.executable} and not on "
                          f"PATH: {repair_advice('uv')}.")


def refuse_own_program(program: str, what: str, *loads: str) -> str:
    """`program`, one of gc-wizard's own (its uv, its Python for `-m pip`), once it passes the rule every program
    found on PATH passes (`children.program_risk`: the file and every folder from / to it, as given and where its
    links lead); `loads`: folders whose code it runs at start (the site-packages folder a Python reads `.pth`
    files from, pip's own), held to the same rule. Else UserError (exit 2) naming the place and the fix; nothing
    is run.

    Why: 27th hostile pass (part B) P6 — with `chmod o+w .venv/bin/uv` (or a 0777 `bin/`), another user replaced
    gc-wizard's own uv with a wrapper and every install ran it as root without a word, while the same file found
    on PATH was refused; a lab's gc-wizard in a group-writable shared folder is a likely place for it."""
    for candidate in (program, *loads):
        found = program_risk(candidate)
        if found:
            place, why = found
            raise UserError(f"{what} {program} was not run, because {why}, so another user could have put their "
                            f"own {'code' if candidate != program else 'program'} there and gc-wizard would run it "
                            f"as you. Take that write away (`chmod go-w {shell_word(place)}`, as its owner), or "
                            "install gc-wizard in a folder only you (and root) can write; nothing was run.")
    return program
