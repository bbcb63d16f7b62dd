"""The install log widget: follows the tail, stops when the user scrolls up, End resumes; the live row.

Headless, Textual's own auto-follow always looked right (the reference notes), so what is checked
here is our follow flag and the keys; the tmux tests check the tail in a real terminal.
"""

from __future__ import annotations

import threading

from textual.app import App, ComposeResult
from textual.widgets import Log, Static

from wizard.tui.widgets.live_log import LiveLog


class LogApp(App):
    def compose(self) -> ComposeResult:
        yield LiveLog()


def _feed(live_log: LiveLog, start: int, count: int) -> None:
    """From another thread, as the install worker does."""
    thread = threading.Thread(target=lambda: [live_log.add_line(f"line {i}") for i in range(start, start + count)])
    thread.start()
    thread.join()


async def _flushed(pilot, live_log: LiveLog, total: int) -> None:
    for _ in range(100):
        if live_log.lines_written >= total:
            break
        await pilot.pause(0.05)
    await pilot.pause(0.1)


async def test_follows_the_tail_until_scrolled_up_and_end_resumes():
    app = LogApp()
    async with app.run_test(size=(80, 24)) as pilot:
        live_log = app.query_one(LiveLog)
        log = live_log.query_one(Log)
        log.focus()
        _feed(live_log, 0, 500)
        await _flushed(pilot, live_log, 500)
        assert live_log.last_line == "line 499" and log.is_vertical_scroll_end and live_log.following

        await pilot.press("pageup", "pageup")
        _feed(live_log, 500, 500)
        await _flushed(pilot, live_log, 1000)
        assert not live_log.following, "scrolling up must stop following"
        assert not log.is_vertical_scroll_end
        top = log.scroll_y
        _feed(live_log, 1000, 100)
        await _flushed(pilot, live_log, 1100)
        assert log.scroll_y == top, "new lines must not move a log the user is reading"

        await pilot.press("end")
        _feed(live_log, 1100, 100)
        await _flushed(pilot, live_log, 1200)
        assert live_log.following and log.is_vertical_scroll_end and live_log.last_line == "line 1199"


async def test_the_unfinished_line_has_its_own_row_and_clears_when_finished():
    app = LogApp()
    async with app.run_test(size=(80, 24)) as pilot:
        live_log = app.query_one(LiveLog)
        row = live_log.query_one("#live-line", Static)
        live_log.set_live("Proceed ([y]/n)? ")
        await pilot.pause(0.2)
        assert str(row.render()) == "Proceed ([y]/n)? "
        assert live_log.query_one(Log).line_count == 0  # not a log line until it is finished
        live_log.add_line("Proceed ([y]/n)? y")
        live_log.set_live("")
        await pilot.pause(0.2)
        assert str(row.render()) == "" and live_log.last_line == "Proceed ([y]/n)? y"


async def test_lines_from_the_check_are_masked_like_every_other_channel():
    """The check's lines come straight from the probe (the install's are masked by the runner): a token an
    import prints, a URL's password, a private-key block across lines, and the unfinished row, all masked."""
    app = LogApp()
    async with app.run_test(size=(80, 24)) as pilot:
        live_log = app.query_one(LiveLog)
        secrets = ["hf_AbCdEfGhIjKlMnOpQrStUvWxYz1234", "Pa55w0rdXyz", "MIIEvQIBADANBgkqhkiG9w0BAQEFAASC"]
        lines = [f"HF_TOKEN={secrets[0]}", f"fetching https://me:{secrets[1]}@idx.lab/simple/",
                 "-----BEGIN PRIVATE KEY-----", secrets[2], "-----END PRIVATE KEY-----", "done"]
        threading.Thread(target=lambda: [live_log.add_line(line) for line in lines]).start()
        await _flushed(pilot, live_log, len(lines))
        live_log.set_live(f"Token for https://me:{secrets[1]}@idx.lab: ")
        await pilot.pause(0.2)
        text = "\n".join(live_log.query_one(Log).lines) + str(live_log.query_one("#live-line", Static).render())
        assert not [s for s in secrets if s in text], text
        assert live_log.last_line == "done"
