"""The Done screen offers the first forecast only with a word on its files' host when that host does not answer
(walk 21 #4); the question is asked off the screen's path, and the app keeps it for the text left after quitting."""

from __future__ import annotations

from tests.fixtures.pilot import SIZE, DoneApp, screen_text, until
from tests.fixtures.results import install_result
from wizard.tui.screens.done import DoneScreen, summary_text


def test_the_summary_says_the_host_and_the_way_round_it():
    result = install_result(ok=True, recipe="jax0.4.23-cpu", env="/e", log="/l")
    text = summary_text(result, None, "storage.googleapis.com")
    # Walk 22 #5: f is not offered as if it would work; it asks for the folder, and the lines say so.
    assert "First forecast: press f" not in text
    forecast = text.index("First forecast (real weights, one rollout): its files must be brought here first")
    said = text.index("storage.googleapis.com cannot be reached from here")
    # The way to bring the files (a dozen rows) comes after the ways to use it, which stay on the first screen.
    assert forecast < text.index("Use it in a shell") < said < text.index("Log: /l")
    # A command row of its own (walk 39 #3): never wrapped, and ctrl+y copies it.
    assert "\n    `.venv/bin/gc-wizard bundle jax0.4.23-cpu --out DIR --with-assets`\n" in text
    assert "then copy that folder here and press f to give it." in text and "--assets DIR/assets" not in text
    assert "cannot be reached" not in summary_text(result, None)
    assert "First forecast: press f" in summary_text(result, None)


async def test_the_screen_asks_in_the_background_and_keeps_the_answer(isolated_state, tmp_path):
    app = DoneApp("http://127.0.0.1:9/mirror/")
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, DoneScreen) and app.screen.unreachable, timeout=30, settle=0.1)
        # A command row (walk 39 #1) is cropped at the pane's edge (it scrolls sideways): its start is what shows.
        # The ways to use it stay on the first screen (walk 22 #5), once the summary redrawn with the host's words
        # (its command rows mounted anew) has painted.
        await until(pilot, lambda: 'eval "$(' in screen_text(app), timeout=30)
        app.screen.query_one("#done-pane").scroll_end(animate=False)  # the way to bring the files is at the end
        await pilot.pause(0.1)
        assert "127.0.0.1 cannot be reached from here" in " ".join(screen_text(app).split())
    assert app.assets_reach is not None and app.assets_reach.host() == "127.0.0.1"
    local = DoneApp(str(tmp_path))  # a local folder: nothing to ask, nothing said
    async with local.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: local.assets_reach is not None and local.assets_reach.host() is None, settle=0.1)
        assert "cannot be reached" not in screen_text(local)


async def test_the_folder_the_last_forecast_used_is_no_host_to_ask(isolated_state, tmp_path, monkeypatch,
                                                                   closed_indexes):
    """walk 26 #13: one resolver of the forecast files' place (`after.forecast.assets_place`) for `forecast`, `--list`
    and f; so where the last forecast's folder is that place, the Done screen asks no host for them (the bucket,
    closed here, would send the user to gather files f does not need)."""
    from wizard.after import assets_reach
    from wizard.after.assets_memory import remember_assets

    monkeypatch.setattr(assets_reach, "BUCKET_URL", closed_indexes.replace("/simple/", "/dm_graphcast/"))
    closed = DoneApp(None)
    async with closed.run_test(size=SIZE) as pilot:  # no folder remembered: the closed bucket is said
        await until(pilot, lambda: isinstance(closed.screen, DoneScreen) and closed.screen.unreachable, timeout=30)
    lab = tmp_path / "lab"
    lab.mkdir()
    remember_assets(str(lab))
    app = DoneApp(None)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: app.assets_reach is not None and app.assets_reach.host() is None, settle=0.1)
        assert app.screen.unreachable is None and "cannot be reached" not in screen_text(app)
