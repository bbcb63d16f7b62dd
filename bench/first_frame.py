"""Time to the first frame of the real app in a real terminal (tmux, 80×24, TERM=xterm).

The app writes `first_frame_seconds=` (process start to `on_ready`, read from /proc) to
GC_WIZARD_STARTUP_LOG. Baseline in the same process: `python -c pass` in the same tmux pane setup.
Prints the median of N runs and the ratio.
"""

from __future__ import annotations

import shlex
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
RUNS = 5


def one_run(argv: list[str], env: dict[str, str], done: Path, timeout: float = 30) -> float:
    name = f"gcw-bench-{uuid.uuid4().hex[:6]}"
    assignments = [f"{k}={v}" for k, v in env.items()]
    line = f"cd {shlex.quote(str(REPO))} && env {shlex.join(assignments + argv)}; touch {done}"
    start = time.perf_counter()
    subprocess.run(["tmux", "new-session", "-d", "-s", name, "-x", "80", "-y", "24", line], check=True)
    try:
        deadline = time.monotonic() + timeout
        while not done.exists() and time.monotonic() < deadline:
            time.sleep(0.02)
        return time.perf_counter() - start
    finally:
        subprocess.run(["tmux", "kill-session", "-t", name], capture_output=True)


def main() -> None:
    from tests.standins import standin_env

    work = Path(tempfile.mkdtemp(prefix="gcw-ff-"))
    frames = []
    for i in range(RUNS):
        log = work / f"startup-{i}"
        env = {**standin_env("a100x2-535", work), "TERM": "xterm", "GC_WIZARD_HOME": str(work / "home"),
               "GC_WIZARD_STARTUP_LOG": str(log)}
        name = f"gcw-ff-{uuid.uuid4().hex[:6]}"
        assignments = [f"{k}={v}" for k, v in env.items()]
        line = f"cd {shlex.quote(str(REPO))} && env {shlex.join(assignments + [sys.executable, '-m', 'wizard'])}"
        subprocess.run(["tmux", "new-session", "-d", "-s", name, "-x", "80", "-y", "24", line], check=True)
        deadline = time.monotonic() + 30
        while not log.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(0.3)
        subprocess.run(["tmux", "kill-session", "-t", name], capture_output=True)
        frames.append(float(log.read_text().split("=")[1]))
    baseline = statistics.median(one_run([sys.executable, "-c", "pass"], {}, work / f"base-{i}")
                                 for i in range(RUNS))
    first = statistics.median(frames)
    print(f"python -c pass in tmux (baseline, wall)   median {baseline:5.2f} s")
    print(f"gc-wizard first frame (process start)     median {first:5.2f} s  {frames}")
    print(f"ratio                                     {first / baseline:5.1f}x")


if __name__ == "__main__":
    main()
