"""Time to the first frame of the real app in a real terminal (tmux, 80×24, TERM=xterm), against a bare
Textual app (`bare_textual.py`: one `Static`) in the same harness.

Both write `first_frame_seconds=` (process start to `on_ready`, read from /proc with the same clock,
`wizard.clock`) to GC_WIZARD_STARTUP_LOG. Runs alternate wizard/bare pairs so a busy moment of the machine
falls on both; prints the medians and their ratio (issue 23's target: at most 1.3×).
"""

from __future__ import annotations

import compileall
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

from timing import program  # bench/ is this script's folder

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
SOCKET = "gcw-bench"  # its own tmux server: no other tmux user can end the sessions under it
PAIRS = int(__import__("os").environ.get("BENCH_PAIRS", "7"))


def first_frame(argv: list[str], env: dict[str, str], log: Path, timeout: float = 30) -> float:
    """Start `argv` in a fresh 80×24 tmux session and return the first-frame figure it writes to `log`."""
    name = f"gcw-ff-{uuid.uuid4().hex[:6]}"
    assignments = [f"{k}={v}" for k, v in {**env, "GC_WIZARD_STARTUP_LOG": str(log)}.items()]
    line = f"cd {shlex.quote(str(REPO))} && env {shlex.join(assignments + argv)}"
    subprocess.run(["tmux", "-L", SOCKET, "new-session", "-d", "-s", name, "-x", "80", "-y", "24", line], check=True)
    try:
        deadline = time.monotonic() + timeout
        while not (log.exists() and log.read_text().strip()) and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(0.3)
    finally:
        subprocess.run(["tmux", "-L", SOCKET, "kill-session", "-t", name], capture_output=True)
    return float(log.read_text().splitlines()[0].split("=")[1])


def main() -> None:
    from tests.standins import standin_env

    # The app as it starts on a user's second run: its bytecode written. Without this, a tree whose sources are
    # newer than their `.pyc` (or a shell with PYTHONDONTWRITEBYTECODE=1, which the tmux server inherits) compiles
    # half the package on every start, while the bare app's Textual comes precompiled from its wheel: the
    # eighteenth session's 1.37–1.57× were measured that way (116 of 204 modules stale).
    compileall.compile_dir(REPO / "wizard", quiet=1)
    work = Path(tempfile.mkdtemp(prefix="gcw-ff-"))
    env = {**standin_env("a100x2-535", work), "TERM": "xterm", "GC_WIZARD_HOME": str(work / "home")}
    wizard, bare = [], []
    # One idle session keeps the bench's tmux server up between runs (a server whose last session ends
    # exits, and a new-session racing that exit fails).
    subprocess.run(["tmux", "-L", SOCKET, "new-session", "-d", "-s", "keep", "sleep 3600"], check=True)
    try:
        for i in range(PAIRS):
            wizard.append(first_frame(program(), env, work / f"wizard-{i}"))
            bare.append(first_frame([sys.executable, str(REPO / "bench" / "bare_textual.py")], env,
                                    work / f"bare-{i}"))
    finally:
        subprocess.run(["tmux", "-L", SOCKET, "kill-server"], capture_output=True)
    w, b = statistics.median(wizard), statistics.median(bare)
    print(f"bare Textual app, first frame (baseline)  median {b:5.2f} s  {bare}")
    print(f"gc-wizard first frame                     median {w:5.2f} s  {wizard}")
    print(f"ratio                                     {w / b:5.2f}x  (target <= 1.3x)")


if __name__ == "__main__":
    main()
