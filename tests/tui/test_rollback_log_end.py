"""Walk 37 #9: when a rollback finished, its result's lines grew above the log and the log's box shrank under a view
that had not moved: the last line ("… now loads") was hidden until End. A log that follows stays at its end when its
box changes size (`LiveLog`), so the finished screen shows the last line."""

from __future__ import annotations

import threading

from textual.app import App
from textual.widgets import Log

from tests.fixtures.pilot import SIZE, screen_rows, until
from wizard import paths
from wizard.tui.messages import RollbackDone
from wizard.tui.screens.rollback import RollbackScreen


class _RollbackHost(App):
    """The rollback screen alone (its worker is the app's, not started here), with the app's style sheet."""

    CSS_PATH = str(paths.__file__).replace("paths.py", "tui/app.tcss")

    def on_mount(self) -> None:
        self.push_screen(RollbackScreen("20261129-052854-c12a", threading.Event()))


async def test_the_finished_rollback_s_log_shows_its_last_line():
    app = _RollbackHost()
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        assert isinstance(screen, RollbackScreen)
        for n in range(60):
            screen.live_log.add_line(f"[gc-wizard] line {n} of the rollback")
        screen.live_log.add_line("[gc-wizard] The module graphcast/jax0.4.23-cpu now loads")
        log = screen.query_one(Log)
        await until(pilot, lambda: log.line_count >= 61 and log.scroll_y == log.max_scroll_y > 0, settle=0.2)
        long = "/home/lab2/.local/share/gc-wizard/logs/rollback-20261129-053512-abcd.log"
        screen.post_message(RollbackDone(None, error="the target environment is gone; nothing changed. " * 4
                                         + f"Log: {long}"))
        await until(pilot, lambda: screen.finished and screen.query_one("#overall").size.height > 2, settle=0.3)
        assert log.scroll_y == log.max_scroll_y, (log.scroll_y, log.max_scroll_y)
        await until(pilot, lambda: any("now loads" in row for row in screen_rows(app)), timeout=60)
