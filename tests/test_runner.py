"""The runner with real child processes in a real pty: cleaning, prompts, cancellation, env, logs."""

from __future__ import annotations

import os
import sys
import threading
import time
from pathlib import Path

from wizard.plan import Step
from wizard.recipes import PromptRule
from wizard.runner import RunnerEvents, StepLog, run_step

CHILDREN = Path(__file__).parent / "children"


def step(script: str, *args: str, **kw) -> Step:
    return Step(name=script, title=f"run {script}", argv=(sys.executable, str(CHILDREN / f"{script}.py"), *args), **kw)


class Recorder(RunnerEvents):
    def __init__(self, reply=None):
        self.lines: list[str] = []
        self.lives: list[str] = []
        self.prompts: list[str] = []
        self.reply = reply

    def line(self, step, text):
        self.lines.append(text)

    def live(self, step, text):
        self.lives.append(text)

    def prompt(self, step, text):
        self.prompts.append(text)
        return self.reply


def run(tmp_path, s, **kw):
    events = kw.pop("events", Recorder())
    with StepLog(tmp_path / "run.log") as log:
        result = run_step(s, log=log, events=events, **kw)
    return result, events, (tmp_path / "run.log").read_text()


def test_progress_bars_and_colours_become_clean_lines(tmp_path):
    result, events, log = run(tmp_path, step("progress"))
    assert result.ok and result.exit_status == 0
    assert events.lines == ["Downloading 100%", "done"]
    assert "\x1b" not in log and "Downloading 10%" not in log
    assert any("Downloading 50%" in live for live in events.lives)


def test_known_prompt_is_answered_by_rule_and_exit_code_comes_back(tmp_path):
    result, events, log = run(tmp_path, step("ask"))
    assert "got 'y'" in events.lines
    assert result.exit_status == 3 and not result.ok
    assert "answered 'y' to 'Proceed ([y]/n)?'" in log
    assert events.prompts == []


def test_recipe_prompt_rule(tmp_path):
    s = step("ask", "Accept the licence [yes/no]? ", prompts=(PromptRule(pattern=r"licence \[yes/no\]", answer="y"),))
    result, events, _ = run(tmp_path, s)
    assert "got 'y'" in events.lines and result.exit_status == 3


def test_unknown_prompt_goes_to_the_caller_and_is_answered(tmp_path):
    result, events, log = run(tmp_path, step("ask", "Enter passphrase: "), events=Recorder(reply="n"),
                              stall_seconds=0.5)
    assert events.prompts == ["Enter passphrase:"]
    assert "got 'n'" in events.lines and result.exit_status == 4
    assert "(by the user)" in log


def test_unknown_prompt_refused_stops_the_step_with_a_clear_error(tmp_path):
    result, events, _ = run(tmp_path, step("ask", "Enter passphrase: "), stall_seconds=0.5)
    assert not result.ok
    assert "question nobody answered" in result.error and "Enter passphrase" in result.error


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(")")[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def test_cancel_kills_the_whole_process_group(tmp_path):
    pids_file = tmp_path / "pids"
    cancel = threading.Event()

    def cancel_when_running():
        for _ in range(100):
            if pids_file.exists() and pids_file.read_text():
                break
            time.sleep(0.05)
        time.sleep(0.2)
        cancel.set()

    threading.Thread(target=cancel_when_running).start()
    started = time.monotonic()
    result, _, log = run(tmp_path, step("stubborn", str(pids_file)), cancel=cancel)
    assert result.cancelled and not result.ok
    assert time.monotonic() - started < 15
    child, grandchild = map(int, pids_file.read_text().split())
    time.sleep(0.2)
    assert not _alive(child) and not _alive(grandchild)
    assert "stopping the step (cancelled)" in log


def test_bad_cwd_is_refused_before_forking(tmp_path):
    marker = tmp_path / "ran"
    s = Step(name="x", title="x", argv=(sys.executable, "-c", f"open({str(marker)!r}, 'w')"),
             cwd=str(tmp_path / "missing"))
    result, _, _ = run(tmp_path, s)
    assert not result.ok and "does not exist" in result.error
    assert not marker.exists()


def test_non_text_env_value_is_refused(tmp_path):
    s = Step(name="x", title="x", argv=(sys.executable, "-c", "pass"), env={"BAD": 3})
    result, _, _ = run(tmp_path, s)
    assert not result.ok and "BAD" in result.error


def test_missing_executable_fails_cleanly(tmp_path):
    s = Step(name="x", title="x", argv=(str(tmp_path / "no-such-tool"), "--help"))
    result, _, log = run(tmp_path, s)
    assert not result.ok and "could not start" in result.error
    assert "FAILED" in log


def test_cuda_folders_are_cleaned_from_ld_library_path_and_other_vars_dropped(tmp_path):
    old = tmp_path / "cudnn-8.2" / "lib64"
    old.mkdir(parents=True)
    (old / "libcudnn.so.8.2.1").write_bytes(b"\x7fELF")
    plain = tmp_path / "plain"
    plain.mkdir()
    environ = {**os.environ, "LD_LIBRARY_PATH": f"{old}:{plain}", "SECRET_CONDA_THING": "1"}
    result, events, _ = run(tmp_path, step("printenv", env={"STEP_VAR": "yes"}), environ=environ)
    assert result.ok
    assert f"LD_LIBRARY_PATH={plain}" in events.lines
    assert "SECRET_CONDA_THING=<unset>" in events.lines
    assert "STEP_VAR=yes" in events.lines and "PYTHONUNBUFFERED=1" in events.lines


def test_200k_lines_all_arrive(tmp_path):
    class Counter(RunnerEvents):
        n = 0

        def line(self, step, text):
            self.n += 1

    counter = Counter()
    result, _, log = run(tmp_path, step("lines", "200000"), events=counter)
    assert result.ok
    assert counter.n == 200000
    assert "line 199999 " in log
