"""The plan that was shown is the plan that runs; a new environment's folder is claimed atomically.

In-process (the core's own API, as both faces call it), with the real uv installing tiny local wheels
offline into real venvs.
"""

from __future__ import annotations

import subprocess
from dataclasses import replace
from pathlib import Path

from wizard.flows.session import plan_for
from wizard.flows.transaction import InstallEvents, run_install
from wizard.history.store import load_history
from wizard.install.options import InstallOptions


class _Recorder(InstallEvents):
    def __init__(self) -> None:
        self.steps: list[tuple[str, ...]] = []
        self.messages: list[str] = []

    def step_started(self, step) -> None:
        self.steps.append(step.argv)

    def message(self, text: str) -> None:
        self.messages.append(text)


def _options(tiny, recipe_id: str = "tiny-a") -> InstallOptions:
    return InstallOptions(recipe_id=recipe_id, recipes_dirs=(str(tiny.recipes),), find_links=(str(tiny.house.path),),
                          offline=True, graphcast_src=str(tiny.graphcast), verify=False, assume_yes=True)


def _two_plans_in_one_second(options: InstallOptions):
    for _ in range(5):  # the folder name carries the second; retry in the rare case the clock ticked between
        first, second = plan_for(options), plan_for(options)
        if first.env_dir == second.env_dir:
            return first, second
    raise AssertionError("could not make two plans within one second")


def test_two_installs_planned_in_the_same_second_get_two_folders_and_both_succeed(tiny):
    options = _options(tiny)
    first_plan, second_plan = _two_plans_in_one_second(options)

    first_events, second_events = _Recorder(), _Recorder()
    first = run_install(first_plan, options, first_events)
    second = run_install(second_plan, options, second_events)

    assert first.ok and second.ok, (first.error, second.error)
    assert first.env == str(first_plan.env_dir)  # the folder shown is the folder built
    assert second.env == f"{second_plan.env_dir}-2" and second.env != first.env
    assert any("was taken meanwhile" in m and second.env in m for m in second_events.messages)
    # The plan that ran is the one shown, moved to the claimed folder: every step names it.
    assert second_events.steps[0][-1] == second.env
    assert not [a for argv in second_events.steps for a in argv if a == first.env or a.startswith(first.env + "/")]
    for env in (first.env, second.env):
        out = subprocess.run([str(Path(env) / "bin" / "python"), "-c", "import pkg_a"], capture_output=True)
        assert out.returncode == 0, out.stderr
    history = load_history()
    assert [e.env for e in history.entries] == [first.env, second.env]
    assert history.current().env == second.env


def test_the_approved_plan_object_is_what_runs(tiny):
    """A plan changed after planning (here: a step's title) runs as changed: nothing plans again."""
    options = _options(tiny)
    plan = plan_for(options)
    shown = replace(plan, steps=tuple(replace(s, title=f"shown: {s.title}") for s in plan.steps))
    events = _Recorder()
    titles: list[str] = []
    events.step_started = lambda step: titles.append(step.title)  # type: ignore[method-assign]
    result = run_install(shown, options, events)
    assert result.ok, result.error
    assert titles and all(t.startswith("shown: ") for t in titles)


def test_a_failed_install_deletes_only_a_folder_it_created(tiny, tmp_path):
    options = replace(_options(tiny), find_links=(str(tmp_path / "empty"),))
    (tmp_path / "empty").mkdir()
    # Planned into a managed folder that someone else then made: the install claims `-2` and removes
    # only that one when it fails.
    plan = plan_for(options)
    plan.env_dir.mkdir(parents=True)
    (plan.env_dir / "theirs.txt").write_text("not ours")
    result = run_install(plan, options)
    assert not result.ok and result.env == f"{plan.env_dir}-2"
    assert not Path(result.env).exists()
    assert (plan.env_dir / "theirs.txt").read_text() == "not ours"

    # The user's own empty --env folder is emptied again, never deleted.
    mine = tmp_path / "mine"
    mine.mkdir()
    user_plan = plan_for(replace(options, env=str(mine)))
    result = run_install(user_plan, replace(options, env=str(mine)))
    assert not result.ok and mine.is_dir() and not any(mine.iterdir())


def test_a_step_whose_installer_was_killed_says_by_what(tmp_path):
    """Seventeenth hostile pass 6.1: under `ulimit -f 3` uv died of SIGXFSZ, and the failure quoted only uv's last
    lines ("Creating virtual environment at: …"), which say nothing of why. The signal is named, with its meaning."""
    import signal
    from types import SimpleNamespace

    from wizard.flows.transaction import _failure_message
    from wizard.install.runner import StepResult

    result = StepResult(ok=False, signal=int(signal.SIGXFSZ),
                        tail=["Using CPython 3.11.7", "Creating virtual environment at: /s/envs/x"])
    step = SimpleNamespace(name="create-env", title="Create the environment")
    text = _failure_message(step, result, tmp_path / "install.log")
    assert text.startswith("step 'Create the environment' failed.")
    assert "(the installer was killed by SIGXFSZ (the file-size limit): a file-size limit (`ulimit -f`" in text
    assert "raise it with `ulimit -f unlimited`, or ask your admin for a larger one)" in text
    plain = _failure_message(step, StepResult(ok=False, exit_status=2, tail=["error: x"]), tmp_path / "install.log")
    assert "killed" not in plain


def test_a_killed_installer_that_said_nothing_is_said_from_its_signal_never_its_missing_status(tmp_path):
    """27th hostile pass (part A) P3: uv killed by SIGXFSZ before printing a line was "The installer said: exit status
    None (the installer was killed by SIGXFSZ (the file-size limit))": a Python null, and no fix."""
    import signal
    from types import SimpleNamespace

    from wizard.flows.transaction import _failure_message
    from wizard.install.runner import StepResult

    step = SimpleNamespace(name="install-requirements", title="Install the 1 pinned packages")
    for sig, fix in ((signal.SIGXFSZ, "`ulimit -f unlimited`"), (signal.SIGKILL, "ran out of memory")):
        text = _failure_message(step, StepResult(ok=False, signal=int(sig), tail=[]), tmp_path / "install.log")
        assert "None" not in text and "exit status" not in text, text
        assert f"killed by {sig.name}" in text and fix in text, text


def test_a_stopped_first_install_does_not_claim_an_untouched_current_environment(tiny):
    """Walk 22 #10: history (and the report, which quotes it) said a stopped first install left "the current
    environment … untouched" when there was none. It says there was none; with one, it is still untouched."""
    import threading

    def stopped(options):
        cancel = threading.Event()
        events = _Recorder()
        events.step_started = lambda step: cancel.set()  # type: ignore[method-assign]
        return run_install(plan_for(options), options, events, cancel=cancel)

    first = stopped(_options(tiny))
    assert first.cancelled and load_history().current() is None
    error = load_history().entries[-1].error
    assert error.endswith("was removed, and no environment is current (there was none before either)"), error
    assert run_install(plan_for(_options(tiny)), _options(tiny), _Recorder()).ok
    stopped(_options(tiny))
    assert load_history().entries[-1].error.endswith("was removed, and the current environment is untouched")


class _OpensTheWheelhouse(_Recorder):
    """Opens the wheelhouse's parent to every user once the install is announced: after the check before the
    install, before its first step (a swap between the two)."""

    def __init__(self, folder: Path) -> None:
        super().__init__()
        self.folder = folder

    def announce(self, plan) -> None:
        self.folder.chmod(0o777)


def test_a_refusal_raised_inside_a_step_is_the_wizards_own_refusal(tiny, tmp_path, monkeypatch):
    """28th hostile pass (part B) P9: the runner's swap check refused the first step, and the install said "Install
    failed … The installer said: Step create-env: the package source …", exit 1, as if uv had said it. The rule's
    sentence now comes out as the wizard's refusal (a UserError: "gc-wizard: …", exit 2), the step not run, the
    entry recorded failed and nothing left behind."""
    import pytest

    from wizard.errors import UserError

    house = tmp_path / "ww" / "wh"
    house.mkdir(parents=True)
    monkeypatch.setenv("UV_FIND_LINKS", str(house))
    options = _options(tiny)
    plan = plan_for(options)
    events = _OpensTheWheelhouse(tmp_path / "ww")
    with pytest.raises(UserError) as refused:
        run_install(plan, options, events)
    text = str(refused.value)
    assert text.startswith(f"the package source {house} (from UV_FIND_LINKS): ") and "every user can write" in text
    assert "Step " not in text and "installer said" not in text
    assert len(events.steps) == 1 and not plan.env_dir.exists()  # announced, refused before it forked
    assert [e.status for e in load_history().entries] == ["failed"]


def test_the_running_entry_is_saved_before_the_log_says_anything(tiny, monkeypatch):
    """A wizard killed once its log has begun is found on the next start: the history already holds its running
    entry when the log's first line is written (a SIGKILL between the two left no entry: one CI failure)."""
    import wizard.flows.transaction as transaction

    seen: list[list[tuple[str, str]]] = []
    real_note = transaction._note

    def note(log, text):
        if not seen:
            seen.append([(e.recipe, e.status) for e in load_history().entries])
        real_note(log, text)

    monkeypatch.setattr(transaction, "_note", note)
    result = run_install(plan_for(_options(tiny)), _options(tiny), _Recorder())
    assert result.ok, result.error
    assert seen == [[("tiny-a", "running")]]
