"""How long this process has been alive, for the first-frame figure (the app's own log and `bench/`).

Its own tiny module, with nothing but the standard library, so the bench's bare Textual app reads the same
clock as the wizard without importing the wizard's screens."""

from __future__ import annotations

import os
import time

#: When this module was imported: the fallback start where /proc cannot be read.
STARTED = time.perf_counter()


def process_age() -> float:
    """Seconds since this process started (from /proc), so start-up cost before Python counts too."""
    try:
        ticks = os.sysconf("SC_CLK_TCK")
        with open("/proc/self/stat") as handle:
            start = int(handle.read().rsplit(")", 1)[1].split()[19]) / ticks
        with open("/proc/uptime") as handle:
            return float(handle.read().split()[0]) - start
    except (OSError, ValueError, IndexError):
        return time.perf_counter() - STARTED
