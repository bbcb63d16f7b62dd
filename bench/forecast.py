"""`gc-wizard forecast` against the demo notebook's own cells, in the same environment, on the same files.

    python bench/forecast.py ENV ASSETS [--model PART] [--steps N] [--runs N]

ENV is a GraphCast environment (e.g. one `gc-wizard install jax0.4.23-cpu` made, or the tests'), ASSETS a folder
laid out like the bucket (the tests make a small real one: `ENV/bin/python tests/fixtures/forecast/make_assets.py
DIR`). Pairs run in turn — the notebook's cells (`bench/notebook_cells.py`, the baseline), then the wizard's
whole command (argument parsing, detection for the memory check, asset checks, the probe, the NetCDF output) —
and the ratio is taken pair by pair; the median ratio is printed with its range.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))


def timed(argv: list[str], env: dict[str, str] | None = None) -> float:
    start = time.perf_counter()
    subprocess.run(argv, check=True, capture_output=True, env=env)
    return time.perf_counter() - start


def main() -> None:
    import os

    from wizard.after import assets

    parser = argparse.ArgumentParser()
    parser.add_argument("env")
    parser.add_argument("assets")
    parser.add_argument("--model", default=None)
    parser.add_argument("--steps", type=int, default=1)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    source = assets.open_source(args.assets)
    chosen = assets.select(assets.list_assets(source), model=args.model, dataset=None, steps=args.steps)
    python = str(Path(args.env) / "bin" / "python")
    baseline = [python, str(REPO / "bench" / "notebook_cells.py"), args.assets, chosen.model.name,
                chosen.dataset.name, str(args.steps)]
    env = {**os.environ, "GC_WIZARD_HOME": tempfile.mkdtemp(prefix="gcw-bench-")}
    wizard = [sys.executable, "-m", "wizard", "forecast", "--env", args.env, "--assets", args.assets,
              "--model", chosen.model.name, "--steps", str(args.steps), "--json"]
    timed(baseline), timed(wizard, env)  # warm the page cache and JAX's imports once each
    pairs = []
    for _ in range(args.runs):
        base, ours = timed(baseline), timed(wizard, env)
        pairs.append((base, ours, ours / base))
    ratios = sorted(p[2] for p in pairs)
    print(f"notebook cells (baseline)   median {statistics.median(p[0] for p in pairs):6.2f} s")
    print(f"gc-wizard forecast          median {statistics.median(p[1] for p in pairs):6.2f} s")
    print(f"ratio, pair by pair         median {statistics.median(ratios):5.2f}x  (min {ratios[0]:.2f}x, "
          f"max {ratios[-1]:.2f}x, {len(pairs)} pairs, {args.steps} step(s))")


if __name__ == "__main__":
    main()
