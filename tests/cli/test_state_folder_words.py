"""Walk 25 #4: run from a shell that skipped `.bashrc` (`su - user -c`, cron, `ssh host cmd`), gc-wizard read the
default state folder and said "No installs yet" / "there is no current environment yet" beside two verified
environments, naming neither the folder it read nor that GC_WIZARD_HOME was unset. Every such sentence (CLI text,
`--json`, the app's History screen) is built by `paths.state_words()` and names both."""

from __future__ import annotations

import json

from textual.app import App

from tests.fixtures.cli import run_inproc
from tests.fixtures.pilot import screen_text
from wizard.tui.screens.history import HistoryScreen


def _unset_home(tmp_path) -> dict:
    """The variables of a shell without the lab's GC_WIZARD_HOME: the default folder under this HOME."""
    return {"HOME": str(tmp_path), "XDG_DATA_HOME": ""}


def test_history_names_the_folder_and_that_gc_wizard_home_is_set(isolated_state):
    done = run_inproc("history")
    assert done.returncode == 0, done.stderr
    assert f"No installs yet in the state folder {isolated_state} (set by GC_WIZARD_HOME)." in done.stdout


def test_history_names_the_default_folder_and_that_gc_wizard_home_is_not_set(monkeypatch, tmp_path):
    monkeypatch.delenv("GC_WIZARD_HOME")
    done = run_inproc("history", env=_unset_home(tmp_path))
    assert done.returncode == 0, done.stderr
    assert (f"No installs yet in the state folder {tmp_path}/.local/share/gc-wizard (GC_WIZARD_HOME is not set)"
            in done.stdout)


def test_no_current_environment_names_the_folder_in_text_and_json(monkeypatch, tmp_path):
    monkeypatch.delenv("GC_WIZARD_HOME")
    assets = tmp_path / "assets"
    assets.mkdir()
    text = run_inproc("forecast", "--assets", assets, env=_unset_home(tmp_path))
    assert text.returncode == 2
    assert (f"there is no current environment yet in the state folder {tmp_path}/.local/share/gc-wizard "
            "(GC_WIZARD_HOME is not set)") in text.stderr
    assert "Traceback" not in text.stderr
    as_json = run_inproc("verify", "--json", env=_unset_home(tmp_path))
    error = json.loads(as_json.stdout.splitlines()[-1])["error"]
    assert "(GC_WIZARD_HOME is not set)" in error and f"{tmp_path}/.local/share/gc-wizard" in error


class _HistoryHost(App):
    def on_mount(self) -> None:
        self.push_screen(HistoryScreen())


async def test_the_apps_history_screen_names_the_folder_too(isolated_state):
    app = _HistoryHost()
    async with app.run_test(size=(100, 24)) as pilot:
        await pilot.pause()
        await pilot.pause()
        text = " ".join(screen_text(app).split())
        assert f"No installs yet in the state folder {isolated_state} (set by GC_WIZARD_HOME)" in text


def test_history_shows_a_state_folder_holding_controls_on_one_line(tmp_path):
    """38th hostile pass (part A) P5: GC_WIZARD_HOME holding a newline broke the sentence across two lines; the path
    in the prose is escaped, and the copy-me commands beside it still quote it as the shell reads it back."""
    for control, escape in (("\n", "\\u000a"), ("\r", "\\u000d"), ("\x1b", "\\u001b"), ("\x9b", "\\u009b")):
        home = tmp_path / f"h{control}15"
        done = run_inproc("history", env={"GC_WIZARD_HOME": str(home)})
        assert done.returncode == 0, done.stderr
        line = next(row for row in done.stdout.splitlines() if row.startswith("No installs yet"))
        assert f"in the state folder {tmp_path}/h{escape}15 (set by GC_WIZARD_HOME)." in line, repr(done.stdout)
        assert control not in done.stdout.rstrip("\n"), repr(done.stdout)  # its one line, ended as every line is
