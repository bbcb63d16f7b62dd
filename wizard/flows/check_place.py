"""Where a later GraphCast check of an installed environment runs: on a GPU node through srun, the way its install
was checked, unless told otherwise.

Why: walk 28 #9 — a rollback on a login node with no GPU ran its one-minute GraphCast check right there, never
through srun, although the environment's install had been checked on a Slurm node; for a CUDA environment that check
can only fail. The install records the Slurm target it used (`record_slurm`, the entry's "slurm": partition, srun
options, queue wait); a rollback to it, in the CLI and the app alike, checks through the same target by default
(`check_slurm`), and a `--slurm` given now (or the app's GPU node, key g) wins.
"""

from __future__ import annotations

from typing import Any

from wizard.detect.slurm import SlurmTarget
from wizard.errors import UserError
from wizard.history.store import Entry

__all__ = ["check_slurm", "check_where_words", "record_slurm"]

#: The key of an entry (in history.json) that holds the Slurm target its check ran through.
SLURM_KEY = "slurm"


def record_slurm(entry: Entry, target: SlurmTarget | None) -> None:
    """Keep the target an install's (or a rollback's) check runs through on its entry; nothing without one."""
    if target is not None:
        entry.extra[SLURM_KEY] = target.to_dict()


def recorded_slurm(entry: Entry) -> SlurmTarget | None:
    """The Slurm target the entry's check ran through: the one it recorded, else — for an entry written before
    targets were recorded whose check ran on a node (`verify.node`) — the cluster's default partition. A recorded
    value that is no target (an edited history.json) is refused in a sentence naming the entry, never ignored:
    ignoring it would run the check on this machine, the very thing it is there to avoid."""
    data: Any = entry.extra.get(SLURM_KEY)
    if data is None:
        node = entry.verify.node if entry.verify is not None else None
        return SlurmTarget(partition=None) if node else None
    try:
        if not isinstance(data, dict):
            raise UserError("it is not an object")
        partition = data.get("partition")
        args = data.get("srun_args") or []
        wait = data.get("wait")
        if partition is not None and not isinstance(partition, str) or not isinstance(args, list) \
                or not all(isinstance(a, str) for a in args) \
                or wait is not None and (isinstance(wait, bool) or not isinstance(wait, (int, float)) or wait <= 0):
            raise UserError("it is not a partition, srun options and a wait")
        return SlurmTarget.from_options(partition or "", tuple(args), float(wait) if wait else None)
    except UserError as exc:
        from wizard import paths  # deferred: only for this refusal

        raise UserError(f"{paths.history_path()}: entry {entry.id}'s \"{SLURM_KEY}\" (where its GraphCast check ran) "
                        f"cannot be used ({str(exc).rstrip('.')}); give the check's place with --slurm [PARTITION], "
                        "or roll back with --no-verify.") from None


def check_slurm(entry: Entry, given: SlurmTarget | None) -> SlurmTarget | None:
    """Where a rollback to `entry` checks it: `given` (--slurm now, or the app's GPU node), else the target the
    entry's own check ran through (`recorded_slurm`), else here (None)."""
    return given if given is not None else recorded_slurm(entry)


def check_where_words(target: SlurmTarget | None, given: bool) -> str:
    """The words a rollback says before its check: where it runs, and why there."""
    if target is None:
        return ""
    why = "" if given else f", as its install's check did ({target.flags().strip()})"
    return f" on a GPU node of {target.where()} through srun{why}"
