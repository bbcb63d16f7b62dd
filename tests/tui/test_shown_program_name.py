"""Walk 38 #2: the app's screens that show commands name the program as the CLI's printed lines do. Their texts
(Diagnose's findings, the Done, forecast, plan and History details) are `ShownCommands`, which sends each quoted
`gc-wizard …` through `paths.runnable`. (The label "(as `gc-wizard diagnose LOGFILE`)" names the CLI's command, as the
keys' tooltips do: not a line to paste.)"""

from __future__ import annotations

from tests.fixtures.pilot import SIZE, ScreenHost, read_when_shown
from wizard import paths
from wizard.tui.screens.diagnose import DiagnoseScreen
from wizard.tui.widgets.commands import ShownCommands


async def test_the_diagnose_screen_and_the_command_texts_name_the_program_as_the_cli_does(monkeypatch):
    monkeypatch.setattr(paths, "wizard_command", lambda: "/v/bin/gc-wizard")
    screen = DiagnoseScreen()
    app = ScreenHost(screen)
    async with app.run_test(size=SIZE) as pilot:
        await read_when_shown(pilot, DiagnoseScreen, "A log file's path")
        shown = screen.query_one("#diagnosis", ShownCommands)
        shown.update("  Fix: run `gc-wizard history`, then\n`gc-wizard install jax0.4.23-cpu --graphcast-src DIR`")
        await pilot.pause()
        assert "run `/v/bin/gc-wizard history`" in str(shown.render())
        assert [row.command for row in shown.commands()] == ["/v/bin/gc-wizard install jax0.4.23-cpu --graphcast-src DIR"]
