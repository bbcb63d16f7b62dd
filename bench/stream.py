"""Log throughput: a child printing 200k lines through the runner vs. the same child writing to /dev/null.

Both run one after the other in this process (best of 3 each); prints times and the ratio. The runner
path includes the pty, line assembly, the log file and a no-op events object.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from wizard.plan import Step  # noqa: E402
from wizard.runner import RunnerEvents, StepLog, run_step  # noqa: E402

CHILD = Path(__file__).resolve().parents[1] / "tests" / "children" / "lines.py"
LINES = 200_000


def best(fn, runs: int = 3) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    argv = (sys.executable, str(CHILD), str(LINES))
    step = Step(name="lines", title="200k lines", argv=argv)
    with tempfile.TemporaryDirectory() as tmp:
        def through_runner() -> None:
            with StepLog(Path(tmp) / "bench.log") as log:
                assert run_step(step, log=log, events=RunnerEvents()).ok

        def to_devnull() -> None:
            subprocess.run(argv, stdout=subprocess.DEVNULL, check=True)

        base = best(to_devnull)
        runner = best(through_runner)
    print(f"child -> /dev/null          {base:6.2f} s")
    print(f"child -> runner (pty, log)  {runner:6.2f} s")
    print(f"ratio                       {runner / base:6.2f}x  ({LINES / runner:,.0f} lines/s through the runner)")


if __name__ == "__main__":
    main()
