"""An install recorded `installed` whose environment a later GraphCast check passed on (a rollback's check, `verify
--env`): walk 19 #2, History and the machine screen still called the current environment "installed". The entry
keeps its own status (what the install did); the environment's state now is `env_status`, in both faces."""

from __future__ import annotations

import dataclasses
import json

from tests.fixtures.state import run_cli
from wizard.flows.history import current_env_text, env_status
from wizard.history.store import load_history, now
from wizard.install import envs


def test_a_later_passing_check_makes_the_environment_verified_everywhere(tiny, isolated_state):
    proc, result = tiny.install("tiny-a")
    assert proc.returncode == 0, proc.stderr
    (entry,) = load_history().entries
    assert entry.status == "installed" and env_status(entry) == "installed"
    marker = envs.read_marker(result["env"])
    envs.write_marker(result["env"], dataclasses.replace(marker, verified=now()))  # what a passing check writes

    (entry,) = load_history().entries
    assert entry.status == "installed"  # the install's own record is not rewritten
    assert env_status(entry).startswith("verified 20") and env_status(entry).endswith("(checked since)")
    assert "tiny-a · verified 20" in current_env_text()
    rows = json.loads(run_cli("history", "--json").stdout)
    assert rows[0]["status"] == "installed" and rows[0]["env_status"].startswith("verified")
    table = run_cli("history").stdout
    assert "verified" in table.splitlines()[1] and "installed" not in table.splitlines()[1]


def test_a_stopped_check_is_kept_as_stopped_in_the_summary():
    from wizard.history.store import VerifySummary

    stopped = VerifySummary(ok=False, failed_tier="graphcast_jit_init", stopped=True)
    assert VerifySummary.from_dict(json.loads(json.dumps(stopped.to_dict()))).stopped is True
    assert VerifySummary.from_dict({"ok": False, "failed_tier": "imports"}).stopped is False  # older files
    assert "stopped" not in VerifySummary(ok=True).to_dict()


def test_history_offers_go_back_only_when_there_is_an_environment_to_go_back_to(tiny, isolated_state):
    """Walk 22 #10: `history` ended with "Go back: … rollback [ID]" after a first install, and `rollback` then said
    "There is no previous working environment". The line is there only once `rollback` has somewhere to go."""
    from tests.fixtures.cli import run_inproc

    assert tiny.install("tiny-a")[0].returncode == 0
    first = run_inproc("history").stdout
    # walk 37 #7: nothing to delete either (its one environment is current, which `remove` refuses)
    assert "Go back:" not in first and "Delete an old one:" not in first and "● current" in first
    assert "no previous working environment" in run_inproc("rollback", "--yes").stderr
    assert tiny.install("tiny-b")[0].returncode == 0
    shown = run_inproc("history").stdout
    # walk 37 #7: a line that runs as pasted (`rollback [ID]` said "There is no history entry '[ID]'")
    assert shown.split("Go back:")[1].splitlines()[0].endswith(" rollback") and "Delete an old one:" in shown


def test_recipes_marks_what_is_installed_and_current_as_the_app_does(tiny, isolated_state):
    """Walk 22 #10: the app's recipe list said "current · recommended"; `recipes` did not mark the installed one."""
    from tests.fixtures.cli import run_inproc

    args = ("recipes", "--recipes-dir", str(tiny.recipes))
    assert "Already installed" not in run_inproc(*args).stdout
    assert tiny.install("tiny-a")[0].returncode == 0
    out = run_inproc(*args, env={"COLUMNS": "200"}).stdout.splitlines()
    row = next(i for i, line in enumerate(out) if line[2:].startswith("tiny-a "))
    assert out[row + 1].strip().startswith("Already installed and current: a new install builds another environment")
    assert not any(line[2:].startswith("tiny-b ") and "Already" in out[i + 1] for i, line in enumerate(out))
