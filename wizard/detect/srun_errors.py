"""srun's failures in one or two plain sentences: the cause, and the fix a newcomer can act on.

Why: srun reports in Slurm's internal words ("resolve_ctls_from_dns_srv: res_nsearch error", "Invalid
generic resource (gres) specification"), which say nothing to someone on their first day on a
cluster. Each known failure is a pattern and a sentence here, once, for every step that runs through
srun (detection, the GraphCast check); srun's own lines go to the step's log, not the screen. Where the
cluster can tell us the real alternatives (the partitions, the ones with GPUs), the sentence lists
them. A failure no pattern knows still says what srun said, last line first, and where the rest is.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from wizard.detect import slurm_cluster
from wizard.security import cut, shell_word


@dataclass(frozen=True)
class SrunProblem:
    """A translated srun failure: `kind` (stable, for tests and history), the sentence, and whether it is the
    user's input to fix (a partition or srun option: exit 2) rather than the cluster failing (exit 1)."""

    kind: str
    sentence: str
    user_input: bool = False


@dataclass(frozen=True)
class _Known:
    kind: str
    pattern: re.Pattern[str]
    user_input: bool
    sentence: Callable[[str, str], str]
    """(where, the job's step) -> the sentence; `where` is "partition gpu" or "the default partition"."""


def _no_config(where: str, what: str) -> str:
    return ("srun cannot find this cluster's Slurm configuration (SLURM_CONF or /etc/slurm/slurm.conf), so it "
            f"could not {what}. Run gc-wizard on the cluster's login node, or load its Slurm module first "
            "(`module load slurm`), then start again.")


def _no_controller(where: str, what: str) -> str:
    return (f"srun could not reach the Slurm controller, so it could not {what}. The cluster may be down or in "
            "maintenance; try again later, or ask your admin (`sinfo` shows whether Slurm answers).")


def _bad_partition(where: str, what: str) -> str:
    found = slurm_cluster.partitions()
    listed = f"This cluster's partitions: {', '.join(found)}." if found else "`sinfo` lists the partitions."
    return f"Slurm has no {where}. {listed} Give one with --slurm PARTITION."


def _gres(where: str, what: str) -> str:
    gpu = slurm_cluster.gpu_partitions()
    if gpu:
        return (f"Slurm refused the GPU request: {where} has no GPUs it can hand out. Drop --gpus/--gres from "
                f"--srun-arg, or choose a partition that has GPUs: {', '.join(gpu)}.")
    return (f"Slurm refused the GPU request: {where} has no GPUs it can hand out, and no partition here lists any "
            "(`sinfo -o '%P %G'`). Drop --gpus/--gres from --srun-arg, or ask your admin how GPUs are requested.")


def _account(where: str, what: str) -> str:
    return (f"Slurm refused the job's account or QOS on {where}. Give an account you belong to with "
            "--srun-arg=--account=NAME (`sacctmgr show assoc user=$USER` lists yours), or ask your admin.")


def _time(where: str, what: str) -> str:
    return (f"Slurm refused the time limit asked for on {where}. Give one the partition allows, e.g. "
            "--srun-arg=--time=0:30:00 (`sinfo -o '%P %l'` lists each partition's limit).")


def _time_limit_hit(where: str, what: str) -> str:
    return (f"The job reached its time limit and Slurm stopped it before it could {what}. Ask for more time with "
            "--srun-arg=--time=1:00:00 (within the partition's limit).")


def _memory(where: str, what: str) -> str:
    return (f"No node of {where} has the memory or CPUs asked for. Ask for less (--srun-arg=--mem=…), or "
            "choose another partition (`sinfo -o '%P %m %c'`).")


def _node_failure(where: str, what: str) -> str:
    return (f"The node failed while the job ran, so it could not {what}. This is the cluster's fault, not yours: "
            "try again (Slurm picks another node), and tell your admin if it repeats.")


def _cancelled(where: str, what: str) -> str:
    return (f"The job was cancelled from outside gc-wizard (by scancel, an admin or a preemption) before it could "
            f"{what}. Try again; `sacct -j JOB` or your admin can say who cancelled it.")


def _not_started(where: str, what: str) -> str:

    from wizard import paths  # only for this sentence

    archive = paths.zip_archive()
    ran = " ".join(shell_word(part) for part in paths.program_argv())
    files = f"the wizard's Python, its zip archive {archive}" if archive is not None else "the wizard's Python"
    # Named as it was run, so a node that lacks one of them says which (22nd hostile pass P12: a zipapp was launched
    # as `python3 -m wizard` and the failure blamed on storage).
    return (f"srun reached a node but could not start gc-wizard there (as `{ran}`): {files} and the state folder "
            "must be on storage the GPU nodes share (home or scratch, not /tmp or a local disk).")


_KNOWN = (
    _Known("no_config", re.compile(r"Could not establish a configuration source|Unable to process configuration "
                                   r"file|fetch_config|s_p_parse_file: cannot stat", re.I), True, _no_config),
    _Known("no_controller", re.compile(r"Unable to contact slurm controller|Unable to establish controller|"
                                       r"Zero Bytes were transmitted or received", re.I), False, _no_controller),
    _Known("bad_partition", re.compile(r"invalid partition|partition .*(not|does not) (exist|valid)", re.I), True,
           _bad_partition),
    _Known("gres_refused", re.compile(r"Invalid generic resource|Invalid GRES|gres.*(not available|invalid)|"
                                      r"Invalid TRES", re.I), True, _gres),
    _Known("account_refused", re.compile(r"Invalid account|Invalid qos|account/partition combination|violates "
                                         r"accounting/QOS policy|Invalid user for SlurmUser|AssocMaxJobs", re.I),
           True, _account),
    _Known("time_invalid", re.compile(r"Invalid --time|Requested time limit is invalid|time limit.*exceeds", re.I),
           True, _time),
    _Known("time_limit", re.compile(r"DUE TO TIME LIMIT|Job step aborted.*time limit", re.I), False, _time_limit_hit),
    _Known("resources_refused", re.compile(r"Memory specification can not be satisfied|Requested node configuration "
                                           r"is not available|More processors requested than permitted", re.I),
           True, _memory),
    _Known("node_failure", re.compile(r"DUE TO NODE FAIL|Node failure|NODE_FAIL", re.I), False, _node_failure),
    _Known("cancelled", re.compile(r"CANCELLED AT|has been revoked|Force Terminated JobId|Job step aborted", re.I),
           False, _cancelled),
    _Known("not_started", re.compile(r"No module named|: No such file or directory|execve\(\): .*: "
                                     r"(No such file|Permission denied)", re.I), False, _not_started),
)


def srun_lines(text: str) -> list[str]:
    """What srun and slurmstepd said themselves (their `srun:`/`slurmstepd` lines), verbose chatter left out."""
    out = []
    for line in text.splitlines():
        line = line.strip()
        if line.startswith(("srun: error", "srun: fatal", "srun: Job ", "srun: job ", "srun: Force")) or \
                line.startswith("slurmstepd"):
            out.append(line)
    return out


def explain(stderr: str, *, partition: str | None, what: str) -> SrunProblem:
    """The sentence for what srun printed when it failed to `what` ("run detection")."""
    where = f"partition {partition}" if partition else "the default partition"
    said = srun_lines(stderr)
    # srun's own words first (a task's output could say "cancelled" too); then all of it (a Python on the
    # node that cannot start gc-wizard speaks for itself).
    for scan in ("\n".join(said), stderr):
        for known in _KNOWN:
            if scan and known.pattern.search(scan):
                return SrunProblem(known.kind, known.sentence(where, what), known.user_input)
    last = said[-1] if said else next((line.strip() for line in reversed(stderr.splitlines()) if line.strip()), "")
    return SrunProblem("srun_failed", f"srun could not {what} on {where}: {cut(last, 300) or 'it gave no reason'}.")
