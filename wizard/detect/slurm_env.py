"""Whether this process runs inside a Slurm job, from the variables Slurm gives its tasks.

Kept apart from `wizard.detect.slurm` (which runs srun, and imports what that needs) because every
`detect` asks it: a fact detected inside a job says which node, job and partition it came from.
"""

from __future__ import annotations

from collections.abc import Mapping


def job_marker(environ: Mapping[str, str]) -> dict | None:
    """Inside a Slurm job (a task started by srun/sbatch): which node, job and partition."""
    node = environ.get("SLURMD_NODENAME")
    job = environ.get("SLURM_JOB_ID") or environ.get("SLURM_JOBID")
    if not node or not job:
        return None
    return {"node": node, "job_id": job, "partition": environ.get("SLURM_JOB_PARTITION")}
