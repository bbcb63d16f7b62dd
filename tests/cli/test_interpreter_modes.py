"""The wizard leaves as a program does whatever the interpreter's inspect mode says (`PYTHONINSPECT`, `python -i`).

Eleventh hostile pass #65: with `PYTHONINSPECT=1` in the environment every command ended with a `SystemExit`
traceback and, on a terminal, a `>>>` prompt. `wizard.cli.run` now ends such a run itself, with the command's
status. Real runs of the installed entry point and of `python -m wizard`, through pipes and through a terminal.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.fixtures.state import REPO

ENTRY = Path(sys.executable).parent / "gc-wizard"

CASES = [(["history"], 0), (["history", "--json"], 0), (["--version"], 0), (["--no-such-flag"], 2), (["--help"], 0),
         (["verify", "--json"], 2), (["recipes", "--json"], 0), (["rollback", "nope", "--yes"], 2)]


@pytest.mark.parametrize(("args", "code"), CASES, ids=[" ".join(a) for a, _ in CASES])
@pytest.mark.parametrize("how", ["PYTHONINSPECT=1", "python -i"])
def test_no_command_ends_in_a_traceback_or_the_interpreter(isolated_state, args, code, how):
    env = {**os.environ}
    if how == "PYTHONINSPECT=1":
        env["PYTHONINSPECT"] = "1"
        argv = [str(ENTRY), *args] if ENTRY.exists() else [sys.executable, "-m", "wizard", *args]
    else:
        argv = [sys.executable, "-i", "-m", "wizard", *args]
    proc = subprocess.run(argv, cwd=REPO, capture_output=True, text=True, stdin=subprocess.DEVNULL, env=env,
                          timeout=120)
    assert proc.returncode == code, proc.stderr
    assert "Traceback" not in proc.stderr and "SystemExit" not in proc.stderr, proc.stderr
    assert ">>>" not in proc.stdout + proc.stderr


def test_on_a_terminal_no_prompt_is_left_waiting(isolated_state):
    """The tester's terminal: the prompt `>>>` waited for input after each command. Under a pty the command now
    ends at once, with its status."""
    import pexpect

    child = pexpect.spawn(sys.executable, ["-m", "wizard", "history"], cwd=str(REPO), timeout=60,
                          env={**os.environ, "PYTHONINSPECT": "1"}, encoding="utf-8")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0, child.before
    assert ">>>" not in (child.before or "") and "Traceback" not in (child.before or "")
