"""A live install log: clean lines batched into a `Log`, and the unfinished line on its own row.

Lines arrive from the install worker thread at any rate. They go into a locked buffer that a 20 Hz
timer drains with one `Log.write_lines` call (one call per line costs a thread worker each and was
measured 20× slower). The log follows the tail — with an explicit `scroll_end`, because a busy `Log`
can stop auto-following in a real terminal — until the user scrolls up; `End` resumes following.
Text is already clean (the core's LineAssembler strips ANSI and `\\r` progress).
"""

from __future__ import annotations

import threading

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Log, Static


class LiveLog(Vertical):
    DEFAULT_CSS = """
    LiveLog { height: 1fr; }
    LiveLog > Log { height: 1fr; border: round $primary; scrollbar-size-vertical: 1; }
    LiveLog > #live-line { height: 1; color: $warning; }
    """
    BINDINGS = [Binding("end", "follow", "Follow log", show=False)]

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self._lock = threading.Lock()
        self._pending: list[str] = []
        self._live: str | None = None
        self.following = True
        """Whether new lines scroll the log to its end; off once the user scrolls up."""
        self.lines_written = 0

    def compose(self) -> ComposeResult:
        yield Log(id="log", highlight=False)
        yield Static("", id="live-line", markup=False)

    def on_mount(self) -> None:
        self.set_interval(1 / 20, self.flush)

    # Thread-safe feeders -------------------------------------------------------------------------
    def add_line(self, text: str) -> None:
        with self._lock:
            self._pending.append(text)

    def set_live(self, text: str) -> None:
        with self._lock:
            self._live = text

    # UI side -------------------------------------------------------------------------------------
    def flush(self) -> None:
        with self._lock:
            lines, self._pending = self._pending, []
            live, self._live = self._live, None
        log = self.query_one(Log)
        if lines:
            # Scrolled away since the last flush (keys or wheel)? Stop following; back at the end? Resume.
            at_end = log.is_vertical_scroll_end
            if self.following and not at_end and log.line_count > log.size.height:
                self.following = False
            elif not self.following and at_end:
                self.following = True
            log.write_lines(lines, scroll_end=self.following)
            self.lines_written += len(lines)
            if self.following:
                log.scroll_end(animate=False, immediate=True, x_axis=False)
        if live is not None:
            self.query_one("#live-line", Static).update(live[-200:])

    def on_mouse_scroll_up(self) -> None:
        self.following = False

    def action_follow(self) -> None:
        self.following = True
        self.query_one(Log).scroll_end(animate=False)

    @property
    def last_line(self) -> str:
        log = self.query_one(Log)
        return log.lines[-1] if log.lines else ""
