"""An install with one state and `--env` naming another state's environment (28th hostile pass (part B) P6).

State B's install changed state A's current environment in place: its marker then named B's entry and recipe while
A's history still called it tiny-a, A's `activate` exported B's variables, and A's `remove` later deleted the folder
B's history records. The env's marker names the entry that made it; one this state's history does not hold is
refused, naming the other state and whether the env is current there — at the plan (`flows.session.plan_for`) and
again under the state lock (`flows.transaction`). Real installs through the real uv, two real state folders."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.fixtures.state import run_cli
from wizard.errors import UserError
from wizard.flows.transaction import run_install
from wizard.install.options import InstallOptions


def _listing(env: Path) -> list[str]:
    return sorted(str(p.relative_to(env)) for p in env.rglob("*") if "__pycache__" not in p.parts)


def test_another_states_current_env_is_refused_and_left_as_it_was(tiny, tmp_path, isolated_state):
    made, result = tiny.install("tiny-a")
    assert made.returncode == 0, made.stderr
    env = Path(result["env"])
    marker, before = (env / "gc-wizard-env.json").read_text(), _listing(env)
    other = tmp_path / "state-b"
    other.mkdir()
    for command in ("plan", "install"):
        args = [a for a in tiny.args("--env", str(env)) if command == "install" or a != "--no-verify"]
        proc = run_cli(command, "tiny-b", *args, *(["--yes"] if command == "install" else []),
                       env={"GC_WIZARD_HOME": str(other)})
        assert proc.returncode == 2, (command, proc.stdout, proc.stderr)
        assert f"--env {env} is the current environment of another gc-wizard state, {isolated_state}" in proc.stderr
        assert f"GC_WIZARD_HOME={isolated_state}" in proc.stderr and "nothing changed" in proc.stderr
        assert "Traceback" not in proc.stderr and len(proc.stderr.strip().splitlines()) == 1
    assert (env / "gc-wizard-env.json").read_text() == marker and _listing(env) == before
    assert json.loads(marker)["recipe"] == "tiny-a"
    # The state's own environment stays open to an in-place install from that state.
    own = run_cli("plan", "tiny-b", *[a for a in tiny.args("--env", str(env)) if a != "--no-verify"])
    assert own.returncode == 0, own.stderr
    # Even with its history gone: an environment in the state's own envs/ is that state's.
    (isolated_state / "history.json").rename(tmp_path / "history.json")
    own = run_cli("plan", "tiny-b", *[a for a in tiny.args("--env", str(env)) if a != "--no-verify"])
    assert own.returncode == 0, own.stderr


def test_the_refusal_is_asked_again_under_the_lock(tiny, tmp_path, isolated_state, monkeypatch):
    """A plan made while the folder was nobody's (the app's plan may be minutes old): the transaction reads the marker
    again once it holds the lock, and refuses before anything is written."""
    from wizard.flows.session import plan_for

    made, result = tiny.install("tiny-a")
    assert made.returncode == 0, made.stderr
    env = Path(result["env"])
    marker = (env / "gc-wizard-env.json")
    kept = marker.read_text()
    marker.rename(env / "aside.json")  # nobody's while B plans
    other = tmp_path / "state-b"
    other.mkdir()
    monkeypatch.setenv("GC_WIZARD_HOME", str(other))
    options = InstallOptions(recipe_id="tiny-b", recipes_dirs=(str(tiny.recipes),), env=str(env),
                             find_links=(str(tiny.house.path),), offline=True, graphcast_src=str(tiny.graphcast),
                             verify=False, assume_yes=True)
    plan = plan_for(options)
    assert plan.mode == "in-place"
    (env / "aside.json").rename(marker)  # A's again
    before = _listing(env)
    with pytest.raises(UserError, match="is the current environment of another gc-wizard state"):
        run_install(plan, options)
    assert marker.read_text() == kept and _listing(env) == before
    assert not (other / "history.json").exists() or "tiny-b" not in (other / "history.json").read_text()
