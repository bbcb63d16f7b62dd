"""A key footer that wraps onto a second row instead of cutting keys off.

Textual's Footer is one row that simply ends at the screen's edge: on the Plan screen (eight or nine
keys) a 60-column window showed "^q Qu" and lost the keys after it, and with the CUDA 12 recipe's
"a Alt src" even 80 columns were too few. This footer lays the same keys out in rows, as many keys
per row as fit the width, so every key stays visible (a second row at 80 columns only when needed).
"""

from __future__ import annotations

from rich.cells import cell_len
from textual import events
from textual.css.query import NoMatches
from textual.dom import NoScreen
from textual.widgets import Footer


def _key_width(key) -> int:
    """Cells a compact footer key takes: "⏎ Install" plus the one-cell gap after it (12 for a group label)."""
    display, description = getattr(key, "key_display", None), getattr(key, "description", "")
    if display is None:
        return 12
    return cell_len(display + (f" {description}" if description else "")) + 1


def rows_that_fit(widths: list[int], room: int) -> list[int]:
    """How many keys go on each row, filling rows left to right (at least one key per row)."""
    rows: list[int] = []
    used = room + 1
    for width in widths:
        if used + width > room and (not rows or rows[-1]):
            rows.append(0)
            used = 0
        rows[-1] += 1
        used += width
    return rows


class WrappingFooter(Footer):
    """The keys of the screen's bindings, in rows: as many per row as the width holds."""

    DEFAULT_CSS = """
    WrappingFooter {
        layout: vertical;
        height: auto;
        max-height: 3;
    }
    WrappingFooter HorizontalGroup.-keys-row {
        height: 1;
        width: 1fr;
    }
    WrappingFooter FooterKey, WrappingFooter.-compact FooterKey {
        margin: 0 1 0 0;
    }
    """

    def __init__(self, **kwargs) -> None:
        kwargs.setdefault("compact", True)
        super().__init__(**kwargs)
        self._laid_out_for: int | None = None
        self._rows = 1

    def compose(self):
        from textual.containers import HorizontalGroup

        keys = list(super().compose())
        room = self.app.size.width
        self._laid_out_for = room
        start = 0
        rows = rows_that_fit([_key_width(k) for k in keys], room)
        for count in rows:
            yield HorizontalGroup(*keys[start:start + count], classes="-keys-row")
            start += count
        self._rows = min(max(len(rows), 1), 3)
        self.call_after_refresh(self._lift_toasts)

    def _lift_toasts(self) -> None:
        """Keep the screen's notifications above every row of keys: Textual lifts them one row, for its one-row
        footer, so a toast covered the second row of this one (walk 18 #14)."""
        try:
            rack = self.screen.query_one("#textual-toastrack")
        except (NoMatches, NoScreen):  # not on a screen (any more): nothing to lift
            return
        rack.styles.margin = (0, 0, self._rows, 0)

    def on_resize(self, event: events.Resize) -> None:
        if self._bindings_ready and self.app.size.width != self._laid_out_for:
            self.call_after_refresh(self.recompose)
