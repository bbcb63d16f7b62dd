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

import os
import re
from pathlib import Path

from packaging.utils import InvalidWheelFilename, canonicalize_name, parse_wheel_filename

from wizard.install.pinned import logical_lines, pin_of, same_version
from wizard.install.source_env import env_sources, link_place
from wizard.install.tree_digest import file_sha256, tree_sha256
from wizard.security import holds_mask, local_url, source_place

GIT_COMMIT = re.compile(r"^git\+https?://\S+@[0-9a-f]{40}(?:#\S*)?$")


def unmasked_links(links: list[str], environ: dict[str, str] | None = None) -> tuple[list[str], list[str]]:
    """An entry's find-links with each one saved masked (`https://me:***@lab/wheels/`, `?token=<redacted>`: history
    keeps no secret) replaced by the user's own link for the same place, from `GC_WIZARD_FIND_LINKS`; and the
    masked ones nothing replaced. A rebuild handed uv the masked URL, which the server refused (twelfth hostile
    pass #12: "could not restore the package set" after a 401)."""
    given = {link_place(link): link for link in env_sources(environ)[1] if "://" in link}
    usable, masked = [], []
    for link in links:
        if not holds_mask(link):
            usable.append(link)
        elif link_place(link) in given:
            usable.append(given[link_place(link)])
        else:
            masked.append(link)
    return usable, masked


def graphcast_source_record(packages: list[str]) -> dict[str, str] | None:
    """What an install records of its GraphCast direct reference: the line, and the sha256 of what it names — a
    file's (a wheel or source archive), or a checkout folder's as a build copies it (`tree_digest`); None when
    GraphCast came as a pin or from a commit (nothing to check later)."""
    for line in packages:
        name, sep, ref = line.partition(" @ ")
        path = file_path(ref.strip()) if sep else None
        if path is not None and str(canonicalize_name(name.strip())) == "graphcast":
            digest = _digest(path) if path is not None else None
            return {"requirement": line.strip(), **({"sha256": digest} if digest else {})}
    return None


def changed_source(packages: list[str], recorded: dict | None) -> Path | None:
    """The file or checkout folder GraphCast's recorded source names when it no longer is what the install
    recorded (its sha256 differs, or it is gone or unreadable); None when it is, or nothing was recorded.

    A rebuild would install whatever the path holds now: a checkout edited since the install ran its new code
    in the "restored" env (fifteenth hostile pass P3)."""
    if not isinstance(recorded, dict) or not recorded.get("sha256"):
        return None
    for raw in packages:
        if raw.strip() == recorded.get("requirement"):
            path = file_path(raw.strip().partition(" @ ")[2].strip())
            if path is not None and _digest(path) != recorded["sha256"]:
                return path
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
        path = file_path(ref)
        if path is None:
            return number, line, "GraphCast's source is neither a commit of its repository nor a local file"
        if isinstance(recorded, dict) and recorded.get("requirement") == line:
            continue  # the install's own record; whether the path still holds it is `changed_source`'s question
        if any(_inside(path, root) for root in roots):
            continue
        return number, line, (f"it names {path}, outside the state folder and outside the bundle and wheelhouses "
                              "the entry records")
    return None


def file_path(ref: str) -> Path | None:
    """The local path a `file:` reference names, in any form uv and pip read (`file:///P`, `file:/P`, `file:P`,
    `file://localhost/P`, percent-encoded), else None (another host's, a VCS URL, no `file:` URL at all).

    Why it calls `security.local_url`, the one parser of `file:` URLs: this function split them itself with
    `urlsplit`, and so did the lock reader and the history, each a little differently — `file:/P` or `file:P`
    was no place here, `file://HOST/P` was `/P` in one and None in another (review of the 28th pass's parser)."""
    try:
        found = local_url(ref)
    except ValueError:  # `file://HOST/…`: no place on this machine
        return None
    return Path(found[1]) if found is not None and not found[0] else None


def link_path(link: str) -> Path | None:
    """The place on this machine a `--find-links` location names (a path, `~` expanded, or a `file:` URL in any
    form, `security.source_place`), else None (a remote page, another host's URL): the one reading for the
    wheelhouse hashes and the lock's wheels alike (review: each read `file://` itself)."""
    try:
        return source_place(link)
    except ValueError:
        return None


def wheel_in_folders(name: str, version: str, folders: tuple[str, ...] | list[str]) -> Path | None:
    """A wheel of `name` at `version` in one of the local `folders` (paths or file:// URLs), or None: the lock's
    wheel finder and the GraphCast wheel's overwrite check (`wheel_overwrites`) alike."""
    for folder in folders:
        where = link_path(folder)  # any `file:` form, as the install reads it (review: this parsed `file://` itself)
        if where is None or not where.is_dir():
            continue
        try:
            candidates = sorted(where.glob("*.whl"))
        except OSError:
            continue
        for wheel in candidates:
            try:
                wheel_name, wheel_version, _build, _tags = parse_wheel_filename(wheel.name)
            except InvalidWheelFilename:
                continue
            if str(canonicalize_name(wheel_name)) == name and str(wheel_version) == version and wheel.is_file():
                return wheel
    return None


def _inside(path: Path, root: Path) -> bool:
    try:
        real, top = Path(os.path.realpath(path)), Path(os.path.realpath(root))
    except (OSError, ValueError):
        return False
    return top in real.parents


def _digest(path: Path) -> str | None:
    """A file's sha256, or a folder's as a build copies it; None when it is neither or cannot be read."""
    if path.is_dir():
        return tree_sha256(path)
    return _sha256(path) if path.is_file() else None


def _sha256(path: Path) -> str | None:
    try:
        return file_sha256(path)
    except OSError:
        return None


#: Wheels and source archives a wheelhouse may hold for a pin; the file name says which package and version.
_ARCHIVES = (".whl", ".tar.gz", ".zip")


def local_folders(find_links: list[str]) -> list[Path]:
    """The `--find-links` locations that are folders on this machine (a path, or a `file:` URL: `link_path`)."""
    folders = []
    for link in find_links:
        path = link_path(link)
        if path is not None and path.is_dir():
            folders.append(path)
    return folders


def wheelhouse_hashes(packages: list[str], find_links: list[str]) -> dict[tuple[str, str], set[str]]:
    """(canonical name, version) -> the sha256 of every file the local wheelhouses hold for that pin, at install
    time: what a later rebuild may install for it, and nothing else.

    Why: uv records no hash for a wheel from a `--find-links` folder, so a rebuild from plain pins installed
    whatever file the folder held *then* — a wheel swapped in later, or a folder an edited history entry named
    (eleventh hostile pass #85: a `pkg_a-1.0` wheel carrying a `.pth` ran at the env's next start)."""
    return {pin: {digest for _, digest in files} for pin, files in wheelhouse_files(packages, find_links).items()}


def wheelhouse_files(packages: list[str], find_links: list[str]) -> dict[tuple[str, str], list[tuple[Path, str]]]:
    """(canonical name, version) -> [(file, sha256)] for every wheel or source archive the local `--find-links`
    folders hold for a `name==version` pin of `packages` (the file name says which; links are read as files)."""
    from packaging.utils import (
        InvalidSdistFilename,
        InvalidWheelFilename,
        parse_sdist_filename,
        parse_wheel_filename,
    )

    wanted = {pin for pin in (pin_of(line) for line in packages) if pin is not None}
    found: dict[tuple[str, str], list[tuple[Path, str]]] = {}
    if not wanted:
        return found
    for folder in local_folders(find_links):
        try:
            names = sorted(os.listdir(folder))
        except OSError:
            continue
        for name in names:
            if not name.endswith(_ARCHIVES):
                continue
            try:
                dist, version = (parse_wheel_filename(name)[:2] if name.endswith(".whl")
                                 else parse_sdist_filename(name))
            except (InvalidWheelFilename, InvalidSdistFilename, ValueError):
                continue
            key = next((k for k in wanted if k[0] == str(dist) and same_version(k[1], str(version))), None)
            path = folder / name
            if key is None or not path.is_file():
                continue
            digest = _sha256(path)
            if digest:
                found.setdefault(key, []).append((path, digest))
    return found


def recorded_hashes(requirements_text: str | None) -> dict[tuple[str, str], set[str]]:
    """(canonical name, version) -> the sha256 hashes a hash-pinned requirements file (its text) gives each pin."""
    hashed: dict[tuple[str, str], set[str]] = {}
    for _, line in logical_lines(requirements_text or ""):
        words = line.replace("\\", " ").split()
        pin = pin_of(words[0]) if words else None
        if pin is not None:
            digests = {w.removeprefix("--hash=sha256:") for w in words[1:] if w.startswith("--hash=sha256:")}
            if digests:
                hashed.setdefault(pin, set()).update(digests)
    return hashed


def unhashed_pins(packages: list[str], requirements_text: str | None) -> list[str]:
    """The `name==version` pins of `packages` that the hash-pinned file (its text; None: there is none) gives no
    `--hash` for: what a sync would install from whatever its find-links locations hold now."""
    hashed = recorded_hashes(requirements_text)
    return [line.strip() for line in packages if (pin := pin_of(line)) is not None and pin not in hashed]


def changed_wheelhouse_files(packages: list[str], requirements_text: str | None,
                             find_links: list[str]) -> list[Path]:
    """The files the local wheelhouses hold now for a pin of `packages` whose sha256 is not among the ones recorded
    for it: a wheel swapped or added since the install (uv would take it first and stop at its hash)."""
    hashed = recorded_hashes(requirements_text)
    return [path for pin, files in wheelhouse_files(packages, find_links).items() if pin in hashed
            for path, digest in files if digest not in hashed[pin]]
