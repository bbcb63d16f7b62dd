"""`gc-wizard plan RECIPE --json` against `gc-wizard recipes --json`, pairs alternated in this process.

Three index cases: the package index reachable with the download-size cache warm (a plan seen before),
reachable with the cache cold (a fresh state folder each time: every size is asked, under the plan's short
budget), and an index that refuses connections (a closed port). Prints each one's median wall time and the
median CPU time of its process tree (user + system, children included), with both ratios to `recipes
--json` from the same run (issue 23's target: at most 2x in wall time). `BENCH_PAIRS=N` sets the number of
pairs (default 7); the package's bytecode is compiled first, as `pip install` does (see bench/detect.py).
"""

from __future__ import annotations

import compileall
import os
import tempfile
from pathlib import Path

from timing import Series, line, program, run

RUNS = int(os.environ.get("BENCH_PAIRS", "7"))
RECIPE = "jax0.4.23-cpu"
CLOSED_INDEX = "http://127.0.0.1:9/simple"


def main() -> None:
    compileall.compile_dir(Path(__file__).resolve().parents[1] / "wizard", quiet=1)
    work = Path(tempfile.mkdtemp(prefix="gcw-plan-"))
    cli = program()
    warm = {**os.environ, "GC_WIZARD_HOME": str(work / "warm")}
    closed = {**warm, "UV_DEFAULT_INDEX": CLOSED_INDEX, "PIP_INDEX_URL": CLOSED_INDEX,
              "GC_WIZARD_HOME": str(work / "closed")}
    plan = [*cli, "plan", RECIPE, "--json"]
    run(plan, warm)  # warms the size cache
    base = Series("recipes --json (baseline)")
    rows = {name: Series(f"plan {RECIPE} --json, {label}") for name, label in (
        ("warm", "size cache warm"), ("cold", "size cache cold"), ("closed", "index refusing"))}
    for i in range(RUNS):
        base.add(run([*cli, "recipes", "--json"], warm))
        rows["warm"].add(run(plan, warm))
        rows["cold"].add(run(plan, {**warm, "GC_WIZARD_HOME": str(work / f"cold-{i}")}))
        rows["closed"].add(run(plan, closed))
    print(f"{RUNS} alternated runs each; medians (ratios to the baseline, from this run)")
    print(line(base, width=48))
    for series in rows.values():
        print(line(series, base, "target: wall <= 2x", width=48))


if __name__ == "__main__":
    main()
