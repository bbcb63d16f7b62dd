"""A recorded package set that a rollback installs holds only what the wizard itself records.

Why: history.json is a file its owner (or anything running as them) can edit, and a rollback re-installs an
entry's `packages` — `uv pip sync` takes `name @ file:///anywhere/x.whl` as readily as a pin. The sixth hostile
pass edited an entry to `graphcast @ file:///elsewhere/graphcast-0.1.1-py3-none-any.whl` (a wheel carrying a
`.pth` file that runs at every Python start) and the rollback rebuilt the env from it without a word.

What the wizard records, from `uv pip freeze` after its own install: `name==version` pins, and one direct
reference — GraphCast's source, which is a commit of its git repository (`git+https://…@<40 hex>`), or a file or
checkout the install was given: one inside the state folder, inside the bundle or a wheelhouse the entry
records, or the very file recorded with its sha256 at install time (`Entry.graphcast_source`). Anything else in
a set is refused, by entry and line, before anything changes. This is defence in depth for a file someone
edited, not a signature: whoever can edit history.json can edit every field of it.
"""

from __future__ import annotations

import hashlib
import os
import re
import urllib.parse
from pathlib import Path

from packaging.utils import canonicalize_name

from wizard.install.pinned import pin_of

GIT_COMMIT = re.compile(r"^git\+https?://\S+@[0-9a-f]{40}(?:#\S*)?$")
_CHUNK = 1 << 20


def graphcast_source_record(packages: list[str]) -> dict[str, str] | None:
    """What an install records of its GraphCast direct reference: the line, and the sha256 of the file it
    names when that is a regular file (a wheel or source archive); None when GraphCast came as a pin or from
    a commit (nothing to check later)."""
    for line in packages:
        name, sep, ref = line.partition(" @ ")
        if sep and str(canonicalize_name(name.strip())) == "graphcast" and ref.strip().startswith("file://"):
            path = _file_path(ref.strip())
            digest = _sha256(path) if path is not None and path.is_file() else None
            return {"requirement": line.strip(), **({"sha256": digest} if digest else {})}
    return None


def foreign_requirement(packages: list[str], *, roots: list[Path],
                        recorded: dict | None) -> tuple[int, str, str] | None:
    """The first line of `packages` the wizard would never have recorded: (its number from 1, the line, why);
    None when every line is a pin or GraphCast's recorded source (see the module docstring)."""
    for number, raw in enumerate(packages, 1):
        line = raw.strip()
        if not line or line.startswith("#") or pin_of(line) is not None:
            continue
        if line.startswith("-"):  # -e DIR, -r FILE, --index-url: the set would choose where code comes from
            return number, line, "it is an installer option, not a package"
        name, sep, ref = line.partition(" @ ")
        ref = ref.strip()
        if not sep:
            return number, line, "it is neither a name==version pin nor GraphCast's recorded source"
        if str(canonicalize_name(name.strip())) != "graphcast":
            return number, line, ("gc-wizard records every package but GraphCast as name==version, never from a "
                                  "direct reference")
        if GIT_COMMIT.match(ref):
            continue
        path = _file_path(ref)
        if path is None:
            return number, line, "GraphCast's source is neither a commit of its repository nor a local file"
        if isinstance(recorded, dict) and recorded.get("requirement") == line:
            expected = recorded.get("sha256")
            if not expected or (path.is_file() and _sha256(path) == expected):
                continue
            return number, line, f"{path} has changed since the install (its sha256 differs from the one recorded)"
        if any(_inside(path, root) for root in roots):
            continue
        return number, line, (f"it names {path}, outside the state folder and outside the bundle and wheelhouses "
                              "the entry records")
    return None


def _file_path(ref: str) -> Path | None:
    if not ref.startswith("file://"):
        return None
    parts = urllib.parse.urlsplit(ref)
    return Path(urllib.parse.unquote(parts.path)) if parts.netloc in ("", "localhost") else None


def _inside(path: Path, root: Path) -> bool:
    try:
        real, top = Path(os.path.realpath(path)), Path(os.path.realpath(root))
    except (OSError, ValueError):
        return False
    return top in real.parents


def _sha256(path: Path) -> str | None:
    digest = hashlib.sha256()
    try:
        with open(path, "rb") as handle:
            while block := handle.read(_CHUNK):
                digest.update(block)
    except OSError:
        return None
    return digest.hexdigest()
