"""Offline bundles: every wheel a recipe needs for one Python on one platform, GraphCast built as a
wheel, a hashed lock and a manifest — a folder to carry to a machine that never reaches the internet.

Why: GPU nodes and air-gapped servers often cannot download anything, and an admin wants the same
bytes on each. `make_bundle` runs where there is internet: it resolves the recipe with hashes
(`wizard.install.lockfile`, requirements format, because it names no download location, so the lock
works wherever the folder is copied), downloads exactly those files with `pip download
--only-binary=:all: --require-hashes` (pip checks each hash as it downloads), builds GraphCast from its
source with `pip wheel --no-deps`, and writes `manifest.json` with every file's sha256.

`check_bundle` runs on the target before anything is installed: the manifest must be for this
recipe, every file must still hash to what the manifest says, the Python version must match, and
every locked package must have a wheel this machine can install (its tags). Anything missing is
named in one sentence, so "the bundle was made for another machine" is said up front instead of as
an installer error halfway through. The install itself then runs with `--offline` and the bundle as
the only package source (`wizard.install.plan`), checking the lock's hashes again.
"""

from __future__ import annotations

import json
import os
import platform as host_platform
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path, PurePosixPath
from typing import Any

from packaging.tags import Tag, compatible_tags, cpython_tags, platform_tags
from packaging.utils import InvalidWheelFilename, canonicalize_name, parse_wheel_filename

from wizard import bounded
from wizard.children import run_capture
from wizard.errors import OperationFailed, UserError
from wizard.install.cache_trust import cache_problem, child_env, pip_cache
from wizard.install.lines import fold_tracebacks
from wizard.install.lockfile import REQUIREMENTS, compile_lock, lock_packages
from wizard.install.no_space import NoRoom, no_room, no_room_sentence
from wizard.install.package_files import names_pip_cannot_read, wheels_in
from wizard.install.pinned import foreign_line
from wizard.install.private_args import PrivateArguments
from wizard.install.source_copy import folder_copy
from wizard.install.source_places import refuse_swappable_sources
from wizard.install.source_spelling import local_source_path
from wizard.install.sources import outside_index_problem
from wizard.install.tree_digest import file_sha256
from wizard.installer_files import (
    PIP_TARGET_PLATFORM,
    pip_program_problem,
    pip_target_file_problem,
    requirement_problem,
    settings_problem,
    uv_trust_env,
)
from wizard.outputs import SHARED_MODE, check_out_folder, refuse_file_in_the_way, write_destination
from wizard.recipes.loader import Recipe
from wizard.security import cut, expand_home, make_folders, redact_secrets, shell_word
from wizard.tree_walk import remove_tree
from wizard.uv_tool import refuse_own_program

MANIFEST = "manifest.json"
#: The forecast's files in a bundle made `--with-assets`: laid out like the bucket, with a SHA256SUMS.
ASSETS = "assets"
LOCK = "requirements.txt"
WHEELS = "wheels"
#: The folder a bundle carries its recipe's file in: the offline machine's `--recipes-dir` (27th pass (part B) P2).
RECIPES = "recipes"
#: gc-wizard's own wheels (`self_wheels.WIZARD`).
WIZARD_WHEELS = "wizard"
#: A file a bundle holds while it is being made, removed last (`finish_bundle`): a bundle stopped after its manifest
#: was first written (adding gc-wizard's wheels, the forecast's files) is never taken for a finished one.
UNFINISHED = ".gc-wizard-unfinished"
FORMAT = 1


@dataclass(frozen=True)
class Bundle:
    """A checked bundle folder, ready to install from."""

    root: Path
    manifest: dict[str, Any]

    @property
    def wheels(self) -> Path:
        return self.root / WHEELS

    @property
    def lock(self) -> Path:
        return self.root / LOCK

    @property
    def graphcast_wheel(self) -> Path:
        return self.wheels / self.manifest["graphcast"]["wheel"]

    @property
    def python(self) -> str:
        return str(self.manifest["python"])


def _run(argv: list[str], what: str, timeout: float, on_line, drop: tuple[str, ...] = ()) -> None:
    """Run one pip step of the bundle, its lines to `on_line`; `drop`: variables it is not given."""
    if on_line:
        on_line("$ " + " ".join(argv))
    try:
        with PrivateArguments(argv) as private:  # a find-links password stays off the command line
            proc = run_capture(private.argv, stoppable=False, timeout=timeout,  # bounded; dies with the wizard
                               stdin=subprocess.DEVNULL,
                               env=private.environ({name: value for name, value in child_env(argv).items()
                                                    if name not in drop}))  # the cache rule: 25th pass (B) P1
    except subprocess.TimeoutExpired:
        raise OperationFailed(f"{what} did not finish within {timeout:g} s.") from None
    except OSError as exc:
        raise OperationFailed(f"cannot {what}: {exc}") from None
    lines = [line for line in (proc.stdout + proc.stderr).splitlines() if line.strip()]
    if on_line:  # the bundle's log: every line as pip wrote it
        for line in lines:
            on_line(line)
    if proc.returncode != 0:
        # pip's own crash is said as its last line, never its traceback (27th hostile pass (part A) P5)
        said = "\n  ".join(fold_tracebacks(lines, "pip", "the log" if on_line else None)[-10:])
        raise OperationFailed(f"could not {what}:\n  {said}")


def _pip() -> list[str]:
    try:
        import pip  # (to learn whether `python -m pip` works, and where it is)
    except ImportError:
        from wizard.self_install import find_uv_quietly, repair_advice

        raise UserError(f"gc-wizard bundle downloads with pip, a dependency of gc-wizard that is missing from "
                        f"{sys.executable}; {repair_advice('pip', uv=find_uv_quietly())}.") from None
    # This Python and what `-m pip` runs from: pip's folder and the site-packages folder whose `.pth` files every
    # start runs, under the rule of PATH's programs (27th hostile pass (part B) P6).
    import site  # loaded at start already: where this Python reads `.pth` files from

    package = os.path.dirname(os.path.abspath(pip.__file__))
    loads = dict.fromkeys([package, os.path.dirname(package), *site.getsitepackages()])
    refuse_own_program(sys.executable, "gc-wizard's own Python", *[p for p in loads if os.path.isdir(p)])
    return [sys.executable, "-m", "pip", "--disable-pip-version-check", "--no-input"]


def _platform_info() -> dict[str, Any]:
    libc, version = host_platform.libc_ver()
    return {"os": sys.platform, "arch": host_platform.machine(), "glibc": version if libc == "glibc" else None}


def _first_missing(path: Path) -> Path | None:
    """The outermost folder of `path` that does not exist yet (`path` itself, or a parent), or None."""
    first = None
    while not os.path.lexists(path):
        first, path = path, path.parent
    return first


def _fill(recipe: Recipe, out: Path, wheels: Path, python_version: str, graphcast_src: str,
          find_links: list[str] | tuple[str, ...], timeout: float, on_line, started: float,
          installer: str) -> dict[str, Any]:
    """The bundle's lock, wheels and manifest written into `out`; the caller cleans up on any failure. `installer`
    pip: uv's resolve trusts pip's CA (`installer_files.uv_trust_env`), as pip's download does."""
    src = Path(graphcast_src)
    copied = src.is_file() and src.name.endswith(".whl")
    # The header names what this bundle installs, its own wheel, not the recipe's git URL (24th hostile pass
    # (part B) N5: a bundle made from a local wheel said "installed … from graphcast @ git+https://…").
    shown = redact_secrets(graphcast_src, keep_user=True)  # a bundle is made to be handed on (as the manifest)
    carried = (f"this bundle's {WHEELS}/{src.name}, a copy of {shown}" if copied
               else f"the GraphCast wheel in this bundle's {WHEELS}/ (named in {MANIFEST}), built from {shown}")
    lock = compile_lock(recipe, out / LOCK, python_version=python_version, find_links=find_links,
                        fmt=REQUIREMENTS, say=on_line, graphcast_from=carried,
                        trust=uv_trust_env(os.environ, os.getcwd()) if installer == "pip" else None,
                        app_keys=None)
    links = [arg for link in [*recipe.find_links, *find_links] for arg in ("--find-links", str(link))]
    indexes = [arg for url in recipe.extra_index_urls for arg in ("--extra-index-url", url)]
    _run([*_pip(), "download", "--only-binary=:all:", "--no-deps", "--require-hashes",
          *target_arguments(python_version), "--dest", str(wheels), *links, *indexes, "-r", str(lock.path)],
         f"download the wheels of recipe {recipe.id}", timeout, on_line, drop=TARGET_VARIABLES)
    if copied:
        shutil.copy2(src, wheels / src.name)
        built = wheels / src.name
    else:
        before = set(wheels.iterdir())
        with _buildable(graphcast_src) as buildable:
            _run([*_pip(), "wheel", "--no-deps", "--wheel-dir", str(wheels), *links, buildable],
                 f"build GraphCast from {graphcast_src} as a wheel", timeout, on_line)
        new = [p for p in set(wheels.iterdir()) - before if p.name.endswith(".whl")]
        if len(new) != 1:
            raise OperationFailed(f"building GraphCast from {graphcast_src} gave {len(new)} wheels, not one.")
        built = new[0]
    files = [{"name": f"{WHEELS}/{p.name}", "sha256": file_sha256(p), "size": p.stat().st_size}
             for p in sorted(wheels.iterdir()) if p.is_file()]
    files.append({"name": LOCK, "sha256": file_sha256(out / LOCK), "size": (out / LOCK).stat().st_size})
    carried_recipe = _carry_recipe(recipe, out)
    if carried_recipe is not None:
        files.append({"name": carried_recipe, "sha256": file_sha256(out / carried_recipe),
                      "size": (out / carried_recipe).stat().st_size})
    manifest = {
        "format": FORMAT, "recipe": recipe.id, "title": recipe.title, "python": python_version,
        "platform": _platform_info(), "created": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "lock": LOCK, "packages": lock.packages,
        # Masked: a bundle is made to be copied to other machines and people (0644); the source's password or signed
        # URL stays with whoever made it (twelfth hostile pass #8).
        "graphcast": {"wheel": built.name, "source": redact_secrets(graphcast_src, keep_user=True),
                      "version": recipe.graphcast.version},
        "files": files, "seconds": round(time.monotonic() - started, 1),
    }
    write_destination(out / MANIFEST, json.dumps(manifest, indent=1) + "\n", what="the bundle's manifest",
                      mode=SHARED_MODE)
    return manifest


@contextmanager
def _buildable(graphcast_src: str) -> Iterator[str]:
    """What `pip wheel` is handed: a copy of a local checkout (so the checkout stays as it was, as the install's
    build leaves it), or the source as given (a URL, an archive)."""
    local = local_source_path(graphcast_src)  # any spelling of a folder (`file:///DIR` too: 31st pass (part B) P5)
    if local is not None and local.is_dir():
        with folder_copy(local) as copy:
            yield str(copy)
    else:
        yield graphcast_src


def _carry_recipe(recipe: Recipe, out: Path) -> str | None:
    """The recipe's own file copied into the bundle's `recipes/` (its name there), or None when it has none.

    Why: 27th hostile pass (part B) P2 — a bundle made from a `--recipes-dir` recipe held no copy of it, so the
    printed "On the offline machine:" line failed there with "unknown recipe"; the bundle now carries the file and
    the line names its folder (`bundle_install_line`)."""
    path = getattr(recipe, "path", None)
    if not isinstance(path, Path) or not path.is_file():
        return None
    name = f"{RECIPES}/{recipe.id}.yaml"
    make_folders(out / RECIPES)  # the one maker: no ACL handed down (27th hostile pass (part B) P1)
    write_destination(out / name, bounded.read_text(path, bounded.MANIFEST_BYTES), what="the bundle's recipe",
                      mode=SHARED_MODE)
    return name


def check_bundle_out(out: Path) -> Path:
    """`out` as a bundle is written there (absolute), or the refusal (exit 2) of a place it cannot be: a file in the
    way, a folder that is not new or empty, one the wizard cannot write. Why apart: `bundle` says "==> Bundling …
    into OUT" before the work, and said it before refusing OUT (noted by the 25th pass (part A) P3 fixer)."""
    out = Path(expand_home(out)).absolute()
    refuse_file_in_the_way("--out", out, "choose another --out", itself=True)  # named as a file (25th pass (A) P3)
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise UserError(f"--out {out} {_unfinished(out) or 'must be a new or empty folder'}.")
    return check_out_folder("--out", out, runs="`install --bundle` would then install", folder=True)


def made_folder(out: Path) -> Path | None:
    """The folder a bundle to `out` makes (`out` or a parent of it), removed whole by `discard_bundle`; None when
    `out` is there already (an empty folder the user gave)."""
    return _first_missing(check_bundle_out(out))


def discard_bundle(out: Path, made: Path | None) -> None:
    """Remove what a failed bundle run put in `out`: the manifest first (nothing left is taken for a bundle), then
    the folder it made, or, in an empty folder the user gave, what it wrote there (kept, emptied again).

    Why one clean-up: 33rd hostile pass (part B) P2 — a failure while gc-wizard's own wheels were added left the
    folder with its manifest, and `install --bundle` took it; only a failure at the recipe's wheels was cleaned."""
    (out / MANIFEST).unlink(missing_ok=True)
    if made is not None:
        remove_tree(made)
        return
    for name in (WHEELS, RECIPES, WIZARD_WHEELS, ASSETS):
        remove_tree(out / name)
    for name in (LOCK, UNFINISHED):
        (out / name).unlink(missing_ok=True)


def finish_bundle(out: Path) -> None:
    """Mark the bundle at `out` finished (`UNFINISHED` removed): the last step of making it."""
    (out / UNFINISHED).unlink(missing_ok=True)


def make_bundle(recipe: Recipe, out: Path, *, python_version: str, graphcast_src: str,
                find_links: list[str] | tuple[str, ...] = (), timeout: float = 3600, on_line=None,
                installer: str = "uv", more_to_come: bool = False) -> dict[str, Any]:
    """Fill `out` (new or empty) with the bundle for `recipe`; returns the manifest. `installer`: whose certificate
    settings the resolve trusts (`install.plan.default_installer` chooses it as for an install). `more_to_come`: the
    caller adds more (gc-wizard's wheels, the forecast's files), so the bundle stays marked unfinished until
    `finish_bundle`, and the caller cleans up (`discard_bundle`) when that fails."""
    started = time.monotonic()
    out = check_bundle_out(out)
    # What the bundle's hashes are taken from; named where their links lead from now on (twenty-second pass P1).
    recipe, find_links, graphcast_src = refuse_swappable_sources(recipe, find_links, graphcast_src)
    missing = outside_index_problem(recipe, find_links, graphcast_src)
    if missing:  # before anything is made or downloaded
        raise UserError(missing)
    # `pip download` cannot read a folder holding a name that is not UTF-8 (27th hostile pass (part A) P5)
    unreadable = names_pip_cannot_read([*recipe.find_links, *find_links], "pip", refused="Nothing was made.")
    if unreadable:
        raise UserError(unreadable)
    env = child_env(_pip())  # pip's download cache, as `pip download` will use it (27th hostile pass (part A) P1)
    unusable = cache_problem("pip", pip_cache(env), env)
    if unusable:
        raise UserError(unusable)
    # `pip download` reads PIP_REQUIREMENT / PIP_CONSTRAINT on its own, uv's resolver UV_OVERRIDE / UV_CONSTRAINT:
    # refused before anything is made or fetched (25th hostile pass (part B) P4)
    problem = requirement_problem("pip", os.environ, None) or requirement_problem("uv", os.environ, os.getcwd())
    # a PIP_PYTHON has `pip download` run itself under that program (35th hostile pass (part A) P3)
    problem = problem or pip_program_problem(os.environ)
    # a pip.conf's `platform`/`abi` is added to `pip download`'s own target (38th hostile pass (part B) P1)
    problem = problem or pip_target_file_problem(os.environ)
    # and the package sources pip's variables and settings files name, held to the swap rule as uv's are at every
    # uv start: `PIP_EXTRA_INDEX_URL` at another user's local index was packed into a hashed bundle (28th hostile
    # pass (part B) P1)
    # (`--no-input`, as `_pip` passes: pip's default keyring-provider then runs no `keyring`)
    problem = problem or settings_problem("pip", {**os.environ, "PIP_NO_INPUT": "1"}, None)
    if problem:
        raise UserError(problem)
    made = _first_missing(out)  # the folder this bundle makes (out or a parent), removed whole on failure
    wheels = out / WHEELS
    try:
        make_folders(wheels)
        write_destination(out / UNFINISHED, "gc-wizard is still making this bundle (or a run making it was stopped).\n",
                          what="the bundle's unfinished mark", mode=SHARED_MODE)
        manifest = _fill(recipe, out, wheels, python_version, graphcast_src, find_links, timeout, on_line, started,
                         installer)
        if not more_to_come:
            finish_bundle(out)
    except BaseException as exc:
        # asked before the clean-up below frees the inodes a full disk may lack (33rd hostile pass (part A) P7)
        why = no_room(exc, out) if isinstance(exc, (OSError, OperationFailed)) else None
        discard_bundle(out, made)  # an empty folder the user gave: emptied again, kept
        if why:  # pip's or uv's "No space left on device", or the wizard's own write: name --out, not a resolver
            raise NoRoom(no_room_sentence("the bundle", out, why), why) from None
        if isinstance(exc, OSError):
            raise OperationFailed(f"cannot write the bundle {out}: {exc.strerror or exc}"
                                  f"{f' ({exc.filename})' if exc.filename else ''}.") from None
        raise
    return manifest


def _unfinished(folder: Path) -> str | None:
    """The sentence for a folder a `bundle` run left unfinished (its wheels/ and no manifest.json): what a bundle
    stopped by SIGKILL, the OOM killer or a Slurm time limit leaves, as no clean-up runs then (thirteenth pass #57).
    The manifest is written last, so its absence is the mark, and a bundle still getting gc-wizard's wheels or the
    forecast's files holds `UNFINISHED` (33rd hostile pass (part B) P2); the folder is named, never removed by
    another run. The sentence names the mark it found: a folder holding `UNFINISHED` and a `manifest.json` (one a run
    wrote before it was stopped, or one put there) was said to have "no manifest.json" (37th hostile pass (part B))."""
    if (folder / UNFINISHED).exists():
        mark = (f"its {UNFINISHED} mark, which a bundle run takes away only when it finishes"
                + (f"; its {MANIFEST} does not make it a finished one" if (folder / MANIFEST).exists() else ""))
    elif (folder / WHEELS).is_dir() and not (folder / MANIFEST).exists():
        mark = f"a {WHEELS}/ folder and no {MANIFEST}"
    else:
        return None
    return (f"holds an unfinished bundle ({mark}: a run stopped before it finished); remove it "
            f"(`rm -r {shell_word(str(folder))}`) or give another folder")


def bundle_assets_extra(bundle: str | Path | None) -> dict[str, str]:
    """For the environment's marker: where the bundle's forecast files are (`{"assets": DIR}`), if it has them,
    so `gc-wizard forecast` on the offline machine finds them without being told."""
    if bundle is None:
        return {}
    folder = Path(bundle) / ASSETS
    return {"assets": str(folder)} if (folder / "SHA256SUMS").is_file() else {}


def add_files(root: Path, names: list[str]) -> dict[str, Any]:
    """Add files already under `root` to its manifest (each hashed), so `check_bundle` checks them too."""
    manifest = read_manifest(root, making=True)
    known = {item["name"] for item in manifest["files"]}
    for name in names:
        if name not in known:
            path = root / name
            manifest["files"].append({"name": name, "sha256": file_sha256(path), "size": path.stat().st_size})
    write_destination(root / MANIFEST, json.dumps(manifest, indent=1) + "\n", what="the bundle's manifest",
                      mode=SHARED_MODE)  # never through a link (wizard.outputs)
    return manifest


def read_manifest(root: Path, *, making: bool = False) -> dict[str, Any]:
    """The manifest of the bundle at `root`; UserError for a bundle that is unfinished (`making`: this run is
    making it, so its own mark is expected), or whose manifest cannot be read."""
    if not root.is_dir():
        raise UserError(f"--bundle {root}: {bounded.not_a_folder(root)}.")
    if not making and (root / UNFINISHED).exists():
        raise UserError(f"--bundle {root}: {_unfinished(root)}; make a bundle with `gc-wizard bundle RECIPE --out "
                        "DIR`.")
    path = root / MANIFEST
    try:
        data = bounded.loads_json(bounded.read_text(path, bounded.MANIFEST_BYTES))
    except FileNotFoundError:
        raise UserError(f"--bundle {root}: {_unfinished(root) or f'no {MANIFEST} there'}; make a bundle with "
                        "`gc-wizard bundle RECIPE --out DIR`.") from None
    except (OSError, ValueError) as exc:  # ParseLimitError too: a manifest linked to /dev/zero is a sentence
        raise UserError(f"--bundle {root}: {MANIFEST} cannot be read ({exc}).") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT or not isinstance(data.get("files"), list):
        raise UserError(f"--bundle {root}: {MANIFEST} is not a gc-wizard bundle manifest (format {FORMAT}).")
    for item in data["files"]:
        name = item.get("name") if isinstance(item, dict) else None
        if not _own_file(name):
            raise UserError(f"--bundle {root}: {MANIFEST} names the file {name!r}, which is not a file of the "
                            "bundle's own folder; make the bundle again with `gc-wizard bundle RECIPE --out DIR`.")
    return data


def _own_file(name: object) -> bool:
    """Whether a manifest's `name` is a file of the bundle's own folder: relative, no '..', no NUL. An absolute
    name or a '..' would read (and install) a file from elsewhere on the machine, however good its hash."""
    parts = PurePosixPath(name).parts if isinstance(name, str) else ()
    return bool(parts) and not name.startswith("/") and ".." not in parts and "\0" not in name


def _check_graphcast_wheel(root: Path, manifest: dict[str, Any]) -> None:
    """The manifest's GraphCast wheel is a file of the bundle's `wheels/` folder that its `files` list with a
    sha256 (so the hash check covers it), named as a wheel; else UserError naming the value.

    Why: `"graphcast": {"wheel": "../../elsewhere/x.whl"}` (or an absolute path) installed a wheel from outside
    the bundle, never hashed, whose `.pth` then ran at the environment's every start (eleventh hostile pass
    #123); a `files` entry outside the folder was already refused (`read_manifest`)."""
    graphcast = manifest.get("graphcast")
    wheel = graphcast.get("wheel") if isinstance(graphcast, dict) else None
    listed = {item.get("name") for item in manifest["files"] if isinstance(item, dict) and item.get("sha256")}
    if isinstance(wheel, str) and "/" not in wheel and wheel.endswith(".whl") and _own_file(wheel) \
            and f"{WHEELS}/{wheel}" in listed:
        return
    if not isinstance(wheel, str):
        raise UserError(f"--bundle {root}: {MANIFEST} names no GraphCast wheel; make the bundle again with "
                        "`gc-wizard bundle RECIPE --out DIR`.")
    shown = repr(cut(wheel, 120))  # a 100 000-character value is named, not printed whole (thirteenth pass #42)
    if "/" in wheel or not _own_file(wheel):
        why = f"names the GraphCast wheel {shown}, which is not a file of the bundle's own {WHEELS}/ folder"
    elif not wheel.endswith(".whl"):
        why = f"names the GraphCast wheel {shown}, which is not a wheel (.whl)"
    else:
        why = f"names the GraphCast wheel {shown}, which its files do not list with a sha256"
    raise UserError(f"--bundle {root}: {MANIFEST} {why}; make the bundle again with `gc-wizard bundle RECIPE --out DIR`.")


def _unlisted(root: Path, manifest: dict[str, Any]) -> list[str]:
    """The files of the bundle's package folders (`wheels/`, `wizard/`) its manifest does not list.

    Why: 34th hostile pass (part B) P3 — a `gc_wizard-9.9` wheel dropped into `wizard/` went unnoticed by
    `install --bundle`, and the printed `pip install --find-links DIR/wizard` line installed it (the highest
    version in the folder wins); every file there is one an installer may take, so only the listed ones may be."""
    listed = {str(item.get("name")) for item in manifest["files"] if isinstance(item, dict)}
    found = []
    for folder in (WHEELS, WIZARD_WHEELS):
        try:
            names = sorted(os.listdir(root / folder))
        except OSError:  # no such folder (a bundle without gc-wizard's wheels): nothing there to take
            continue
        found += [f"{folder}/{name}" for name in names if f"{folder}/{name}" not in listed]
    return found


#: The user's target variables `pip download` is not given: pip adds a `PIP_PLATFORM`/`PIP_ABI` to the
#: `--platform`/`--abi` list given (they are lists), ahead of it, so it would still pick that platform's wheels.
TARGET_VARIABLES = tuple("PIP_" + key.upper().replace("-", "_") for key in PIP_TARGET_PLATFORM)


def target_arguments(python_version: str) -> list[str]:
    """`pip download`'s target, in full: this machine's platforms, CPython and its ABI for `python_version` — the
    tags `machine_tags` checks at install. With those variables left out (`TARGET_VARIABLES`), and a pip.conf's
    `platform`/`abi` refused (`target_file_problem`), the bundle holds this machine's wheels whatever the user set.

    Why: 38th hostile pass (part B) P1 — with `PIP_PLATFORM=win_amd64` set, pip downloaded a Windows wheel the
    lock's hashes did not list and stopped with "someone may have tampered with them", naming no variable."""
    major, minor = (int(p) for p in python_version.split(".")[:2])
    platforms = [arg for tag in platform_tags() for arg in ("--platform", tag)]
    return [*platforms, "--implementation", "cp", "--abi", f"cp{major}{minor}", "--python-version", python_version]


def machine_tags(python_version: str) -> set[Tag]:
    """The wheel tags a CPython `python_version` on this machine installs (packaging's own rules)."""
    major, minor = (int(p) for p in python_version.split(".")[:2])
    return set(cpython_tags((major, minor))) | set(compatible_tags((major, minor)))


def _check_lock_lines(bundle: Bundle) -> None:
    """Every requirement of the bundle's lock is a hashed pin of a package its manifest lists (see
    `install.pinned`): a `pkg @ file:///elsewhere/x.whl` line would install a file from outside the bundle."""
    packages = bundle.manifest.get("packages")
    if not isinstance(packages, dict):
        raise UserError(f"--bundle {bundle.root}: {MANIFEST} lists no packages; make the bundle again with "
                        "`gc-wizard bundle RECIPE --out DIR`.")
    try:
        text = bounded.read_regular_text(bundle.lock, bounded.LOCK_BYTES)
    except (OSError, ValueError) as exc:
        raise UserError(f"--bundle {bundle.root}: {LOCK} cannot be read ({exc}).") from None
    foreign = foreign_line(text, {str(k): str(v) for k, v in packages.items()})
    if foreign is not None:
        number, line, why = foreign
        shown = cut(line, 120)  # masked, then cut: a URL's password stays out
        raise UserError(f"--bundle {bundle.root}: {LOCK}, line {number} ({shown!r}) is refused: {why}. A bundle "
                        "installs only the wheels it holds; make it again with `gc-wizard bundle RECIPE --out DIR`.")


def check_bundle(root: Path | str, recipe: Recipe, python_version: str | None = None) -> Bundle:
    """The bundle at `root`, after checking it fits `recipe`, is intact and installs on this machine."""
    root = Path(expand_home(root)).absolute()
    if not root.is_dir():
        raise UserError(f"--bundle {root}: {bounded.not_a_folder(root)}.")
    manifest = read_manifest(root)
    if manifest.get("recipe") != recipe.id:
        raise UserError(f"--bundle {root} was made for recipe {manifest.get('recipe')}, not {recipe.id}.")
    _check_graphcast_wheel(root, manifest)  # before anything is hashed or installed
    missing, odd, changed = [], [], []
    real_root = Path(os.path.realpath(root))
    for item in manifest["files"]:
        path = root / str(item.get("name", ""))
        if Path(os.path.realpath(path)).parent != Path(os.path.realpath(path.parent)) or \
                real_root not in Path(os.path.realpath(path)).parents:
            # A wheel (or wheels/ itself) that is a link out of the bundle: its bytes were checked, but the file
            # outside may change between the check and the install (thirteenth hostile pass #41).
            odd.append(str(item.get("name")))
        elif not path.is_file():
            # A FIFO, folder or device at a wheel's name is there, but is no wheel: said as such, not "missing".
            (odd if path.exists() else missing).append(str(item.get("name")))
        elif file_sha256(path) != item.get("sha256"):
            changed.append(str(item.get("name")))
    unlisted = _unlisted(root, manifest)
    if missing or odd or changed or unlisted:
        parts = []
        if unlisted:
            parts.append(f"not listed in its {MANIFEST} (put there after it was made): {', '.join(unlisted[:5])}"
                         + (" …" if len(unlisted) > 5 else ""))
        if missing:
            parts.append(f"missing: {', '.join(missing[:5])}" + (" …" if len(missing) > 5 else ""))
        if odd:
            parts.append(f"not a regular file of the bundle's own folder: {', '.join(odd[:5])}"
                         + (" …" if len(odd) > 5 else ""))
        if changed:
            parts.append(f"changed since it was made (hash differs): {', '.join(changed[:5])}")
        raise UserError(f"--bundle {root} is damaged — {'; '.join(parts)}. Copy it again or make a new one.")
    bundle = Bundle(root=root, manifest=manifest)
    if python_version is not None and ".".join(python_version.split(".")[:2]) != bundle.python:
        raise UserError(f"--bundle {root} holds wheels for Python {bundle.python}, but this install uses Python "
                        f"{python_version}; make the bundle with --python {'.'.join(python_version.split('.')[:2])} "
                        f"or put Python {bundle.python} on PATH.")
    _check_lock_lines(bundle)
    tags = machine_tags(bundle.python)
    have: dict[str, list[tuple[str, bool]]] = {}
    for wheel in wheels_in(bundle.wheels):
        try:
            name, _version, _build, wheel_tags = parse_wheel_filename(wheel.name)
        except InvalidWheelFilename:
            continue
        have.setdefault(str(canonicalize_name(name)), []).append((wheel.name, bool(wheel_tags & tags)))
    unfit = []
    for name in lock_packages(bundle.lock):
        found = have.get(name, [])
        if not found:
            unfit.append(f"{name} (no wheel at all)")
        elif not any(ok for _, ok in found):
            unfit.append(f"{name} (only {', '.join(n for n, _ in found)})")
    if unfit:
        here = _platform_info()
        made = manifest.get("platform") or {}
        raise UserError(
            f"--bundle {root} does not fit this machine ({here['arch']}, glibc {here['glibc'] or '?'}, Python "
            f"{bundle.python}; it was made on {made.get('arch', '?')}, glibc {made.get('glibc') or '?'}): no "
            f"installable wheel for {', '.join(unfit[:6])}" + (" …" if len(unfit) > 6 else "")
            + ". Make the bundle on a machine like this one.")
    if not bundle.graphcast_wheel.is_file():
        raise UserError(f"--bundle {root}: its GraphCast wheel {bundle.graphcast_wheel.name} is missing.")
    return bundle
