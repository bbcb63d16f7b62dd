"""A second stop signal ends `install` even when its worker thread is blocked in a call that never returns.

35th hostile pass (part A) P6: the worker sat in open() on a FIFO; the main thread said "stopping…" and then waited for
it for ever, and SIGTERM or Ctrl-C again did nothing (only SIGKILL ended the run). Past the grace after the first
signal, a second one leaves ("cancelled.", exit 128 + the first signal's number)."""

from __future__ import annotations

import argparse
import os
import signal
import threading
import time
from types import SimpleNamespace

import pytest

from wizard import children
from wizard.commands import guard
from wizard.commands import install as install_command


def test_a_second_signal_leaves_a_worker_blocked_for_ever(monkeypatch):
    monkeypatch.setattr(guard, "_received", [])
    # the first signal runs `children.stop_all`, which marks this whole process as stopping: put back afterwards, or
    # every later test in this worker starts no helper ("not started, the wizard is stopping": CI run 41, 43 failed)
    monkeypatch.setattr(children, "_stopping", False)
    monkeypatch.setattr(install_command, "STOP_GRACE_SECONDS", 0.0, raising=False)
    monkeypatch.setattr(install_command, "install_options", lambda _args: SimpleNamespace(recipe_id="tiny-a",
                                                                                          slurm=None))
    release = threading.Event()

    def blocked_plan(_options):
        os.kill(os.getpid(), signal.SIGTERM)  # the first stop: the worker goes on being blocked
        while guard.received() is None and not release.is_set():
            time.sleep(0.01)
        os.kill(os.getpid(), signal.SIGTERM)  # the second
        release.wait(20)  # stands in for open() on a FIFO (bounded, so a regression fails instead of hanging)
        raise RuntimeError("the blocked call returned")

    monkeypatch.setattr(install_command, "plan_for", blocked_plan)
    args = argparse.Namespace(answers=None, save_answers=None, json=True, yes=True, keep_unchecked=False)
    try:
        with pytest.raises(KeyboardInterrupt) as info:
            install_command.run(args)
        assert type(info.value) is KeyboardInterrupt  # left at the second signal, not after the worker ended
        assert guard.signal_exit() == 128 + signal.SIGTERM
    finally:
        release.set()
