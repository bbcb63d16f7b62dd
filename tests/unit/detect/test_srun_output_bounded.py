"""Detection through srun reads srun's output with the one bounded reader (`children.Collector`): a srun that prints
without end, on stdout or stderr, is stopped once it passes `children.OUTPUT_BYTES`, in one sentence that names it and
the limit, and only the last lines of its stderr are kept for the log.

30th hostile pass (part A) P2: stdout was `read()` whole and every stderr line appended to a list for the whole
detection (up to --slurm-wait + 600 s); a chatty srun grew the wizard to 24 GB and the kernel's OOM killer fired.
A real stand-in srun (`yes`) on PATH; without the bound each case runs to its 60 s limit and fails.
"""

from __future__ import annotations

import shutil

import pytest

from wizard.detect import slurm
from wizard.errors import OperationFailed

YES = shutil.which("yes") or "/usr/bin/yes"


@pytest.mark.parametrize("stream", ["", ">&2"])
def test_a_srun_that_prints_without_end_is_stopped_and_named(tmp_path, monkeypatch, stream):
    folder = tmp_path / "bin"
    folder.mkdir()
    srun = folder / "srun"
    srun.write_text(f"#!/bin/sh\nexec {YES} 'srun: task 0: chatter from the node xxxxxxxxxxxxxxxxxxxxxxxx' {stream}\n")
    srun.chmod(0o755)
    monkeypatch.setenv("PATH", f"{folder}:/usr/bin:/bin")
    with pytest.raises(OperationFailed) as caught:
        slurm.detect_on_node(slurm.SlurmTarget("gpu", wait=5), timeout=60)
    said = str(caught.value)
    assert said.startswith(f"{srun} printed more than 16 MiB of output") and "was cancelled" in said
    log = said.rsplit("Its last lines are in ", 1)[1].rstrip(".")
    with open(log, encoding="utf-8") as handle:
        kept = handle.read().splitlines()
    assert len(kept) <= slurm.SRUN_ERR_LINES + 1  # the argv line and the last lines, never all of them
