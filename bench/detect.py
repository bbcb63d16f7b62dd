"""How long `gc-wizard detect --json` takes, against a bare Python start-up measured in the same run.

Pairs alternate (`python -c pass`, the standard-library floor, then `detect --json` with an activated venv, then with only the python3
on PATH), so a busy moment of the machine falls on all of them; each prints its median wall time and the
median CPU time of its process tree (user + system, children included: the probe child, nvidia-smi), and
both ratios to the baseline (issue 23's target: at most 4x in wall time). Then `wizard.detect.detect()`
in-process. Pass a stand-in profile name (`python bench/detect.py a100x2-535`) to time detection on a
fake GPU server; `BENCH_PAIRS=N` sets the number of pairs (default 21).

The package's bytecode is compiled first, as `pip install` does: with PYTHONDONTWRITEBYTECODE set (as on
the development machines) an editable install would otherwise recompile every module on every run, which
no installed copy does.
"""

from __future__ import annotations

import compileall
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from timing import Series, line, program, run  # noqa: E402 (bench/ is this script's folder)

RUNS = int(os.environ.get("BENCH_PAIRS", "21"))
#: The standard library a Python CLI like this one cannot start without (argument parsing, JSON, children, paths,
#: threads, regular expressions): printed beside the baseline, it shows how much of the ratio is Python's own
#: start-up of those modules before one line of gc-wizard runs. (`dataclasses` is no longer on detect's path.)
FLOOR = "import argparse, json, subprocess, pathlib, threading, re"


def main() -> None:
    env = dict(os.environ)
    if len(sys.argv) > 1:
        from tests.standins import standin_env

        env.update(standin_env(sys.argv[1], Path(tempfile.mkdtemp())))
        os.environ.update(env)
    compileall.compile_dir(ROOT / "wizard", quiet=1)
    from wizard.detect.chain import detect

    # The target env as users have it: an activated venv (VIRTUAL_ENV, read from its files), and none
    # (the python3 on PATH, asked in a subprocess: on a pyenv machine that is a shell-script shim).
    activated = {**env, "VIRTUAL_ENV": sys.prefix}
    bare = {k: v for k, v in env.items() if k not in ("VIRTUAL_ENV", "CONDA_PREFIX")}
    cli = [*program(), "detect", "--json"]
    run(cli, env)  # the first run pays for the stand-in's build and the disk cache
    base = Series("python -c pass (baseline)")
    floor = Series("stdlib floor (imports the CLI needs)")
    venv = Series("gc-wizard detect --json (activated venv)")
    path = Series("gc-wizard detect --json (python3 on PATH)")
    for _ in range(RUNS):
        base.add(run([sys.executable, "-c", "pass"], env))
        floor.add(run([sys.executable, "-c", FLOOR], env))
        venv.add(run(cli, activated))
        path.add(run(cli, bare))
    in_process = []
    for _ in range(RUNS):
        start = time.perf_counter()
        detect(environ=activated)
        in_process.append(time.perf_counter() - start)
    print(f"{RUNS} alternated runs each; medians (ratios to the baseline, from this run)")
    print(line(base))
    print(line(floor, base, "no gc-wizard code at all"))
    print(line(venv, base, "target: wall <= 4x"))
    print(line(path, base))
    value = statistics.median(in_process)
    print(f"{'detect() in-process (activated venv)':<44} wall {value * 1000:7.1f} ms {value / base.wall:5.2f}x")


if __name__ == "__main__":
    main()
