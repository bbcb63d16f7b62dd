"""The file names in a wheelhouse (or a bundle's wheels/) that can be package files: regular files only.

Why one place: a folder, a FIFO or a broken link named `pkg_a-1.0-py3-none-any.whl` is no wheel, yet a
name test alone counts it — the plan then promised a wheel uv could not find, and the install failed after
the environment was made (sixth hostile pass 12h). Every reader of a wheelhouse lists it through here.
"""

from __future__ import annotations

import os
from pathlib import Path


def package_files(folder: str | os.PathLike[str]) -> list[str]:
    """Sorted names of the regular files (links followed) in `folder`; OSError when it cannot be listed."""
    names = []
    with os.scandir(folder) as entries:
        for entry in entries:
            try:
                if entry.is_file():
                    names.append(entry.name)
            except OSError:  # a link that cannot be followed is no file
                continue
    return sorted(names)


def wheels_in(folder: str | os.PathLike[str], pattern: str = "*.whl") -> list[Path]:
    """The regular files in `folder` whose names match `pattern` (a glob), as paths; none when it cannot be read."""
    try:
        names = package_files(folder)
    except OSError:
        return []
    base = Path(folder)
    return [base / name for name in names if Path(name).match(pattern)]
