"""A line under a scrolling pane while some of it is out of view: "↓ 3 more lines of facts below: PgDn or ↓ scrolls".

Why one widget: the first screen said so for its facts (walk 21 #13), and the History screen's detail pane cut the
selected entry's "r:" sentence and its disk line at 80×24 with nothing to say there was more (walk 37 #8). Any pane
that can hide lines says it the same way, with the keys that reach them there.
"""

from __future__ import annotations

from textual.containers import ScrollableContainer

from wizard.tui.widgets.shown import Shown


def more_below_words(hidden: int, what: str, keys: str) -> str:
    """"↓ N more line(s)[ of WHAT] below: KEYS"."""
    return f"↓ {hidden} more line{'s' if hidden != 1 else ''}{f' of {what}' if what else ''} below: {keys}"


class MoreBelow(Shown):
    """Says how many lines of the pane `pane_id` (a scrolling container on the same screen) are below its view, and
    `keys` that scroll there; hidden while none are. Follows the pane's scrolling and its size."""

    def __init__(self, pane_id: str, keys: str, what: str = "", *, id: str | None = None) -> None:  # noqa: A002
        super().__init__("", id=id, markup=False)
        self.pane_id, self.keys, self.what = pane_id, keys, what

    def on_mount(self) -> None:
        self.display = False
        pane = self.screen.query_one(f"#{self.pane_id}", ScrollableContainer)
        self.watch(pane, "scroll_y", lambda _: self.show(), init=False)
        self.watch(pane, "virtual_size", lambda _: self.call_after_refresh(self.show), init=False)
        self.watch(pane, "size", lambda _: self.call_after_refresh(self.show), init=False)

    def show(self) -> None:
        """Called after a refresh, it may run once the screen is being taken down (the app leaving): then there is
        nothing left to say it on."""
        if not self.is_mounted:
            return
        pane = next(self.screen.query(f"#{self.pane_id}").results(ScrollableContainer), None)
        if pane is None:
            return
        hidden = round(pane.max_scroll_y - pane.scroll_y)
        if hidden > 0:
            self.update(more_below_words(hidden, self.what, self.keys))
        self.display = hidden > 0
