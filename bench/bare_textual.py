"""The baseline for `first_frame.py`: the smallest Textual app (one `Static`), timed the way the wizard
times itself — process start (from /proc) to `on_ready` — and written where GC_WIZARD_STARTUP_LOG says."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from textual.app import App, ComposeResult
from textual.widgets import Static

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from wizard.clock import process_age  # noqa: E402  (the same clock as the wizard's own figure)


class Bare(App):
    def compose(self) -> ComposeResult:
        yield Static("gc-wizard baseline")

    def on_ready(self) -> None:
        Path(os.environ["GC_WIZARD_STARTUP_LOG"]).write_text(f"first_frame_seconds={round(process_age(), 3)}\n")


if __name__ == "__main__":
    Bare().run()
