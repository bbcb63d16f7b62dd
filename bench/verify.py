"""`gc-wizard verify` against a bare script doing the same GraphCast jit init, in the same env.

Usage: `python bench/verify.py ENV [--level notebook|quick] [--runs N] [--backend cpu|gpu] [--gencast]`.
The bare script imports only the probe's data and model builders (no tiers, no log, no wizard process)
and does nothing but a cold `jax.jit(run_forward.init)` in a fresh interpreter — what a user's own script
would do — and, with `--gencast` (a GraphCast v0.2 environment, where verify runs GenCast's tier too),
GenCast's `jax.jit(loss_fn.init)` after it. `--backend gpu` leaves JAX on the GPU (the default pins both
runs to the CPU). Both run one after the other, alternating, in this one process; it prints the medians,
the ratio (target <= 1.2x), and what each reported: parameter count, init seconds, peak RSS.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PROBE = REPO / "wizard" / "verify" / "probe" / "graphcast_probe.py"

BARE = """
import importlib.util, json, resource, time
spec = importlib.util.spec_from_file_location("probe", {probe!r})
probe = importlib.util.module_from_spec(spec); spec.loader.exec_module(probe)
import jax
gc = probe.graphcast_modules(None, probe.GRAPHCAST_NAMES + (probe.GENCAST_MODULES if {gencast!r} else ()))
level = probe.LEVELS[{level!r}]
task = probe.build_task_config(gc)
model = probe.build_model_config(gc, level)
inputs, targets, forcings = probe.build_inputs(gc, task, level)
stats = probe.build_normalization_stats(gc, task)
init = probe.make_init(gc, model, task, stats)
t0 = time.perf_counter()
params, state = init(rng=jax.random.PRNGKey(0), inputs=inputs, targets_template=targets, forcings=forcings)
jax.block_until_ready(params)
count = int(sum(x.size for x in jax.tree_util.tree_leaves(params)))
if {gencast!r}:
    configs = probe.build_gencast_configs(gc, dict(probe.GENCAST_LEVELS[{level!r}]))
    spec = {{"grid_degrees": 1.0, "steps": 1, "step_hours": 12}}
    gi, gt, gf = probe.build_inputs(gc, configs["task_config"], spec)
    gstats = probe.build_normalization_stats(gc, configs["task_config"], with_min=True)
    gparams, _ = probe.make_gencast_init(gc, configs, gstats)(rng=jax.random.PRNGKey(0), inputs=gi, targets=gt,
                                                             forcings=gf)
    jax.block_until_ready(gparams)
print(json.dumps({{"param_count": count,
                  "init_seconds": round(time.perf_counter() - t0, 3),
                  "peak_rss_mib": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)}}))
"""


def timed(argv: list[str], env: dict[str, str]) -> tuple[float, dict]:
    start = time.perf_counter()
    proc = subprocess.run(argv, capture_output=True, text=True, env=env)
    seconds = time.perf_counter() - start
    lines = [line for line in proc.stdout.splitlines() if line.strip()]
    if proc.returncode != 0 or not lines:
        sys.exit(f"{argv[:4]} failed ({proc.returncode}):\n{proc.stdout[-2000:]}\n{proc.stderr[-2000:]}")
    return seconds, json.loads(lines[-1])


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("env")
    parser.add_argument("--level", default="notebook", choices=["notebook", "quick"])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--backend", default="cpu", choices=["cpu", "gpu"])
    parser.add_argument("--gencast", action="store_true", help="GenCast's init too (GraphCast v0.2 and later)")
    args = parser.parse_args()
    python = str(Path(args.env) / "bin" / "python")
    # Same variables for both (the CPU recipe's runtime env); the wizard's state goes to a scratch folder.
    env = {k: v for k, v in os.environ.items() if k != "LD_LIBRARY_PATH"}
    if args.backend == "cpu":
        env["JAX_PLATFORMS"] = "cpu"
    bare_times, wizard_times, bare_info, wizard_info = [], [], {}, {}
    with tempfile.TemporaryDirectory(prefix="gc-wizard-bench-") as home:
        env["GC_WIZARD_HOME"] = home
        for _ in range(args.runs):
            seconds, bare_info = timed([python, "-c", BARE.format(probe=str(PROBE), level=args.level, gencast=args.gencast)], env)
            bare_times.append(seconds)
            seconds, result = timed([sys.executable, "-m", "wizard", "verify", "--env", args.env, "--level",
                                     args.level, "--json"], env)
            if not result.get("ok"):
                sys.exit(f"verify failed: {json.dumps(result)[:2000]}")
            wizard_info = next(t for t in result["tiers"] if t["name"] == "graphcast_jit_init")
            wizard_times.append(seconds)
    bare, wiz = statistics.median(bare_times), statistics.median(wizard_times)
    print(f"bare jit init script     median {bare:6.2f} s wall  params {bare_info['param_count']:,}  "
          f"init {bare_info['init_seconds']} s  peak RSS {bare_info['peak_rss_mib']} MiB")
    print(f"gc-wizard verify --json  median {wiz:6.2f} s wall  params {wizard_info['param_count']:,}  "
          f"init {wizard_info['init_seconds']} s (trace {wizard_info.get('trace_seconds')} s, compile "
          f"{wizard_info.get('compile_seconds')} s)  peak RSS {wizard_info['peak_rss_mib']} MiB  (every tier)")
    print(f"runs: bare {[round(t, 2) for t in bare_times]}  wizard {[round(t, 2) for t in wizard_times]}")
    print(f"ratio                    {wiz / bare:6.2f}x  (target <= 1.2x)")


if __name__ == "__main__":
    main()
