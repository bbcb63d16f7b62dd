"""k on the Done screen says the kernel's facts in the core's words (walk 23 #6): on a server
without a Jupyter server it said nothing of it, as `kernel install` did. A real environment with ipykernel, built
by uv from a local wheelhouse; the kernel written into a JUPYTER_DATA_DIR of the test's own."""

from __future__ import annotations

from tests.fixtures.pilot import SIZE, StyledDoneApp, until
from tests.fixtures.results import install_result
from wizard.tui.screens.confirm import ConfirmScreen
from wizard.tui.screens.done import DoneScreen


async def test_k_says_there_is_no_jupyter_server_here(tiny, tmp_path, monkeypatch):
    tiny.house.add("ipykernel", "6.0")
    tiny.write("tiny-k", ["pkg-a==1.0", "ipykernel==6.0"])
    installed, result = tiny.install("tiny-k", "--no-verify")
    assert installed.returncode == 0, installed.stderr
    env = result["env"]
    jupyter = f"{env}/bin/jupyter"  # what jupyter_core (ipykernel's) puts in every such environment: no server
    with open(jupyter, "w") as handle:
        handle.write("#!/bin/sh\nexit 0\n")
    __import__("os").chmod(jupyter, 0o755)
    (tmp_path / "bin").mkdir()
    monkeypatch.setenv("PATH", f"{tmp_path / 'bin'}:/usr/bin:/bin")
    monkeypatch.setenv("JUPYTER_DATA_DIR", str(tmp_path / "jupyter"))
    # a local assets folder: no host asked
    app = StyledDoneApp(str(tmp_path), install_result(ok=True, recipe="tiny-k", env=env, log="/l"))
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, DoneScreen), settle=0.2)
        done = app.screen
        await pilot.press("k")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("y")
        await until(pilot, lambda: app.screen is done and bool(done.query("#notes")), timeout=60, settle=0.2)
        note = " ".join(str(done.query_one("#notes").render()).split())
        assert "Kernel registered:" in note and "! No Jupyter " in note and "was found on this machine" in note, note
