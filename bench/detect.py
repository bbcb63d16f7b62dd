"""How long `detect` takes, against a bare Python start-up measured in the same process.

Prints the median of N runs of: `python -c pass` (baseline), `gc-wizard detect --json` as a
subprocess, and `wizard.detect.detect()` in-process; and the ratios. Pass a stand-in profile name
(`python bench/detect.py a100x2-535`) to time detection on a fake GPU server.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

RUNS = 15


def median_seconds(fn, runs: int = RUNS) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    env = dict(os.environ)
    if len(sys.argv) > 1:
        from tests.standins import standin_env

        env.update(standin_env(sys.argv[1], Path(tempfile.mkdtemp())))
        os.environ.update(env)
    from wizard.detect.chain import detect

    baseline = median_seconds(lambda: subprocess.run([sys.executable, "-c", "pass"], check=True))
    cli = median_seconds(lambda: subprocess.run([sys.executable, "-m", "wizard", "detect", "--json"],
                                                check=True, env=env, capture_output=True))
    in_process = median_seconds(detect)
    print(f"python -c pass (baseline)      median {baseline * 1000:7.1f} ms")
    print(f"gc-wizard detect --json        median {cli * 1000:7.1f} ms   ratio {cli / baseline:5.1f}x baseline")
    print(f"detect() in-process            median {in_process * 1000:7.1f} ms   ratio {in_process / baseline:5.1f}x baseline")


if __name__ == "__main__":
    main()
