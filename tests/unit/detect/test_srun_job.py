"""A Slurm job followed from srun's own lines: queued (with the job id), then running on a node; the
words both faces show; and a stop that ends srun's process at once."""

from __future__ import annotations

import subprocess
import sys
import threading

from wizard.detect.srun_job import JobState, SrunJob, clock, stop_srun, wait_for


def test_srun_lines_give_the_job_queued_then_running_on_its_node(monkeypatch):
    monkeypatch.setenv("PATH", "/nonexistent")  # no squeue: the reason stays unknown, the rest still reads
    seen: list[JobState] = []
    job = SrunJob(seen.append)
    assert job.feed("srun: defined options") is True  # srun's chatter is consumed, never shown as the task's
    assert job.feed("a line the task printed") is False
    job.feed("srun: job 12 queued and waiting for resources")
    assert (job.state.phase, job.state.job_id) == ("queued", "12")
    job.feed("srun: job 12 has been allocated resources")
    job.feed("srun: jobid 12: nodes(1):`gpu07', cpu counts: 1(x1)")
    assert (job.state.phase, job.state.node) == ("running", "gpu07")
    assert [s.phase for s in seen] == ["queued", "running", "running"]


def test_a_job_that_never_queued_is_named_by_its_start_line():
    job = SrunJob()
    job.feed("srun: jobid 8: nodes(2):`vm,vm2', cpu counts: 1(x2)")
    assert job.state == JobState("running", "8", node="vm", waited=job.state.waited)
    assert job.state.describe() == "running on node vm (job 8)"


def test_the_words_say_the_queue_reason_and_the_wait():
    assert JobState("queued", "12", "Resources", waited=35.4).describe() == \
        "waiting for a node: job 12 queued (Resources: every node it may use is busy; it starts when one frees up), " \
        "0:35 so far"
    assert JobState("queued", "12", "None", waited=3725).describe() == \
        "waiting for a node: job 12 queued, 1:02:05 so far"
    assert JobState("starting").describe() == "asking Slurm for a node"
    assert clock(0) == "0:00" and clock(600) == "10:00"


def test_a_wait_beyond_the_bound_is_given_up():
    job = SrunJob(wait=1e-9)
    assert not job.queued_too_long()  # not queued: nothing to give up
    job.feed("srun: job 5 queued and waiting for resources")
    assert job.queued_too_long()


def test_a_stop_ends_the_process_group_at_once():
    proc = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"], start_new_session=True)
    stop = threading.Event()
    stop.set()
    job = SrunJob()
    assert wait_for(proc, job, deadline=float("inf"), cancel=stop) == "cancelled"
    stop_srun(proc, job)
    assert proc.poll() is not None


def test_slurms_reason_codes_are_said_in_plain_words_from_the_table():
    """Walk 28 #10: "(Priority)" told a newcomer nothing; the words come from wizard/data/slurm_reasons.yaml."""
    from wizard.detect.srun_job import reason_words

    assert JobState("queued", "17", "Priority", waited=5).describe() == \
        "waiting for a node: job 17 queued (Priority: other jobs are ahead of yours), 0:05 so far"
    for code in ("Resources", "QOSMaxJobsPerUserLimit", "ReqNodeNotAvail", "Dependency", "JobHeldUser"):
        assert reason_words(code).startswith(f"{code}: ") and len(reason_words(code)) > len(code) + 10
    assert reason_words("SomethingNew") == "SomethingNew"  # unknown: as Slurm says it


def test_a_cancelled_job_is_named_to_the_faces(monkeypatch):
    """Walk 28 #10: a Ctrl-C while queued cancelled the job, and the CLI did not say which."""
    monkeypatch.setenv("PATH", "/nonexistent")  # no scancel: the job is still said to be cancelled (srun revoked it)
    seen: list[JobState] = []
    job = SrunJob(seen.append)
    job.cancel()  # no job named yet: nothing to say
    assert seen == []
    job.feed("srun: job 17 queued and waiting for resources")
    job.cancel()
    job.cancel()  # said once
    assert [s.phase for s in seen] == ["queued", "cancelled"]
    assert seen[-1].describe() == "cancelled Slurm job 17 (it never got a node)"
    assert JobState("cancelled", "9", node="gpu07").describe() == "cancelled Slurm job 9 on node gpu07"
