"""A tiny app around the wizard's LiveLog, fed N lines from a thread: the tail must stay in view."""

import sys
import threading

from textual.app import App

from wizard.tui.widgets.live_log import LiveLog


class FeedApp(App):
    def compose(self):
        yield LiveLog()

    def on_mount(self) -> None:
        log = self.query_one(LiveLog)

        def feed() -> None:
            for i in range(int(sys.argv[1])):
                log.add_line(f"line {i} " + "x" * 50)
            log.set_live("FEEDING DONE")

        threading.Thread(target=feed, daemon=True).start()


if __name__ == "__main__":
    FeedApp().run()
