"""The run waits at its next step while the app asks whether to stop it.

Walk 17: a Ctrl-C during "Install the 84 pinned packages" asked "Stop the install?", and while the user read it
the step finished and the next one began — the work meant to be stopped was done and then thrown away. A step
already running goes on (a download paused for a minute can fail on its own), but the next one waits: the app
closes the hold while its stop question is open, and the worker's `step_started` and `verify_started` (both
called before anything of theirs runs, so a "Stop" still finds it not started) wait on it.
"""

from __future__ import annotations

import threading


class StepHold:
    """Open by default; `close()` while a stop question is open, `open()` once it is answered or moot."""

    def __init__(self) -> None:
        self._open = threading.Event()
        self._open.set()

    def close(self) -> None:
        self._open.clear()

    def open(self) -> None:
        self._open.set()

    @property
    def closed(self) -> bool:
        return not self._open.is_set()

    def wait(self, cancel: threading.Event, poll: float = 0.2) -> None:
        """On the worker's thread: return once the hold is open, or at once when `cancel` is set (a stop, a
        signal, the app leaving), so the run is never kept from stopping."""
        while not self._open.wait(poll):
            if cancel.is_set():
                return
