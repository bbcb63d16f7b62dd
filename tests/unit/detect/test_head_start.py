"""Detection's head start: the probe child the CLI starts before the command's modules load.

Real probe children on the stand-in server (the compiled `libnvidia-ml.so.1` under the real pynvml): the
child begun early is the one `detect()` reads, a child begun with another environment is stopped and not
read, and no child outlives a command that ended before detecting, however it ended.
"""

from __future__ import annotations

import os

import pytest

from tests.fixtures.cli import run_inproc
from wizard.detect import gpu_probe, head_start
from wizard.detect.chain import detect


@pytest.fixture
def started(monkeypatch):
    """Every probe child started during the test (the real `gpu_probe.start`, recorded)."""
    children = []
    real_start = gpu_probe.start

    def recording_start(environ, timeout):
        running = real_start(environ, timeout)
        children.append(running)
        return running

    monkeypatch.setattr(gpu_probe, "start", recording_start)
    yield children
    head_start.drop()


def test_detect_reads_the_child_begun_early(gpu_server, started):
    gpu_server("a100x2-535")
    head_start.begin(dict(os.environ))
    assert len(started) == 1
    facts = detect()
    assert len(started) == 1  # adopted: no second child
    assert (facts.driver.source, facts.driver.version, len(facts.gpus)) == ("nvml", "535.104.05", 2)
    assert started[0].popen.poll() == 0


def test_a_child_begun_with_another_environment_is_stopped_and_not_read(gpu_server, started):
    env = gpu_server("a100x2-535")
    head_start.begin({**os.environ, "LD_LIBRARY_PATH": env["LD_LIBRARY_PATH"] + os.pathsep + "/elsewhere"})
    facts = detect()
    assert len(started) == 2  # the early one stopped, a fresh one read
    assert started[0].popen.poll() is not None
    assert facts.driver.source == "nvml"


def test_no_child_without_a_driver_library_where_the_loader_looks(gpu_server, started):
    gpu_server("no-nvidia")
    head_start.begin(dict(os.environ))
    assert started == []
    assert head_start.adopt(dict(os.environ), 8.0) is None


def test_a_hanging_child_nobody_adopted_is_stopped_by_drop(gpu_server, started):
    gpu_server("nvml-hang")
    head_start.begin(dict(os.environ))
    assert started and started[0].popen.poll() is None  # NVML hangs: the child waits
    head_start.drop()
    assert started[0].popen.poll() is not None
    assert head_start.adopt(dict(os.environ), 8.0) is None


@pytest.mark.parametrize(("argv", "override"), [
    (["detect", "--no-such-option"], None),  # a usage error: argparse exits before detecting
    (["detect", "--json"], "twelve"),  # a malformed override, refused before the probe is read
])
def test_a_command_that_ends_before_detecting_leaves_no_child(gpu_server, started, monkeypatch, argv, override):
    gpu_server("nvml-hang")
    if override:
        monkeypatch.setenv("GC_WIZARD_CUDA_DRIVER_VERSION", override)
    result = run_inproc(*argv)
    assert result.returncode != 0, result.stderr
    assert started, "the CLI began no probe child"
    assert all(running.popen.poll() is not None for running in started)


def test_slurm_and_other_commands_begin_no_child(gpu_server, started):
    gpu_server("a100x2-535")
    run_inproc("history", "--json")
    run_inproc("detect", "--json", "--slurm", "nosuchpartition", "--slurm-wait", "1")
    assert started == []
