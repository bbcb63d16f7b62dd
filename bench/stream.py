"""Log throughput: a child printing 200k lines through the runner vs. the same child writing to /dev/null.

All runs happen in this process, one after the other (best of 3 each), and the ratios are printed:

- `/dev/null`: the baseline the issue asks for (the child's stdout is not a terminal, so it is
  block-buffered: this is the fastest the child can go);
- `pty, raw reads`: the child on a pty drained by a bare `os.read` loop, no pexpect, no cleaning — the
  floor for anything that reads through a terminal (line-buffered child, tty layer);
- `runner, no-op events`: `run_step` with pexpect, `LineAssembler`, the log file and `RunnerEvents()`;
- `runner, batching consumer`: the same with events that append each read's lines to a locked list
  that another thread drains every 50 ms — the shape of the TUI's feeder.

Usage: `python bench/stream.py [LINES]`.
"""

from __future__ import annotations

import os
import pty
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from wizard.install.plan import Step  # noqa: E402
from wizard.install.runner import RunnerEvents, StepLog, run_step  # noqa: E402

CHILD = Path(__file__).resolve().parents[1] / "tests" / "children" / "lines.py"


def best(fn, runs: int = 3) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


class Batching(RunnerEvents):
    """Hands lines to a consumer thread through a locked list, drained at 20 Hz (like the TUI)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.pending: list[str] = []
        self.consumed = 0
        self.live_text = ""
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._drain, daemon=True)
        self.thread.start()

    def line_batch(self, step, texts: list[str]) -> None:
        with self.lock:
            self.pending.extend(texts)

    def live(self, step, text: str) -> None:
        self.live_text = text

    def _drain(self) -> None:
        while True:
            finished = self.done.wait(0.05)
            with self.lock:
                batch, self.pending = self.pending, []
            self.consumed += len(batch)
            if finished:
                return

    def close(self) -> int:
        self.done.set()
        self.thread.join()
        return self.consumed


def raw_pty(argv: tuple[str, ...]) -> None:
    pid, fd = pty.fork()
    if pid == 0:  # the child: exec at once, nothing of ours runs here
        os.execv(argv[0], list(argv))
    try:
        while os.read(fd, 65536):
            pass
    except OSError:  # EIO: the child closed the terminal
        pass
    os.close(fd)
    os.waitpid(pid, 0)


def main() -> None:
    lines = int(sys.argv[1]) if len(sys.argv) > 1 else 200_000
    argv = (sys.executable, str(CHILD), str(lines))
    step = Step(name="lines", title=f"{lines} lines", argv=argv)
    with tempfile.TemporaryDirectory() as tmp:
        log_path = Path(tmp) / "bench.log"

        def to_devnull() -> None:
            subprocess.run(argv, stdout=subprocess.DEVNULL, check=True)

        def through_runner() -> None:
            log_path.unlink(missing_ok=True)
            with StepLog(log_path) as log:
                assert run_step(step, log=log, events=RunnerEvents()).ok

        def through_runner_batching() -> None:
            events = Batching()
            log_path.unlink(missing_ok=True)
            with StepLog(log_path) as log:
                assert run_step(step, log=log, events=events).ok
            assert events.close() == lines

        base = best(to_devnull)
        floor = best(lambda: raw_pty(argv))
        runner = best(through_runner)
        batching = best(through_runner_batching)
        logged = sum(1 for text in log_path.read_text().splitlines() if text.startswith("line "))
    assert logged == lines, logged
    print(f"{lines:,} lines of ~70 characters, best of 3 each")
    print(f"child -> /dev/null                    {base:6.2f} s   1.00x")
    print(f"child -> pty, raw reads               {floor:6.2f} s   {floor / base:5.2f}x")
    print(f"child -> runner, no-op events         {runner:6.2f} s   {runner / base:5.2f}x"
          f"   ({runner / floor:.2f}x the pty floor; {lines / runner:,.0f} lines/s)")
    print(f"child -> runner, batching consumer    {batching:6.2f} s   {batching / base:5.2f}x"
          f"   ({batching / floor:.2f}x the pty floor)")


if __name__ == "__main__":
    main()
