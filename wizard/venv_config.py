"""A venv's `pyvenv.cfg`, read as Python's `site` reads it (`key = value` lines), running nothing.

Why one module, below every layer: detection (which Python an env holds, whether it sees system site-packages),
activation (whether the env's search path reaches the system's) and the swap rule (`source_trust`, which judges the
installation a `--python`'s `home` names, 27th hostile pass (part B) P9) all read the same file; two readers had
drifted apart (one opened whatever the path named, FIFOs included; the other only regular files, bounded).
"""

from __future__ import annotations

import os
import re
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


def not_a_file(path: Path) -> str | None:
    """What a `pyvenv.cfg` that is there but cannot be one is — "a named pipe (FIFO), not a regular file" — or None
    (a regular file, or nothing there: the caller's "missing"). `read` takes both as {}, and a FIFO was then called
    "missing", its env "system" (35th hostile pass (part A) P7): the sentence names what the path is."""
    try:
        why = bounded.not_regular(path)
    except FileNotFoundError:
        return f"a link to {os.readlink(path)}, which does not exist" if os.path.islink(path) else None
    except OSError as exc:
        return f"a path that cannot be looked at ({exc.strerror or exc})"
    return why.removeprefix("it is ") if why else None


def python_version(env: Path) -> str | None:
    """The X.Y.Z of the Python an environment runs, as its `pyvenv.cfg` records it (`version_info` from uv,
    `version` from venv and virtualenv), or None when the file cannot say.

    Why the one reader: what the wizard recorded of an environment's Python was the plan's word, taken before the
    environment existed; a rollback rebuilt an env on a `--python` path that now ran 3.11.7, said "Python 3.11.2"
    and wrote 3.11.2 into its marker and history (32nd hostile pass (part B) P4). The env's own file is what its
    interpreter is; detection, the install's record and the rebuild all read it here."""
    config = read(Path(env) / "pyvenv.cfg")
    version = (config.get("version_info") or config.get("version") or "").strip()
    match = re.match(r"(3\.[0-9]{1,3}\.[0-9]{1,3})(?![0-9])", version)
    return match.group(1) if match else None
