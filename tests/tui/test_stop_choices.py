"""What the stop question offers and does beyond "Stop": the run waits at its next step while it is open, the
check of a new environment can be stopped keeping what was installed, and the Done screen follows a rollback.

Walk 17 found all three: the install went on to its next step while "Stop the install?" was read, stopping the
check threw a finished install away, and the Done screen still offered the old install's forecast after a
rollback from History.
"""

from __future__ import annotations

import json
import threading
from pathlib import Path

from tests.fixtures.index import SlowHouse
from tests.fixtures.pilot import (
    SIZE,
    app_whose_check_hangs,
    choose,
    screen_text,
    stop_question_during_check,
    tiny_app,
    wait_for,
)
from wizard.install.envs import MARKER
from wizard.tui.app import WizardApp
from wizard.tui.hold import StepHold
from wizard.tui.screens.confirm import ConfirmScreen
from wizard.tui.screens.done import DoneScreen
from wizard.tui.screens.history import HistoryScreen
from wizard.tui.screens.install import InstallScreen
from wizard.tui.screens.rollback import RollbackScreen
from wizard.tui.screens.verify import VerifyScreen


def test_a_closed_hold_keeps_the_worker_waiting_until_it_opens_or_the_run_is_stopped():
    hold, cancel = StepHold(), threading.Event()
    hold.close()
    passed = threading.Event()
    worker = threading.Thread(target=lambda: (hold.wait(cancel, poll=0.01), passed.set()))
    worker.start()
    assert not passed.wait(0.3)  # still held: the question is open
    hold.open()
    worker.join(30)
    assert passed.is_set()

    hold.close()
    stopped = threading.Thread(target=hold.wait, args=(cancel,), kwargs={"poll": 0.01})
    stopped.start()
    cancel.set()  # a stop (or a signal) is never kept waiting by the hold
    stopped.join(30)
    assert not stopped.is_alive()


async def test_the_next_step_waits_while_the_stop_question_is_open(gpu_server, tiny, tmp_path, monkeypatch):
    """Ctrl-C while the packages download slowly; the download finishes while the question is read, and the
    GraphCast step does not start until "Keep going"; then the install ends as if never asked."""
    gpu_server("no-nvidia")
    house = SlowHouse(tmp_path / "slow-house", chunk=128)  # a few seconds for its one wheel
    house.add("pkg-med", "1.0")
    for name, value in house.env().items():  # the only index uv asks (the suite's are closed): downloaded slowly
        monkeypatch.setenv(name, value)
    tiny.write("tiny-med", ["pkg-med==1.0"])
    app = WizardApp([str(tiny.recipes)], find_links=[house.url], offline=False, graphcast_src=str(tiny.graphcast),
                    verify=False)
    try:
        async with app.run_test(size=SIZE) as pilot:
            await choose(pilot, app, "tiny-med")
            await pilot.press("enter")
            await wait_for(pilot, lambda: isinstance(app.screen, InstallScreen)
                           and app.screen.step_list.state.get("install-requirements") == "running", timeout=60)
            steps = app.install_screen.step_list
            await pilot.press("ctrl+c")
            await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
            assert app.step_hold.closed
            await wait_for(pilot, lambda: steps.state.get("install-requirements") == "done", timeout=120)
            await pilot.pause(1.0)  # time the worker would have needed to start the GraphCast step
            assert steps.state.get("install-graphcast") not in ("running", "done"), steps.state
            log = Path(tiny.history()[-1]["log"]).read_text(errors="replace")
            assert "+ pkg-med==1.0" in log and "+ graphcast==0.1.1" not in log  # its header only: not started
            await pilot.press("n")
            await wait_for(pilot, lambda: isinstance(app.screen, DoneScreen), timeout=120)
            assert app.install_result.ok and not app.step_hold.closed
            assert steps.state.get("install-graphcast") == "done"
    finally:
        house.server.shutdown()



async def test_stopping_the_check_can_keep_the_installed_environment_unchecked(gpu_server, tiny):
    gpu_server("no-nvidia")
    app = app_whose_check_hangs(tiny)
    async with app.run_test(size=SIZE) as pilot:
        verify_screen = await stop_question_during_check(pilot, app)
        assert "k keeps it, installed but unchecked" in app.screen.question
        await pilot.press("k")
        await wait_for(pilot, lambda: verify_screen.stopping is not None)
        assert verify_screen.stopping == "■ Stopping the check: the new environment is kept, unchecked…"
        await wait_for(pilot, lambda: isinstance(app.screen, VerifyScreen) and app.screen.done, timeout=60)
        result = app.install_result
        shown = " ".join(str(app.screen.query_one("#findings").render()).split())
        assert f"The new environment stays at {result.env}, installed but not checked and not current" in shown
        assert f"verify --env {result.env}` checks it" in shown and f"rollback {result.entry_id}`" in shown
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, DoneScreen) and bool(app.screen.query("#summary")))
    assert result.cancelled and not result.ok and result.status == "installed"
    assert app.exit_status is None or app.exit_status == 130
    assert Path(result.env, "bin", "python").exists()
    (entry,) = tiny.history()
    assert entry["status"] == "installed" and not entry["current"]
    assert entry["error"].startswith("the GraphCast check was stopped by you; the new environment stays at ")
    marker = json.loads(Path(result.env, MARKER).read_text())
    assert not marker.get("verified")  # never said to be checked


async def test_the_done_screen_follows_a_rollback_made_from_it(gpu_server, tiny):
    """Done (B installed) → h → roll back to A → back: the summary names A as current, and k acts on A."""
    gpu_server("no-nvidia")
    _, a = tiny.install("tiny-a")
    app = tiny_app(tiny)
    async with app.run_test(size=SIZE) as pilot:
        await choose(pilot, app, "tiny-b")
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, DoneScreen) and bool(app.screen.query("#summary")),
                       timeout=120)
        done = app.screen
        b_env = app.install_result.env
        assert done.env == b_env and "is current now" not in screen_text(app)
        await pilot.press("h")
        await wait_for(pilot, lambda: isinstance(app.screen, HistoryScreen) and bool(app.screen.entries))
        row = next(i for i, e in enumerate(app.screen.entries) if e.id == a["entry_id"])
        app.screen.query_one("DataTable").move_cursor(row=row)
        await pilot.press("r")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("y")
        await wait_for(pilot, lambda: isinstance(app.screen, RollbackScreen))
        await wait_for(pilot, lambda: app.screen.finished, timeout=120)
        await pilot.press("enter")  # back to History
        await wait_for(pilot, lambda: isinstance(app.screen, HistoryScreen))
        await pilot.press("escape")  # back to Done
        await wait_for(pilot, lambda: app.screen is done)
        await wait_for(pilot, lambda: "is current now" in str(done.query_one("#summary").render()))
        summary = " ".join(str(done.query_one("#summary").render()).split())
        assert (f"{a['env']} is current now (rolled back to since this install, which stays at {b_env}, not "
                f"current). f (forecast), k (Jupyter kernel) and m (module file) act on {a['env']}, not on this "
                "install's environment.") in summary  # by name (walk 27 #8: "act on it" was ambiguous)
        assert done.env == a["env"]
