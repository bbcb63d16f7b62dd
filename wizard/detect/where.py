"""One call for "the facts to plan with": this machine, a GPU node through srun, or an assumed GPU.

The faces (`detect`, `recipes`, `install`, `verify`, the app) all take `--slurm [PARTITION]` and
`--assume-driver VERSION [--assume-cc X.Y]`; this is where those options turn into facts, so they
mean the same everywhere. `--slurm` wins over nothing else: an assumed driver on top of a node's
real facts is refused, because the node has a real answer.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from wizard.detect.assume import assume, check_options
from wizard.detect.chain import detect
from wizard.detect.facts import Facts
from wizard.detect.slurm import SlurmTarget, detect_on_node
from wizard.detect.srun_job import JobState
from wizard.errors import UserError


def detect_where(slurm: SlurmTarget | None = None, *, assume_driver: str | None = None,
                 assume_cc: str | None = None, on_line: Callable[[str], None] | None = None,
                 on_state: Callable[[JobState], None] | None = None, cancel: threading.Event | None = None) -> Facts:
    """The facts to plan with. Through srun, `on_state` follows the job (queued, running on a node) and
    `cancel` stops it at once, the job cancelled with it."""
    check_options(assume_driver, assume_cc)
    if slurm is not None and assume_driver is not None:
        raise UserError("--slurm reads the GPU node's real driver; --assume-driver is for when no node can be "
                        "reached. Give one of them.")
    if slurm is not None:
        return detect_on_node(slurm, on_line=on_line, on_state=on_state, cancel=cancel)

    facts = detect()
    if assume_driver is not None:
        facts = assume(facts, assume_driver, assume_cc)
    return facts
