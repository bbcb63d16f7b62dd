"""Defines what one driver probe observed, before the chain in `driver.py` decides what to believe.

Each source (NVML, nvidia-smi, procfs, libcuda) reports a status and whatever it could read, plus
`detail`: the exact words the library or tool used, so a warning can quote them.
"""

from __future__ import annotations

from wizard.detect.facts import Gpu
from wizard.detect.record import record

#: ok · absent (nothing installed) · not_loaded (installed, kernel module not loaded) · mismatch
#: (libraries and kernel module from different driver versions) · failed · timeout · skipped
STATUSES = ("ok", "absent", "not_loaded", "mismatch", "failed", "timeout", "skipped")


@record
class Reading:
    source: str
    status: str
    version: str | None = None
    cuda: str | None = None
    gpus: list[Gpu] = []  # noqa: RUF012 (a new list for each record: `record`)
    detail: str = ""
    path: str | None = None
    """The program or library that was run (nvidia-smi's full path), when one was found."""
    exit_code: int | None = None
    """The program's exit status when it ended by itself; None when it was not run or was stopped."""
    seconds: float | None = None
    """How long the program ran (for a timeout: how long it was waited for before it was stopped)."""


def cuda_from_int(value: int | None) -> str | None:
    """NVML/driver-API encoding (1000 * major + 10 * minor) to "12.2"; None for 0 or None."""
    if not value:
        return None
    return f"{value // 1000}.{value % 1000 // 10}"
