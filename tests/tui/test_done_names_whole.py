"""Walk 39 #3: on the Done screen at 80 columns, the weights file `params/GraphCast_small - ERA5 1979-2015 - resolution
1.0 - pressure levels 13 - mesh 2to5 - precipitation input and output.npz` was folded, and its second row ("levels 13 -
mesh 2to5 - …") read as a sixth file; `Environment:` stood alone on its row with the path below it as `~/…`.

Now each file name (and the gathering command) is a row of its own that is never folded (it scrolls sideways, as
commands do, and ctrl+y copies the focused one), and a label keeps its path beside it, spelled with ~, where that
fits (`wizard.wrap.hanging`). Real parts: the real Done screen, the core's five file names, Textual's Pilot at 80
columns (a tall screen, so the whole summary is read at once)."""

from __future__ import annotations

from textual.app import App

from tests.fixtures.pilot import screen_rows, until
from tests.fixtures.results import install_result
from wizard.after.assets import first_forecast_files
from wizard.tui.screens.done import DoneScreen
from wizard.tui.widgets.commands import CommandRow
from wizard.wrap import hanging

ROWS = 90
STAMP = "jax0.4.23-cpu-20261129-114133"


async def test_each_file_name_stays_whole_and_the_environment_is_beside_its_label(isolated_state, tmp_path,
                                                                                  monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path))
    env = tmp_path / ".local" / "share" / "gc-wizard" / "envs" / STAMP
    env.mkdir(parents=True)

    class _App(App):
        CSS_PATH = "../../wizard/tui/app.tcss"

        def __init__(self) -> None:
            super().__init__()
            self.assets, self.assets_reach = "http://127.0.0.1:9/mirror/", None  # a host that does not answer

        def on_mount(self) -> None:
            self.push_screen(DoneScreen(install_result(ok=True, env=str(env), log="/l")))

    app = _App()
    async with app.run_test(size=(80, ROWS)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, DoneScreen) and app.screen.unreachable, timeout=30,
                    settle=0.3)
        commands = [row.command for row in app.screen.query(CommandRow)]
        for name in first_forecast_files():
            assert name in commands, (name, commands)
        rows = screen_rows(app, ROWS)
        assert len(rows) == ROWS and any("cannot be reached from here" in row for row in rows), rows
        # No row goes on with a piece of a file name (the long one had "levels 13 - mesh 2to5 - …" on a row of its
        # own); each file's row starts with its folder.
        assert not any(row.lstrip().startswith(("levels", "mesh", "precipitation", "1.0 -")) for row in rows), rows
        environment = next(row for row in rows if "Environment:" in row)
        assert environment.strip() != "Environment:" and environment.rstrip().endswith(STAMP), rows


def test_a_label_keeps_a_home_path_beside_it_where_the_tilde_makes_it_fit(monkeypatch):
    monkeypatch.setenv("HOME", "/home/lab2")
    path = f"/home/lab2/.local/share/gc-wizard/envs/{STAMP}"
    for width in range(72, 80):  # the ~ form fits beside the label; the path as it is does not
        rows = hanging([f"Environment: {path} (current)"], width, tilde=True)
        assert rows[0].startswith(f"Environment: ~/.local/share/gc-wizard/envs/{STAMP}"), (width, rows)
        assert all(len(row) <= width for row in rows), (width, rows)
    assert hanging([f"Environment: {path}"], 72)[0] == "Environment:"  # without ~ (the CLI's), the path as it is
