"""Every pipe of a child the wizard reads live is closed when the child is done (22nd hostile pass P7): under the
user's `PYTHONWARNINGS=error` (or `-X dev`), `verify` printed "Exception ignored … Traceback … ResourceWarning:
unclosed file" twice, with the wizard's own source lines. Both readers of that kind (the GraphCast probe and
detection through srun) end through `children.close_read_pipes`; each is run here in a real process with every
warning an error."""

from __future__ import annotations

import os
import subprocess
import sys

from tests.fixtures.state import REPO

_PROBE = """
import gc, os, sys
from pathlib import Path
from wizard.install.runner import StepLog
from wizard.verify.check import ProbeListeners, ProbeStream, run_probe
log = StepLog(Path(sys.argv[1]))
code = "import sys; print('out'); print('err', file=sys.stderr)"
run = run_probe([sys.executable, "-c", code], dict(os.environ), Path("."), ProbeStream(), log, timeout=30,
                cancel=None, listeners=ProbeListeners())
log.close()
gc.collect()
print("rc", run.returncode)
"""

_SRUN = """
import gc, sys
from wizard.detect.slurm import SlurmTarget, detect_on_node
facts = detect_on_node(SlurmTarget(wait=5), timeout=60)
gc.collect()
print("host", bool(facts.host))
"""


def _strict(code: str, *args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-X", "dev", "-W", "error", "-c", code, *args], capture_output=True,
                          text=True, cwd=REPO, timeout=120,
                          env={**os.environ, "PYTHONWARNINGS": "error", "PYTHONPATH": str(REPO), **(env or {})})


def test_the_graphcast_probe_leaves_no_pipe_open(tmp_path):
    proc = _strict(_PROBE, str(tmp_path / "verify.log"))
    assert proc.stdout.strip().endswith("rc 0"), proc.stderr
    assert proc.stderr == ""
    assert "out" in (tmp_path / "verify.log").read_text()


def test_detection_through_srun_leaves_no_pipe_open(tmp_path, isolated_state):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    srun = bin_dir / "srun"  # a stand-in that runs its program here, as srun runs it on a node
    srun.write_text('#!/bin/sh\nwhile [ "${1#--}" != "$1" ]; do shift; done\nexec "$@"\n')
    srun.chmod(0o755)
    proc = _strict(_SRUN, env={"PATH": f"{bin_dir}:{os.environ['PATH']}", "GC_WIZARD_HOME": str(isolated_state)})
    assert proc.stdout.strip() == "host True", proc.stderr
    assert proc.stderr == ""


def test_no_reader_is_cut_short_when_a_member_holds_the_pipe(tmp_path):
    """A pipe whose reader still waits (a background member that left the group holds it) is left to that reader:
    `close_read_pipes` returns within its timeout instead of blocking on the stream's lock."""
    import threading
    import time

    from wizard.children import close_read_pipes

    proc = subprocess.Popen([sys.executable, "-c", "import os, time\nif os.fork() == 0:\n    os.setsid(); "
                             "time.sleep(3)\n"], stdout=subprocess.PIPE, text=True)
    reader = threading.Thread(target=proc.stdout.read, daemon=True)
    reader.start()
    started = time.monotonic()
    close_read_pipes(proc, [(proc.stdout, reader)], timeout=0.3)
    assert time.monotonic() - started < 2 and not proc.stdout.closed
    reader.join(5)
    proc.stdout.close()
    proc.wait()
