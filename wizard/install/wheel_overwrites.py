"""Which files of the recipe's other packages a GraphCast wheel would overwrite.

Why: GraphCast's step runs after the pins, with `--no-deps`, and an installer unpacks every member of a wheel into
site-packages whoever owned the file before. A "GraphCast" wheel holding `pkg_a.py` (or `jax/__init__.py`) replaced
that package's module silently: the plan called the member "new; its code runs whenever GraphCast is imported", and
nothing afterwards said that pkg-a's files were no longer pkg-a's (31st hostile pass (part B) P8). The wheel's members
are compared with the files of each pinned package — its own wheel's members where a local wheelhouse holds it,
else the names a distribution of that name installs (`NAME/`, `NAME.py`, `NAME-VERSION.dist-info/`).
"""

from __future__ import annotations

import posixpath
import re
import zipfile
from pathlib import Path

from packaging.utils import canonicalize_name

from wizard.install.pinned import pin_of
from wizard.install.recorded_set import wheel_in_folders

#: A member under a wheel's `NAME-VER.data/SCHEME/`: where it lands depends on the scheme (`_landing`).
_DATA = re.compile(r"^[^/]+\.data/(?P<scheme>[^/]+)/(?P<rest>.+)$")
#: site-packages as a path under the environment's prefix (where `.data/data/` members land).
_SITE_IN_PREFIX = re.compile(r"^lib(?:64)?/python[0-9.]+t?/site-packages/(?P<rest>.+)$")
#: How a member landing outside site-packages, under the environment's prefix, is spelled: `<env>/bin/activate`.
ENV_PREFIX = "<env>/"
#: The environment's own files, which no package's wheel may replace: its activation scripts, its python, its
#: configuration and gc-wizard's marker (`envs.MARKER`, spelled here: `envs` imports the install steps that import this).
_ENV_OWN = re.compile(r"^(?:pyvenv\.cfg|gc-wizard-env\.json|lib64|bin/(?:activate|deactivate|python|pydoc)[^/]*)$")
#: The label `overwritten_packages` gives a member that lands on one of the environment's own files.
ENV_OWN = "the environment itself"
#: The import name of a top-level module file: `pkg_a.py`, `pkg_a.cpython-311-x86_64-linux-gnu.so`, `pkg_a.pyi`.
_MODULE = re.compile(r"^(?P<name>[A-Za-z0-9_]+)(?:\.[^/]*)?\.(?:py|pyi|pyc|so|pyd)$")


def _members(wheel: Path) -> list[str]:
    """Where each file of `wheel` lands, relative to site-packages (its `.data/purelib` members at the top too);
    [] for a file that is not a readable zip."""
    try:
        with zipfile.ZipFile(wheel) as archive:
            names = [info.filename for info in archive.infolist() if not info.is_dir()]
    except (OSError, zipfile.BadZipFile, ValueError):
        return []
    return [_landing(name.lstrip("/")) for name in names]


def _landing(name: str) -> str:
    """Where a wheel member lands: relative to site-packages, or `ENV_PREFIX` + its place under the environment's
    prefix. `.data/purelib/` and `/platlib/` are site-packages; `.data/data/` is the prefix, so its
    `lib/pythonX.Y/site-packages/REST` is `REST`; `.data/scripts/` is the prefix's `bin/`, `.data/headers/` its
    `include/`.

    Why every scheme: 32nd hostile pass (part B) P1 — `graphcast-0.1.1.data/data/lib/python3.11/site-packages/
    pkg_a.py` replaced pkg-a's module, and `.data/data/bin/activate` the environment's own, with no refusal, while
    the same member under `.data/purelib/` was refused."""
    data = _DATA.match(name)
    if data is None:
        return name
    scheme, rest = data.group("scheme"), posixpath.normpath(data.group("rest"))
    if rest.startswith("../") or rest == "..":
        return name
    if scheme in ("purelib", "platlib"):
        return rest
    if scheme == "data":
        site = _SITE_IN_PREFIX.match(rest)
        return site.group("rest") if site else ENV_PREFIX + rest
    if scheme == "scripts":
        return ENV_PREFIX + "bin/" + rest
    if scheme == "headers":
        return ENV_PREFIX + "include/" + rest
    return name


def _top_name(member: str) -> str | None:
    """The distribution-like name a member's top-level place names: `pkg_a` for `pkg_a/x.py`, `pkg_a.py` or
    `pkg_a-1.0.dist-info/RECORD`; None for a `.data/` member (not in site-packages) or a `.pth` file."""
    if member.startswith(ENV_PREFIX):
        return None
    top, slash, _rest = member.partition("/")
    if top.endswith((".dist-info", ".egg-info")):
        return top.rsplit(".", 1)[0].split("-", 1)[0]
    if slash:
        return None if top.endswith(".data") else top
    module = _MODULE.match(top)
    return module.group("name") if module else None


def overwritten_packages(wheel: Path, graphcast: str, requirements: list[str] | tuple[str, ...],
                         find_links: list[str] | tuple[str, ...] = ()) -> list[tuple[str, str]]:
    """(member, the pin it belongs to) for each member of the GraphCast `wheel` that is a file of another pinned
    package (`requirements`), GraphCast's own distribution (`graphcast`) left out; [] when there is none."""
    own = str(canonicalize_name(graphcast))
    members = _members(wheel)
    found = [(member, ENV_OWN) for member in members
             if member.startswith(ENV_PREFIX) and _ENV_OWN.match(member[len(ENV_PREFIX):])]
    for requirement in requirements:
        pin = pin_of(requirement)
        if pin is None or pin[0] == own:
            continue
        name, version = pin
        theirs = wheel_in_folders(name, version, list(find_links))
        files = set(_members(theirs)) if theirs is not None else set()
        tops = {str(canonicalize_name(top)) for top in map(_top_name, files) if top} | {name}
        for member in members:
            top = _top_name(member)
            if member in files or (top is not None and str(canonicalize_name(top)) in tops - {own}):
                found.append((member, requirement.strip()))
    return found


def overwrite_words(wheel: str, found: list[tuple[str, str]]) -> str:
    """The refusal's sentence: which members overwrite which package's files."""
    by_pin: dict[str, list[str]] = {}
    for member, pin in found:
        by_pin.setdefault(pin, []).append(member.removeprefix(ENV_PREFIX))
    said = []
    for pin, members in by_pin.items():
        shown = ", ".join(members[:3]) + (f" and {len(members) - 3} more" if len(members) > 3 else "")
        said.append(f"{shown} of {ENV_OWN}" if pin == ENV_OWN else f"{shown} of {pin.split('==')[0]} (pinned {pin})")
    whose = "another package" if ENV_OWN not in by_pin else (
        "another package or of the environment itself" if len(by_pin) > 1 else "the environment itself")
    return (f"the wheel {wheel} would overwrite files of {whose}: {'; '.join(said)}. GraphCast is installed "
            "after the pins, so those files would no longer be their own")
