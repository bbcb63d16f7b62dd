"""`gc-wizard plan RECIPE --json` against `gc-wizard recipes --json`, pairs alternated in this process.

Three index cases: the package index reachable with the download-size cache warm (a plan seen before),
reachable with the cache cold (a fresh state folder each time: every size is asked, under the plan's short
budget), and an index that refuses connections (a closed port). Prints the medians and each ratio (issue 23's
target: at most 2x).
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

RUNS = int(os.environ.get("BENCH_PAIRS", "5"))
RECIPE = "jax0.4.23-cpu"
CLOSED_INDEX = "http://127.0.0.1:9/simple"


def seconds(argv: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    proc = subprocess.run(argv, env=env, capture_output=True)
    took = time.perf_counter() - start
    if proc.returncode not in (0, 2):  # 2: the recipe does not fit this machine, which a plan still shows
        raise SystemExit(f"{' '.join(argv[2:])} exited {proc.returncode}: {proc.stderr.decode()[-500:]}")
    return took


def main() -> None:
    work = Path(tempfile.mkdtemp(prefix="gcw-plan-"))
    cli = [sys.executable, "-m", "wizard"]
    warm = {**os.environ, "GC_WIZARD_HOME": str(work / "warm")}
    closed = {**warm, "UV_DEFAULT_INDEX": CLOSED_INDEX, "PIP_INDEX_URL": CLOSED_INDEX,
              "GC_WIZARD_HOME": str(work / "closed")}
    seconds([*cli, "plan", RECIPE, "--json"], warm)  # warms the cache
    rows: dict[str, list[float]] = {"recipes": [], "warm": [], "cold": [], "closed": []}
    for i in range(RUNS):
        rows["recipes"].append(seconds([*cli, "recipes", "--json"], warm))
        rows["warm"].append(seconds([*cli, "plan", RECIPE, "--json"], warm))
        cold = {**warm, "GC_WIZARD_HOME": str(work / f"cold-{i}")}
        rows["cold"].append(seconds([*cli, "plan", RECIPE, "--json"], cold))
        rows["closed"].append(seconds([*cli, "plan", RECIPE, "--json"], closed))
    base = statistics.median(rows["recipes"])
    print(f"recipes --json (baseline)                 median {base * 1000:7.0f} ms")
    for name, label in (("warm", "index reachable, size cache warm"), ("cold", "index reachable, cache cold"),
                        ("closed", "index refusing connections")):
        value = statistics.median(rows[name])
        print(f"plan {RECIPE} --json, {label:<34} median {value * 1000:7.0f} ms  ratio {value / base:4.2f}x"
              "  (target <= 2x)")


if __name__ == "__main__":
    main()
