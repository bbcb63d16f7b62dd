"""A stop signal ends a detection probe at once, whatever its deadline (thirteenth hostile pass #23).

`install` plans in a worker thread and stops its helpers with `children.stop_all` from the signal handler; the NVML
probe of a wedged driver was not among them, so a Ctrl-C waited out the probe's 8-second deadline. Real children:
`sleep` stands in for a probe that never answers, with a deadline far beyond the test's patience.
"""

from __future__ import annotations

import threading

import pytest

from wizard import children
from wizard.detect import deadline


@pytest.fixture
def fresh_registry(monkeypatch):
    monkeypatch.setattr(children, "_stopping", False)
    monkeypatch.setattr(children, "_running", set())


def test_stop_all_kills_a_running_probe_group(fresh_registry):
    probe = deadline.start(["sh", "-c", "sleep 600 & sleep 600"], timeout=600)
    done: list[deadline.Completed] = []
    waiter = threading.Thread(target=lambda: done.append(probe.finish()), daemon=True)
    waiter.start()
    children.stop_all()
    waiter.join(60)  # a bound for a hang only: the probe's own deadline is ten minutes
    assert done, "the probe was not stopped"
    (result,) = done
    assert result.returncode == -9 and not result.timed_out
    assert children._running == set()


def test_no_probe_starts_once_the_wizard_is_stopping(fresh_registry):
    children.stop_all()
    result = deadline.run(["sleep", "600"], timeout=600)
    assert result.missing and "the wizard is stopping" in result.stderr


def test_a_finished_probe_is_no_longer_tracked(fresh_registry):
    assert deadline.run(["true"], timeout=30).ok
    late = deadline.start(["sleep", "600"], timeout=0.2)
    assert late.finish().timed_out
    assert children._running == set()
