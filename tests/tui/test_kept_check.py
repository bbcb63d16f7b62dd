"""Walk 26 #9: an environment kept unchecked ("Stop, keep it unchecked") is easy to forget. The Not-done screen
offers c, which runs the check `gc-wizard verify --env` runs, in a worker that posts messages and that Ctrl-C
stops; its words never call switching to a newer environment "rollback"; and the next plan of the same recipe names
the kept install (path, size) with the command that checks it, in the plan both faces show.

Real parts: the tiny offline recipes installed by the real uv, a stand-in jax that sleeps on import (the check runs
until stopped) or fails to import (the check fails at once), the real history."""

from __future__ import annotations

from pathlib import Path

from tests.fixtures.pilot import (
    SIZE,
    app_whose_check_hangs,
    read_when_shown,
    screen_text,
    stop_question_during_check,
    wait_for,
)
from tests.fixtures.state import last_json, run_cli
from wizard.tui.screens.check import KeptCheckScreen
from wizard.tui.screens.done import DoneScreen
from wizard.tui.screens.verify import VerifyScreen


async def _kept_on_the_not_done_screen(pilot, app):
    await stop_question_during_check(pilot, app)
    await pilot.press("k")
    await wait_for(pilot, lambda: isinstance(app.screen, VerifyScreen) and app.screen.done, timeout=60)
    await pilot.press("enter")
    await wait_for(pilot, lambda: isinstance(app.screen, DoneScreen) and bool(app.screen.query("#summary")))
    return app.install_result


def _jax_of(env: str) -> Path:
    (found,) = Path(env).glob("lib/python*/site-packages/jax.py")
    return found


async def test_c_on_the_not_done_screen_checks_the_kept_env_and_records_it(gpu_server, tiny):
    gpu_server("no-nvidia")
    app = app_whose_check_hangs(tiny)
    async with app.run_test(size=SIZE) as pilot:
        result = await _kept_on_the_not_done_screen(pilot, app)
        shown = " ".join(screen_text(app).split())
        assert "Press c to check it now" in shown and "c Check it now" in shown
        summary = " ".join(str(app.screen.query_one("#summary").render()).split())
        assert f"rollback {result.entry_id}` checks it again and switches to it" in summary
        assert "checks it and makes it current" not in summary  # walk 26 #9: not "rollback" for a newer env
        _jax_of(result.env).write_text("raise ImportError('jax broken by hand')\n")  # the check now fails at once
        await pilot.press("c")
        await wait_for(pilot, lambda: isinstance(app.screen, KeptCheckScreen) and app.screen.done, timeout=120)
        check = app.screen.result
        assert check is not None and not check.ok and not check.cancelled
        findings = " ".join(str(app.screen.query_one("#findings").render()).split())
        assert f"The environment at {result.env} failed its check" in findings
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, DoneScreen))
        note = " ".join(str(app.screen.query_one("#notes").render()).split())
        assert f"remove {result.entry_id}` deletes it" in note
    verifies = [e for e in tiny.history() if e["kind"] == "verify"]
    assert [(e["env"], e["status"]) for e in verifies] == [(result.env, "failed")]  # recorded as verify --env does


async def test_ctrl_c_stops_the_kept_envs_check_and_keeps_it(gpu_server, tiny):
    gpu_server("no-nvidia")
    app = app_whose_check_hangs(tiny)
    async with app.run_test(size=SIZE) as pilot:
        result = await _kept_on_the_not_done_screen(pilot, app)
        await pilot.press("c")
        await read_when_shown(pilot, KeptCheckScreen, "running", timeout=60)
        await pilot.press("ctrl+c")
        await wait_for(pilot, lambda: isinstance(app.screen, KeptCheckScreen) and app.screen.done, timeout=60)
        assert app.screen.result is not None and app.screen.result.cancelled
        findings = " ".join(str(app.screen.query_one("#findings").render()).split())
        assert f"The new environment stays at {result.env}, installed but not checked" in findings
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, DoneScreen))
    assert Path(result.env, "bin", "python").exists()
    assert not [e for e in tiny.history() if e["kind"] == "verify"]  # a stopped check is not recorded


def test_the_next_plan_of_the_recipe_names_the_kept_install_and_its_check(tiny):
    """`plan` and `install` (the CLI's faces of the plan) say it; the app's Plan screen shows the same plan_lines."""
    kept, made = tiny.install("tiny-a", "--no-verify")  # never checked; the next install makes it not current
    assert kept.returncode == 0, kept.stderr
    env = made["env"]
    later, _ = tiny.install("tiny-b", "--no-verify")
    assert later.returncode == 0, later.stderr
    planned = run_cli("plan", "tiny-a", *tiny.args()[:-1])
    assert planned.returncode == 0, planned.stderr
    words = " ".join(planned.stdout.split())
    assert f"You already have an unchecked install of tiny-a: {env} (" in words
    assert f"verify --env {env}`" in words
    as_json = run_cli("plan", "tiny-a", "--json", *tiny.args()[:-1])
    assert env in last_json(as_json)["unchecked"]
    other = run_cli("plan", "tiny-b", *tiny.args()[:-1])
    assert "unchecked install" not in other.stdout  # another recipe's install is not this plan's business
    again = run_cli("install", "tiny-a", "--yes", *tiny.args())
    assert again.returncode == 0, again.stderr
    assert f"! You already have an unchecked install of tiny-a: {env}" in " ".join(again.stdout.split())
