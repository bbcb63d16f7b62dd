"""Runs detection (and, through `wizard.verify.check`, the GraphCast check) on a GPU node via `srun`.

Why Slurm, not a home-made loop: on a cluster the login node has the internet but no GPU, the GPU
nodes have GPUs but often no internet, and home/scratch are shared. So the wizard installs where it
runs (into the state folder on shared storage) and asks the engine the cluster already has — `srun`
— to run the two things that need the GPU node: detection and the check. `srun` is called with an
argv list (never a shell), `--export=ALL` (the task needs the wizard's state-folder variables and the
PATH to its Python, which sits on shared storage), one node and one task, plus the user's own
`--srun-arg` options (account, `--gpus=1`, time, QOS), which Slurm itself checks.

Facts detected inside a Slurm job say so (`slurm: {"node", "job_id", "partition"}`); the side that
called `srun` adds the argv it used, so a report shows where every fact came from.
"""


from __future__ import annotations

import re
import shlex
import subprocess
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from wizard import bounded
from wizard.children import Collector, child_environ, die_with_parent, which
from wizard.detect import slurm_cluster
from wizard.detect.facts import DRIVER_IN_TROUBLE, DetectWarning, Facts
from wizard.detect.slurm_cluster import partitions
from wizard.detect.slurm_env import job_marker
from wizard.detect.srun_errors import explain
from wizard.detect.srun_job import DEFAULT_WAIT, JobState, SrunJob, queue_sentence, stop_srun, wait_for
from wizard.errors import OperationFailed, UserError
from wizard.security import make_folders, open_private_log, redact_secrets, shell_word, write_private_file

__all__ = ["DEFAULT_WAIT", "DetectionStopped", "SlurmTarget", "detect_on_node", "job_marker", "partitions",
           "srun_on_path"]

#: How long srun may take for detection once it has a node, in seconds (the queue has its own bound).
DETECT_TIMEOUT = 600.0
#: How many of srun's stderr lines are kept for its log and its failure's sentence (the last ones), each cut to
#: `SRUN_LINE_CHARS`: a chatty site wrapper or a task printing in a loop must not fill the login node's memory.
SRUN_ERR_LINES = 2000
SRUN_LINE_CHARS = 4096
_PARTITION_RE = re.compile(r"^[A-Za-z0-9_.,+-]{1,128}$")


@dataclass(frozen=True)
class SlurmTarget:
    """Where `--slurm [PARTITION]` sends work: a partition (or the cluster's default) and extra srun options."""

    partition: str | None = None
    srun_args: tuple[str, ...] = field(default=())
    wait: float = DEFAULT_WAIT
    """How long a job may wait in the queue before it is cancelled and the step stops (--slurm-wait)."""

    def __post_init__(self) -> None:
        if self.partition is not None and not _PARTITION_RE.match(self.partition):
            raise UserError(f"--slurm {self.partition!r} is not a Slurm partition name.")
        for arg in self.srun_args:
            if not arg.startswith("-") or any(c in arg for c in "\n\r\0"):
                raise UserError(f"--srun-arg {arg!r} is not an srun option; give each option as "
                                "--srun-arg=--gpus=1 (it must start with '-').")

    @classmethod
    def from_options(cls, slurm: str | None, srun_args=(), wait: float | None = None) -> SlurmTarget | None:
        """The target `--slurm [PARTITION]`, `--srun-arg` and `--slurm-wait` describe (None without --slurm),
        for both faces; the other two without --slurm are refused in one sentence, not ignored."""
        if slurm is None:
            if srun_args:
                raise UserError("--srun-arg needs --slurm (it passes options to the srun that --slurm runs).")
            if wait is not None:
                raise UserError("--slurm-wait needs --slurm (it bounds the wait for a node that --slurm asks for).")
            return None
        return cls(partition=slurm or None, srun_args=tuple(srun_args or ()), wait=wait or DEFAULT_WAIT)

    @classmethod
    def from_words(cls, text: str, *, wait: float | None = None) -> SlurmTarget:
        """The app's one-line answer "gpu --gpus=1 --time=0:30:00": an optional partition first (a word not
        starting with '-'), then srun options; empty means the cluster's default partition."""
        try:
            words = shlex.split(text)
        except ValueError as exc:
            raise UserError(f"{text!r} cannot be read as a partition and srun options ({exc}).") from None
        partition = words.pop(0) if words and not words[0].startswith("-") else None
        return cls(partition=partition, srun_args=tuple(words), wait=wait or DEFAULT_WAIT)

    def to_dict(self) -> dict[str, Any]:
        return {"partition": self.partition, "srun_args": list(self.srun_args), "wait": self.wait}

    def where(self) -> str:
        return f"partition {self.partition}" if self.partition else "the default partition"

    def flags(self) -> str:
        """` --slurm [PARTITION] --srun-arg=…` as a shell takes them: the one way every printed line that follows work
        done through srun names this target again (the plan's "To run it:", the stopped check's, forecast's Next).
        Walk 24 #3: those lines dropped `--slurm`, so a pasted check ran on the login node, which has no GPU."""
        words = " --slurm" + (f" {shell_word(self.partition)}" if self.partition else "")
        words += "".join(f" --srun-arg={shell_word(arg)}" for arg in self.srun_args)
        return words + (f" --slurm-wait {self.wait:g}" if self.wait != DEFAULT_WAIT else "")

    def srun(self, job_name: str) -> list[str]:
        """The srun argv up to (not including) the program to run on the node."""
        srun = which("srun")
        if srun is None:
            raise UserError("--slurm needs Slurm's srun, which is not on PATH here (load the cluster's Slurm "
                            "module, or run without --slurm).")
        # --verbose: its "jobid N: nodes(1):`vm'" line names the job and node (`srun_job`); the log keeps it.
        argv = [srun, "--verbose", "--nodes=1", "--ntasks=1", "--export=ALL", "--unbuffered",
                f"--job-name={job_name}"]
        if self.partition:
            argv.append(f"--partition={self.partition}")
        return [*argv, *self.srun_args]


def srun_on_path() -> bool:
    return which("srun") is not None


def explain_srun_failure(target: SlurmTarget, stderr: str, what: str, log: Path | None = None) -> Exception:
    """srun's failure as one or two sentences with the fix (`srun_errors`); a partition or srun option
    that Slurm refuses is the user's input to fix (exit 2), the rest is the cluster failing (exit 1)."""
    problem = explain(stderr, partition=target.partition, what=what)
    where = f" srun's own words are in {log}." if log is not None else ""
    error = UserError if problem.user_input else OperationFailed
    return error(problem.sentence + where)


class DetectionStopped(OperationFailed):
    """Detection through srun was stopped by the user (ctrl+q, Escape, Ctrl-C, a signal): the job is cancelled."""


def _srun_log(argv: list[str]) -> Path | None:
    """A log for srun's own lines (verbose chatter included), or None when the state folder is unwritable."""
    try:
        from wizard import paths  # the state folder is looked up only when srun runs

        log = paths.new_log("detect-srun")
        make_folders(log.parent)
        # 0600 and masked, as every other log: `--srun-arg=--export=ALL,HF_TOKEN=…` is srun's own argv.
        write_private_file(log, redact_secrets("# argv: " + " ".join(argv), keep_user=True) + "\n")
        return log
    except OSError:
        return None


def _keep_lines(log: Path | None, lines: list[str]) -> None:
    if log is None:
        return
    try:
        with open_private_log(log) as handle:  # any string, never through a link (32nd pass (part A) P6)
            handle.write("".join(f"{redact_secrets(line, keep_user=True)}\n" for line in lines))
    except OSError:
        pass


def _job_words(job: SrunJob) -> str:
    return f"job {job.state.job_id}" if job.state.job_id else "its job"


def detect_on_node(target: SlurmTarget, *, timeout: float = DETECT_TIMEOUT,
                   on_line: Callable[[str], None] | None = None,
                   on_state: Callable[[JobState], None] | None = None,
                   cancel: threading.Event | None = None) -> Facts:
    """Run `gc-wizard detect --json` on a node of `target` through srun and return its facts.

    `on_state` gets the job's state as it changes (queued with Slurm's reason and the time waited, then
    running on a node); `on_line` gets anything else the task prints on stderr (srun's chatter goes to
    the log). `cancel` stops the job at once (srun revokes a pending allocation; scancel makes sure), and
    so does a wait in the queue longer than `target.wait`. Raises UserError for a partition or option
    Slurm refuses, DetectionStopped when cancelled, OperationFailed when srun or the node fails.
    """
    srun = target.srun("gc-wizard-detect")
    from wizard import paths  # a zipapp runs as `python gcw.pyz`, not `python -m wizard`

    argv = [*srun, *paths.program_argv(), "detect", "--json"]
    env = child_environ()  # the rule of every child: no git settings, no loader file another user could swap
    env.pop("PYTHONHOME", None)
    log = _srun_log(argv)
    job = SrunJob(on_state, wait=target.wait)
    proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env=env, start_new_session=True, preexec_fn=die_with_parent())
    # srun's output is read by the one bounded reader (`children.Collector`): its stderr's last lines are kept, cut,
    # and its stdout's tail (the facts are its last line); past `children.OUTPUT_BYTES` srun is stopped. Both were
    # kept whole, and a chatty srun grew the wizard to 24 GB until the kernel's OOM killer fired (30th hostile pass
    # (part A) P2).
    err_lines: deque[str] = deque(maxlen=SRUN_ERR_LINES)

    def read_err(line: str) -> None:
        err_lines.append(line[:SRUN_LINE_CHARS])
        if not job.feed(line) and on_line is not None and line.strip():
            on_line(line[:SRUN_LINE_CHARS])

    collector = Collector(proc, on_err_line=read_err)
    started = time.monotonic()
    try:
        ended = wait_for(proc, job, deadline=started + target.wait + timeout, cancel=cancel, too_much=collector.over)
    finally:
        if proc.poll() is None:
            stop_srun(proc, job)
        collector.finished.wait(5)
        collector.close()
        if proc.poll() is not None:
            proc.wait()
        _keep_lines(log, list(err_lines))
    if ended == "cancelled":
        raise DetectionStopped(f"Detection through srun was stopped; {_job_words(job)} was cancelled.")
    if ended == "queue":
        raise OperationFailed(queue_sentence(job, target.where()))
    if ended == "timeout":
        raise OperationFailed(f"srun did not finish detection within {timeout:g} s on {target.where()}, so "
                              f"{_job_words(job)} was cancelled.")
    if ended == "output":
        where = f" Its last lines are in {log}." if log is not None else ""
        raise OperationFailed(f"{collector.sentence()}; {_job_words(job)} was cancelled.{where}")
    out = collector.out.text()
    data = _last_json(out)
    if proc.returncode != 0 or data is None:
        raise explain_srun_failure(target, "\n".join(err_lines) + "\n" + out[-2000:], "run detection", log)
    facts = Facts.from_dict(data)
    marker = dict(facts.slurm or {})
    marker.setdefault("node", facts.host or None)
    marker.update({"partition": marker.get("partition") or target.partition, "srun": srun,
                   "seconds": round(time.monotonic() - started, 3)})
    return with_node_words(facts._replace(slurm=marker), target)


def with_node_words(facts: Facts, target: SlurmTarget) -> Facts:
    """A node that shows the job no GPU is named as the node, with the two likely fixes, first among the
    problems (in place of "no driver on this machine"): the cluster may hand GPUs out only on request,
    or the partition may be the wrong one. A node whose driver is there but in trouble (`DRIVER_IN_TROUBLE`: not
    loaded, mismatched, hung) keeps its own warning: a partition or a GPU request is not what it needs."""
    if facts.gpus or facts.driver is not None or any(w.id in DRIVER_IN_TROUBLE for w in facts.warnings):
        return facts
    marker = facts.slurm or {}
    warning = DetectWarning("slurm_node_no_gpu", node_without_gpu(marker.get("node") or "?",
                                                                  marker.get("partition") or target.partition, target))
    rest = tuple(w for w in facts.warnings if w.id != "no_nvidia_driver")
    return facts._replace(warnings=(warning, *rest))


def node_without_gpu(node: str, partition: str | None, target: SlurmTarget) -> str:
    """"Node vm (partition gpu) shows this job no NVIDIA GPU …" and what to change, from what Slurm says."""
    where = f" (partition {partition})" if partition else ""
    head = f"Node {node}{where} shows this job no NVIDIA GPU, so only the CPU recipes can run there."
    flag = slurm_cluster.gpu_request_flag(partition)
    asked = [a for a in target.srun_args if a.startswith(("--gpus", "--gres", "-G", "--gpus-per"))]
    others = [p for p in slurm_cluster.gpu_partitions() if p != partition]
    if flag and not asked:
        fix = f"This partition hands GPUs out on request: add --srun-arg={flag} (o in the app changes it)."
    elif others:
        fix = f"Choose a partition with GPUs: {', '.join(others[:6])} (--slurm PARTITION; o in the app)."
    else:
        fix = ("If your cluster gives GPUs only on request, add --srun-arg=--gpus=1 (or --gres=gpu:1); otherwise "
               "choose another partition (`sinfo -o '%P %G'` lists their GPUs; o in the app changes both).")
    return f"{head} {fix}"


def _last_json(text: str) -> dict[str, Any] | None:
    for line in reversed(text.splitlines()):
        if line.strip():
            try:
                value = bounded.loads_json(line)
            except ValueError:
                return None
            return value if isinstance(value, dict) and "python" in value else None
    return None
