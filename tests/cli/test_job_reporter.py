"""Walk 28 #10: the CLI's wait for a Slurm node — the time redrawn in place each second on a terminal ("0:00 so far"
never moved), the full line once a minute into a pipe or beside --json, and the cancel said."""

from __future__ import annotations

import io

from wizard.commands.cluster_options import job_reporter
from wizard.detect.srun_job import JobState

FULL = "gc-wizard: waiting for a node: job 17 queued (Priority: other jobs are ahead of yours), 0:00 so far " \
       "(Ctrl-C cancels the job)\n"
CANCELLED = "gc-wizard: cancelled Slurm job 17 (it never got a node)\n"


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def _queued(seconds: float) -> JobState:
    return JobState("queued", "17", "Priority", waited=seconds)


def test_on_a_terminal_the_wait_ticks_in_place():
    out = Terminal()
    report = job_reporter(out, "gc-wizard: ")
    for second in (0, 1, 2):
        report(_queued(second))
    report(JobState("cancelled", "17"))
    # the full line without a time (walk 29 N4: its "0:00 so far" stayed above the ticking one), which ticks at once
    assert out.getvalue() == (FULL.replace(", 0:00 so far", "") + "\rgc-wizard: job 17 still queued, 0:00 so far\x1b[K"
                              "\rgc-wizard: job 17 still queued, 0:01 so far\x1b[K"
                              "\rgc-wizard: job 17 still queued, 0:02 so far\x1b[K\n" + CANCELLED)


def test_into_a_pipe_or_beside_json_a_line_a_minute():
    for out, as_json in ((io.StringIO(), False), (Terminal(), True)):
        report = job_reporter(out, "gc-wizard: ", as_json=as_json)
        for second in range(0, 125):
            report(_queued(second))
        report(JobState("cancelled", "17"))
        assert "\r" not in out.getvalue()
        assert out.getvalue() == FULL + FULL.replace("0:00", "1:00") + FULL.replace("0:00", "2:00") + CANCELLED
