"""The app's terminal driver: Textual's own, writing through a terminal file that never raises.

Why: Textual (8.2.8) writes the screen from a background `WriterThread` through a queue of 30 writes; the first
write that fails — the terminal gone (a dropped SSH connection, `tmux kill-session`: EIO on the pseudo-terminal) —
ends that thread with its exception, the queue fills, and the next `put` waits for ever: the app, already leaving on
the SIGHUP, hung in `LinuxDriver.close` → `WriterThread.stop`, and stayed on the shared server with no terminal (a
gc-wizard seen alive 51 minutes after its tmux session was killed, both threads waiting on a futex). Through
`TerminalFile` a failed write marks the terminal gone and every later write is dropped, so the thread drains its
queue and the app leaves as it should.
"""

from __future__ import annotations

from typing import IO


class TerminalFile:
    """A terminal's text file whose `write` and `flush` never raise: once one fails, the terminal is gone and the
    rest of the output is dropped (there is no one to show it to). Everything else passes through."""

    def __init__(self, file: IO[str]) -> None:
        self._file = file
        self.gone = False

    def write(self, text: str) -> int:
        if not self.gone:
            try:
                return self._file.write(text)
            except (OSError, ValueError):  # EIO on a hung-up terminal; ValueError on a closed file
                self.gone = True
        return len(text)

    def flush(self) -> None:
        if not self.gone:
            try:
                self._file.flush()
            except (OSError, ValueError):
                self.gone = True

    def __getattr__(self, name: str):
        return getattr(self._file, name)


def steady(driver_class: type) -> type:
    """`driver_class` with its output file, when it has one (Textual's Linux driver), made a `TerminalFile`."""

    class SteadyDriver(driver_class):  # type: ignore[misc, valid-type]
        def __init__(self, *args, **kwargs) -> None:
            super().__init__(*args, **kwargs)
            file = getattr(self, "_file", None)
            if file is not None and not isinstance(file, TerminalFile):
                self._file = TerminalFile(file)

    SteadyDriver.__name__ = SteadyDriver.__qualname__ = f"Steady{driver_class.__name__}"
    return SteadyDriver
