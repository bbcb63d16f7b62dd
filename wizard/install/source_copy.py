"""GraphCast built from a copy of the user's checkout, so the checkout stays exactly as it was.

Why: `--graphcast-src ~/graphcast` handed the folder to uv, whose build (setuptools, through PEP 517) writes `build/`
and `graphcast.egg-info/` into the folder it builds — the user's own checkout, outside the state folder. The next
`plan` then counted those as the user's "local changes" (fourteenth hostile pass Q2). The copy holds what the
checkout holds (local changes included: they are what the user asked to install) but its git folder and earlier
build output; it lives in a private temporary folder (0700) and is removed when the install ends. One killed
outright (SIGKILL) leaves it behind; the next wizard that makes a temporary folder clears it (`private_args`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path

from wizard.install.private_args import temporary_folder
from wizard.install.recorded_set import file_path
from wizard.install.source_spelling import local_source_path
from wizard.install.tree_copy import copy_tree


def local_source(plan) -> Path | None:
    """The local checkout folder the plan's GraphCast step builds from, in any spelling (a path, `file:///DIR`,
    `file://localhost/DIR`, `graphcast @ file:/DIR`: `source_spelling`, the one reading), or None (a wheel, an
    sdist, a URL). 31st hostile pass (part B) P5: any `://` was "not local", so `file:///DIR` was built in place
    and a stale `build/lib` in it went into the env."""
    source = local_source_path(plan.graphcast_src) if plan.graphcast_src else None
    return source if source is not None and source.is_dir() else None


def _names(arg: str, source: Path) -> bool:
    """Whether a step's argument names the checkout `source`: its path, or a `file:` URL or direct reference in
    any spelling (a recipe's `graphcast.source`, which the plan carries as the recipe writes it)."""
    return arg == str(source) or (":" in arg and not arg.startswith("-") and local_source_path(arg) == source)


#: The `file://` address of each copy this process built from -> the folder it copies: a freeze of an env built
#: from a copy records the user's folder (`as_origin`), which a later rebuild finds; the copy is gone by then.
_ORIGINS: dict[str, str] = {}


def _copy(source: Path, copy: Path) -> None:
    """`source` copied to `copy` without its history and build output (`tree_copy`: folders, files and links only,
    bounded; what cannot be copied is refused by its path), and remembered as the copy's origin."""
    copy_tree(source, copy)
    _ORIGINS[copy.as_uri()] = source.as_uri()


def as_origin(line: str) -> str:
    """A freeze line with a copy's address written as the folder it was copied from (unchanged otherwise)."""
    if " @ file://" in line:
        for copy_url, source_url in _ORIGINS.items():
            if copy_url in line:
                return line.replace(copy_url, source_url)
    return line


#: The path (its `file:` address read by `file_path`, the one parser: review) of a folder this wizard made to build
#: from a copy: an install's `gc-wizard-source-PID-XXXX/NAME`, or a rollback's `gc-wizard-sync-PID-XXXX/source-N/NAME`.
_COPY_PATH = re.compile(r"/.*?/gc-wizard-(?:source|sync)-[0-9]+-[^/]+/(?:source-[0-9]+/)?(?P<name>[^/]+)/?")


def as_recorded(found: list[str], recorded: list[str]) -> list[str]:
    """An environment's freeze lines with each package built from one of this wizard's private copies written as
    the entry recorded it (the folder it was copied from), when the recorded line names the same package and a
    folder of the copy's name.

    Why: the process that built the copy records its origin (`as_origin`), but a later one — a rollback the next
    day — reads the copy's long-gone address in the env and took an untouched env for a changed one: it rebuilt
    GraphCast, and refused outright once the checkout had moved on (walk 18)."""
    by_name = {line.partition(" @ ")[0].strip().lower().replace("_", "-"): line
               for line in recorded if " @ " in line}
    out = []
    for line in found:
        name, sep, ref = line.partition(" @ ")
        path = file_path(ref.strip()) if sep else None
        copy = _COPY_PATH.fullmatch(str(path)) if path is not None else None
        want = by_name.get(name.strip().lower().replace("_", "-")) if copy else None
        origin = file_path(want.partition(" @ ")[2].strip()) if want else None
        out.append(want if origin is not None and origin.name == copy.group("name") else line)
    return out


@contextmanager
def folder_copy(source: Path) -> Iterator[Path]:
    """A copy of checkout `source` (without its history and build output) in a private temporary folder, removed
    when the block ends, however it ends: what every build of a local checkout builds, the install's and the
    bundle's alike (the bundle's `pip wheel` built in the checkout itself, writing `build/` and `*.egg-info` there
    and packing a stale `build/lib`; a lab's read-only checkout could not be bundled at all)."""
    with temporary_folder("source") as folder:
        copy = folder / source.name
        _copy(source, copy)
        yield copy


@contextmanager
def building_from_a_copy(plan, say=None) -> Iterator:
    """The plan whose steps build GraphCast from a copy of its local checkout (the plan itself when it builds from
    none); the copy is removed when the block ends, however it ends."""
    source = local_source(plan)
    if source is None:
        yield plan
        return
    with folder_copy(source) as copy:
        if say is not None:
            say(f"GraphCast is built from a copy of {source} ({copy}), so the checkout stays as it was")
        steps = tuple(replace(step, argv=tuple(str(copy) if _names(arg, source) else arg for arg in step.argv))
                      for step in plan.steps)
        yield replace(plan, steps=steps)


def copy_folder_references(lines: list[str], folder: Path) -> list[str]:
    """`lines` (a package set a rebuild or rollback syncs) with each `name @ file:///FOLDER` reference pointing at a
    copy of that folder made in `folder` (the sync's own temporary folder, removed with it): a rollback rebuilt
    GraphCast from the recorded checkout in place, as the install did (fourteenth hostile pass Q2's class)."""
    out = []
    for line in lines:
        name, sep, ref = line.strip().partition(" @ ")
        path = file_path(ref.strip()) if sep else None
        if path is None or not path.is_dir():
            out.append(line)
            continue
        copy = Path(folder) / f"source-{len(out)}" / path.name
        _copy(path, copy)
        out.append(f"{name.strip()} @ {copy.as_uri()}")
    return out
