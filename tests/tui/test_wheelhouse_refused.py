"""Walk 22 #6: w with a wheelhouse under a folder every user can write. The plan refused it ("nothing was read from
it") while a toast said "Wheelhouse 1 wheel, 1 of 84 pins", as if accepted, and showing it had been read after all.
The dialog now refuses it (the words `plan` and `install` use), reads nothing, adds nothing and announces nothing."""

from __future__ import annotations

import shutil

from tests.fixtures.modes import open_folder
from tests.fixtures.pilot import SIZE, choose, tiny_app, wait_for
from wizard.tui.screens.prompt import PromptScreen


async def test_a_refused_wheelhouse_is_said_in_its_dialog_and_not_announced_as_usable(gpu_server, tiny, tmp_path):
    gpu_server("no-nvidia")
    shared = open_folder(tmp_path / "shared")
    house = shared / "wh"
    shutil.copytree(tiny.house.path, house)
    house.chmod(0o755)
    app = tiny_app(tiny)
    async with app.run_test(size=SIZE) as pilot:
        await choose(pilot, app, "tiny-a")
        await wait_for(pilot, lambda: app.screen.plan is not None)
        plan_screen = app.screen
        await pilot.press("w")
        await wait_for(pilot, lambda: isinstance(app.screen, PromptScreen))
        app.screen.query_one("Input").value = str(house)
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, PromptScreen) and app.screen.error is not None)
        error = str(app.screen.query_one("#answer-error").render())
        assert "every user can write" in error and f"chmod o-w {shared}" in error, error
        assert not any("Wheelhouse" in str(note.message) for note in app._notifications)
        # Fixed in another shell, Enter again in the same dialog takes it, and only then is it announced.
        shared.chmod(0o755)
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.screen is plan_screen)
        assert plan_screen.options.find_links[-1] == str(house)
        assert any("Wheelhouse" in str(note.message) for note in app._notifications)
