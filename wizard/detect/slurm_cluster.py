"""What the cluster itself says about its partitions: their names and which of them hand out GPUs, and how.

Why: a message about a partition is only useful with the real alternatives in it. A wrong partition
name should list the ones that exist; a node that shows the job no GPU should say how this cluster
hands GPUs out (`--gpus=1` where the partition counts GPUs as a trackable resource, `--gres=gpu:1`
where they are only generic resources) or which partitions have any. Everything here asks `sinfo`
and `scontrol` with argv lists and a short timeout, and answers None when Slurm does not.
"""

from __future__ import annotations

import subprocess

from wizard.children import run_capture, which


def _ask(argv: list[str], timeout: float = 5.0) -> str | None:
    """A Slurm client's stdout, or None when it is missing, fails or takes too long."""
    program = which(argv[0])  # the trust rule for programs on PATH (25th hostile pass (part B) P5)
    if program is None:
        return None
    try:
        proc = run_capture([program, *argv[1:]], timeout=timeout, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return proc.stdout if proc.returncode == 0 else None


def partitions(timeout: float = 5.0) -> list[str] | None:
    """The cluster's partitions (the default one first), or None when Slurm does not answer."""
    out = _ask(["sinfo", "-h", "-o", "%P"], timeout)
    if out is None:
        return None
    names = list(dict.fromkeys(line.strip() for line in out.splitlines() if line.strip()))
    default = [n.rstrip("*") for n in names if n.endswith("*")]
    return default + [n for n in names if not n.endswith("*")]


def default_partition() -> str | None:
    """The partition srun uses without --partition (sinfo marks it with '*'), or None."""
    out = _ask(["sinfo", "-h", "-o", "%P"])
    return next((line.strip()[:-1] for line in (out or "").splitlines() if line.strip().endswith("*")), None)


def partition_gres() -> dict[str, str] | None:
    """Each partition's generic resources as sinfo lists them ("gpu:a100:4(S:0-1)"; "" for none)."""
    out = _ask(["sinfo", "-h", "-o", "%P|%G"])
    if out is None:
        return None
    gres: dict[str, str] = {}
    for line in out.splitlines():
        name, _, value = line.strip().partition("|")
        if name:
            name = name.rstrip("*")
            value = "" if value.strip() in ("(null)", "") else value.strip()
            gres[name] = ",".join(filter(None, [gres.get(name, ""), value]))
    return gres


def gpu_partitions() -> list[str]:
    """The partitions whose nodes list GPUs as generic resources."""
    return [name for name, value in (partition_gres() or {}).items() if "gpu" in value]


def gpu_request_flag(partition: str | None) -> str | None:
    """The srun option that asks this partition for one GPU, or None when it hands out none.

    `--gpus=1` where the partition counts GPUs as a trackable resource (`scontrol show partition`
    lists `gres/gpu` in its TRES), else `--gres=gpu:1` where sinfo lists GPU gres on its nodes."""
    name = partition or default_partition()
    if not name:
        return None
    if "gpu" not in (partition_gres() or {}).get(name, ""):
        return None
    shown = _ask(["scontrol", "show", "partition", name]) or ""
    return "--gpus=1" if "gres/gpu" in shown else "--gres=gpu:1"


def no_gpu_here(facts) -> bool:
    """Whether detection found no GPU on this node: no working driver and no device (the facts' own words)."""
    return facts.driver is None and not facts.gpus


def gpu_node_offer(facts=None) -> list[str] | None:
    """Slurm's partitions where this node has no GPU and Slurm answers (a cluster's login node), else None.

    Why one test: walk 33 #1 — the first screen asked detection ("no driver") and sinfo, while a failed check
    asked only for `/dev/nvidia*` and an `srun` on PATH, so on a GPU server with Slurm's client programs but no
    cluster the check ranked "a login node with no GPU, and Slurm is here" first while the first screen had shown
    two GPUs. The first screen, the plain walk-through and the check's findings all ask this. `facts`: detection's
    facts for this node; read here (deferred: only a machine with srun pays for it) when the caller has none."""
    if which("srun") is None:
        return None
    if facts is None:
        from wizard.detect.chain import detect  # deferred: only a node with Slurm's srun asks

        facts = detect()
    if not no_gpu_here(facts):
        return None
    return partitions() or None
