"""What the cluster options mean, for every command that takes them (docs/interface.md).

`--slurm [PARTITION]` and `--srun-arg ARG` (repeatable, defined in `options.slurm_options`) send
detection and the GraphCast check to a GPU node through srun; `--assume-driver VERSION [--assume-cc
X.Y]` (`options.assume_options`) plans for a GPU that is not here. Turned into core values here, once.
"""

from __future__ import annotations

import argparse
import sys

from wizard.commands.output import fit, terminal_columns
from wizard.flows.machine import machine_facts
from wizard.flows.options import slurm_target as target_of

TYPE_CHECKING = False  # `typing.TYPE_CHECKING` without importing `typing` (start-up time, issue 23)
if TYPE_CHECKING:
    from wizard.flows.types import Facts, JobState, SlurmTarget

__all__ = ["JobReporter", "facts_for", "job_reporter", "slurm_target", "where_line"]


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
                         on_state=job_reporter(sys.stderr, "gc-wizard: ", as_json=bool(getattr(args, "json", False)))
                         if target is not None else None)


class JobReporter:
    """Says a Slurm job's state on the terminal as it changes: each new phase or pending reason once, in full (with
    the reason's plain words), then the time waited while queued — on a terminal (`live`) one short line below it,
    redrawn in place each second as the app's screen does; into a pipe, a file or beside `--json`, the full line
    again once a minute (a log is not filled with a line a second).

    Walk 28 #10: the CLI's "0:00 so far" never moved (it was said again only after a minute)."""

    def __init__(self, write, *, live=None, prefix: str = "") -> None:
        self.write = write
        self.live = live
        """The terminal `write` ends up on (None: none, or --json), where the queued line is redrawn in place."""
        self.prefix = prefix
        """What `write` puts before each line, put before the redrawn one too."""
        self._last: tuple[str, str | None, str | None] | None = None
        self._said_at = 0.0
        self._drawn = False

    def __call__(self, state: JobState) -> None:
        key = (state.phase, state.reason, state.node)
        if self._drawn and (key != self._last or self.live is None):
            self.live.write("\n")  # the ticking line stays as last drawn; what follows starts below it
            self._drawn = False
        if key != self._last or (self.live is None and state.phase == "queued" and state.waited - self._said_at >= 60):
            self._last, self._said_at = key, state.waited
            self.write(state.describe(waited=self.live is None)  # live: the line below ticks the time (walk 29 N4)
                       + (" (Ctrl-C cancels the job)" if state.phase == "queued" else ""))
            if self.live is None or state.phase != "queued":
                return
        if self.live is not None and state.phase == "queued":
            line = fit(f"{self.prefix}{state.still_queued()}", max(20, terminal_columns() - 1))
            draw = getattr(self.live, "write_verbatim", self.live.write)  # the erase-line code, not shown as text
            draw(f"\r{line}\x1b[K")
            self.live.flush()
            self._drawn = True


def job_reporter(stream, prefix: str = "", *, as_json: bool = False) -> JobReporter:
    """A `JobReporter` writing `prefix`-ed lines to `stream`, live when that is a terminal and not beside --json."""

    def write(text: str) -> None:
        stream.write(f"{prefix}{text}\n")
        stream.flush()

    try:
        live = stream if not as_json and stream.isatty() else None
    except (AttributeError, ValueError, OSError):
        live = None
    return JobReporter(write, live=live, prefix=prefix)
