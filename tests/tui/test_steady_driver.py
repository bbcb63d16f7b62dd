"""A terminal that goes away mid-frame must not hang the app (wizard/tui/driver.py).

Textual's WriterThread dies on the first failed write and its 30-write queue then blocks `stop()` for ever: a
gc-wizard whose tmux session was killed while it drew stayed alive, both threads waiting, 51 minutes later. These
tests drive Textual's real WriterThread with a file whose writes fail as a hung-up pseudo-terminal's do (EIO)."""

from __future__ import annotations

import asyncio
import errno
import io
import threading

from textual.drivers._writer_thread import WriterThread
from textual.drivers.linux_driver import LinuxDriver

from wizard.tui.app import WizardApp
from wizard.tui.driver import TerminalFile


class HungUpTerminal(io.StringIO):
    """A terminal file after its pseudo-terminal was closed: every write fails with EIO."""

    def write(self, text: str) -> int:
        raise OSError(errno.EIO, "Input/output error")


def _writes_then_stops(file, wait: float = 30) -> bool:
    """Whether Textual's writer, given `file`, takes 40 writes and stops within `wait` seconds (what the driver's
    close does); a hang is for ever, so a short wait shows one."""
    writer = WriterThread(file)
    writer.start()

    def use() -> None:
        for _ in range(40):
            writer.write("\x1b[H frame ")
        writer.stop()

    user = threading.Thread(target=use, daemon=True)
    user.start()
    user.join(wait)
    return not user.is_alive()


def test_textuals_writer_stops_through_the_terminal_file_when_the_terminal_is_gone():
    """(Given the HungUpTerminal itself, Textual 8.2.8's writer never stops: not asserted, as a later Textual
    may mend it.)"""
    file = TerminalFile(HungUpTerminal())
    assert _writes_then_stops(file)
    assert file.gone


def test_a_working_terminal_gets_every_write():
    shown = io.StringIO()
    assert _writes_then_stops(TerminalFile(shown))
    assert shown.getvalue() == "\x1b[H frame " * 40


def test_the_apps_driver_writes_through_the_terminal_file():
    async def made() -> object:  # a driver is made inside the app's running loop
        app = WizardApp()
        return app.driver_class(app, debug=False, mouse=False, size=(80, 24))

    driver = asyncio.run(made())
    assert type(driver).__mro__[1] is LinuxDriver  # Textual's own driver for this terminal, underneath
    assert isinstance(driver._file, TerminalFile)
    assert driver._file.fileno() == driver._file._file.fileno()
