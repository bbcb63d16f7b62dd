"""The folder the last forecast that worked took its files from, remembered in the state folder.

Why: walk 23 #4 — after two good forecasts from a lab folder in the app, `gc-wizard forecast`
failed on the unreachable bucket without a word about that folder, and the next install's "Next:" lines said
`--assets DIR/assets` again. The CLI already names the GraphCast source the last install used; this does the same for
the forecast's files, in the failure and in the "Next:" lines (both faces print those).

Why one folder for the whole state folder, not one per environment: the files (weights, example data, statistics)
are not tied to an environment — the same folder served the v0.1.1 and the v0.2 environments in the walk — and a new
environment, the one the "Next:" lines are about, has no forecast of its own yet.

Only a local folder is kept, never a URL: a mirror's URL may carry a password, and no secret is written anywhere.
Remembering is a convenience: a state folder that cannot be written or read loses it silently, never a forecast.
"""

from __future__ import annotations

import json
from pathlib import Path

from wizard import bounded, paths
from wizard.security import expand_home

#: The file in the state folder.
NAME = "last-assets.json"  # one of paths.STATE_NAMES: a state holding it is still a state
_BYTES = 64 * 1024


def remember_assets(location: str) -> None:
    """Keep `location` (a local folder a forecast just worked from) as the one to name next time."""
    if "://" in location:
        return
    from wizard.security import write_private_file  # deferred: only after a forecast worked

    try:
        folder = str(Path(expand_home(location)).resolve())
        write_private_file(paths.ensure_state_dir() / NAME, json.dumps({"assets": folder}) + "\n")
    except (OSError, ValueError):
        pass


def remembered_assets() -> str | None:
    """The folder the last forecast that worked took its files from, when it is still a folder; else None."""
    try:
        data = bounded.read_json(paths.state_dir() / NAME, _BYTES)
    except (OSError, ValueError):
        return None
    folder = data.get("assets") if isinstance(data, dict) else None
    if not isinstance(folder, str) or "://" in folder or "\0" in folder or not Path(folder).is_dir():
        return None
    return folder


def forecast_ran() -> bool:
    """Whether a forecast has written its output into this state folder's forecasts/ (`forecast.output_path`):
    then the lines offer "another forecast", not "a first real forecast" (walk 24 #9)."""
    try:
        return any(p.suffix == ".nc" for p in (paths.state_dir() / "forecasts").iterdir())
    except OSError:
        return False
