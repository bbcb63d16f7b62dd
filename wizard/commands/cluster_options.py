"""The cluster options shared by detect, recipes, install, verify and the app (docs/interface.md).

`--slurm [PARTITION]` and `--srun-arg ARG` (repeatable) send detection and the GraphCast check to a
GPU node through srun; `--assume-driver VERSION [--assume-cc X.Y]` plans for a GPU that is not here.
Defined once so every command spells and checks them the same way.
"""

from __future__ import annotations

import argparse

from wizard.detect.slurm import SlurmTarget


def add_slurm(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--slurm", nargs="?", const="", default=None, metavar="PARTITION",
                        help="detect and verify on a GPU node through srun (the cluster's default partition, "
                             "or PARTITION); the install runs here, into the shared state folder")
    parser.add_argument("--srun-arg", action="append", default=[], metavar="ARG",
                        help="an extra srun option, e.g. --srun-arg=--gpus=1 --srun-arg=--account=lab "
                             "(repeatable; needs --slurm)")


def add_assume(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--assume-driver", metavar="VERSION",
                        help="plan for an NVIDIA driver that is not on this machine (e.g. 535.104.05); every "
                             "assumed fact is marked 'assumed'")
    parser.add_argument("--assume-cc", metavar="X.Y", help="the assumed GPU's compute capability (e.g. 8.0)")


def slurm_target(args: argparse.Namespace) -> SlurmTarget | None:
    """The `--slurm`/`--srun-arg` arguments as a target (None without --slurm)."""
    from wizard.errors import UserError

    value = getattr(args, "slurm", None)
    extra = tuple(getattr(args, "srun_arg", None) or ())
    if value is None:
        if extra:
            raise UserError("--srun-arg needs --slurm (it passes options to the srun that --slurm runs).")
        return None
    return SlurmTarget(partition=value or None, srun_args=extra)


def facts_for(args: argparse.Namespace, *, on_line=None):
    """The facts to plan with: a GPU node through srun, an assumed GPU, or this machine."""
    from wizard.detect.where import detect_where

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
