"""Holds the verify probe: a standalone script run by the *target environment's* Python.

`graphcast_probe.py` never imports `wizard` (the target environment does not have it, and may run a
different Python); the wizard only locates the file with `PROBE_PATH` and reads its JSON.
"""

from __future__ import annotations

from pathlib import Path

#: The probe script, run as `<env>/bin/python PROBE_PATH --backend … --level …`.
PROBE_PATH = Path(__file__).resolve().parent / "graphcast_probe.py"
