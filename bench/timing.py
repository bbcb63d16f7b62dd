"""Wall and CPU time of one command, for the benchmarks that compare two commands in alternated pairs.

Why CPU time as well: this machine's two cores are shared, so a wall-clock median moves with whatever
else runs; the CPU the command's whole process tree used (user + system, its own and every child it waited
for, as `os.wait4` reports them) moves much less, and says what the command costs wherever it runs.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class Sample:
    wall: float
    cpu: float
    returncode: int


def program() -> list[str]:
    """How the user starts the wizard: the `gc-wizard` program beside this Python (what `pip install` wrote),
    else `python -m wizard`. Why: `-m` adds `runpy` and `importlib.util` to every start, a cost the installed
    program does not pay, and runs a `wizard/` folder in the current directory instead of the installed one."""
    installed = Path(sys.executable).with_name("gc-wizard")
    return [str(installed)] if installed.exists() else [sys.executable, "-m", "wizard"]


def run(argv: list[str], env: dict[str, str] | None = None) -> Sample:
    """Run `argv` to its end (output discarded); its wall time and its process tree's CPU time."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    err = proc.stderr.read() if proc.stderr else b""
    if proc.stderr:
        proc.stderr.close()
    if proc.returncode not in (0, 2):  # 2: a plan for a recipe that does not fit this machine still prints
        raise SystemExit(f"{' '.join(argv[:4])} … exited {proc.returncode}: {err.decode(errors='replace')[-500:]}")
    return Sample(wall, usage.ru_utime + usage.ru_stime, proc.returncode)


@dataclass
class Series:
    """The samples of one command across the pairs."""

    label: str
    samples: list[Sample] = field(default_factory=list)

    def add(self, sample: Sample) -> None:
        self.samples.append(sample)

    @property
    def wall(self) -> float:
        return statistics.median(s.wall for s in self.samples)

    @property
    def cpu(self) -> float:
        return statistics.median(s.cpu for s in self.samples)


def line(series: Series, base: Series | None = None, target: str = "", width: int = 44) -> str:
    """"label  wall median … ms (ratio)  cpu median … ms (ratio)": the ratios against `base`, from the same run."""
    text = f"{series.label:<{width}} wall {series.wall * 1000:7.1f} ms"
    if base is not None:
        text += f" {series.wall / base.wall:5.2f}x"
    text += f"   cpu {series.cpu * 1000:7.1f} ms"
    if base is not None:
        text += f" {series.cpu / base.cpu:5.2f}x"
    if target:
        text += f"   ({target})"
    return text
