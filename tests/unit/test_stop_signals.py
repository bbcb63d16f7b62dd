"""`wizard.errors.STOP_SIGNALS`: every signal whose default action ends a process is one the wizard stops cleanly on.

The class behind eleventh hostile pass #130/#132: SIGQUIT, SIGUSR1 (Slurm's `--signal=USR1@T`), SIGUSR2 and SIGALRM
killed the wizard mid-install with no clean-up, because only INT, TERM and HUP were handled. Here the kernel itself
says which signals end a process: each is sent to a real `sleep`, and every one that kills it must be in the list
(apart from the faults a program raises against itself and the two no handler can catch).
"""

from __future__ import annotations

import signal
import subprocess

import pytest

from wizard.commands import guard
from wizard.errors import STOP_SIGNALS, signal_words

#: Not requests to stop: faults of the process itself (a handler would run on a broken state), SIGPIPE (Python
#: ignores it; the streams layer handles a gone reader), SIGKILL/SIGSTOP (cannot be caught) and the real-time
#: signals no tool sends to stop a program.
_NOT_STOPS = {"SIGILL", "SIGTRAP", "SIGABRT", "SIGBUS", "SIGFPE", "SIGSEGV", "SIGSYS", "SIGPIPE", "SIGKILL",
              "SIGSTOP", "SIGSTKFLT"}


def _ends_a_process(sig: signal.Signals) -> bool:
    child = subprocess.Popen(["sleep", "30"])
    try:
        child.send_signal(sig)
        try:
            return child.wait(timeout=1.0) != 0
        except subprocess.TimeoutExpired:
            return False
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()


def test_every_signal_that_ends_a_process_is_a_stop_signal():
    candidates = [s for s in signal.Signals if s.name.startswith("SIG") and not s.name.startswith("SIGRT")
                  and s.name not in _NOT_STOPS]
    ending = [s for s in candidates if _ends_a_process(s)]
    assert {"SIGQUIT", "SIGUSR1", "SIGUSR2", "SIGALRM"} <= {s.name for s in ending}
    missing = sorted(s.name for s in ending if s not in STOP_SIGNALS)
    assert missing == [], f"these end the wizard without clean-up: {missing}"


def test_the_cli_guard_and_the_install_handler_use_the_one_list():
    assert guard.SIGNALS is STOP_SIGNALS


@pytest.mark.parametrize("sig", [signal.SIGUSR1, signal.SIGUSR2, signal.SIGQUIT, signal.SIGALRM, signal.SIGXCPU,
                                 signal.SIGVTALRM])
def test_a_stop_by_any_of_them_exits_128_plus_its_number_and_names_it(sig):
    stopped = guard.Stopped(sig)
    assert stopped.exit_code == 128 + sig
    assert sig.name in stopped.what and sig.name in signal_words(sig)
