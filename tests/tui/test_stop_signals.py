"""The app leaves cleanly on every stop signal (`wizard.errors.STOP_SIGNALS`), not only SIGHUP and SIGTERM.

Eleventh hostile pass #130/#132: SIGUSR1 (Slurm's warning before a job's time limit), SIGQUIT, SIGUSR2 and
SIGALRM ended the process at once, with no clean-up. A real signal is sent to this process while the app runs.
"""

from __future__ import annotations

import os
import signal

import pytest

from tests.fixtures.pilot import SIZE, until
from wizard.errors import STOP_SIGNALS
from wizard.tui.app import _SIGNAL_EXITS, WizardApp
from wizard.tui.screens.machine import MachineScreen


def test_the_app_handles_every_stop_signal_with_its_status():
    assert set(_SIGNAL_EXITS) == set(STOP_SIGNALS)
    assert _SIGNAL_EXITS[signal.SIGUSR1] == 138 and _SIGNAL_EXITS[signal.SIGHUP] == 129


@pytest.mark.parametrize("sig", [signal.SIGUSR1, signal.SIGQUIT, signal.SIGALRM])
async def test_a_real_signal_makes_the_app_leave_with_128_plus_its_number(sig, gpu_server):
    gpu_server("no-nvidia")
    app = WizardApp()
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, MachineScreen), settle=0.2)
        os.kill(os.getpid(), sig)
        await until(pilot, lambda: app.exit_status is not None, settle=0.2)
    assert app.return_code == 128 + sig
