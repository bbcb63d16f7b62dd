"""Which files of the recipe's other packages a GraphCast wheel would overwrite.

Why: GraphCast's step runs after the pins, with `--no-deps`, and an installer unpacks every member of a wheel into
site-packages whoever owned the file before. A "GraphCast" wheel holding `pkg_a.py` (or `jax/__init__.py`) replaced
that package's module silently: the plan called the member "new; its code runs whenever GraphCast is imported", and
nothing afterwards said that pkg-a's files were no longer pkg-a's (31st hostile pass (part B) P8). The wheel's members
are compared with the files of each pinned package — its own wheel's members where a local wheelhouse holds it,
else the names a distribution of that name installs (`NAME/`, `NAME.py`, `NAME-VERSION.dist-info/`).
"""

from __future__ import annotations

import re
import zipfile
from pathlib import Path

from packaging.utils import canonicalize_name

from wizard.install.pinned import pin_of
from wizard.install.recorded_set import wheel_in_folders

#: A member under a wheel's `NAME-VER.data/purelib/` or `/platlib/` lands in site-packages as the rest after it.
_SITE_DATA = re.compile(r"^[^/]+\.data/(?:purelib|platlib)/(?P<rest>.+)$")
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
    out = []
    for name in names:
        name = name.lstrip("/")
        data = _SITE_DATA.match(name)
        out.append(data.group("rest") if data else name)
    return out


def _top_name(member: str) -> str | None:
    """The distribution-like name a member's top-level place names: `pkg_a` for `pkg_a/x.py`, `pkg_a.py` or
    `pkg_a-1.0.dist-info/RECORD`; None for a `.data/` member (not in site-packages) or a `.pth` file."""
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
    found: list[tuple[str, str]] = []
    members = _members(wheel)
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
        by_pin.setdefault(pin, []).append(member)
    said = []
    for pin, members in by_pin.items():
        shown = ", ".join(members[:3]) + (f" and {len(members) - 3} more" if len(members) > 3 else "")
        said.append(f"{shown} of {pin.split('==')[0]} (pinned {pin})")
    return (f"the wheel {wheel} would overwrite files of another package: {'; '.join(said)}. GraphCast is installed "
            "after the pins, so that package's files would no longer be its own")
