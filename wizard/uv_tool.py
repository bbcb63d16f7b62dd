"""Where the `uv` program is: the one gc-wizard installs with.

Its `uv` package (a dependency) ships the binary; a gc-wizard copied or installed without its dependencies
may still find a `uv` on PATH. Without either, the command that needs uv says so in one sentence instead
of stopping on an ImportError.
"""

from __future__ import annotations

import shutil
import sys

from wizard.errors import OperationFailed


def uv_bin() -> str:
    """The path of the uv binary; raises `OperationFailed` (one sentence with the fix) when there is none."""
    try:
        from uv import (
            find_uv_bin,  # deferred for start-up time: only the commands that run uv load its package
        )

        return find_uv_bin()
    except (ImportError, FileNotFoundError):
        found = shutil.which("uv")
        if found:
            return found
    raise OperationFailed(f"uv, which gc-wizard installs with, is not installed for {sys.executable} and not on PATH: "
                          "reinstall gc-wizard with its dependencies (`pip install -e .` in its folder, or "
                          "`pipx install gc-wizard`), or put a uv binary on PATH.")
