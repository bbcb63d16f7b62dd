"""A venv's `pyvenv.cfg`, read as Python's `site` reads it (`key = value` lines), running nothing.

Why one module, below every layer: detection (which Python an env holds, whether it sees system site-packages),
activation (whether the env's search path reaches the system's) and the swap rule (`source_trust`, which judges the
installation a `--python`'s `home` names, 27th hostile pass (part B) P9) all read the same file; two readers had
drifted apart (one opened whatever the path named, FIFOs included; the other only regular files, bounded).
"""

from __future__ import annotations

from pathlib import Path

from wizard import bounded

_LIMIT = 64 * 1024
"""A pyvenv.cfg is a few lines; anything past this is not one Python would have written."""


def read(path: Path) -> dict[str, str]:
    """A `pyvenv.cfg` as {lower-case key: value}; {} when it is missing, unreadable or not a regular file."""
    try:
        lines = bounded.read_head(path, _LIMIT).decode("utf-8", "replace").splitlines()
    except OSError:
        return {}
    pairs = (line.split("=", 1) for line in lines if "=" in line)
    return {key.strip().lower(): value.strip() for key, value in pairs}
