"""Hashed locks: a recipe's full closure, every package pinned with its sha256, in a standard format.

Why: an admin who prepares many servers needs the same environment everywhere, byte for byte. A
recipe pins its top-level packages; the lock pins everything they pull in, and each file's hash, so
an install from it refuses a wheel that differs from the one locked (a tampered mirror, a re-uploaded
file). The format is PEP 751's `pylock.toml` when the installed uv can write and install it (uv
0.8+: `uv pip compile --format pylock.toml`, `uv pip install -r pylock.toml`, which checks the hashes
it lists), else `requirements.txt` with `--hash` lines, which `uv pip install --require-hashes` and
`pip install --require-hashes` both check. The file name picks the format: a PEP 751 lock must be
named `pylock.toml` or `pylock.<name>.toml`.

GraphCast is not in the lock: the recipe installs it `--no-deps` from a source pinned to a git
revision (itself a hash), named in the lock's header. Resolution runs `uv pip compile` directly (not
under the pty runner): it asks nothing, and its output is a file.
"""

from __future__ import annotations

import hashlib
import os
import re
import subprocess
import sys
import time
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from packaging.utils import canonicalize_name

from wizard import bounded
from wizard.children import run_capture
from wizard.errors import OperationFailed, UserError, child_end_words, open_files_advice
from wizard.install.cache_trust import cache_problem, child_env
from wizard.install.lines import fold_tracebacks
from wizard.install.linkmode import download_cache
from wizard.install.no_space import NoRoom, no_room, no_room_sentence
from wizard.install.pinned import HASH, logical_lines, pin_of
from wizard.install.private_args import PrivateArguments, temporary_folder
from wizard.install.reach import (
    configured_index,
    find_answered,
    find_unreachable,
    index_sentence,
    tls_refused,
    tls_words,
)
from wizard.install.remote_wheelhouse import refuse_endless_pages
from wizard.install.source_places import refuse_swappable_sources
from wizard.install.sources import outside_index_problem
from wizard.installer_files import requirement_problem, uv_trust_gap
from wizard.option_values import refuse_option_like
from wizard.outputs import SHARED_MODE, check_out_folder, refuse_file_in_the_way, write_destination
from wizard.recipes.loader import Recipe
from wizard.recipes.pythons import fits
from wizard.security import cut, expand_home, one_line, redact_secrets, show_characters, unshowable_characters
from wizard.uv_tool import uv_bin

PYLOCK = "pylock.toml"
REQUIREMENTS = "requirements.txt"
_PYLOCK_NAME = re.compile(r"^pylock(\.[^.]+)?\.toml$")
_PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)(?:\[[^\]]*\])?==([^\s;\\]+)")


@lru_cache(maxsize=1)
def uv_writes_pylock() -> bool:
    """Whether this uv can write (and so install) PEP 751 locks."""
    try:
        proc = run_capture([uv_bin(), "pip", "compile", "--help"], stoppable=False, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return "pylock.toml" in proc.stdout


def lock_format(path: Path) -> str:
    """PYLOCK or REQUIREMENTS, from the file name; UserError for a name that is neither."""
    if _PYLOCK_NAME.match(path.name):
        return PYLOCK
    if path.suffix in (".txt", ".lock") or path.name.endswith(".in"):
        return REQUIREMENTS
    raise UserError(f"{path}: a lock is named pylock.toml / pylock.NAME.toml (PEP 751) or ends in .txt "
                    "(requirements with hashes).")


def default_lock_name(recipe_id: str) -> str:
    name = re.sub(r"[^A-Za-z0-9_-]+", "_", recipe_id)
    return f"pylock.{name}.toml" if uv_writes_pylock() else f"requirements-{recipe_id}.txt"


def default_python_version(recipe: Recipe) -> str:
    """The minor version the lock targets when none is given: the wizard's own if it fits the recipe."""
    own = f"{sys.version_info.major}.{sys.version_info.minor}"
    if fits(recipe.machine.python, f"{own}.0"):
        return own
    for minor in range(20, 7, -1):
        if fits(recipe.machine.python, f"3.{minor}.0"):
            return f"3.{minor}"
    raise UserError(f"recipe {recipe.id} needs Python {recipe.machine.python}; give --python X.Y.")


def check_python_version(recipe: Recipe, value: str | None) -> str:
    if value is None:
        return default_python_version(recipe)
    if not re.fullmatch(r"3\.[0-9]{1,2}", value.strip()):
        raise UserError(f"--python {value!r} is not a Python version like 3.11.")
    if not fits(recipe.machine.python, f"{value.strip()}.0"):
        raise UserError(f"recipe {recipe.id} needs Python {recipe.machine.python}, not {value}.")
    return value.strip()


@dataclass(frozen=True)
class LockResult:
    recipe: str
    path: Path
    format: str
    python: str
    platform: str | None
    packages: dict[str, str]
    sha256: str
    seconds: float

    def to_dict(self) -> dict[str, Any]:
        return {"ok": True, "recipe": self.recipe, "lock": str(self.path), "format": self.format,
                "python": self.python, "platform": self.platform, "packages": dict(self.packages),
                "sha256": self.sha256, "seconds": round(self.seconds, 2)}


def _source_flags(recipe: Recipe, find_links: list[str] | tuple[str, ...]) -> list[str]:
    flags: list[str] = []
    for link in [*recipe.find_links, *find_links]:
        flags += ["--find-links", str(link)]
    for url in recipe.extra_index_urls:
        flags += ["--extra-index-url", url]
    return flags


def unreachable_sentence(recipe: Recipe, text: str, environ: Mapping[str, str] | None = None) -> str | None:
    """One or two sentences for a resolve that failed on the network: the host, what it served, and the
    fix (the recipe's PyPI alternative when JAX's wheel page is the one missing; else a wheelhouse). A host
    that answered with an error (a redirect loop, HTTP 500) is said to have answered, not to be unreachable;
    one an index variable names (UV_INDEX_URL …) is named with that variable (`reach.index_sentence`)."""
    hosts, answered = find_unreachable(text), find_answered(text)
    if not hosts and not answered:
        return None
    names = ", ".join(h.host for h in hosts)
    if any(h.role == "jax-releases" for h in hosts) and recipe.alternatives:
        offers = " or ".join(f"`gc-wizard lock {recipe.id} --alternative {a.id}` ({a.title})" for a in recipe.alternatives)
        return (f"this server cannot reach {names} (JAX's CUDA wheel page). Lock the same stack from PyPI instead: "
                f"{offers}.")
    said = [f"this server cannot reach {names}, which the recipe's packages come from."] if hosts else []
    said += [f"the server at {a.where()} was reached but answered with {a.answer}, so that address is not a "
             "working package page." for a in answered]
    setting = configured_index([*(h.host for h in hosts), *(a.host for a in answered)], environ)
    said += [index_sentence(setting)] if setting is not None else []
    tls = bool(answered) and all(a.answer == tls_words() for a in answered)  # no address to correct (walk 33 #2)
    said.append("Lock it on a machine that can, or give a wheelhouse with --find-links DIR --offline." if hosts else
                "Or give a wheelhouse with --find-links DIR --offline." if tls else
                "Correct that address, or give a wheelhouse with --find-links DIR --offline.")
    return " ".join(said)


def check_lock_out(out: Path, fmt: str | None = None) -> tuple[Path, str]:
    """Refuse, before the resolve (and before the face says it starts one), a lock `--out` that cannot be one: a
    name that is no lock's, named as the user gave it (24th hostile pass (part A) P10: `--out /dev/null` was refused
    as "null", after "Resolving …"), a missing folder, a FIFO nothing reads, a place others can swap. Returns the
    path to write (its links on the way followed) and the lock's format."""
    given = Path(expand_home(out))
    fmt = fmt or lock_format(given)
    if fmt == PYLOCK and not uv_writes_pylock():
        raise UserError(f"this uv cannot write {PYLOCK} locks; name the lock FILE.txt for requirements with hashes.")
    out = given.absolute()
    refuse_file_in_the_way("--out", out, "choose another --out")  # before "does not exist" (25th pass (A) P3)
    if not out.parent.is_dir():
        raise UserError(f"--out {out}: the folder {out.parent} does not exist.")
    # before the resolve: its temporary file beside `out` must not be what is named
    return check_out_folder("--out", out, runs="`install --lock` would then install"), fmt


def compile_lock(recipe: Recipe, out: Path, *, python_version: str, platform: str | None = None,
                 find_links: list[str] | tuple[str, ...] = (), offline: bool = False, fmt: str | None = None,
                 timeout: float = 900, say=None, graphcast_from: str | None = None,
                 trust: Mapping[str, str] | None = None, app_keys: str | None = None
                 ) -> LockResult:
    """Resolve `recipe`'s requirements for Python `python_version` (and `platform`) into `out`, hashed. `say`
    hears what the user should know on the way (a find-links page too slow to read whole). `graphcast_from` is
    what the header names as GraphCast's source when it is not the recipe's (a bundle's own wheel). `trust`: the CA
    variables uv is given (`installer_files.uv_trust_env`, a bundle made with pip's trust); a TLS failure without them
    leads with the trust rule's sentence (`installer_files.uv_trust_gap`, with the app's `app_keys`, or none)."""
    started = time.monotonic()
    for option, value in (("--python", python_version), ("--platform", platform),
                          *(("--find-links", link) for link in find_links)):
        refuse_option_like(option, value)
    # uv's resolver reads UV_OVERRIDE / UV_CONSTRAINT (and their uv.toml keys) on its own: a lock wrote an override's
    # `pkg-a @ file:///…` line in, to be handed on as the recipe's (25th hostile pass (part B) P4)
    problem = requirement_problem("uv", os.environ, os.getcwd())
    if problem:
        raise UserError(problem)
    out, fmt = check_lock_out(out, fmt)
    # What the lock's hashes are taken from; named where their links lead from now on (twenty-second pass P1).
    recipe, find_links, _ = refuse_swappable_sources(recipe, find_links, None, graphcast=False)
    missing = outside_index_problem(recipe, find_links, name_source=False)
    if missing:  # said before the resolver runs: uv's "not found in the package registry" names no fix
        raise UserError(missing)
    refuse_endless_pages([*recipe.find_links, *find_links], offline=offline, say=say)  # uv reads each page whole
    with temporary_folder("lock") as tmp:
        source = Path(tmp) / f"{recipe.id}.in"
        source.write_text("\n".join(recipe.requirements) + "\n", encoding="utf-8")
        argv = [uv_bin(), "pip", "compile", "--quiet", "--generate-hashes", "--no-header", "--python-version",
                python_version, "--format", fmt, *_source_flags(recipe, find_links)]
        if platform:
            argv += ["--python-platform", platform]
        if offline:
            argv += ["--offline"]
        partial = out.parent / (f"pylock.partial{abs(hash(str(out))) % 10**6}.toml" if fmt == PYLOCK
                                else f".{out.name}.partial")
        argv += [str(source), "-o", str(partial)]
        env = child_env(argv, {**_uv_env(), **(trust or {})})  # 25th pass (B) P1
        unusable = cache_problem("uv", download_cache(argv[0], env), env)  # not "could not resolve" (27th (A) P1)
        if unusable:
            raise UserError(unusable)
        try:
            with PrivateArguments(argv) as private:  # a find-links password stays off the command line
                proc = run_capture(private.argv, stoppable=False, timeout=timeout, stdin=subprocess.DEVNULL,
                                   env=private.environ(env))  # dies with the wizard: no resolver left running
        except subprocess.TimeoutExpired:
            partial.unlink(missing_ok=True)
            raise OperationFailed(f"resolving recipe {recipe.id} did not finish within {timeout:g} s.") from None
        except OSError as exc:
            raise OperationFailed(f"cannot run uv: {exc}") from None
        if proc.returncode != 0 or not partial.exists():
            why = no_room(OperationFailed(proc.stderr), out)  # before the unlink frees an inode (33rd pass (A) P7)
            partial.unlink(missing_ok=True)
            if proc.returncode < 0 or proc.returncode > 128 and not proc.stderr.strip():
                # uv ended on a signal (SIGXFSZ under `ulimit -f`, a kill): no resolution failure, and its output
                # says nothing of why (23rd hostile pass P7: "could not resolve …:" and a blank line)
                number = -proc.returncode if proc.returncode < 0 else proc.returncode - 128
                raise OperationFailed(f"uv was {child_end_words(None, number)} while resolving recipe {recipe.id}; "
                                      "nothing was written.")
            if why:  # uv's "failed to write … No space left on device" is no resolution failure
                raise NoRoom(no_room_sentence("the lock", out, why), why)
            # a traceback uv relays (a build backend's) as its one line (27th hostile pass (part A) P5)
            said = "\n  ".join([line for line in fold_tracebacks(proc.stderr.splitlines(), "uv") if line.strip()][-8:])
            if platform and "platform" in proc.stderr.lower() and "invalid value" in proc.stderr.lower():
                raise UserError(f"--platform {platform} is not a platform uv knows; give one such as "
                                "x86_64-manylinux_2_28, aarch64-manylinux_2_28 or linux (`uv pip compile --help` "
                                "lists them all).")
            unreachable = unreachable_sentence(recipe, proc.stderr)
            if unreachable:
                gap = None if trust or not tls_refused(proc.stderr) else uv_trust_gap(os.environ, os.getcwd(),
                                                                                       keys=app_keys)
                raise OperationFailed(f"uv could not resolve recipe {recipe.id}: "
                                      + (f"{gap} " if gap else "") + unreachable)
            limit = open_files_advice(proc.stderr)  # uv's glibc words under a low `ulimit -n` (24th pass (A) P9)
            raise OperationFailed(f"uv could not resolve recipe {recipe.id} for Python {python_version}:\n  {said}"
                                  + (f"\n{limit}" if limit else ""))
        body = partial.read_text(encoding="utf-8")
        partial.unlink()
    leak = next((line for line in body.splitlines() if redact_secrets(line) != line), None)
    if leak is not None:
        # A pylock names each file by its URL, and a find-links page whose links carry a password or token put them
        # in the lock as they are; a lock is made to be handed to others (0644), so it is not written (thirteenth
        # hostile pass #65).
        raise UserError(f"the lock for recipe {recipe.id} would hold a password or token in the address of a file "
                        f"({cut(line_shown(leak), 120)}), which its find-links page links so; a lock is made to be "
                        "shared, so nothing was written. Serve the wheels from a page whose links carry no "
                        "credential (the server may still ask for one), or write the lock as requirements (`--out FILE.txt`), "
                        "which names files by their hashes only.")
    header = (f"# gc-wizard lock for recipe {recipe.id} ({recipe.title}); Python {python_version}"
              + (f", platform {platform}" if platform else "") + ".\n"
              f"# Every package with its sha256: an install from this file refuses any other file.\n"
              f"# GraphCast is installed --no-deps from {one_line(graphcast_from or recipe.graphcast.source)}\n")
    text = header + body
    try:
        write_destination(out, text, what="the lock", mode=SHARED_MODE)  # never through a link (wizard.outputs)
    except OSError as exc:
        why = no_room(exc, out)
        if why:
            raise NoRoom(no_room_sentence("the lock", out, why), why) from None
        raise OperationFailed(f"cannot write the lock {out}: {exc.strerror or exc}.") from None
    # Described from what was written, never read back: --out may be a device (/dev/null reads back nothing).
    return LockResult(recipe=recipe.id, path=out, format=fmt, python=python_version, platform=platform,
                      packages=packages_in(text, fmt), sha256=hashlib.sha256(text.encode("utf-8")).hexdigest(),
                      seconds=time.monotonic() - started)


def _uv_env() -> dict[str, str]:
    env = dict(os.environ)
    env.update({"UV_NO_PROGRESS": "1", "NO_COLOR": "1"})
    return env


def line_shown(line: str) -> str:
    """A lock line as a refusal quotes it: stripped, masked."""
    return redact_secrets(line.strip(), keep_user=True)


def lock_packages(path: Path) -> dict[str, str]:
    """{canonical name: version} of every package a lock pins (both formats), after `unhashed_entry`'s rule:
    a lock whose entry names no file by its hash is refused here, the one reader every `--lock` goes through."""
    try:
        text = bounded.read_regular_text(path, bounded.LOCK_BYTES)
    except OSError as exc:
        raise UserError(f"--lock {path}: cannot be read ({exc.strerror or exc}).") from None
    except bounded.ParseLimitError as exc:
        raise UserError(f"--lock {path}: {exc}.") from None
    fmt = lock_format(Path(path))
    why = unhashed_entry(text, fmt)
    if why:
        raise UserError(f"--lock {path}: {why}; a lock names every package's files by sha256, as `gc-wizard lock "
                        "RECIPE` writes it.")
    return packages_in(text, fmt)


def unhashed_entry(text: str, fmt: str) -> str | None:
    """The first entry of a lock that does not name its files by sha256 (one clause naming it), or None.

    Why: a lock is trusted as "every file's hash checked", and the installer checks only the hashes a lock
    lists. A `.txt` line without `--hash` is refused by `--require-hashes`, but a PEP 751 `directory`, `vcs`,
    or `sdist`/`archive` without `hashes` is installed by uv as it is: the fourth hostile pass (C13) had a
    `directory = {path = …}` entry whose setup.py ran under that very line. One rule for both formats: every
    entry is a pinned file with a sha256, nothing else. A lock is the wizard's own output, so anything it never
    writes is refused here too, before an environment is made (tenth hostile pass L6/L14/L16: a marker after the
    hashes and an unknown lock-version reached uv, which failed after the env was made; a marker holding a bidi
    override and ESC excluded its package, and the install said every file was checked)."""
    for number, line in enumerate(text.splitlines(), 1):
        odd = unshowable_characters(line, allow="\t")
        if odd:
            return f"line {number} holds characters a lock never has ({show_characters(odd)})"
    if fmt == PYLOCK:
        return _unhashed_pylock_entry(text)
    for number, line in logical_lines(text):
        first, *rest = line.split()
        if pin_of(first.rstrip(";")) is None:
            return f"line {number} ({cut(line, 80)!r}) is not a `name==version` pin"
        if not any(HASH.match(token) for token in rest):
            return f"line {number} ({first}) has no `--hash=sha256:`"
        after = rest[next(i for i, token in enumerate(rest) if HASH.match(token)):]
        if not all(HASH.match(token) for token in after):
            return f"line {number} ({first}) has more after its hashes (a marker goes before them)"
    return None


def _unhashed_pylock_entry(text: str) -> str | None:
    """`unhashed_entry` for a pylock.toml, read as TOML (as uv reads it: a line-by-line reading could see
    another file than the installer does)."""
    try:
        data = bounded.loads_toml(text)
    except bounded.ParseLimitError as exc:
        return str(exc)
    except ValueError as exc:
        return f"it is not valid TOML ({exc})"
    version = data.get("lock-version")
    if not (isinstance(version, str) and re.fullmatch(r"1(\.[0-9]+)*", version)):
        return f"its lock-version {cut(str(version), 20)!r} is not 1.x, the version uv and gc-wizard read"
    packages = data.get("packages")
    if not isinstance(packages, list):
        return "it has no [[packages]] list"
    for number, package in enumerate(packages, 1):
        if not isinstance(package, dict):
            return f"packages entry {number} is not a table"
        name = f"package {cut(str(package.get('name', '?')), 60)!r} ([[packages]] entry {number})"
        for kind, what in (("directory", "a local folder"), ("vcs", "a version-control checkout")):
            if kind in package:
                return f"{name} is {what} (`{kind} = …`), which has no file hash and whose build script would run"
        files = [package[key] for key in ("archive", "sdist") if key in package]
        wheels = package.get("wheels", [])
        files += wheels if isinstance(wheels, list) else [wheels]
        if not files:
            return f"{name} names no file (no wheels, sdist or archive)"
        if not all(isinstance(file, dict) and _sha256_of(file.get("hashes")) for file in files):
            return f"{name} lists a file without a sha256 in its `hashes`"
        # A source archive is built on install: its setup.py runs, hash checked or not (nineteenth hostile pass P2).
        # uv's own locks list a package's sdist beside its wheels, and the install step takes wheels only
        # (`install_args`); a package with no wheel at all would be built, so it is refused by name.
        source = package.get("sdist") or package.get("archive")
        if not wheels and source is not None and not _names_a_wheel(source):
            kind = "sdist" if "sdist" in package else "archive"
            return (f"{name} is a source archive only (`{kind} = …`, no wheel), which the installer would build, "
                    "running its setup.py; a lock gc-wizard writes names a wheel for every package")
    return None


def _names_a_wheel(file: object) -> bool:
    """Whether a pylock file table (`archive`) points at a wheel by its url or path."""
    where = str(file.get("url") or file.get("path") or "") if isinstance(file, dict) else ""
    return where.split("#", 1)[0].split("?", 1)[0].endswith(".whl")


def _sha256_of(hashes: object) -> bool:
    """Whether a pylock `hashes` table holds a well-formed sha256."""
    return isinstance(hashes, dict) and isinstance(hashes.get("sha256"), str) \
        and re.fullmatch(r"[0-9a-fA-F]{64}", hashes["sha256"]) is not None


def packages_in(text: str, fmt: str) -> dict[str, str]:
    """{canonical name: version} of every package pinned in a lock's text of format `fmt`."""
    packages: dict[str, str] = {}
    if fmt == PYLOCK:
        try:
            entries = bounded.loads_toml(text).get("packages")
        except ValueError:
            return packages
        for entry in entries if isinstance(entries, list) else []:
            if isinstance(entry, dict) and isinstance(entry.get("name"), str) and isinstance(entry.get("version"), str):
                packages[str(canonicalize_name(entry["name"]))] = entry["version"]
        return packages
    for line in text.splitlines():
        match = _PIN.match(line.strip())
        if match:
            packages[str(canonicalize_name(match.group(1)))] = match.group(2)
    return packages


def check_lock_covers(recipe: Recipe, path: Path) -> dict[str, str]:
    """The lock's packages, after checking it pins every requirement of `recipe` at the recipe's version."""
    from packaging.requirements import InvalidRequirement, Requirement

    packages = lock_packages(path)
    if not packages:
        raise UserError(f"--lock {path} pins no packages; make one with `gc-wizard lock {recipe.id}`.")
    wrong = []
    for text in recipe.requirements:
        try:
            req = Requirement(text)
        except InvalidRequirement:
            continue
        name = str(canonicalize_name(req.name))
        have = packages.get(name)
        if have is None:
            wrong.append(f"{req.name} is missing")
        elif req.specifier and not req.specifier.contains(have, prereleases=True):
            wrong.append(f"{req.name} is {have}, the recipe says {req.specifier}")
    if wrong:
        raise UserError(f"--lock {path} was not made for recipe {recipe.id}: {'; '.join(wrong[:4])}. Make one with "
                        f"`gc-wizard lock {recipe.id}`.")
    return packages


def install_args(path: Path) -> list[str]:
    """What the install step gets instead of the recipe's pins: the lock, with hash checking on, wheels only (a
    source archive a hand-edited lock names is never built: its setup.py would run)."""
    if lock_format(path) == PYLOCK:
        return ["--only-binary", ":all:", "-r", str(path)]  # uv checks every hash a pylock.toml lists
    return ["--only-binary", ":all:", "--require-hashes", "-r", str(path)]
