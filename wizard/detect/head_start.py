"""The NVML probe child started before the command's own modules load, so its start-up overlaps theirs.

Why: on a GPU server the probe child (`gpu_probe`: a bare Python that loads pynvml and NVML) is the
longest wait in `gc-wizard detect`, and it waited for nothing — it needs no argument the command parses,
only the environment. The CLI starts it as soon as it knows the command will detect this machine
(`begin`), and `detect()` adopts it (`adopt`) when its environment is the one it would have started it
with. What is never adopted (a usage error, an environment changed since) is stopped by `drop`, which the
CLI calls on every way out, so no probe outlives the command.
"""

from __future__ import annotations

from wizard.detect import deadline, gpu_probe

#: The started child, with the environment and deadline it was started with; empty when none is waiting.
_waiting: list[tuple[dict[str, str], float, deadline.Running]] = []


def begin(environ: dict[str, str], timeout: float = deadline.PROBE_TIMEOUT) -> None:
    """Start the probe child now, if the driver's libraries are where the loader looks (else `detect()`
    decides with the loader's cache, as it always has)."""
    if not _waiting and gpu_probe.driver_library_in_folders(environ):
        _waiting.append((dict(environ), timeout, gpu_probe.start(environ, timeout)))


def adopt(environ: dict[str, str], timeout: float) -> deadline.Running | None:
    """The waiting child when it was started with this environment and deadline; else None (and it is stopped)."""
    if not _waiting:
        return None
    started_with, started_timeout, running = _waiting.pop()
    if started_with == environ and started_timeout == timeout:
        return running
    running.stop()
    return None


def drop() -> None:
    """Stop a child nobody adopted (the command ended before detecting)."""
    while _waiting:
        _waiting.pop()[2].stop()
