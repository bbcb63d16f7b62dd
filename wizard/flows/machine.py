"""The machine, for both faces: the facts to plan with, what fits in memory, the Slurm partitions to offer.

Kept apart from `flows.session` (which also plans and diagnoses) because `gc-wizard detect` and the
Machine screen need only this: importing the planner, the recipe matcher and the log catalogue for a
`detect --json` doubled its start-up (issue 23). The Slurm modules are loaded only when asked for.
"""

from __future__ import annotations

from wizard.detect.facts import Facts, this_host
from wizard.detect.preflight import ModelFit, assess
from wizard.detect.where import detect_where

TYPE_CHECKING = False  # `typing.TYPE_CHECKING` without importing `typing` (start-up time, issue 23)
if TYPE_CHECKING:
    from wizard.detect.slurm import SlurmTarget


def machine_facts(slurm: SlurmTarget | None = None, **how) -> Facts:
    """The facts to plan with: a GPU node through srun (`slurm`), an assumed GPU (`assume_driver`,
    `assume_cc`), or this machine; `on_line`, `on_state` and `cancel` as `detect.where.detect_where` takes them."""
    return detect_where(slurm, **how)


def read_here(facts: Facts) -> bool:
    """Whether saved facts were read on this machine (the host name `detect` records): then this machine's Pythons
    are theirs, and `recipes --facts` looks for them as live `recipes` does (walk 21 #8: the same machine's saved
    facts said "the facts name no other Python"). Looking for them in every `detect --json` instead ran a second
    Python on each, doubling its time (issue 23)."""
    return bool(facts.host) and facts.host == this_host()


def preflight(facts: Facts) -> list[ModelFit]:
    """What fits in memory: GraphCast and GenCast at 1° and 0.25° against the GPUs and the host RAM."""
    return assess(facts)


def slurm_offer(facts: Facts) -> list[str] | None:
    """Slurm's partitions where this node has no GPU and Slurm answers (to offer detection on a GPU node), else
    None: `detect.slurm_cluster.gpu_node_offer`, the same test a failed check's findings use (walk 33 #1)."""
    # Deferred for start-up time: only a machine without a GPU asks Slurm (module docstring).
    from wizard.detect.slurm_cluster import gpu_node_offer

    return gpu_node_offer(facts)


def slurm_partitions() -> list[str]:
    """Slurm's partitions (sinfo answers in well under a second)."""
    # Deferred for start-up time, as above.
    from wizard.detect.slurm import partitions

    return partitions()
