"""What the cluster options mean, for every command that takes them (docs/interface.md).

`--slurm [PARTITION]` and `--srun-arg ARG` (repeatable, defined in `options.slurm_options`) send
detection and the GraphCast check to a GPU node through srun; `--assume-driver VERSION [--assume-cc
X.Y]` (`options.assume_options`) plans for a GPU that is not here. Turned into core values here, once.
"""

from __future__ import annotations

import argparse

from wizard.commands.output import warn
from wizard.flows.machine import machine_facts
from wizard.flows.options import slurm_target as target_of

TYPE_CHECKING = False  # `typing.TYPE_CHECKING` without importing `typing` (start-up time, issue 23)
if TYPE_CHECKING:
    from wizard.flows.types import Facts, JobState, SlurmTarget

__all__ = ["JobReporter", "facts_for", "slurm_target", "where_line"]


def slurm_target(args: argparse.Namespace) -> SlurmTarget | None:
    """The `--slurm`/`--srun-arg` arguments as a target (None without --slurm)."""
    return target_of(getattr(args, "slurm", None), getattr(args, "srun_arg", None) or (),
                     getattr(args, "slurm_wait", None))


def where_line(facts: Facts) -> str | None:
    """Where the facts were read, when not on this machine (`flows.describe_machine.where_sentence`)."""
    from wizard.flows.describe_machine import (
        where_sentence,  # deferred: `detect --json` describes nothing (issue 23)
    )

    return where_sentence(facts)


def facts_for(args: argparse.Namespace, *, on_line=None):
    """The facts to plan with: a GPU node through srun (its job's state said as it changes), an assumed
    GPU, or this machine."""

    target = slurm_target(args)
    return machine_facts(target, assume_driver=getattr(args, "assume_driver", None),
                         assume_cc=getattr(args, "assume_cc", None), on_line=on_line,
                         on_state=JobReporter(warn) if target is not None else None)


class JobReporter:
    """Says a Slurm job's state on the terminal as it changes: each new phase or pending reason once, and
    the time waited once a minute while queued (the app redraws it every second instead)."""

    def __init__(self, write) -> None:
        self.write = write
        self._last: tuple[str, str | None, str | None] | None = None
        self._said_at = 0.0

    def __call__(self, state: JobState) -> None:
        key = (state.phase, state.reason, state.node)
        if key == self._last and not (state.phase == "queued" and state.waited - self._said_at >= 60):
            return
        self._last, self._said_at = key, state.waited
        hint = " (Ctrl-C cancels the job)" if state.phase == "queued" else ""
        self.write(state.describe() + hint)
