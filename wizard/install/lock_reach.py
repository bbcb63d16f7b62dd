"""What a lock or bundle installs beyond the recipe's own requirements, and whether the recipe reaches it.

Why: a lock (`--lock`) or a bundle (`--bundle`) was checked one way only — that it pins every requirement of
the recipe at its version. An added `[[packages]]` entry (or a wheel added to a bundle's requirements and
manifest) was installed without a word, and a wheel's `.pth` file runs in every start of the environment's
Python (nineteenth hostile pass P3). A lock compiled from the recipe rightly holds more than the recipe names:
the requirements' own dependencies. So every added package is named in the plan, before anything installs,
and one that no requirement reaches is refused unless the user asks for it (`--allow-extra-packages`).

Reach is traced through the locked wheels' own metadata (`Requires-Dist`, its markers evaluated for the
environment's Python on this machine, extras followed), read from the wheel file without installing or running
anything: a bundle's wheels, a pylock's `file://` or `path` wheels, a requirements lock's wheels in a local
--find-links folder. A wheel that is only on a server (an https:// URL, an index) is not downloaded for this:
what only such a wheel could need is named as not traced, never refused.
"""

from __future__ import annotations

import zipfile
from dataclasses import dataclass
from email.parser import HeaderParser
from pathlib import Path

from packaging.markers import default_environment
from packaging.requirements import InvalidRequirement, Requirement
from packaging.utils import canonicalize_name

from wizard import bounded
from wizard.install.lockfile import PYLOCK, lock_format
from wizard.install.recorded_set import file_path, wheel_in_folders
from wizard.patterns import ascii_digits
from wizard.recipes.loader import Recipe

#: A wheel's METADATA larger than this is not read (a long description is the most any real one holds).
METADATA_BYTES = 4 << 20

NEEDED, UNREACHED, UNTRACED = "needed", "unreached", "untraced"


@dataclass(frozen=True)
class AddedPackage:
    """One package a lock or bundle installs that the recipe's requirements do not name."""

    name: str
    version: str
    status: str
    """`needed` (a locked package's metadata asks for it), `unreached` (nothing the recipe installs does) or
    `untraced` (a package whose wheel is not on this machine might: it was not downloaded to find out)."""
    needed_by: str | None = None

    def to_dict(self) -> dict[str, str | None]:
        return {"name": self.name, "version": self.version, "status": self.status, "needed_by": self.needed_by}

    def words(self) -> str:
        if self.status == NEEDED:
            return f"{self.name} {self.version} (for {self.needed_by})"
        return f"{self.name} {self.version}"


def added_packages(recipe: Recipe, packages: dict[str, str], wheels: dict[str, Path], python_version: str
                   ) -> tuple[AddedPackage, ...]:
    """The packages of `packages` ({canonical name: version}, a lock's) that `recipe`'s requirements do not
    name, each with whether the requirements reach it through the metadata of `wheels` ({canonical name: a wheel
    file on this machine}), for Python `python_version` (X.Y or X.Y.Z)."""
    roots: list[Requirement] = []
    for text in recipe.requirements:
        try:
            roots.append(Requirement(text))
        except InvalidRequirement:
            continue
    named = {str(canonicalize_name(r.name)) for r in roots}
    extra = {name: version for name, version in packages.items() if name not in named}
    if not extra:
        return ()
    environment = _environment(python_version)
    needed_by: dict[str, str] = {}
    untraced = False
    seen: set[tuple[str, str]] = set()
    todo = [(str(canonicalize_name(r.name)), extra_name) for r in roots for extra_name in ("", *sorted(r.extras))]
    while todo:
        name, wanted_extra = todo.pop()
        if (name, wanted_extra) in seen or name not in packages:
            continue
        seen.add((name, wanted_extra))
        requires = _requires(wheels.get(name))
        if requires is None:
            untraced = True  # its wheel is not here: what it needs is not known
            continue
        for dep in requires:
            marker_env = {**environment, "extra": wanted_extra}
            if dep.marker is not None and not dep.marker.evaluate(marker_env):
                continue
            if wanted_extra and (dep.marker is None or "extra" not in str(dep.marker)):
                continue  # the base requirements were followed with the extra-less pass
            dep_name = str(canonicalize_name(dep.name))
            if dep_name in extra and dep_name not in needed_by:
                needed_by[dep_name] = name
            todo += [(dep_name, e) for e in ("", *sorted(dep.extras))]
    out = []
    for name, version in sorted(extra.items()):
        if name in needed_by:
            out.append(AddedPackage(name, version, NEEDED, needed_by[name]))
        else:
            out.append(AddedPackage(name, version, UNTRACED if untraced else UNREACHED))
    return tuple(out)


def _environment(python_version: str) -> dict[str, str]:
    """The marker environment of this machine with the environment's Python version."""
    env = dict(default_environment())
    parts = python_version.split(".")
    if len(parts) >= 2 and all(ascii_digits(p) for p in parts[:2]):
        env["python_version"] = ".".join(parts[:2])
        env["python_full_version"] = python_version if len(parts) >= 3 else f"{python_version}.0"
    return env


def _requires(wheel: Path | None) -> list[Requirement] | None:
    """The `Requires-Dist` requirements of a wheel file, read from its METADATA; None when there is no wheel
    here or it cannot be read as one (the installer then refuses it, or installs what the lock names)."""
    if wheel is None:
        return None
    try:
        with zipfile.ZipFile(wheel) as archive:
            meta = [n for n in archive.namelist()
                    if n.count("/") == 1 and n.split("/")[0].endswith(".dist-info") and n.endswith("/METADATA")]
            if len(meta) != 1 or archive.getinfo(meta[0]).file_size > METADATA_BYTES:
                return None
            text = archive.read(meta[0]).decode("utf-8", errors="replace")
    except (OSError, zipfile.BadZipFile, KeyError, ValueError):
        return None
    out = []
    for line in HeaderParser().parsestr(text).get_all("Requires-Dist") or []:
        try:
            out.append(Requirement(line))
        except InvalidRequirement:
            continue
    return out


def lock_wheels(lock: Path, find_links: tuple[str, ...] | list[str] = ()) -> dict[str, Path]:
    """{canonical name: a wheel file on this machine} for a lock's packages: a pylock's `file://` and `path`
    wheels; for either format, a wheel of the pinned version in a local --find-links folder."""
    from wizard.install.lockfile import lock_packages

    found: dict[str, Path] = {}
    if lock_format(lock) == PYLOCK:
        try:
            entries = bounded.loads_toml(bounded.read_regular_text(lock, bounded.LOCK_BYTES)).get("packages")
        except (OSError, ValueError):
            entries = None
        for entry in entries if isinstance(entries, list) else []:
            if not isinstance(entry, dict) or not isinstance(entry.get("name"), str):
                continue
            wheels = entry.get("wheels")
            for wheel in wheels if isinstance(wheels, list) else []:
                path = _local_file(wheel, lock.parent) if isinstance(wheel, dict) else None
                if path is not None:
                    found.setdefault(str(canonicalize_name(entry["name"])), path)
                    break
    for name, version in lock_packages(lock).items():
        if name not in found:
            wheel = wheel_in_folders(name, version, find_links)
            if wheel is not None:
                found[name] = wheel
    return found


def _local_file(wheel: dict, base: Path) -> Path | None:
    url, path = wheel.get("url"), wheel.get("path")
    found = file_path(url) if isinstance(url, str) else None  # the one `file:` parser (review)
    if found is None and isinstance(path, str):
        found = base / path
    return found if found is not None and found.is_file() else None


def refusal(what: str, recipe: Recipe, added: tuple[AddedPackage, ...]) -> str | None:
    """The sentence refusing the added packages no requirement of `recipe` reaches (`what`: `--lock FILE` or
    `--bundle DIR`), or None when there are none."""
    unreached = [a for a in added if a.status == UNREACHED]
    if not unreached:
        return None
    names = ", ".join(a.words() for a in unreached[:6]) + (" …" if len(unreached) > 6 else "")
    return (f"{what} adds {names}, which no requirement of recipe {recipe.id} needs (no locked package's metadata "
            "asks for it), so it was not made from that recipe alone and nothing was installed. Make it again "
            f"with `gc-wizard {'bundle' if what.startswith('--bundle') else 'lock'} {recipe.id}`, or pass "
            "--allow-extra-packages to install it anyway.")


def note(what: str, added: tuple[AddedPackage, ...]) -> str | None:
    """The plan's note on the added packages, or None: how many the recipe's requirements need (expected: a lock
    holds every dependency), and by name the ones to look at — not traced to a requirement, or needed by none. A
    list is cut after six names; `--json` (`added_packages`) has them all."""
    if not added:
        return None
    needed = [a for a in added if a.status == NEEDED]
    untraced = [a for a in added if a.status == UNTRACED]
    unreached = [a for a in added if a.status == UNREACHED]
    parts = []
    if needed:
        parts.append(f"{len(needed)} that the recipe's requirements need")
    if untraced:
        parts.append(f"{len(untraced)} not traced to a requirement (some of the lock's wheels are not on this "
                     f"machine to read what they need): {_names(untraced)}")
    if unreached:
        parts.append(f"{len(unreached)} that no requirement needs, kept because --allow-extra-packages was "
                     f"given: {_names(unreached)}")
    return f"{what} adds {len(added)} package(s) the recipe does not name — " + "; ".join(parts) + "."


def _names(packages: list[AddedPackage]) -> str:
    shown = ", ".join(a.words() for a in packages[:6])
    return shown + (f" and {len(packages) - 6} more (all in `--json`: added_packages)" if len(packages) > 6 else "")
