"""The wizard app driven with Pilot at 80×24: the real core underneath, detection via the stand-ins."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.fixtures.pilot import (
    SIZE,
    app_whose_check_hangs,
    choose,
    facts_shown,
    read_when_shown,
    screen_text,
    stop_question_during_check,
    tiny_app,
    wait_for,
)
from wizard.tui.app import WizardApp
from wizard.tui.screens.confirm import ConfirmScreen
from wizard.tui.screens.done import DoneScreen
from wizard.tui.screens.history import HistoryScreen
from wizard.tui.screens.install import (
    STOP_CHECK_QUESTION,
    STOP_QUESTION,
    InstallScreen,
    stop_question,
    stopping_line,
)
from wizard.tui.screens.machine import MachineScreen
from wizard.tui.screens.plan import PlanScreen
from wizard.tui.screens.prompt import PromptScreen
from wizard.tui.screens.recipe import RecipeScreen
from wizard.tui.screens.rollback import RollbackScreen
from wizard.tui.screens.verify import VerifyScreen
from wizard.tui.widgets.commands import CommandRow


async def test_machine_recipe_plan_and_back(gpu_server):
    gpu_server("a100x2-535")
    app = WizardApp()
    async with app.run_test(size=SIZE) as pilot:
        await facts_shown(pilot)
        text = screen_text(app)
        assert "535.104.05" in text and "A100" in text
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, RecipeScreen))
        recipes = app.screen
        assert recipes.highlighted_match.recipe.id == "jax0.4.23-cuda12-cudnn89"
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, PlanScreen) and app.screen.plan is not None)
        assert "nvidia-cudnn-cu12==8.9.7.29" in str(app.screen.query_one("#plan").render())
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, RecipeScreen))
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, MachineScreen))
        await pilot.press("h")
        await wait_for(pilot, lambda: isinstance(app.screen, HistoryScreen))
        assert "No installs yet in the state folder" in screen_text(app)
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, MachineScreen))


async def test_whole_flow_with_a_real_install_of_local_wheels(gpu_server, tiny):
    gpu_server("no-nvidia")
    app = tiny_app(tiny)
    async with app.run_test(size=SIZE) as pilot:
        await choose(pilot, app, "tiny-a")
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, (InstallScreen, DoneScreen)))
        await wait_for(pilot, lambda: isinstance(app.screen, DoneScreen), timeout=120)
        assert app.install_result.ok, app.install_result
        # the activate line, whole in its row (a long one scrolls sideways: its end can be off screen), with the
        # absolute gc-wizard when PATH lacks it
        commands = [row.command for row in app.screen.query(CommandRow)]
        assert any(command.startswith('eval "$(') and command.endswith(' activate)"') for command in commands), commands
        assert app.install_screen.live_log.lines_written > 0
        assert all(state == "done" for state in app.install_screen.step_list.state.values())
    (entry,) = tiny.history()
    assert entry["current"] and entry["recipe"] == "tiny-a"


@pytest.mark.slow  # pip (it asks; uv never does) takes seconds per step here
async def test_an_installer_question_becomes_a_dialog_and_the_answer_reaches_it(gpu_server, tiny, auth_index):
    """A real runner step: pip meets a private index, asks for a user and a password; we answer in the dialog."""
    from tests.fixtures.index import PASSWORD, USER

    gpu_server("no-nvidia")
    app = WizardApp([str(tiny.recipes)], find_links=[auth_index], offline=True,
                    graphcast_src=str(tiny.graphcast), verify=False)
    asked: list[tuple[str, bool]] = []
    async with app.run_test(size=SIZE) as pilot:
        await choose(pilot, app, "tiny-a")
        await pilot.press("i")  # pip: it asks for credentials; uv never asks
        await wait_for(pilot, lambda: app.screen.plan is not None and app.screen.plan.installer == "pip")
        await pilot.press("enter")
        while not isinstance(app.screen, DoneScreen):
            await wait_for(pilot, lambda: isinstance(app.screen, (PromptScreen, DoneScreen)), timeout=120)
            if isinstance(app.screen, PromptScreen):
                dialog = app.screen
                asked.append((dialog.question, dialog.secret))
                answer = PASSWORD if "Password" in dialog.question else USER
                await pilot.press(*answer)
                if answer == PASSWORD:
                    assert PASSWORD not in screen_text(app)  # masked while typed
                await pilot.press("enter")
                await wait_for(pilot, lambda d=dialog: app.screen is not d)
        assert app.install_result.ok, app.install_result
        await pilot.press("escape")  # back to the install log: the answer is not echoed there either
        await wait_for(pilot, lambda: isinstance(app.screen, InstallScreen))
        assert PASSWORD not in "\n".join(app.screen.live_log.query_one("Log").lines)
        assert USER in "\n".join(app.screen.live_log.query_one("Log").lines)
    port = auth_index.rsplit(":", 1)[1].strip("/")
    assert asked[0] == (f"The installer asks: User for 127.0.0.1:{port}:", False)
    assert asked[1] == ("The installer asks: Password:", True)
    (entry,) = tiny.history()
    assert entry["current"] and entry["status"] == "installed"
    log = open(entry["log"]).read()
    assert "pkg-a" in log and "Successfully installed pkg-a-1.0" in log
    assert PASSWORD not in log


@pytest.mark.slow  # pip (it asks; uv never does) takes seconds per step here
async def test_refusing_an_installer_question_stops_the_step_and_nothing_becomes_current(
        gpu_server, tiny, auth_index):
    gpu_server("no-nvidia")
    app = WizardApp([str(tiny.recipes)], find_links=[auth_index], offline=True,
                    graphcast_src=str(tiny.graphcast), verify=False)
    async with app.run_test(size=SIZE) as pilot:
        await choose(pilot, app, "tiny-a")
        await pilot.press("i")
        await wait_for(pilot, lambda: app.screen.plan is not None and app.screen.plan.installer == "pip")
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, PromptScreen), timeout=120)
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, DoneScreen), timeout=60)
        assert not app.install_result.ok
        assert "nobody answered" in app.install_result.error
        assert "No environment was made current (there was none before either)" in screen_text(app)
        await pilot.press("enter")
    assert app.exit_status == 1
    (entry,) = tiny.history()
    assert entry["status"] == "failed" and not entry["current"]


async def test_plan_switches_installer_and_folder_and_back_keeps_the_choice(gpu_server, tiny, tmp_path):
    gpu_server("no-nvidia")
    app = tiny_app(tiny)
    async with app.run_test(size=SIZE) as pilot:
        await choose(pilot, app, "tiny-b")
        plan_screen = app.screen
        assert plan_screen.plan.installer == "uv" and "pkg-b==2.0" in str(plan_screen.query_one("#plan").render())
        await pilot.press("i")
        await wait_for(pilot, lambda: plan_screen.plan.installer == "pip")
        assert "-m pip install" in str(plan_screen.query_one("#plan").render())
        await pilot.press("e")
        await wait_for(pilot, lambda: isinstance(app.screen, PromptScreen))
        target = tmp_path / "my-graphcast-env"
        app.screen.query_one("Input").value = str(target)
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.screen is plan_screen and plan_screen.plan.env_dir == target)
        assert f"\n  {target}\n" in str(plan_screen.query_one("#plan").render())
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, RecipeScreen))
        recipes = app.screen
        assert recipes.highlighted_match.recipe.id == "tiny-b"
    assert not target.exists()  # planning touched nothing


# CI run 44 (load ~4 on 2 cores): once the plan never came in 300 s after Enter on the recipe list; it passed alone and
# in its file at once after. Cause not found yet; rerun once rather than lose a landing to it.
@pytest.mark.flaky(reruns=1, reruns_delay=1)
async def test_verify_shows_the_failing_tier_then_findings_and_nothing_becomes_current(gpu_server, tiny):
    """The check runs for real: the tiny env has no JAX, so the first tier fails and Done says why."""
    gpu_server("no-nvidia")
    app = WizardApp([str(tiny.recipes)], find_links=[str(tiny.house.path)], offline=True,
                    graphcast_src=str(tiny.graphcast), verify=True, level="quick")
    async with app.run_test(size=SIZE) as pilot:
        await choose(pilot, app, "tiny-a")
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, VerifyScreen) and app.screen.done, timeout=180)
        verify = app.screen
        assert verify.tiers and verify.tiers[0].name == "jax_import" and not verify.tiers[0].ok
        text = screen_text(app)
        assert "✗ import jax" in text
        await pilot.press("escape")  # back to the install log
        await wait_for(pilot, lambda: isinstance(app.screen, InstallScreen))
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, DoneScreen))
        assert "Not done" in screen_text(app) and not app.install_result.ok
    (entry,) = tiny.history()
    assert entry["status"] == "failed" and not entry["current"]


def _slow_install_app(gpu_server, tiny, slow_index) -> WizardApp:
    """The app on a machine with no GPU, with a recipe whose requirements install slowly (`slow_index`)."""
    gpu_server("no-nvidia")
    tiny.write("tiny-slow", ["pkg-slow==1.0"])
    return WizardApp([str(tiny.recipes)], find_links=[slow_index], offline=False,
                     graphcast_src=str(tiny.graphcast), verify=False)


async def _ctrl_c_while_requirements_install(pilot, app) -> None:
    """Enter on the plan, then Ctrl-C once the slowest step (the requirements) runs."""
    await pilot.press("enter")
    await wait_for(pilot, lambda: isinstance(app.screen, InstallScreen)
                   and app.screen.step_list.state.get("install-requirements") == "running", timeout=60)
    await pilot.press("ctrl+c")


async def test_ctrl_c_mid_install_asks_then_stops_and_nothing_becomes_current(gpu_server, tiny, slow_index):
    app = _slow_install_app(gpu_server, tiny, slow_index)
    async with app.run_test(size=SIZE) as pilot:
        await choose(pilot, app, "tiny-slow")
        await _ctrl_c_while_requirements_install(pilot, app)
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        assert app.screen.question == stop_question(False, has_current=False) and "will be removed" in STOP_QUESTION
        install_screen = app.install_screen
        await pilot.press("y")
        # From the yes until the stop is done, the screen says it is stopping (not "running"), in a line that stays.
        await wait_for(pilot, lambda: install_screen.stopping is not None)
        assert install_screen.stopping == stopping_line(False) == \
            "■ Stopping the install: the new environment is being removed…"
        await wait_for(pilot, lambda: isinstance(app.screen, DoneScreen) and bool(app.screen.query("#summary")),
                       timeout=60)
        assert app.install_result.cancelled
        # Read the widget, not a screenshot: an export taken while the screen mounts can be blank.
        assert "Nothing half-built was made current" in str(app.screen.query_one("#summary").render())
    entries = tiny.history()
    assert entries[-1]["status"] == "cancelled" and not any(e["current"] for e in entries)


async def test_going_again_after_a_stop_plans_a_new_folder_not_the_stopped_ones(gpu_server, tiny, slow_index):
    """Walk 39 #2: p on the Not-done screen kept the stopped attempt's planned time, so the retry was made in the same
    folder and two history entries named it (History showed the stopped one with the new one's disk)."""
    app = _slow_install_app(gpu_server, tiny, slow_index)
    async with app.run_test(size=SIZE) as pilot:
        await choose(pilot, app, "tiny-slow")
        stopped_folder = app.screen.plan.env_dir
        await _ctrl_c_while_requirements_install(pilot, app)
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("y")
        await wait_for(pilot, lambda: isinstance(app.screen, DoneScreen) and bool(app.screen.query("#summary")),
                       timeout=60)
        await pilot.press("p")
        await wait_for(pilot, lambda: isinstance(app.screen, PlanScreen) and app.screen.plan is not None)
        assert app.screen.plan.env_dir != stopped_folder


async def _roll_back_from_history(pilot, app, entry_id: str) -> None:
    """History (h), the entry's row, r, confirm (y): the rollback's live screen comes up."""
    await facts_shown(pilot)
    await pilot.press("h")
    await wait_for(pilot, lambda: isinstance(app.screen, HistoryScreen))
    history = app.screen
    row = next(i for i, e in enumerate(history.entries) if e.id == entry_id)
    history.query_one("DataTable").move_cursor(row=row)
    await pilot.press("r")
    await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
    await pilot.press("y")
    await wait_for(pilot, lambda: isinstance(app.screen, RollbackScreen))


async def test_rollback_from_history_runs_live_and_finishes_with_its_result(gpu_server, tiny):
    """A rebuild (the target's folder was deleted): its steps and uv's lines on the live screen, the
    result there, Enter back to History with the target current."""
    gpu_server("no-nvidia")
    _, a = tiny.install("tiny-a")
    _, b = tiny.install("tiny-b")
    shutil.rmtree(a["env"])
    app = tiny_app(tiny)
    async with app.run_test(size=SIZE) as pilot:
        await _roll_back_from_history(pilot, app, a["entry_id"])
        screen = app.screen
        await wait_for(pilot, lambda: screen.finished, timeout=120)
        assert screen.result.ok and screen.result.rebuilt
        assert screen.step_list.state["create-env"] == "done"
        assert screen.step_list.state["sync-offline"] == "done"
        shown = "\n".join(line for line in screen.live_log.query_one("#log").lines)
        assert "+ pkg-a==1.0" in shown  # uv's own line, live
        shown = await read_when_shown(pilot, type(screen), "Back to History")  # drawn, not just set
        assert "Rolled back (rebuilt from its frozen package set)" in shown
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, HistoryScreen)
                       and any(e.current and e.id == a["entry_id"] for e in app.screen.entries))
    current = [e for e in tiny.history() if e["current"]]
    assert [e["id"] for e in current] == [a["entry_id"]]
    log = Path(tiny.history()[-1]["log"]).read_text()
    assert "create-env: Recreate the environment" in log and "+ pkg-a==1.0" in log


async def test_after_a_success_n_goes_back_to_the_recipes_for_another_install(gpu_server, tiny):
    """Walk 19 #7: after Done the app had no way to a second install but quitting and starting again."""
    gpu_server("no-nvidia")
    app = tiny_app(tiny)
    async with app.run_test(size=SIZE) as pilot:
        await choose(pilot, app, "tiny-a")
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, DoneScreen), timeout=120)
        assert app.install_result.ok and app.screen.check_action("another", ()) is True
        await pilot.press("n")
        await wait_for(pilot, lambda: isinstance(app.screen, RecipeScreen))
        assert not any(isinstance(s, (InstallScreen, DoneScreen)) for s in app.screen_stack)
        assert app.screen.highlighted_match.recipe.id == "tiny-a"
        assert "current" in screen_text(app)  # the list says what is installed now


async def test_a_rollback_s_check_has_a_row_of_its_own_with_its_outcome(gpu_server, tiny):
    """Walk 18 #11: a rollback's GraphCast check showed only a counter while it ran. It is a step row now, in the
    CLI's words, ending ✗ here (the tiny env has no JAX: the check fails at its first tier, and the target is not
    made current)."""
    from wizard.flows.describe_check import CHECK_TITLE

    gpu_server("no-nvidia")
    _, a = tiny.install("tiny-a")
    _, b = tiny.install("tiny-b")
    app = WizardApp([str(tiny.recipes)], find_links=[str(tiny.house.path)], offline=True,
                    graphcast_src=str(tiny.graphcast), verify=True)
    async with app.run_test(size=SIZE) as pilot:
        await _roll_back_from_history(pilot, app, a["entry_id"])
        screen = app.screen
        await wait_for(pilot, lambda: "check" in screen.step_list.state, timeout=60)
        await wait_for(pilot, lambda: screen.finished, timeout=120)
        assert not screen.result.ok and screen.step_list.state["check"] == "failed"
        await wait_for(pilot, lambda: CHECK_TITLE in screen_text(app))
    assert [e["id"] for e in tiny.history() if e["current"]] == [b["entry_id"]]


async def test_a_rollback_rebuild_is_stopped_with_ctrl_c_like_an_install(gpu_server, tiny, slow_index, tmp_path):
    """Ctrl-C, then Stop: the rebuild's download stops, the half-rebuilt folder goes, B stays current."""
    a, b = _installed_a_then_b_with_a_needing_the_slow_index(gpu_server, tiny, slow_index, tmp_path)
    app = tiny_app(tiny)
    async with app.run_test(size=SIZE) as pilot:
        screen = await _rolling_back_slowly_to(pilot, app, a)
        await pilot.press("ctrl+c")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("y")
        await wait_for(pilot, lambda: screen.finished)
        assert screen.result.cancelled and not screen.result.ok
        assert screen.step_list.state["sync-online"] == "cancelled"
        assert screen.step_list.state["sync-offline"] == "noted"  # not in the cache: no alarm, online next
        await wait_for(pilot, lambda: "Rollback cancelled" in screen_text(app))
    assert not Path(a["env"]).exists()
    entries = tiny.history()
    assert entries[-1]["kind"] == "rollback" and entries[-1]["status"] == "cancelled"
    assert [e["id"] for e in entries if e["current"]] == [b["entry_id"]]


async def test_quitting_during_a_rollback_asks_then_stops_it_and_exits_130(gpu_server, tiny, slow_index, tmp_path):
    a, b = _installed_a_then_b_with_a_needing_the_slow_index(gpu_server, tiny, slow_index, tmp_path)
    app = tiny_app(tiny)
    async with app.run_test(size=SIZE) as pilot:
        await _rolling_back_slowly_to(pilot, app, a)
        await pilot.press("ctrl+q")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        assert "Stop the rollback and leave gc-wizard?" in screen_text(app)
        await pilot.press("y")
        await wait_for(pilot, lambda: app.return_code is not None)
    assert app.exit_status == 130
    assert not Path(a["env"]).exists()
    entries = tiny.history()
    assert entries[-1]["status"] == "cancelled" and [e["id"] for e in entries if e["current"]] == [b["entry_id"]]


def _installed_a_then_b_with_a_needing_the_slow_index(gpu_server, tiny, slow_index, tmp_path) -> tuple[dict, dict]:
    """A CPU server with tiny-a then tiny-b installed (b current), a's env gone and its packages only on the slow index."""
    gpu_server("no-nvidia")
    _, a = tiny.install("tiny-a")
    _, b = tiny.install("tiny-b")
    _needs_the_slow_index(a, slow_index, tmp_path / "slow-house")
    return a, b


async def _rolling_back_slowly_to(pilot, app, entry: dict):
    """The rollback to `entry` started from History, once its slow download is running: its progress screen."""
    await _roll_back_from_history(pilot, app, entry["entry_id"])
    screen = app.screen
    await wait_for(pilot, lambda: screen.step_list.state.get("sync-online") == "running")
    return screen


def _needs_the_slow_index(entry: dict, slow_index: str, folder: Path) -> None:
    """Make the target's frozen set a package only the slow index has, then delete its folder: the
    rollback must rebuild it, downloading slowly (see tests/test_rollback.py)."""
    import json
    import os
    import uuid

    from tests.fixtures.wheels import build_wheel

    version = f"1.0.{uuid.uuid4().int % 10**8}"  # a version no cache can hold
    build_wheel(folder, "pkg-slow", version)
    history_file = Path(os.environ["GC_WIZARD_HOME"]) / "history.json"
    data = json.loads(history_file.read_text())
    for item in data["entries"]:
        if item["id"] == entry["entry_id"]:
            item["packages"], item["find_links"], item["requirements_file"] = [f"pkg-slow=={version}"], \
                [slow_index], None
    history_file.write_text(json.dumps(data))
    shutil.rmtree(entry["env"])


async def test_report_preview_is_redacted_and_saved(gpu_server, tmp_path):
    from wizard.tui.screens.report import ReportScreen

    env = gpu_server("a100x2-535")
    del env
    app = WizardApp()
    async with app.run_test(size=SIZE) as pilot:
        await facts_shown(pilot)
        await pilot.press("s")
        await wait_for(pilot, lambda: isinstance(app.screen, ReportScreen) and app.screen.text is not None)
        report = app.screen.text
        assert "535.104.05" in report
        assert "GPU-8932f937" not in report  # the stand-in GPU's UUID is redacted
        # drawn as Markdown: headings and lists, not the file's `## ` and `|---|` (walk 19 #14); its tables as lists,
        # which read at 80 columns (walk 21 #9), while the saved file keeps them
        shown = await read_when_shown(pilot, ReportScreen, "Summary")
        assert "## Summary" not in shown and "|---|" not in shown and "│" not in shown and "•" in shown
        assert "|---|" in report
        await pilot.press("s")
        await wait_for(pilot, lambda: isinstance(app.screen, PromptScreen))
        target = tmp_path / "report.md"
        app.screen.query_one("Input").value = str(target)
        await pilot.press("enter")
        await wait_for(pilot, lambda: target.exists())
        assert target.read_text() == report
        # A link at the path chosen is refused with the core's sentence, and its target left alone (eleventh
        # hostile pass #188/#189): the app says so and stays up.
        victim, link = tmp_path / "victim.txt", tmp_path / "linked.md"
        victim.write_text("mine\n")
        link.symlink_to(victim)
        await pilot.press("s")
        await wait_for(pilot, lambda: isinstance(app.screen, PromptScreen))
        app.screen.query_one("Input").value = str(link)
        await pilot.press("enter")
        await wait_for(pilot, lambda: any("symbolic link" in str(n.message) for n in app._notifications))
        assert victim.read_text() == "mine\n" and isinstance(app.screen, ReportScreen)


async def test_quitting_during_an_install_asks_then_stops_it_first(gpu_server, tiny, slow_index):
    """ctrl+q (and q) ask as Ctrl-C does; "Keep going" keeps installing, "Stop and quit" stops cleanly."""
    gpu_server("no-nvidia")
    tiny.write("tiny-slow", ["pkg-slow==1.0"])
    app = WizardApp([str(tiny.recipes)], find_links=[slow_index], offline=False,
                    graphcast_src=str(tiny.graphcast), verify=False)
    async with app.run_test(size=SIZE) as pilot:
        await choose(pilot, app, "tiny-slow")
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, InstallScreen)
                       and app.screen.step_list.state.get("install-requirements") == "running", timeout=60)
        await pilot.press("ctrl+q")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        assert app.screen.question.startswith("Stop the install and leave gc-wizard?")
        assert "new environment will be removed" in app.screen.question
        await pilot.press("n")
        await wait_for(pilot, lambda: isinstance(app.screen, InstallScreen))
        assert app.install_running() and app.return_code is None  # not quit, still installing
        await pilot.press("q")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("y")
        await wait_for(pilot, lambda: not app.install_running(), timeout=60)
    assert app.exit_status == 130
    entries = tiny.history()
    assert entries[-1]["status"] == "cancelled" and not any(e["current"] for e in entries)
    assert "was removed" in entries[-1]["error"] and not Path(entries[-1]["env"]).exists()


async def test_ctrl_q_during_the_check_asks_and_says_the_new_environment_is_removed(gpu_server, tiny):
    """The GraphCast check (here a jax whose import takes minutes): ctrl+q asks "Stop the check and leave?",
    naming the removal; yes stops it, the new environment is removed, history says so, exit 130."""
    gpu_server("no-nvidia")
    _, before = tiny.install("tiny-b")  # the current environment, which the stop must leave current
    app = app_whose_check_hangs(tiny)
    async with app.run_test(size=SIZE) as pilot:
        await stop_question_during_check(pilot, app, "ctrl+q")
        question = app.screen.question
        assert question.startswith("Stop the check and leave gc-wizard?") and "y removes the new environment" in question
        assert "your current environment is untouched" in question
        await pilot.press("y")
        await wait_for(pilot, lambda: not app.install_running(), timeout=60)
    assert app.exit_status == 130
    entry = tiny.history()[-1]
    assert entry["recipe"] == "tiny-check" and entry["status"] == "cancelled" and not entry["current"]
    assert entry["error"].startswith("cancelled during the GraphCast check; the new environment ")
    assert "was removed, and the current environment is untouched" in entry["error"]
    assert not Path(entry["env"]).exists()
    assert [e["id"] for e in tiny.history() if e["current"]] == [before["entry_id"]] and Path(before["env"]).is_dir()



async def test_ctrl_c_during_the_check_shows_that_the_new_environment_was_removed(gpu_server, tiny):
    gpu_server("no-nvidia")
    app = app_whose_check_hangs(tiny)
    async with app.run_test(size=SIZE) as pilot:
        verify_screen = await stop_question_during_check(pilot, app)
        assert app.screen.question == STOP_CHECK_QUESTION.replace(  # a first install: nothing else to touch
            "your current environment is untouched", "no other environment is touched")
        await pilot.press("y")
        await wait_for(pilot, lambda: verify_screen.stopping is not None)
        assert verify_screen.stopping == stopping_line(True) == "■ Stopping the check: the new environment is being removed…"
        await wait_for(pilot, lambda: isinstance(app.screen, VerifyScreen) and app.screen.done, timeout=60)
        env = app.install_result.env
        shown = str(app.screen.query_one("#findings").render())
        assert f"The check was stopped. The new environment {env} was removed." in " ".join(shown.split())
        assert "No environment is current (there was none before either)" in " ".join(shown.split())
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, DoneScreen) and bool(app.screen.query("#summary")))
        summary = " ".join(str(app.screen.query_one("#summary").render()).split())
        assert f"The new environment {env} was removed." in summary
    assert not Path(env).exists()


# A real uv under a real pty: once in a full CI run its last "Installed 1 package" line reached the counters
# after the overall line was drawn ("1 of 2 packages"); retried like the other real-terminal tests (see the note).
@pytest.mark.flaky(reruns=2, reruns_delay=1)
async def test_install_progress_from_a_warm_cache_says_so_instead_of_a_byte_count(gpu_server, tiny):
    """A second install of the same wheels: uv downloads nothing (it prints no "Prepared"), so the overall
    line says how many came from the cache, not "0 B of ~N" that never moves."""
    gpu_server("no-nvidia")
    first, _ = tiny.install("tiny-a")  # warms uv's cache with these very wheels
    assert first.returncode == 0, first.stderr
    app = tiny_app(tiny)
    async with app.run_test(size=SIZE) as pilot:
        await choose(pilot, app, "tiny-a")
        await wait_for(pilot, lambda: app.screen.download_bytes is not None)  # the plan's size, as a user waits
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, DoneScreen), timeout=120)
        overall = str(app.install_screen.query_one("#overall").render())
    assert app.install_result.ok, app.install_result
    assert "2 of 2 packages" in overall and "all 2 from the cache" in overall, overall
    assert " B of ~" not in overall and "in all" in overall


async def test_q_quits_but_a_text_field_takes_the_letter_q(gpu_server, tiny):
    """q is a quit key like ctrl+q (nothing runs: it leaves at once, exit 0) — except in a text field,
    where it is a letter of the path being typed."""
    gpu_server("no-nvidia")
    app = tiny_app(tiny)
    async with app.run_test(size=SIZE) as pilot:
        await choose(pilot, app, "tiny-a")
        await pilot.press("g")
        await wait_for(pilot, lambda: isinstance(app.screen, PromptScreen))
        field = app.screen.query_one("Input")
        field.value = ""
        await pilot.press("q", "u", "i", "t")
        await pilot.pause(0.3)
        assert field.value == "quit" and app.return_code is None and isinstance(app.screen, PromptScreen)
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, PlanScreen))
        await pilot.press("q")
        await wait_for(pilot, lambda: app.return_code is not None)
    assert app.return_code == 0 and tiny.history() == []


async def test_a_graphcast_source_set_on_the_plan_is_kept_for_the_next_plan(gpu_server, tiny, tmp_path):
    """A firewalled user types the local GraphCast path once (g): backing out and planning again, or
    choosing another recipe of the same GraphCast version, starts from it."""
    import shutil

    gpu_server("no-nvidia")
    copy = tmp_path / "my-graphcast.whl"
    shutil.copy(tiny.graphcast, copy)
    app = tiny_app(tiny)  # started with one GraphCast source; the user picks another on the Plan screen
    async with app.run_test(size=SIZE) as pilot:
        await choose(pilot, app, "tiny-a")
        assert app.screen.options.graphcast_src == str(tiny.graphcast)
        await pilot.press("g")
        await wait_for(pilot, lambda: isinstance(app.screen, PromptScreen))
        app.screen.query_one("Input").value = str(copy)
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, PlanScreen) and app.screen.options.graphcast_src)
        await pilot.press("escape")  # back to the recipes, without installing
        await wait_for(pilot, lambda: isinstance(app.screen, RecipeScreen))
        app.screen.query_one("OptionList").highlighted = app.screen.index_of("tiny-b")
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, PlanScreen) and app.screen.plan is not None)
        assert app.screen.options.graphcast_src == str(copy)
        assert str(copy) in str(app.screen.query_one("#plan").render())


async def test_a_stop_asked_during_the_install_holds_the_check_until_answered(gpu_server, tiny):
    """Ctrl-C while packages install opens "Stop the install?"; the install's last step may end while it is
    read, but the check does not begin (its screen once covered the question, and a newcomer's y went nowhere):
    the question stays, in the install's words, and y stops the install before the check."""
    gpu_server("no-nvidia")
    app = app_whose_check_hangs(tiny)
    async with app.run_test(size=SIZE) as pilot:
        await choose(pilot, app, "tiny-check")
        await pilot.press("i")  # pip: its steps take seconds, so the question is open before the check begins
        await wait_for(pilot, lambda: "Installer pip" in screen_text(app) and not app.screen.planning)
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, InstallScreen))
        await pilot.press("ctrl+c")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        assert app.screen.question.startswith("Stop the install?")  # asked while packages install
        # Not answered: the running step ends, and the next one waits for the answer.
        steps = app.install_screen.step_list
        await wait_for(pilot, lambda: "running" not in steps.state.values(), timeout=120)
        assert app.verify_screen is None and app.screen.question.startswith("Stop the install?")
        await pilot.press("y")
        await wait_for(pilot, lambda: isinstance(app.screen, DoneScreen) and bool(app.screen.query("#summary")),
                       timeout=60)
        env = app.install_result.env
        assert app.install_result.cancelled and not app.install_result.ok and app.verify_screen is None
    assert not Path(env).exists()
    assert tiny.history() and not any(entry["current"] for entry in tiny.history())


async def test_a_mistyped_source_asks_again_with_the_typed_text_and_why(gpu_server, tiny, tmp_path):
    """Walk 17: a wrong GraphCast path (or wheelhouse) closed its dialog with a toast, and the whole path had to be
    typed again. The dialog comes back holding the typed text, the reason above it; the plan keeps its source."""
    gpu_server("no-nvidia")
    app = tiny_app(tiny)
    wrong = str(tmp_path / "graphcst")
    async with app.run_test(size=SIZE) as pilot:
        await choose(pilot, app, "tiny-a")
        await wait_for(pilot, lambda: app.screen.plan is not None)
        plan_screen = app.screen
        await pilot.press("g")
        await wait_for(pilot, lambda: isinstance(app.screen, PromptScreen))
        app.screen.query_one("Input").value = wrong
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, PromptScreen) and app.screen.error is not None, timeout=60)
        assert app.screen.query_one("Input").value == wrong
        assert "graphcst" in str(app.screen.query_one("#answer-error").render())
        # Walk 19 #6: the text is there to be mended, not selected: one Backspace takes one character.
        await pilot.pause(0.1)
        await pilot.press("backspace")
        assert app.screen.query_one("Input").value == wrong[:-1]
        await pilot.press("t")
        assert app.screen.query_one("Input").value == wrong[:-1] + "t"
        assert plan_screen.options.graphcast_src == str(tiny.graphcast)  # the previous source stays
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is plan_screen)
        await pilot.press("w")
        await wait_for(pilot, lambda: isinstance(app.screen, PromptScreen))
        app.screen.query_one("Input").value = str(tmp_path / "no-wheels")
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, PromptScreen) and app.screen.error is not None)
        assert app.screen.query_one("Input").value == str(tmp_path / "no-wheels")
        assert "no-wheels" in str(app.screen.query_one("#answer-error").render())
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is plan_screen)
        assert plan_screen.options.find_links == (str(tiny.house.path),)
