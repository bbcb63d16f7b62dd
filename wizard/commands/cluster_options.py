"""What the cluster options mean, for every command that takes them (docs/interface.md).

`--slurm [PARTITION]` and `--srun-arg ARG` (repeatable, defined in `options.slurm_options`) send
detection and the GraphCast check to a GPU node through srun; `--assume-driver VERSION [--assume-cc
X.Y]` (`options.assume_options`) plans for a GPU that is not here. Turned into core values here, once.
"""

from __future__ import annotations

import argparse

from wizard.detect.slurm import SlurmTarget
from wizard.detect.where import detect_where
from wizard.errors import UserError


def slurm_target(args: argparse.Namespace) -> SlurmTarget | None:
    """The `--slurm`/`--srun-arg` arguments as a target (None without --slurm)."""
    value = getattr(args, "slurm", None)
    extra = tuple(getattr(args, "srun_arg", None) or ())
    if value is None:
        if extra:
            raise UserError("--srun-arg needs --slurm (it passes options to the srun that --slurm runs).")
        return None
    return SlurmTarget(partition=value or None, srun_args=extra)


def facts_for(args: argparse.Namespace, *, on_line=None):
    """The facts to plan with: a GPU node through srun, an assumed GPU, or this machine."""
    return detect_where(slurm_target(args), assume_driver=getattr(args, "assume_driver", None),
                        assume_cc=getattr(args, "assume_cc", None), on_line=on_line)


def where_line(facts) -> str | None:
    """"Detected on node gpu07 (through srun, partition gpu)" — or None for this machine's own facts."""
    marker = getattr(facts, "slurm", None)
    if marker and marker.get("srun"):
        part = f", partition {marker['partition']}" if marker.get("partition") else ""
        return f"Detected on node {marker.get('node') or '?'} (through srun, job {marker.get('job_id') or '?'}{part})."
    if facts.driver is not None and facts.driver.source == "assumed":
        return (f"ASSUMED: driver {facts.driver.version} (CUDA {facts.driver.cuda_driver_version}) — not read from "
                f"a GPU; {facts.host or 'this machine'} has none.")
    return None
