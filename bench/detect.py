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

    # The target env as users have it: an activated venv (VIRTUAL_ENV, read from its files), and none
    # (the python3 on PATH, asked in a subprocess: on a pyenv machine that is a shell-script shim).
    activated = {**env, "VIRTUAL_ENV": sys.prefix}
    bare = {k: v for k, v in env.items() if k not in ("VIRTUAL_ENV", "CONDA_PREFIX")}
    subprocess.run([sys.executable, "-m", "wizard", "detect", "--json"], check=True, env=env, capture_output=True)
    base, venv, path = [], [], []
    for _ in range(RUNS):  # pairs alternate, so a busy moment of the machine falls on all three
        base.append(_seconds([sys.executable, "-c", "pass"], env))
        venv.append(_seconds([sys.executable, "-m", "wizard", "detect", "--json"], activated))
        path.append(_seconds([sys.executable, "-m", "wizard", "detect", "--json"], bare))
    baseline, cli, cli_path = (statistics.median(x) for x in (base, venv, path))
    in_process = median_seconds(detect)
    print(f"python -c pass (baseline)                  median {baseline * 1000:7.1f} ms")
    print(f"gc-wizard detect --json (activated venv)   median {cli * 1000:7.1f} ms   "
          f"ratio {cli / baseline:5.1f}x baseline (target <= 4x)")
    print(f"gc-wizard detect --json (python3 on PATH)  median {cli_path * 1000:7.1f} ms   "
          f"ratio {cli_path / baseline:5.1f}x baseline")
    print(f"detect() in-process                        median {in_process * 1000:7.1f} ms   "
          f"ratio {in_process / baseline:5.1f}x baseline")


def _seconds(argv: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run(argv, check=True, env=env, capture_output=True)
    return time.perf_counter() - start


if __name__ == "__main__":
    main()
