"""The key footer that wraps onto more rows, and the notifications above it (walk 18 #14: on the Done screen, whose
keys take two rows at 80 columns, a toast covered the second row: Textual lifts toasts one row, for its own one-row
footer)."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.app import App
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Static

from wizard.tui.widgets.footer import WrappingFooter, rows_that_fit

CSS = Path(__file__).resolve().parents[2] / "wizard" / "tui" / "app.tcss"


class _ManyKeys(Screen):
    BINDINGS = [Binding(key, f"k{key}", f"Action number {key}") for key in "abcdefghi"]

    def compose(self):
        yield Static("body")
        yield WrappingFooter()


class _Host(App):
    CSS_PATH = str(CSS)

    def on_mount(self) -> None:
        self.push_screen(_ManyKeys())


def test_keys_fill_rows_left_to_right():
    assert rows_that_fit([10, 10, 10], 25) == [2, 1]
    assert rows_that_fit([30], 20) == [1]  # a key wider than the row still gets one
    assert rows_that_fit([], 80) == []


@pytest.mark.parametrize("width", [80, 60, 120])
async def test_a_toast_never_covers_a_row_of_keys(width):
    app = _Host()
    async with app.run_test(size=(width, 24), notifications=True) as pilot:
        await pilot.pause(0.2)
        app.notify("Kernel registered: graphcast (jax0.4.23-cpu), in /home/u/.local/share/jupyter/kernels/x")
        await pilot.pause(0.5)
        footer = app.screen.query_one(WrappingFooter)
        rows = len(footer.query(".-keys-row"))
        assert rows >= (2 if width <= 80 else 1)
        toasts = list(app.screen.query("Toast"))
        assert toasts
        for toast in toasts:
            assert toast.region.bottom <= footer.region.y, (toast.region, footer.region, rows)
