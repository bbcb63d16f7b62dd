"""Calls run_step with a missing cwd, then appends "<pid> <error>" to a file: two lines would mean
pexpect forked and our own code went on running in the child."""
import os
import sys
from pathlib import Path

from wizard.install.plan import Step
from wizard.install.runner import RunnerEvents, StepLog, run_step

out = Path(sys.argv[1])
step = Step(name="x", title="x", argv=(sys.executable, "-c", "pass"), cwd=str(out / "missing"))
with StepLog(out / "run.log") as log:
    result = run_step(step, log=log, events=RunnerEvents())
with open(out / "after", "a") as f:
    f.write(f"{os.getpid()} {result.error}\n")
