"""The faces' handle on detection's head start (`wizard.detect.head_start`): begin it before a command's
modules load, drop what was never used.

A module of its own, and light, because the CLI imports it on every start: `flows.machine` would bring the
facts, the preflight and the Slurm modules with it. For the same reason the probe's modules are imported
only by `begin` (deferred: `gc-wizard --version` and commands that never detect load none of them).
"""

from __future__ import annotations

import os
import sys


def begin() -> None:
    """Start the probe child for a command that will detect this machine, with the environment it sees now."""
    from wizard.detect import head_start  # deferred: see the module docstring

    head_start.begin(dict(os.environ))


def drop() -> None:
    """Stop a probe child the command never adopted; nothing to do when none was begun."""
    head_start = sys.modules.get("wizard.detect.head_start")
    if head_start is not None:
        head_start.drop()
