"""A live install log: clean lines batched into a `Log`, and the unfinished line on its own row.

Lines arrive from the install worker thread at any rate. They go into a locked buffer that a 20 Hz
timer drains with one `Log.write_lines` call (one call per line costs a thread worker each and was
measured 20× slower). The log follows the tail — with an explicit `scroll_end`, because a busy `Log`
can stop auto-following in a real terminal — until the user scrolls up; `End` resumes following.
Only the user's own scrolling (keys or wheel) stops following: inferring it from the position froze
the log under pip, whose progress made the rows above the log grow, so the log's end moved away
from a view that had not moved. Text is already clean (the core's LineAssembler strips ANSI and
`\\r` progress). Lines longer than the pane are wrapped (continuations indented), so a long installer
error stays readable at 80 columns without scrolling sideways. A log that follows stays at its end when its box
changes size too: the result's lines above it grew when a rollback finished, the box shrank under a view that had not
moved, and its last line was hidden until End (walk 37 #9).
"""

from __future__ import annotations

import textwrap
import threading

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Log, Static

from wizard.security import LineRedactor
from wizard.tui.widgets.shown import Shown


class _FollowedLog(Log):
    """A Log whose upward scrolling by the user (keys, wheel) tells its LiveLog to stop following."""

    def _stop_following(self) -> None:
        parent = self.parent
        if isinstance(parent, LiveLog):
            parent.following = False

    def action_scroll_up(self) -> None:
        self._stop_following()
        super().action_scroll_up()

    def action_page_up(self) -> None:
        self._stop_following()
        super().action_page_up()

    def action_scroll_home(self) -> None:
        self._stop_following()
        super().action_scroll_home()

    def _on_mouse_scroll_up(self, event) -> None:
        self._stop_following()
        super()._on_mouse_scroll_up(event)

    def on_resize(self) -> None:
        parent = self.parent
        if isinstance(parent, LiveLog):  # after the new layout: only then is the end known in the box's new size
            self.call_after_refresh(parent.keep_at_end)


def wrap_line(text: str, width: int) -> list[str]:
    """`text` cut into rows of at most `width` cells; continuation rows start with "  ↳ "."""
    if width < 20 or len(text) <= width:
        return [text]
    return textwrap.wrap(text, width=width, subsequent_indent="  ↳ ", break_long_words=True,
                         break_on_hyphens=False, drop_whitespace=False, replace_whitespace=False) or [text]


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
        # The log pane is a screen channel too: the install's lines come masked from the runner, but the check's
        # come straight from the probe, which prints whatever the environment's imports print.
        self._mask = LineRedactor()

    def compose(self) -> ComposeResult:
        yield _FollowedLog(id="log", highlight=False)
        yield Shown("", id="live-line", markup=False)

    def on_mount(self) -> None:
        self.set_interval(1 / 20, self.flush)

    def keep_at_end(self) -> None:
        """While following, the view on the log's last line (its box was resized: the screen's rows above grew)."""
        if self.following and self.is_mounted:
            self.query_one(Log).scroll_end(animate=False, immediate=True, x_axis=False)

    # Thread-safe feeders -------------------------------------------------------------------------
    def add_line(self, text: str) -> None:
        with self._lock:
            self._pending.append(text)
            # A finished line ends whatever was unfinished before it: the live row must not keep
            # showing an old fragment (it would look like the installer went backwards).
            self._live = ""

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
            # Back at the end by the user's own scrolling? Follow again (only the user stops it).
            if not self.following and log.is_vertical_scroll_end and log.scroll_y > 0:
                self.following = True
            width = (log.scrollable_content_region.width or log.size.width) - 1
            rows = [row for line in lines for row in wrap_line(self._mask(line), width)]
            log.write_lines(rows, scroll_end=self.following)
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
