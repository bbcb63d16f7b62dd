"""The yes/no dialog on a narrow terminal (walk 18 #13): at 60 columns its right side was cut (74 columns wide), and
with three answers the last button read "Keep". Under 76 columns the dialog takes the terminal's width and stacks
its buttons, one row each; at 80 columns they stay side by side."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.app import App
from textual.widgets import Button

from wizard.tui.screens.confirm import ConfirmScreen

CSS = Path(__file__).resolve().parents[2] / "wizard" / "tui" / "app.tcss"
QUESTION = "\n".join([
    "Roll back?", "From: jax0.4.23-cuda12-cudnn89 (jax 0.4.23, jaxlib 0.4.23+cuda12.cudnn89, cuDNN 8.9.7.29)",
    "      /home/newuser/.local/share/gc-wizard/envs/jax0.4.23-cuda12-cudnn89-20261127-150301",
    "To:   jax0.4.23-cpu (jax 0.4.23, jaxlib 0.4.23)",
    "      /home/newuser/.local/share/gc-wizard/envs/jax0.4.23-cpu-20261127-145000",
    "", "The target is checked again before it becomes current."])


class _Host(App):
    CSS_PATH = str(CSS)

    def on_mount(self) -> None:
        self.push_screen(ConfirmScreen(QUESTION, yes="Stop", no="Keep going",
                                       other=("k", "Stop, keep it unchecked", "keep")))


@pytest.mark.parametrize("size", [(60, 20), (80, 24)])
async def test_every_answer_is_whole_and_on_screen(size):
    app = _Host()
    async with app.run_test(size=size) as pilot:
        await pilot.pause(0.2)
        screen = app.screen
        dialog = screen.query_one("#dialog").region
        assert dialog.x >= 0 and dialog.right <= size[0] and dialog.bottom <= size[1], dialog
        buttons = list(screen.query(Button))
        for button in buttons:
            region = button.region
            assert region.right <= dialog.right and region.bottom <= dialog.bottom, (button.label, region, dialog)
            assert str(button.label) in str(button.render())  # the whole label, not "Keep"
        rows = {button.region.y for button in buttons}
        assert len(rows) == (3 if size[0] < 76 else 1), rows


class _LongHost(App):
    CSS_PATH = str(CSS)

    def on_mount(self) -> None:
        long = "\n".join([QUESTION, *(f"Line {i}: " + "a long kernel and module sentence " * 2 for i in range(30))])
        self.push_screen(ConfirmScreen(long, yes="Roll back", no="Cancel"))


@pytest.mark.parametrize("size", [(60, 20), (80, 24)])
async def test_a_long_question_scrolls_above_buttons_that_stay_on_screen(size):
    """Walk 27 #7: History's rollback question filled the dialog at 80×24 and pushed its buttons off, with no key
    hint left on screen, and ↓ did not scroll it. The buttons (with their keys) stay inside the dialog and the screen
    whatever the question's length; the question scrolls above them with ↓, focus staying on Cancel."""
    app = _LongHost()
    async with app.run_test(size=size) as pilot:
        await pilot.pause(0.2)
        screen = app.screen
        dialog = screen.query_one("#dialog").region
        assert dialog.bottom <= size[1], dialog
        for button in screen.query(Button):
            assert button.region.height > 0 and button.region.bottom <= dialog.bottom, (button.label, button.region)
            assert "(y)" in str(button.render()) or "(n)" in str(button.render())
        pane = screen.query_one("#question-pane")
        assert pane.region.bottom <= min(button.region.y for button in screen.query(Button))
        assert pane.max_scroll_y > 0 and pane.scroll_y == 0
        await pilot.press("down", "down")
        await pilot.pause(0.1)
        assert pane.scroll_y == 2 and screen.focused is screen.query_one("#no", Button)
