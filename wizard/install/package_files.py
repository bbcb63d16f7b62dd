"""The file names in a wheelhouse (or a bundle's wheels/) that can be package files: regular files only.

Why one place: a folder, a FIFO or a broken link named `pkg_a-1.0-py3-none-any.whl` is no wheel, yet a
name test alone counts it — the plan then promised a wheel uv could not find, and the install failed after
the environment was made (sixth hostile pass 12h). Every reader of a wheelhouse lists it through here.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

#: Names an installer takes for a package file in a find-links folder.
PACKAGE_SUFFIXES = (".whl", ".tar.gz", ".tgz", ".tar.bz2", ".zip")


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


def unreadable_package_entries(folder: str | os.PathLike[str]) -> list[str]:
    """Names in `folder` an installer would open as a package file that are no file to read: a FIFO, a socket or a
    device (also through a link). The wizard's own readers pass them by, but uv opens them: a FIFO named like a
    wheel held the install in "Install the pinned packages" until the half-hour inactivity limit (eighteenth
    hostile pass P6). Empty when the folder cannot be listed (its own check says so)."""
    odd = []
    try:
        with os.scandir(folder) as entries:
            for entry in entries:
                if not entry.name.endswith(PACKAGE_SUFFIXES):
                    continue
                try:
                    mode = os.stat(entry.path).st_mode
                except OSError:
                    continue  # a dangling link: nothing to open, uv passes it by too
                if not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):
                    odd.append(entry.name)
    except OSError:
        return []
    return sorted(odd)


def wheels_in(folder: str | os.PathLike[str], pattern: str = "*.whl") -> list[Path]:
    """The regular files in `folder` whose names match `pattern` (a glob), as paths; none when it cannot be read."""
    try:
        names = package_files(folder)
    except OSError:
        return []
    base = Path(folder)
    return [base / name for name in names if Path(name).match(pattern)]
