"""An installer question nobody foresaw: asked on the user's terminal, or refused plainly under --yes.

The question is real: pip meets a local package index that wants a user name and a password (as a
lab's private index does) and asks for them on its terminal, which the runner's pty is.
"""

from __future__ import annotations

import os
import sys

from tests.fixtures.index import PASSWORD, USER
from tests.fixtures.state import REPO, last_json, run_cli


def _args(tiny, index: str) -> list[str]:
    return ["--recipes-dir", str(tiny.recipes), "--installer", "pip", "--offline", "--find-links", index,
            "--graphcast-src", str(tiny.graphcast), "--no-verify"]


def test_under_yes_pip_is_told_not_to_ask_and_fails_at_once_with_a_clear_message(tiny, private_index):
    proc = run_cli("install", "tiny-a", "--yes", "--json", *_args(tiny, private_index))
    assert proc.returncode == 1
    result = last_json(proc)
    assert "User for 127.0.0.1" not in proc.stderr  # PIP_NO_INPUT: pip never asked
    assert "step 'Upgrade pip" in result["error"] or "step 'Install" in result["error"]
    (entry,) = tiny.history()
    assert entry["status"] == "failed" and not entry["current"]


def test_on_a_terminal_the_user_answers_and_the_password_is_neither_echoed_nor_logged(tiny, private_index):
    import pexpect

    child = pexpect.spawn(sys.executable, ["-m", "wizard", "install", "tiny-a", *_args(tiny, private_index)],
                          cwd=str(REPO), env=dict(os.environ), encoding="utf-8", timeout=120,
                          dimensions=(24, 200))
    try:
        child.expect(r"User for 127\.0\.0\.1:\d+: ")
        child.sendline(USER)
        child.expect("Password: ")
        child.sendline(PASSWORD)
        child.expect("now the current environment")
        child.expect(pexpect.EOF)
        shown = child.before
    finally:
        child.close()
    assert child.exitstatus == 0
    assert PASSWORD not in shown
    (entry,) = tiny.history()
    assert entry["current"] and entry["status"] == "installed"
    log = open(entry["log"]).read()
    assert "Successfully installed pkg-a-1.0" in log and PASSWORD not in log


def test_ctrl_c_at_the_question_cancels_the_install(tiny, private_index):
    import pexpect

    child = pexpect.spawn(sys.executable, ["-m", "wizard", "install", "tiny-a", *_args(tiny, private_index)],
                          cwd=str(REPO), env=dict(os.environ), encoding="utf-8", timeout=120,
                          dimensions=(24, 200))
    try:
        child.expect(r"User for 127\.0\.0\.1:\d+: ")
        child.sendintr()  # Ctrl-C on the user's terminal
        child.expect("Cancelled")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 130
    (entry,) = tiny.history()
    assert entry["status"] == "cancelled" and not entry["current"]
