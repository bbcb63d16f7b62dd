"""Every question the CLI asks goes to the terminal, never to stdout (walk 27 #1): `rollback --json > out` and
`remove ID --json > out` asked their y/N on stdout, so the terminal showed nothing while the command waited and the
saved stdout's last line began with "Roll back …? [y/N]" and was not JSON. One place asks (`output.ask_line`); these
tests run the real CLI on a real pty, stdout a file, and read the question off the terminal."""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.fixtures.state import REPO, run_cli
from wizard.history.store import Entry
from wizard.install.envs import EnvMarker, write_marker


def _env(home: Path, name: str, entry_id: str) -> Path:
    """A real virtual environment (no pip: the question comes before anything runs in it) with the marker an install
    writes, naming its history entry."""
    env = home / "envs" / name
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(env)], check=True, timeout=120)
    write_marker(env, EnvMarker(recipe=name.rsplit("-", 1)[0], entry_id=entry_id, verified="2026-11-28T15:00:00Z"))
    return env


def _history(home: Path) -> Path:
    old, new = _env(home, "tiny-a-1", "e1"), _env(home, "tiny-b-1", "e2")
    entries = [Entry(id="e1", kind="install", recipe="tiny-a", env=str(old), status="verified").to_dict(),
               Entry(id="e2", kind="install", recipe="tiny-b", env=str(new), status="verified",
                     current=True).to_dict()]
    (home / "history.json").write_text(json.dumps({"version": 1, "entries": entries}))
    return old


def _read_until(master: int, text: bytes, timeout: float = 20) -> bytes:
    seen = b""
    deadline = time.monotonic() + timeout
    while text not in seen and time.monotonic() < deadline:
        if not select.select([master], [], [], 1)[0]:  # never block past the deadline: a missing question fails
            continue
        try:
            seen += os.read(master, 4096)
        except OSError:
            break
    return seen


ARGS = {"rollback": ["rollback", "e1", "--no-verify", "--json"], "remove": ["remove", "e1", "--json"]}


@pytest.mark.parametrize("stderr_on_terminal", [True, False], ids=["stderr-terminal", "stderr-to-file"])
@pytest.mark.parametrize("command", sorted(ARGS))
def test_the_question_is_on_the_terminal_and_stdout_ends_in_json(isolated_state, tmp_path, command,
                                                                 stderr_on_terminal):
    old = _history(isolated_state)
    master, slave = os.openpty()
    out, err = tmp_path / "out", tmp_path / "err"
    with out.open("wb") as out_file, err.open("wb") as err_file:
        proc = subprocess.Popen([sys.executable, "-m", "wizard", *ARGS[command]], stdin=slave, stdout=out_file,
                                stderr=slave if stderr_on_terminal else err_file, cwd=str(REPO),
                                env=dict(os.environ))
    os.close(slave)
    try:
        seen = _read_until(master, b"[y/N]")
        assert b"[y/N]" in seen, (seen, err.read_text())
        os.write(master, b"n\n")
        code = proc.wait(timeout=60)
    finally:
        proc.kill()
        os.close(master)
    stdout = out.read_text()
    assert "[y/N]" not in stdout, stdout
    answer = json.loads(stdout.splitlines()[-1])  # the README: with --json the last line of stdout is one JSON value
    assert answer["ok"] is False, answer
    assert code != 0 and (old / "pyvenv.cfg").is_file()  # declined: nothing removed, nothing rolled back


@pytest.mark.parametrize("command", sorted(ARGS))
def test_with_no_terminal_the_question_is_refused_with_the_yes_hint_not_waited_on(isolated_state, command):
    _history(isolated_state)
    done = run_cli(*ARGS[command], timeout=60)  # stdin is not a terminal
    assert "no terminal to ask on; pass --yes to proceed" in done.stderr, done.stderr
    assert "[y/N]" not in done.stdout
    assert json.loads(done.stdout.splitlines()[-1])["ok"] is False
