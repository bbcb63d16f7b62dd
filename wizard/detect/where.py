"""One call for "the facts to plan with": this machine, a GPU node through srun, or an assumed GPU.

The faces (`detect`, `recipes`, `install`, `verify`, the app) all take `--slurm [PARTITION]` and
`--assume-driver VERSION [--assume-cc X.Y]`; this is where those options turn into facts, so they
mean the same everywhere. `--slurm` wins over nothing else: an assumed driver on top of a node's
real facts is refused, because the node has a real answer.

The srun and assumed-driver modules are imported only when their option is given: a plain `detect`
on this machine does not pay for srun's job handling or the driver table's parser at start-up.
"""

from __future__ import annotations

from wizard.detect.chain import detect
from wizard.detect.facts import Facts
from wizard.errors import UserError

TYPE_CHECKING = False  # `typing.TYPE_CHECKING` without importing `typing` (start-up time, issue 23)
if TYPE_CHECKING:
    import threading
    from collections.abc import Callable

    from wizard.detect.slurm import SlurmTarget
    from wizard.detect.srun_job import JobState


def detect_where(slurm: SlurmTarget | None = None, *, assume_driver: str | None = None,
                 assume_cc: str | None = None, on_line: Callable[[str], None] | None = None,
                 on_state: Callable[[JobState], None] | None = None, cancel: threading.Event | None = None) -> Facts:
    """The facts to plan with. Through srun, `on_state` follows the job (queued, running on a node) and
    `cancel` stops it at once, the job cancelled with it."""
    if assume_driver is not None or assume_cc is not None:
        from wizard.detect.assume import check_options  # deferred for start-up time (module docstring)

        check_options(assume_driver, assume_cc)
    if slurm is not None and assume_driver is not None:
        raise UserError("--slurm reads the GPU node's real driver; --assume-driver is for when no node can be "
                        "reached. Give one of them.")
    if slurm is not None:
        from wizard.detect.slurm import detect_on_node  # deferred for start-up time (module docstring)

        return detect_on_node(slurm, on_line=on_line, on_state=on_state, cancel=cancel)

    facts = detect()
    if assume_driver is not None:
        from wizard.detect.assume import assume  # deferred for start-up time (module docstring)

        facts = assume(facts, assume_driver, assume_cc)
    return facts
