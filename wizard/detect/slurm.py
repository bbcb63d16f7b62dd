"""Runs detection (and, through `wizard.verify.check`, the GraphCast check) on a GPU node via `srun`.

Why Slurm, not a home-made loop: on a cluster the login node has the internet but no GPU, the GPU
nodes have GPUs but often no internet, and home/scratch are shared. So the wizard installs where it
runs (into the state folder on shared storage) and asks the engine the cluster already has — `srun`
— to run the two things that need the GPU node: detection and the check. `srun` is called with an
argv list (never a shell), `--export=ALL` (the task needs the wizard's state-folder variables and the
PATH to its Python, which sits on shared storage), one node and one task, plus the user's own
`--srun-arg` options (account, `--gpus=1`, time, QOS), which Slurm itself checks.

Facts detected inside a Slurm job say so (`slurm: {"node", "job_id", "partition"}`); the side that
called `srun` adds the argv it used, so a report shows where every fact came from.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from wizard.detect.facts import Facts
from wizard.errors import OperationFailed, UserError

#: How long srun may wait for a node and run detection, in seconds (a busy partition queues).
DETECT_TIMEOUT = 600.0
_PARTITION_RE = re.compile(r"^[A-Za-z0-9_.,+-]{1,128}$")
_BAD_PARTITION = re.compile(r"invalid partition|partition .*(not|does not) (exist|valid)|Invalid partition",
                            re.IGNORECASE)


@dataclass(frozen=True)
class SlurmTarget:
    """Where `--slurm [PARTITION]` sends work: a partition (or the cluster's default) and extra srun options."""

    partition: str | None = None
    srun_args: tuple[str, ...] = field(default=())

    def __post_init__(self) -> None:
        if self.partition is not None and not _PARTITION_RE.match(self.partition):
            raise UserError(f"--slurm {self.partition!r} is not a Slurm partition name.")
        for arg in self.srun_args:
            if not arg.startswith("-") or any(c in arg for c in "\n\r\0"):
                raise UserError(f"--srun-arg {arg!r} is not an srun option; give each option as "
                                "--srun-arg=--gpus=1 (it must start with '-').")

    def to_dict(self) -> dict[str, Any]:
        return {"partition": self.partition, "srun_args": list(self.srun_args)}

    def srun(self, job_name: str) -> list[str]:
        """The srun argv up to (not including) the program to run on the node."""
        srun = shutil.which("srun")
        if srun is None:
            raise UserError("--slurm needs Slurm's srun, which is not on PATH here (load the cluster's Slurm "
                            "module, or run without --slurm).")
        argv = [srun, "--nodes=1", "--ntasks=1", "--export=ALL", "--unbuffered", f"--job-name={job_name}"]
        if self.partition:
            argv.append(f"--partition={self.partition}")
        return [*argv, *self.srun_args]


def srun_on_path() -> bool:
    return shutil.which("srun") is not None


def partitions(timeout: float = 5.0) -> list[str] | None:
    """The cluster's partitions (the default one first), or None when Slurm does not answer."""
    sinfo = shutil.which("sinfo")
    if sinfo is None:
        return None
    try:
        proc = subprocess.run([sinfo, "-h", "-o", "%P"], capture_output=True, text=True, timeout=timeout,
                              stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired):
        return None
    if proc.returncode != 0:
        return None
    names = [line.strip() for line in proc.stdout.splitlines() if line.strip()]
    default = [n.rstrip("*") for n in names if n.endswith("*")]
    return default + [n for n in names if not n.endswith("*")]


def job_marker(environ: Mapping[str, str]) -> dict[str, Any] | None:
    """Inside a Slurm job (a task started by srun/sbatch): which node, job and partition."""
    node = environ.get("SLURMD_NODENAME")
    job = environ.get("SLURM_JOB_ID") or environ.get("SLURM_JOBID")
    if not node or not job:
        return None
    return {"node": node, "job_id": job, "partition": environ.get("SLURM_JOB_PARTITION")}


def explain_srun_failure(target: SlurmTarget, returncode: int, stderr: str, what: str) -> Exception:
    """srun's own complaint as a sentence; a partition that does not exist is the user's to fix."""
    lines = [line.strip() for line in stderr.splitlines() if line.strip()]
    said = "; ".join(line for line in lines if line.startswith("srun:"))[-600:] or (lines[-1] if lines else "")
    where = f"partition {target.partition}" if target.partition else "the default partition"
    if _BAD_PARTITION.search(stderr):
        return UserError(f"srun refused {where}: {said}. See `sinfo` for the partitions.")
    if "No module named" in stderr or "No such file or directory" in stderr:
        return OperationFailed(
            f"srun reached a node but could not start gc-wizard there ({said or lines[-1] if lines else ''}). "
            f"The wizard's Python ({sys.executable}) and the state folder must be on storage the GPU nodes share.")
    return OperationFailed(f"srun could not {what} on {where} (exit {returncode}): {said or 'no message'}")


def detect_on_node(target: SlurmTarget, *, timeout: float = DETECT_TIMEOUT,
                   on_line: Callable[[str], None] | None = None) -> Facts:
    """Run `gc-wizard detect --json` on a node of `target` through srun and return its facts.

    `on_line` gets srun's own messages ("srun: job 12 queued and waiting for resources") as they come.
    Raises UserError for a bad partition or option, OperationFailed when srun or the node fails.
    """
    srun = target.srun("gc-wizard-detect")
    argv = [*srun, sys.executable, "-m", "wizard", "detect", "--json"]
    env = dict(os.environ)
    env.pop("PYTHONHOME", None)
    proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=env, start_new_session=True)
    err_lines: list[str] = []
    out_chunks: list[str] = []

    def read_err() -> None:
        for line in proc.stderr:
            err_lines.append(line.rstrip("\n"))
            if on_line is not None and line.strip():
                on_line(line.rstrip("\n"))

    readers = [threading.Thread(target=read_err, daemon=True),
               threading.Thread(target=lambda: out_chunks.append(proc.stdout.read()), daemon=True)]
    for reader in readers:
        reader.start()
    started = time.monotonic()
    try:
        proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        _stop(proc)
        raise OperationFailed(f"srun did not finish detection within {timeout:g} s (is the partition full? "
                              "`squeue` shows the queue).") from None
    except BaseException:
        _stop(proc)
        raise
    for reader in readers:
        reader.join(timeout=5)
    out = "".join(out_chunks)
    stderr = "\n".join(err_lines)
    data = _last_json(out)
    if proc.returncode != 0 or data is None:
        raise explain_srun_failure(target, proc.returncode, stderr + "\n" + out[-2000:], "run detection")
    facts = Facts.from_dict(data)
    marker = dict(facts.slurm or {})
    marker.setdefault("node", facts.host or None)
    marker.update({"partition": marker.get("partition") or target.partition, "srun": srun,
                   "seconds": round(time.monotonic() - started, 3)})
    return replace(facts, slurm=marker)


def _last_json(text: str) -> dict[str, Any] | None:
    for line in reversed(text.splitlines()):
        if line.strip():
            try:
                value = json.loads(line)
            except ValueError:
                return None
            return value if isinstance(value, dict) and "python" in value else None
    return None


def _stop(proc: subprocess.Popen) -> None:
    """srun forwards SIGTERM to the job step and cancels it; then it is gone."""
    for sig in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(proc.pid, sig)
        except (ProcessLookupError, PermissionError):
            return
        try:
            proc.wait(timeout=5)
            return
        except subprocess.TimeoutExpired:
            continue
