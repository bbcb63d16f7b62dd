"""Holds the probes: standalone scripts run by the *target environment's* Python.

`graphcast_probe.py` (the check) and `forecast_probe.py` (the first forecast, which builds its model with the
check's own pieces) never import `wizard` (the target environment does not have it, and may run a
different Python); the wizard only locates the file with `PROBE_PATH` and reads its JSON.
"""

from __future__ import annotations

from pathlib import Path

#: The probe script, run as `<env>/bin/python PROBE_PATH --backend … --level …`.
PROBE_PATH = Path(__file__).resolve().parent / "graphcast_probe.py"
#: The forecast, run as `<env>/bin/python FORECAST_PROBE_PATH --params … --dataset … --stats … --out …`.
FORECAST_PROBE_PATH = PROBE_PATH.with_name("forecast_probe.py")
