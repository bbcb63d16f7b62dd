"""The only requirement lines the wizard itself writes into a lock or records for a rebuild: `name==version`.

Why: a bundle's `requirements.txt` and a history entry's package list are files someone can edit. pip and uv
take far more than pins from them — `pkg @ file:///elsewhere/x.whl`, a URL, a path, `-e`, `-r other.txt`,
`--index-url`, `--find-links` — and any of those installs code from outside what the wizard made and checked
(sixth hostile pass 12b: a bundle's lock gained `pkg-b @ file:///outside/…whl --hash=…`, and the install put
that outside wheel into the env). So a lock from a bundle, and a recorded set used for a rebuild, accept exactly
what the wizard writes: a pin, with its `--hash=sha256:` options, and nothing else.
"""

from __future__ import annotations

import re

from packaging.utils import canonicalize_name
from packaging.version import InvalidVersion, Version

PIN = re.compile(r"^([A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)(?:\[[A-Za-z0-9._,-]*\])?==([A-Za-z0-9.+!_-]+)$")
HASH = re.compile(r"^--hash=sha256:[0-9a-fA-F]{64}$")


def pin_of(text: str) -> tuple[str, str] | None:
    """(canonical name, version) for a bare `name==version` (extras allowed), else None."""
    match = PIN.match(text.strip())
    return (str(canonicalize_name(match.group(1))), match.group(2)) if match else None


def logical_lines(text: str) -> list[tuple[int, str]]:
    """(first line number, line) for each requirement of a requirements file: `\\` continuations joined, comments
    (`#` at the start or after a space) and blank lines left out."""
    out: list[tuple[int, str]] = []
    pending, start = "", 0
    for number, raw in enumerate(text.splitlines(), 1):
        line = re.sub(r"(^|\s)#.*$", "", raw)
        if not pending:
            start = number
        if line.rstrip().endswith("\\"):
            pending += line.rstrip()[:-1] + " "
            continue
        whole = (pending + line).strip()
        pending = ""
        if whole:
            out.append((start, whole))
    if pending.strip():
        out.append((start, pending.strip()))
    return out


def foreign_line(text: str, packages: dict[str, str]) -> tuple[int, str, str] | None:
    """The first requirement in `text` that is not a hashed pin of one of `packages` (name -> version):
    (line number, the line, why); None when every line is one."""
    wanted = {str(canonicalize_name(name)): version for name, version in packages.items()}
    for number, line in logical_lines(text):
        first, *rest = line.split()
        pin = pin_of(first)
        if pin is None:
            return number, line, "it is not a `name==version` pin (a direct reference, URL, path or option installs " \
                                 "from outside the bundle)"
        bad = next((token for token in rest if not HASH.match(token)), None)
        if bad is not None:
            return number, line, f"{bad!r} is not a `--hash=sha256:` option"
        name, version = pin
        if wanted.get(name) != version:
            return number, line, (f"{name} {version} is not among the packages its manifest lists"
                                  if name not in wanted else f"its manifest lists {name} {wanted[name]}")
    return None


def same_version(a: str, b: str) -> bool:
    """Whether two version strings name one version (`1.0` and `1.0.0`); compared as text when either is no
    version packaging can read."""
    try:
        return Version(a) == Version(b)
    except InvalidVersion:
        return a == b
