"""Whether this process runs inside a Slurm job, from the variables Slurm gives its tasks.

Kept apart from `wizard.detect.slurm` (which runs srun, and imports what that needs) because every
`detect` asks it and every command's options name the queue's default wait: a fact detected inside a job says which node, job and partition it came from.
"""

from __future__ import annotations

from collections.abc import Mapping

#: Seconds a job may wait in the queue for a node before it is cancelled (`--slurm-wait`'s default). Here,
#: not in `srun_job`, because every command's `--help` text names it and must not load srun's handling.
DEFAULT_WAIT = 600.0


def job_marker(environ: Mapping[str, str]) -> dict | None:
    """Inside a Slurm job (a task started by srun/sbatch): which node, job and partition."""
    node = environ.get("SLURMD_NODENAME")
    job = environ.get("SLURM_JOB_ID") or environ.get("SLURM_JOBID")
    if not node or not job:
        return None
    return {"node": node, "job_id": job, "partition": environ.get("SLURM_JOB_PARTITION")}
