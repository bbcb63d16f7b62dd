"""Makes the wizard's child processes die with it, even when it is killed outright.

Shared by every stage that starts a process (interpreter probes, installers, the GraphCast probe,
uv's freeze/sync), so it lives beside `wizard.paths` and `wizard.lock`, outside the stage layers.
"""

from __future__ import annotations

import os

_PR_SET_PDEATHSIG = 1
_prctl = None


def _load_prctl():
    global _prctl
    if _prctl is None:
        try:
            import ctypes

            _prctl = ctypes.CDLL(None, use_errno=True).prctl
        except (OSError, AttributeError):  # not Linux: the child then outlives a killed wizard
            _prctl = False
    return _prctl


def die_with_parent(then=None):
    """A `preexec_fn` that makes the child get SIGKILL when the wizard dies, even by SIGKILL.

    Why: a wizard killed outright (`kill -9`, the OOM killer, a Slurm job hitting its limit) runs no
    clean-up, and a GraphCast probe left running holds GPU memory on a shared server for as long as
    its jit init takes. Linux's parent-death signal (`prctl(PR_SET_PDEATHSIG)`) is delivered when the
    thread that started the child exits; the wizard's runner and probe wait for their child on that
    same thread, so it outlives the child in every normal run. If the wizard died between the fork and
    the prctl the child exits at once. `then` is another preexec function to run afterwards.
    """
    prctl = _load_prctl()  # resolved before the fork: the child only calls it
    parent = os.getpid()

    def preexec() -> None:
        if prctl:
            prctl(_PR_SET_PDEATHSIG, 9, 0, 0, 0)
            if os.getppid() != parent:
                os._exit(1)
        if then is not None:
            then()

    return preexec
