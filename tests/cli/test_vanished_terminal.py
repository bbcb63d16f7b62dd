"""A terminal that goes away (an SSH connection dropped, a tmux session killed) is named as the terminal, never as the
state disk (24th hostile pass (part A) P1): the pty is hung up, so the next read or write on it fails with EIO, which
the prompts and the app's end reported as "the disk reported an input/output error … point GC_WIZARD_HOME at another
one". One rule (`wizard.errors.terminal_gone_sentence`) decides by which file failed; these tests hang up a real pty.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import time
from pathlib import Path

from tests.fixtures.state import REPO
from wizard.history.store import Entry


def _env(home: Path, name: str) -> Path:
    env = home / "envs" / name
    (env / "bin").mkdir(parents=True)
    (env / "pyvenv.cfg").write_text("home = /usr/bin\n")
    return env


def _read_until(master: int, text: bytes, timeout: float = 60) -> bytes:
    seen = b""
    deadline = time.monotonic() + timeout
    while text not in seen and time.monotonic() < deadline:
        try:
            seen += os.read(master, 4096)
        except OSError:
            break
    return seen


def test_the_remove_question_whose_terminal_goes_away_names_the_terminal_and_deletes_nothing(isolated_state,
                                                                                         tmp_path):
    gone, keep = _env(isolated_state, "tiny-a-1"), _env(isolated_state, "tiny-b-1")
    entries = [Entry(id="e1", kind="install", recipe="tiny-a", env=str(gone), status="installed").to_dict(),
               Entry(id="e2", kind="install", recipe="tiny-b", env=str(keep), status="installed",
                     current=True).to_dict()]
    history = isolated_state / "history.json"
    history.write_text(json.dumps({"version": 1, "entries": entries}))
    before = hashlib.sha256(history.read_bytes()).hexdigest()
    master, slave = os.openpty()
    err = tmp_path / "err"
    with err.open("wb") as err_file:
        proc = subprocess.Popen([sys.executable, "-m", "wizard", "remove", "e1"], stdin=slave, stdout=slave,
                                stderr=err_file, cwd=str(REPO), env=dict(os.environ))
    os.close(slave)
    try:
        assert b"[y/N]" in _read_until(master, b"[y/N]"), err.read_text()
        os.close(master)  # the terminal goes away: what `tmux kill-session` or a dropped SSH connection does
        code = proc.wait(timeout=60)
    finally:
        proc.kill()
    said = " ".join(err.read_text().split())
    assert code == 1, said
    assert "the terminal went away (standard input was /dev/pts/" in said and "Nothing was done." in said, said
    assert "GC_WIZARD_HOME" not in said and "disk" not in said and "Traceback" not in said, said
    assert (gone / "pyvenv.cfg").is_file() and hashlib.sha256(history.read_bytes()).hexdigest() == before


#: The app's end and the CLI's last handler both say `describe_error`'s sentence; standard input is made a pty that is
#: then hung up (its master closed), live, or not a terminal, and an EIO with no file name is described.
_DESCRIBE = """
import errno, os, sys
from wizard.error_sentences import describe_error
how = sys.argv[1]
if how != "none":
    master, slave = os.openpty()
    os.dup2(slave, 0)
    if how == "gone":
        os.close(master)
print(describe_error(OSError(errno.EIO, os.strerror(errno.EIO))))
print(describe_error(OSError(errno.EIO, os.strerror(errno.EIO), "/data/file")))
"""


def _describe(how: str) -> list[str]:
    out = subprocess.run([sys.executable, "-c", _DESCRIBE, how], capture_output=True, text=True, cwd=str(REPO),
                         stdin=subprocess.DEVNULL, timeout=60)
    assert out.returncode == 0, out.stderr
    return out.stdout.splitlines()


def test_an_eio_is_the_terminals_only_where_a_standard_stream_is_a_terminal_that_went_away():
    unnamed, named = _describe("gone")
    assert unnamed.startswith("The terminal went away (standard input was /dev/pts/"), unnamed
    assert "GC_WIZARD_HOME" not in unnamed and "disk" not in unnamed
    assert named == "cannot use /data/file: the disk reported an input/output error. To go on, check that path."
    for how in ("live", "none"):  # a live terminal, or none at all: the disk's EIO, as before
        unnamed, _ = _describe(how)
        assert "input/output error" in unnamed and "terminal" not in unnamed, (how, unnamed)


_ASK = """
import os, sys, threading
from wizard.commands.install import _ask
master, slave = os.openpty()
os.dup2(slave, 0)
os.dup2(slave, 1)
os.close(master)
answer = _ask(sys.argv[1], threading.Event())
sys.stderr.write(f"answer={answer!r}\\n")
"""


def test_an_installer_question_whose_terminal_went_away_gets_no_answer_as_ctrl_d_gives():
    """`install`'s own questions (a step asking on its terminal): a lost terminal is no answer, so the install ends
    as a declined question ends it, with its clean-up, not on an EIO said as the state disk's."""
    for question in ("Proceed? [y/N]", "Password for https://example.org:"):  # input() and getpass
        out = subprocess.run([sys.executable, "-c", _ASK, question], capture_output=True, text=True, cwd=str(REPO),
                             timeout=60)
        assert out.returncode == 0 and "answer=None" in out.stderr, out.stderr
