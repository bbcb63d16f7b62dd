"""No probe child outlives the wizard (twelfth hostile pass #24-#26): with a wedged driver the NVML probe hangs
for ever, and one begun early (before the command's modules load) was left behind, reparented to init, when the
wizard was stopped by SIGTERM, a Ctrl-C to its group, or SIGKILL — eighteen piled up over one tester's run.

Real processes: the stand-in server whose NVML never answers, the real wizard, real signals.
"""

from __future__ import annotations

import os
import signal

import pytest

from tests.fixtures.processes import spawn, wait_until

pytestmark = pytest.mark.flaky(reruns=2, reruns_delay=2)


@pytest.mark.parametrize("command", [["detect", "--json"], ["recipes"], ["plan", "jax0.4.23-cpu"],
                                     ["install", "jax0.4.23-cpu", "--yes", "--offline"]])
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT, signal.SIGKILL], ids=["TERM", "INT", "KILL"])
def test_a_hanging_probe_dies_with_the_wizard(command, sig, gpu_server, isolated_state, watch):
    gpu_server("nvml-hang")
    proc = spawn(*command)
    w = watch(proc)
    wait_until(lambda: w.matching("gpu_child.py"), "the NVML probe hanging", proc=proc)
    if sig == signal.SIGINT:
        os.killpg(proc.pid, sig)  # a Ctrl-C reaches the terminal's whole foreground group; the probe has its own
    else:
        proc.send_signal(sig)
    proc.communicate(timeout=60)
    assert w.left() == {}, "processes left behind"
