"""A key footer that wraps onto a second row instead of cutting keys off.

Textual's Footer is one row that simply ends at the screen's edge: on the Plan screen (eight or nine
keys) a 60-column window showed "^q Qu" and lost the keys after it, and with the CUDA 12 recipe's
"a Alt src" even 80 columns were too few. This footer lays the same keys out as a grid with as many
columns as fit the width, so every key stays visible (a second row at 80 columns only when needed).
"""

from __future__ import annotations

from rich.cells import cell_len
from textual import events
from textual.widgets import Footer


def _key_width(key) -> int:
    """Cells a compact footer key takes: "⏎ Install" plus the one-cell gap after it (12 for a group label)."""
    display, description = getattr(key, "key_display", None), getattr(key, "description", "")
    if display is None:
        return 12
    return cell_len(display + (f" {description}" if description else "")) + 1


def columns_that_fit(widths: list[int], room: int) -> int:
    """The most grid columns (at least 1) whose widest cell per column adds up to no more than `room`."""
    for count in range(len(widths), 1, -1):
        total = sum(max(widths[i::count]) for i in range(count))
        if total <= room:
            return count
    return 1


class WrappingFooter(Footer):
    """The keys of the screen's bindings, in rows: as many per row as the width holds."""

    DEFAULT_CSS = """
    WrappingFooter {
        layout: grid;
        grid-columns: auto;
        grid-rows: 1;
        grid-gutter: 0 1;
        height: auto;
        max-height: 3;
    }
    WrappingFooter FooterKey, WrappingFooter.-compact FooterKey {
        margin: 0;
    }
    """

    def __init__(self, **kwargs) -> None:
        kwargs.setdefault("compact", True)
        super().__init__(**kwargs)
        self._laid_out_for: int | None = None

    def compose(self):
        keys = list(super().compose())
        widths = [_key_width(k) for k in keys]
        room = self.app.size.width
        self._laid_out_for = room
        count = columns_that_fit(widths, room) if widths else 1
        self.styles.grid_size_columns = count
        self.styles.grid_size_rows = max(1, -(-len(keys) // count))
        yield from keys

    def on_resize(self, event: events.Resize) -> None:
        if self._bindings_ready and self.app.size.width != self._laid_out_for:
            self.call_after_refresh(self.recompose)
