"""32nd hostile pass (part A) P2: an account with no HOME and no passwd entry (`docker run --user 54321`). Without
GC_WIZARD_HOME every command that reads the state is refused in one sentence naming HOME and GC_WIZARD_HOME (exit 2),
never a traceback; with GC_WIZARD_HOME set, `recipes` and `plan` run (the user's recipe folder is skipped: there is no
home to hold it). In this process, the password database patched to know no one."""

from __future__ import annotations

import pwd

import pytest

from tests.fixtures.cli import run_inproc


@pytest.fixture
def no_home(monkeypatch):
    monkeypatch.delenv("HOME", raising=False)
    for name in ("XDG_DATA_HOME", "XDG_CONFIG_HOME"):
        monkeypatch.delenv(name, raising=False)

    def missing(uid):
        raise KeyError(f"getpwuid(): uid not found: {uid}")

    monkeypatch.setattr(pwd, "getpwuid", missing)


@pytest.mark.parametrize("command", [("history",), ("recipes",), ("report",)])
def test_without_a_state_folder_the_command_is_refused_in_one_sentence(no_home, monkeypatch, command):
    monkeypatch.delenv("GC_WIZARD_HOME", raising=False)
    proc = run_inproc(*command)
    said = " ".join(proc.stderr.split())
    assert proc.returncode == 2, said
    assert "HOME is not set" in said and "GC_WIZARD_HOME" in said and "this is a bug" not in said, said


def test_with_gc_wizard_home_recipes_and_plan_run(no_home, tiny):
    recipes = run_inproc("recipes", "--recipes-dir", str(tiny.recipes))
    assert recipes.returncode == 0 and "tiny-a" in recipes.stdout, recipes.stderr
    args = [arg for arg in tiny.args() if arg != "--no-verify"]
    plan = run_inproc("plan", "tiny-a", *args, env={"UV_CACHE_DIR": str(tiny.recipes.parent / "uvc")})
    assert plan.returncode == 0, plan.stderr
    assert "this is a bug" not in plan.stderr + plan.stdout
