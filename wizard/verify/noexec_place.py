"""The noexec mount a library that failed to load really lies on, for `noexec_mount`'s fix.

Why: 31st hostile pass (part A) P2 — with the state folder (so every new environment) on a noexec tmpfs, the install
ran to its check, jaxlib's `cpu_feature_guard.so` failed to map from the environment, and the fix led with "Point
the temporary folder (TMPDIR) at a filesystem that allows programs", though TMPDIR was fine: the knowledge file's
fix is written for the common case (pip's build folders in /tmp). When a library the evidence names is on this
machine, on a noexec mount that is not the temporary folder's, the fix names that mount and the way out instead.
"""

from __future__ import annotations

import re
import tempfile
from pathlib import Path

from wizard import paths
from wizard.security import shell_word

#: An absolute path of a shared library in the loader's words ("/x/y/lib.so.1: failed to map segment …").
_LIBRARY = re.compile(r"(/[^\s:'\"()]+\.so(?:\.[\w.-]+)?)")


def noexec_place_fix(evidence: list[str]) -> str | None:
    """A fix template (`{recipe}` left to fill) naming the noexec mount of the first library in `evidence` found on
    this machine, when that mount is not the temporary folder's; None otherwise (a pasted log from elsewhere, or a
    library in TMPDIR: the knowledge file's own fix is right then)."""
    temporary = paths.noexec_mount(tempfile.gettempdir())
    for line in evidence:
        for found in _LIBRARY.findall(line):
            library = Path(found)
            if not library.exists():
                continue
            mount = paths.noexec_mount(library.parent)
            if mount is None or mount == temporary:
                continue
            shown, quoted = _escaped(str(mount)), _escaped(shell_word(str(mount)))
            return (f"The library {_escaped(str(library))} lies on {shown}, which is mounted noexec (`findmnt -T "
                    f"{quoted} -o TARGET,OPTIONS` shows it), so nothing compiled loads from there; the temporary "
                    "folder (TMPDIR) has no part in it. Install into a new environment on a disk that allows programs "
                    "(`gc-wizard install {recipe} --env ~/envs/gc`), or point GC_WIZARD_HOME at a folder on one for "
                    "every new environment. Remounting it with exec needs the administrator "
                    f"(`mount -o remount,exec {quoted}`), and most sites keep noexec on purpose.")
    return None


def _escaped(text: str) -> str:
    """`text` as a literal part of a template (`str.format_map` leaves it as it is)."""
    return text.replace("{", "{{").replace("}", "}}")
