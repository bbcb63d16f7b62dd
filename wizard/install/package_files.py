"""The file names in a wheelhouse (or a bundle's wheels/) that can be package files: regular files only.

Why one place: a folder, a FIFO or a broken link named `pkg_a-1.0-py3-none-any.whl` is no wheel, yet a
name test alone counts it — the plan then promised a wheel uv could not find, and the install failed after
the environment was made (sixth hostile pass 12h). Every reader of a wheelhouse lists it through here.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from wizard.paths import not_utf8

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


def names_not_utf8(folder: str | os.PathLike[str]) -> list[str]:
    """The names in `folder` that are not UTF-8 on disk, each shown with those bytes as `\\xNN`
    (`paths.not_utf8`, the one wording for such a path); empty when there are none or the folder cannot be listed.

    Why: pip turns every name in a `--find-links` folder into a URL, and one name that is not UTF-8 made it crash
    with a Python traceback (`UnicodeEncodeError … in position 36`), naming no file (27th hostile pass (part A)
    P5); uv passes such a file by. Every entry counts, not only package names: pip converts them all."""
    try:
        with os.scandir(folder) as entries:
            return sorted(shown for entry in entries if (shown := not_utf8(entry.name)) is not None)
    except OSError:
        return []


def names_pip_cannot_read(folders, installer: str, *, refused: str) -> str | None:
    """The sentence for `--find-links` folders holding names that are not UTF-8 (`names_not_utf8`), or None.

    With `installer` "pip" it is a refusal, said before anything runs and ending with `refused` (what was not done);
    with uv, which passes such a file by, a note for the plan: the same folder would stop pip (`--installer pip`,
    `bundle`). Local folders only; a URL's page is the server's."""
    for folder in folders:
        folder = str(folder)
        if "://" in folder or not os.path.isdir(folder):
            continue
        bad = names_not_utf8(folder)
        if not bad:
            continue
        names = ", ".join(bad[:3]) + (f" and {len(bad) - 3} more" if len(bad) > 3 else "")
        one = len(bad) == 1
        shown = not_utf8(folder) or folder
        if installer == "pip":
            return (f"--find-links {shown}: the name of {names} is not UTF-8, which pip cannot read (it stops on "
                    f"the whole folder with an error of its own); rename or move {'it' if one else 'them'}. {refused}")
        return (f"--find-links {shown}: the name of {names} is not UTF-8; uv passes {'it' if one else 'them'} by, but "
                f"pip cannot read the folder so (--installer pip, bundle): rename or move {'it' if one else 'them'}.")
    return None


def wheels_in(folder: str | os.PathLike[str], pattern: str = "*.whl") -> list[Path]:
    """The regular files in `folder` whose names match `pattern` (a glob), as paths; none when it cannot be read."""
    try:
        names = package_files(folder)
    except OSError:
        return []
    base = Path(folder)
    return [base / name for name in names if Path(name).match(pattern)]
