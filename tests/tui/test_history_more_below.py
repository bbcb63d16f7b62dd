"""Walk 37 #8: at 80×24 the History screen's detail pane cut a cancelled entry's "r: Entry … cancelled; only an
installed or verified" sentence, and the disk line below it, with nothing to say there was more. The pane scrolls
(Tab to it, then PgDn or ↓) and says how many lines are below it, as the first screen does for its facts."""

from __future__ import annotations

from textual.app import App
from textual.containers import VerticalScroll

from tests.fixtures.pilot import SIZE, read_when_shown, screen_rows, screen_text, until
from tests.fixtures.state import save_entries
from wizard import paths
from wizard.history.store import Entry, VerifySummary, load_history
from wizard.tui.screens.history import HistoryScreen


class _HistoryHost(App):
    """The History screen alone, on the test's state folder, with the app's style sheet."""

    CSS_PATH = str(paths.__file__).replace("paths.py", "tui/app.tcss")

    def on_mount(self) -> None:
        self.push_screen(HistoryScreen())


async def test_a_long_detail_says_what_is_below_and_scrolls_to_its_end(isolated_state):
    from wizard.flows.rollback import not_a_target

    state = paths.state_dir()
    entry_id = "20261129-052854-c12a"
    save_entries([Entry(id=entry_id, kind="install", recipe="jax0.4.23-cpu", status="cancelled",
                        env=str(state / "envs" / "jax0.4.23-cpu-20261129-052854"), started="2026-11-29T05:28:54+00:00",
                        installer="uv", marker={"notebook": False, "graphcast_version": "0.1.1"},
                        verify=VerifySummary(ok=False, failed_tier="graphcast_jit_init", stopped=True), log=str(state / "logs" / f"install-{entry_id}.log"),
                        error="cancelled by the user during step 3 of 6 (Install the 84 pinned packages); the new "
                              "environment and everything it had downloaded were removed, nothing else was touched")])
    sentence = " ".join(f"r: {not_a_target(load_history(), entry_id)}".split())
    app = _HistoryHost()
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        # The detail's first row: how far down the rest reaches depends on the test's own path length.
        await read_when_shown(pilot, HistoryScreen, "jax0.4.23-cpu · cancelled · started", settle=0.2)
        pane = screen.query_one("#history-pane", VerticalScroll)
        assert pane.max_scroll_y > 0, "\n".join(screen_rows(app))  # the detail is longer than its half of the screen here
        await until(pilot, lambda: f"↓ {round(pane.max_scroll_y)} more line" in screen_text(app))
        assert "Tab, then PgDn or ↓ scrolls" in screen_text(app)
        await pilot.press("tab")
        for _ in range(20):  # to the end of the detail, however many pages that takes here
            if pane.scroll_y >= pane.max_scroll_y:
                break
            await pilot.press("pagedown")
        await until(pilot, lambda: "more line" not in screen_text(app), settle=0.2)
        shown = " ".join(" ".join(screen_rows(app)).split())
        assert sentence in shown, (sentence, screen_rows(app))
