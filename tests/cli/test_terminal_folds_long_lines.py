"""Walk 38 #6: forecast's error line (written by `commands.output.warn`) and report's "Wrote the support report …"
line were one long line each, and an 80-column terminal broke them mid-word (`Name or ser` / `vice not known.`,
`GPU` / ` UUIDs`). On a terminal both are folded by the CLI's own wrap between words (`errors.for_terminal`), as every
error line is; into a pipe they stay one line, for scripts.

Real parts: a pseudo-terminal of 60 columns, the real CLI in a child process for `report`."""

from __future__ import annotations

import fcntl
import os
import struct
import subprocess
import sys
import termios

from tests.fixtures.state import REPO
from wizard.commands import output

SENTENCE = ("gs://dm_graphcast cannot be reached from here (storage.googleapis.com: [Errno -2] Name or service not "
            "known.), so the forecast's files cannot be fetched")


def _terminal(columns: int = 60) -> tuple[int, int]:
    leader, follower = os.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 24, columns, 0, 0))
    return leader, follower


def _read(leader: int) -> str:
    out = b""
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # the other end closed
            break
        if not chunk:
            break
        out += chunk
    return out.decode().replace("\r\n", "\n")


def test_warn_folds_between_words_on_a_terminal_and_not_into_a_pipe(monkeypatch, capsys):
    leader, follower = _terminal()
    try:
        with os.fdopen(follower, "w", closefd=False) as terminal:
            monkeypatch.setattr(sys, "stderr", terminal)
            output.warn(SENTENCE)
            monkeypatch.undo()
    finally:
        os.close(follower)
    rows = _read(leader).rstrip("\n").split("\n")
    os.close(leader)
    assert len(rows) > 1 and all(len(row) <= 60 for row in rows), rows
    assert " ".join(" ".join(rows).split()) == f"gc-wizard: {SENTENCE}"
    assert any(row.rstrip().endswith("Name or service not") or "Name or service not known" in row for row in rows)
    output.warn(SENTENCE)  # into pytest's capture: a pipe's one line
    assert capsys.readouterr().err == f"gc-wizard: {SENTENCE}\n"


def test_report_says_where_it_wrote_in_rows_that_fit_the_terminal(tmp_path):
    leader, follower = _terminal()
    env = {k: v for k, v in os.environ.items() if k != "COLUMNS"}
    env["PYTHONPATH"] = str(REPO)
    target = tmp_path / "report.txt"
    try:
        done = subprocess.run([sys.executable, "-P", "-m", "wizard", "report", "--out", str(target)], stdout=follower,
                              stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, env=env, cwd=tmp_path, timeout=120)
    finally:
        os.close(follower)
    shown = _read(leader)
    os.close(leader)
    assert done.returncode == 0, done.stderr
    rows = [row for row in shown.split("\n") if row]
    assert rows and all(len(row) <= 60 or row.strip() == str(target) for row in rows), rows
    assert " ".join(" ".join(rows).split()) == (f"Wrote the support report to {target} (host, user, home folder and "
                                                "GPU UUIDs redacted; read it before sending).")
