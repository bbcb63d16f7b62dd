"""Install time of the CPU recipe with a warm uv cache: `gc-wizard install` vs the bare uv commands.

The bare baseline runs exactly the commands a careful user would type — `uv venv` then `uv pip install`
of the recipe's pins, then GraphCast with `--no-deps` — and the wizard runs `install jax0.4.23-cpu
--yes --no-verify` (the same plan, plus pty streaming, logs, history, freeze and the env marker). Both
run alternately in this process, after one warm-up so uv's cache is warm; prints medians and the ratio.
Needs GC_WIZARD_GRAPHCAST_SRC (a GraphCast v0.1.1 checkout) and access to PyPI for the warm-up.
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from uv import find_uv_bin  # noqa: E402

from wizard.recipes.loader import get_recipe  # noqa: E402

RUNS = 3


def main() -> None:
    src = os.environ.get("GC_WIZARD_GRAPHCAST_SRC")
    if not src:
        sys.exit("bench/install.py: set GC_WIZARD_GRAPHCAST_SRC to a GraphCast v0.1.1 checkout (the recipe's "
                 "own GraphCast comes from GitHub, which this benchmark does not assume it can reach)")
    uv, recipe = find_uv_bin(), get_recipe("jax0.4.23-cpu")
    work = Path(tempfile.mkdtemp(prefix="gcw-bench-"))
    counter = iter(range(1000))

    def bare() -> None:
        env = work / f"bare-{next(counter)}"
        subprocess.run([uv, "venv", "-q", "--python", sys.executable, str(env)], check=True)
        py = str(env / "bin" / "python")
        subprocess.run([uv, "pip", "install", "-q", "--python", py, *recipe.requirements], check=True)
        subprocess.run([uv, "pip", "install", "-q", "--python", py, "--no-deps", src], check=True)

    def wizard() -> None:
        home = work / f"home-{next(counter)}"
        subprocess.run([sys.executable, "-m", "wizard", "install", "jax0.4.23-cpu", "--yes", "--no-verify",
                        "--graphcast-src", src, "--json"], check=True, capture_output=True,
                       env={**os.environ, "GC_WIZARD_HOME": str(home)})

    try:
        bare()  # warm uv's cache
        times: dict[str, list[float]] = {"bare": [], "wizard": []}
        for _ in range(RUNS):
            for name, fn in (("bare", bare), ("wizard", wizard)):
                start = time.perf_counter()
                fn()
                times[name].append(time.perf_counter() - start)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    b, w = statistics.median(times["bare"]), statistics.median(times["wizard"])
    print(f"bare uv venv + uv pip install   median {b:6.2f} s  {['%.2f' % t for t in times['bare']]}")
    print(f"gc-wizard install --no-verify   median {w:6.2f} s  {['%.2f' % t for t in times['wizard']]}")
    print(f"ratio                           {w / b:6.2f}x")


if __name__ == "__main__":
    main()
