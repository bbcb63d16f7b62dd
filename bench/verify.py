"""`gc-wizard verify` against a bare script doing the same GraphCast jit init, in the same env.

Usage: `python bench/verify.py ENV [--level notebook|quick] [--runs N]`. The bare script imports
only the probe's data and model builders (no tiers, no log, no wizard process) and times nothing
but a cold `jax.jit(run_forward.init)` in a fresh interpreter — what a user's own script would do.
Both run one after the other, alternating, in one process; prints medians and the ratio.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PROBE = REPO / "wizard" / "probe" / "graphcast_probe.py"

BARE = """
import importlib.util, sys
spec = importlib.util.spec_from_file_location("probe", {probe!r})
probe = importlib.util.module_from_spec(spec); spec.loader.exec_module(probe)
import jax
gc = probe._graphcast_modules(None)
level = probe.LEVELS[{level!r}]
task = probe.build_task_config(gc)
model = probe.build_model_config(gc, level)
inputs, targets, forcings = probe.build_inputs(gc, task, level)
stats = probe.build_normalization_stats(gc, task)
init = probe.make_init(gc, model, task, stats)
params, state = init(rng=jax.random.PRNGKey(0), inputs=inputs, targets_template=targets, forcings=forcings)
jax.block_until_ready(params)
print(sum(x.size for x in jax.tree_util.tree_leaves(params)))
"""


def timed(argv: list[str]) -> tuple[float, str]:
    start = time.perf_counter()
    proc = subprocess.run(argv, capture_output=True, text=True, env={"JAX_PLATFORMS": "cpu", "PATH": "/usr/bin:/bin"})
    seconds = time.perf_counter() - start
    if proc.returncode != 0:
        sys.exit(f"{argv[:3]} failed:\n{proc.stdout[-2000:]}\n{proc.stderr[-2000:]}")
    return seconds, proc.stdout.strip().splitlines()[-1]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("env")
    parser.add_argument("--level", default="notebook")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    python = str(Path(args.env) / "bin" / "python")
    bare_times, wizard_times = [], []
    for _ in range(args.runs):
        seconds, params = timed([python, "-c", BARE.format(probe=str(PROBE), level=args.level)])
        bare_times.append(seconds)
        seconds, _ = timed([sys.executable, "-m", "wizard", "verify", "--env", args.env, "--level", args.level,
                            "--json"])
        wizard_times.append(seconds)
    bare, wiz = statistics.median(bare_times), statistics.median(wizard_times)
    print(f"bare jit init script      median {bare:6.2f} s  (params {params})")
    print(f"gc-wizard verify --json   median {wiz:6.2f} s  (all four tiers)")
    print(f"ratio                     {wiz / bare:6.2f}x")


if __name__ == "__main__":
    main()
