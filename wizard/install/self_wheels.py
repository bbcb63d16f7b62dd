"""gc-wizard's own wheel and its runtime dependencies' wheels, for a bundle's `wizard/` folder.

Why: walk 26 #2 — the offline machine could not install gc-wizard itself: it is not on PyPI, a clone needs its build
backend (hatchling) and its dependencies from an index, and the bundle carried only the recipe's wheels. So `bundle`
now carries gc-wizard as a wheel and every distribution it needs at run time, and the offline machine installs it with
`python3 -m venv … && …/pip install --no-index --find-links DIR/wizard gc-wizard`.

How, with nothing but what this gc-wizard already has (no index, no build backend): each dependency is packed again
from the distribution installed beside this gc-wizard — the files its RECORD lists, its own dist-info, its own wheel
tag (`WHEEL`) — so the offline machine gets exactly the versions this one runs, and the bundle can be made where no
index answers either. Each file is held to the hash its RECORD gives: one changed since the install is refused by
name (`_refuse_changed`), never packed as the release. gc-wizard's wheel is packed from the running package folder
(a checkout or an install alike; an install's files held to its RECORD the same way, one added to it refused too),
with the shipped recipes at `wizard/data/recipes` as its own wheel has them and its installed metadata's
requirements. The wheels are for this interpreter (its Python version and platform), which `for_python` names.
"""

from __future__ import annotations

import base64
import hashlib
import os
import sys
import sysconfig
import zipfile
from importlib import metadata
from pathlib import Path
from urllib.parse import unquote, urlparse

from packaging.requirements import InvalidRequirement, Requirement
from packaging.utils import canonicalize_name

from wizard import __version__, paths
from wizard.bounded import loads_json
from wizard.errors import OperationFailed
from wizard.security import make_folders, writing
from wizard.tree_walk import walk

#: The bundle's folder for them.
WIZARD = "wizard"
DIST = "gc-wizard"
#: Files an installer writes into a dist-info that are not the wheel's own.
_INSTALLER_FILES = frozenset({"INSTALLER", "REQUESTED", "RECORD", "direct_url.json", "uv_cache.json"})


def for_python() -> str:
    """The interpreter the wheels are for, in words: `Python 3.11 on linux x86_64`."""
    return f"Python {sys.version_info.major}.{sys.version_info.minor} on {sys.platform} {os.uname().machine}"


def _digest(data: bytes) -> str:
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


class _Wheel:
    """A wheel being written: each file added with its RECORD line, RECORD last. A write that fails (a full disk) is
    said of the wheel's file (`security.writing`): the zip's writes name none, and the sentence for a full disk with
    no file named the state folder and /tmp, never the --out being filled (38th hostile pass (part A) P4)."""

    def __init__(self, path: Path, dist_info: str) -> None:
        self.path, self.dist_info, self.records = path, dist_info, []
        self.zip = zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED)

    def add(self, name: str, data: bytes, mode: int = 0o644) -> None:
        info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
        info.external_attr = (0o100000 | mode) << 16
        info.compress_type = zipfile.ZIP_DEFLATED
        with writing(self.path):
            self.zip.writestr(info, data)
        self.records.append(f"{name},{_digest(data)},{len(data)}")

    def close(self) -> None:
        record = f"{self.dist_info}/RECORD"
        with writing(self.path):
            try:
                self.zip.writestr(zipfile.ZipInfo(record, date_time=(1980, 1, 1, 0, 0, 0)),
                                  "\n".join([*self.records, f"{record},,"]) + "\n")
            finally:
                self.zip.close()


def _requirements(texts: list[str] | None, extras: frozenset[str] | set[str] = frozenset()) -> list[Requirement]:
    """The requirements among `texts` whose markers hold for this interpreter, with `extras` asked for (as
    `markdown-it-py[linkify]` asks for linkify-it-py)."""
    out = []
    for text in texts or []:
        try:
            req = Requirement(text)
        except InvalidRequirement:
            continue
        if req.marker is None or any(req.marker.evaluate({"extra": extra}) for extra in {"", *extras}):
            out.append(req)
    return out


def _own_metadata() -> tuple[metadata.Distribution | None, list[str]]:
    """gc-wizard's installed distribution (for its METADATA and requirements), when it is this package's; else its
    checkout's pyproject requirements (run from a checkout on PYTHONPATH)."""
    try:
        dist = installed(DIST)  # the copy beside this package (`pip install --target DIR`'s), not the system's
    except metadata.PackageNotFoundError:
        dist = None
    pyproject = Path(__file__).resolve().parents[2] / "pyproject.toml"
    if pyproject.is_file():
        try:
            import tomllib  # deferred: only when a bundle is made (3.11+)
        except ImportError:  # pragma: no cover - Python 3.10
            import tomli as tomllib
        try:
            return dist, list(tomllib.loads(pyproject.read_text())["project"]["dependencies"])
        except (OSError, ValueError, KeyError):
            pass
    return dist, []


def _package_files() -> dict[str, bytes]:
    """The running package's files (`__init__.py`, `cli.py`, `data/…`), by their path in the package: read from the
    folder on disk, or from the zip archive a zipapp runs from (`paths.zip_archive`), where the folder is a path
    inside the archive that `rglob` finds nothing in (30th hostile pass (part B) P1: a zipapp's bundle shipped a
    gc-wizard wheel with no code, and said it was ready)."""
    package = Path(__file__).resolve().parents[1]
    archive = paths.zip_archive()
    files: dict[str, bytes] = {}
    if archive is None:
        for path in sorted(_below(package)):
            rel = path.relative_to(package)
            if path.is_file() and "__pycache__" not in rel.parts and path.suffix != ".pyc":
                files[rel.as_posix()] = path.read_bytes()
        return files
    inside = Path(__file__).parents[1].relative_to(archive).as_posix().strip("/") + "/"
    with zipfile.ZipFile(archive) as zipped:
        for info in sorted(zipped.infolist(), key=lambda i: i.filename):
            rel = info.filename[len(inside):] if info.filename.startswith(inside) else ""
            if rel and not info.is_dir() and "__pycache__" not in rel.split("/") and not rel.endswith(".pyc"):
                files[rel] = zipped.read(info)
    return files


def _below(folder: Path) -> list[Path]:
    """Every path under `folder`, as `rglob("*")` lists them, walked without recursion (`tree_walk`)."""
    return [Path(top) / name for top, dirs, files in walk(folder) for name in (*dirs, *files)]


def _own_wheel(folder: Path, requires: list[str]) -> str:
    """gc-wizard's wheel, packed from the running package (a folder on disk or a zipapp's archive); returns its file
    name. OperationFailed, and no wheel, when what was read is not gc-wizard's code (no `cli.py`): a wheel without
    it installs a `gc-wizard` that stops on "No module named 'wizard.cli'"."""
    files = _package_files()
    if paths.zip_archive() is None:
        _refuse_changed(DIST, __version__, _own_changes(files))
    if not {"__init__.py", "cli.py"} <= files.keys():
        where = paths.zip_archive() or Path(__file__).resolve().parents[1]
        raise OperationFailed(f"cannot pack gc-wizard itself for the bundle's {WIZARD}/ folder: its code was not "
                              f"found in {where}; make the bundle with a gc-wizard installed in a venv (or add "
                              "--without-wizard and carry gc-wizard another way).")
    if not any(rel.startswith("data/recipes/") for rel in files):  # a checkout: as the wheel has them
        recipes = paths.builtin_recipes_dir()
        if recipes.is_dir():
            for path in sorted(p for p in _below(recipes) if p.suffix == ".yaml"):
                files[f"data/recipes/{path.relative_to(recipes).as_posix()}"] = path.read_bytes()
    dist_info = f"gc_wizard-{__version__}.dist-info"
    name = f"gc_wizard-{__version__}-py3-none-any.whl"
    wheel = _Wheel(folder / name, dist_info)
    try:
        for rel, data in files.items():
            wheel.add(f"wizard/{rel}", data)
        meta = ["Metadata-Version: 2.1", f"Name: {DIST}", f"Version: {__version__}", "Requires-Python: >=3.10",
                *(f"Requires-Dist: {text}" for text in requires)]
        wheel.add(f"{dist_info}/METADATA", ("\n".join(meta) + "\n").encode())
        wheel.add(f"{dist_info}/WHEEL", b"Wheel-Version: 1.0\nGenerator: gc-wizard\nRoot-Is-Purelib: true\n"
                                        b"Tag: py3-none-any\n")
        wheel.add(f"{dist_info}/entry_points.txt", b"[console_scripts]\ngc-wizard = wizard.cli:run\n")
    finally:
        wheel.close()
    return name


def _console_scripts(dist: metadata.Distribution) -> set[str]:
    return {ep.name for ep in dist.entry_points if ep.group in ("console_scripts", "gui_scripts")}


def _tag_set(tags: list[str]) -> str:
    """A wheel file name's tags for all of `tags` (`py2.py3-none-any`): pexpect's first tag alone is py2's."""
    parts = [tag.split("-") for tag in tags if tag.count("-") == 2]
    if not parts:
        return "py3-none-any"
    return "-".join(".".join(dict.fromkeys(part[i] for part in parts)) for i in range(3))


def _editable_source(dist: metadata.Distribution, files: list) -> str | None:
    """The source folder of an editable install of `dist` (its `direct_url.json` says `"editable": true`, or its
    RECORD lists an `__editable__…` finder or `.pth`, or an `.egg-link`), else None.

    Why: 30th hostile pass (part B) P2 — an editable dependency's RECORD lists only the `.pth` and finder that point
    at this machine's source folder, so the repacked wheel installed on the offline machine without the package
    (`No module named 'mdurl'`), and its `.pth` ran at every start of that Python, importing from a path there."""
    try:
        direct = loads_json(dist.read_text("direct_url.json") or "{}")  # bounded: depth, size (30th pass (A) P4)
    except ValueError:
        direct = {}
    if isinstance(direct, dict) and isinstance(direct.get("dir_info"), dict) and direct["dir_info"].get("editable"):
        return unquote(urlparse(str(direct.get("url") or "")).path) or "its source folder"
    if any(f.name.startswith("__editable__") or f.suffix == ".egg-link" for f in files):
        return "its source folder"
    return None


def installed(name: str) -> metadata.Distribution:
    """The distribution `name` this gc-wizard runs: the copy whose module the running process imported (its
    dist-info is where that module lives), else the copy installed beside gc-wizard itself, else the first on
    `sys.path`; PackageNotFoundError when none is installed.

    Why: 33rd hostile pass (part B) P2 — gc-wizard installed with `pip install --target DIR` beside Debian's
    python3-yaml and python3-pygments: `metadata.distribution` took the system's copies first, so the bundle packed
    PyYAML 6.0 and pip 23.0.1 (not the 6.0.4 and 26.3 installed with it) and stopped on Debian's Pygments."""
    found = list(metadata.distributions(name=name))
    if not found:
        raise metadata.PackageNotFoundError(name)
    for dist in found:
        if _imported_from(dist):
            return dist
    home = Path(__file__).resolve().parents[2]  # the folder the `wizard` package is in
    return next((dist for dist in found if _location(dist) == home), found[0])


def _location(dist: metadata.Distribution) -> Path | None:
    try:
        return Path(str(dist.locate_file(""))).resolve()
    except (OSError, ValueError):
        return None


def _imported_from(dist: metadata.Distribution) -> bool:
    """Whether a top-level module `dist` installs is imported in this process from `dist`'s own files."""
    for entry in dist.files or []:
        top = entry.parts[0] if entry.parts else ""
        if len(entry.parts) > 2 or top == ".." or top.endswith((".dist-info", ".egg-info", ".data")):
            continue
        if not (entry.name == "__init__.py" and len(entry.parts) == 2 or len(entry.parts) == 1):
            continue
        module = sys.modules.get(top.removesuffix(".py") if len(entry.parts) == 1 else top)
        where = getattr(module, "__file__", None)
        if where and os.path.realpath(where) == os.path.realpath(str(dist.locate_file(entry))):
            return True
    return False


def _repack(dist: metadata.Distribution, folder: Path) -> str:
    """`dist` (installed) packed again as the wheel it was installed from; returns the file name."""
    files = list(dist.files or [])
    info_dir = next((f.parts[0] for f in files if len(f.parts) == 2 and f.parts[0].endswith(".dist-info")), None)
    if info_dir is None:
        # A system package (Debian's python3-pygments, an egg-info) or an old installer: never advise pip over it
        # (as root that changes the system's Python), but a gc-wizard whose venv records what it installed.
        raise OperationFailed(f"cannot pack {dist.metadata['Name']} {dist.version} for the bundle's {WIZARD}/ folder: "
                              f"the copy this gc-wizard runs ({_location(dist) or 'its folder'}) was installed without "
                              "a list of its files (RECORD), as a system package is; make the bundle with a gc-wizard "
                              "installed in a venv (`python3 -m venv … && …/bin/pip install gc-wizard`), or add "
                              "--without-wizard and carry gc-wizard another way.")
    editable = _editable_source(dist, files)
    if editable is not None:
        label = f"{dist.metadata['Name']} {dist.version}"
        raise OperationFailed(f"cannot pack {label} for the bundle's {WIZARD}/ folder: it is installed in editable "
                              f"mode (`pip install -e`), so its code stays in {editable} and a wheel of it would hold "
                              f"only a pointer to that folder; install it normally beside this gc-wizard "
                              f"(`pip install --force-reinstall --no-deps {dist.metadata['Name']}=={dist.version}`, no "
                              "-e), then make the bundle again.")
    tags = [line.split(":", 1)[1].strip() for line in (dist.read_text("WHEEL") or "").splitlines()
            if line.startswith("Tag:")]
    name = f"{info_dir.removesuffix('.dist-info')}-{_tag_set(tags)}.whl"
    data_dir = f"{info_dir.removesuffix('.dist-info')}.data"
    scripts = Path(sysconfig.get_paths()["scripts"]).resolve()
    prefix = Path(sys.prefix).resolve()
    skip = _console_scripts(dist)
    wheel = _Wheel(folder / name, info_dir)
    changed: list[str] = []
    try:
        for entry in files:
            if entry.suffix == ".pyc" or "__pycache__" in entry.parts:
                continue
            if entry.parts[0] == info_dir and entry.name in _INSTALLER_FILES:
                continue
            path = Path(os.path.normpath(dist.locate_file(entry)))
            if not path.is_file():  # a RECORD may list a path its installer never made (uv: `.data/scripts/`)
                continue
            if entry.parts[0] != "..":
                arc = entry.as_posix()
            elif path.parent == scripts:
                if path.name in skip:  # written again by the installer, for the new environment
                    continue
                arc = f"{data_dir}/scripts/{path.name}"
            elif path.is_relative_to(prefix):
                arc = f"{data_dir}/data/{path.relative_to(prefix).as_posix()}"
            else:
                continue
            data = path.read_bytes()
            if not _as_recorded(entry, data):
                changed.append(f"{entry.as_posix()} (changed)")
            wheel.add(arc, data, 0o755 if os.access(path, os.X_OK) else 0o644)
    finally:
        wheel.close()
    if changed:
        (folder / name).unlink(missing_ok=True)  # no wheel left to be taken for the release
        _refuse_changed(str(dist.metadata["Name"]), dist.version, changed)
    return name


def _as_recorded(entry: metadata.PackagePath, data: bytes) -> bool:
    """Whether `data`, read from the installed file `entry`, is what the installer wrote: its hash in the RECORD (a
    line without one, as installers write for files they make themselves, or an algorithm hashlib lacks, is not
    compared)."""
    recorded = entry.hash
    if recorded is None:
        return True
    try:
        digest = hashlib.new(recorded.mode, data).digest()
    except ValueError:
        return True
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode() == recorded.value


def _own_changes(files: dict[str, bytes]) -> list[str]:
    """How the running package's files (`_package_files`) differ from the RECORD of the install they are, when they
    are an install's (a wheel installed into a venv or with `--target`): each file changed since, added to it, or gone
    from it; [] for a checkout or an editable install (no RECORD lists the package's own files), packed as it is."""
    try:
        dist = installed(DIST)
    except metadata.PackageNotFoundError:
        return []
    package = Path(__file__).resolve().parents[1]
    listed = {entry.as_posix().removeprefix("wizard/"): entry for entry in dist.files or []
              if entry.parts[:1] == ("wizard",) and entry.suffix != ".pyc" and "__pycache__" not in entry.parts}
    init = listed.get("__init__.py")
    if init is None or os.path.realpath(dist.locate_file(init)) != os.path.realpath(package / "__init__.py"):
        return []
    changed = [f"wizard/{rel} ({'changed' if rel in listed else 'not in its RECORD'})" for rel, data in files.items()
               if rel not in listed or not _as_recorded(listed[rel], data)]
    return changed + [f"wizard/{rel} (gone)" for rel, entry in listed.items()
                      if rel not in files and entry.hash is not None]


def _refuse_changed(name: str, version: str, changed: list[str]) -> None:
    """OperationFailed naming the package and its files that differ from what its installer wrote (its RECORD), so
    no wheel of them goes into the bundle as that release.

    Why: 36th hostile pass (part B) P2 — a line added to the installed `mdurl/__init__.py` (and a changed
    `wizard/paths.py`, an added `wizard/zz_extra.py`) was packed, freshly hashed, as mdurl 0.1.2 (gc-wizard 0.1.0),
    and the offline machine installed the changed code as the release with nothing said."""
    if not changed:
        return
    shown = ", ".join(changed[:5]) + (f" and {len(changed) - 5} more" if len(changed) > 5 else "")
    again = ("Install gc-wizard again from the wheel or bundle it came from" if name == DIST else
             f"Install it again beside this gc-wizard (`pip install --force-reinstall --no-deps {name}=={version}`)")
    raise OperationFailed(f"cannot pack {name} {version} for the bundle's {WIZARD}/ folder: its installed files differ "
                          f"from what its installer wrote (the hashes in its RECORD): {shown}. A wheel of them would "
                          f"carry that code as {name} {version}. {again}, then make the bundle again; or add "
                          "--without-wizard and carry gc-wizard another way.")


def add_wizard_wheels(bundle: Path, on_line=None) -> list[str]:
    """gc-wizard's wheel and those of its run-time closure in `bundle/wizard/`; returns their names, relative to
    `bundle`. OperationFailed names a dependency that cannot be packed (installed without a RECORD)."""
    folder = bundle / WIZARD
    make_folders(folder)
    dist, fallback = _own_metadata()
    if not fallback and (dist is None or dist.version != __version__):
        raise OperationFailed(f"cannot pack gc-wizard for the bundle's {WIZARD}/ folder: the packages it needs are "
                              f"not known here (no installed gc-wizard {__version__} beside it, no pyproject.toml); "
                              "make the bundle with a gc-wizard installed in a venv, or add --without-wizard.")
    requires = [str(r) for r in _requirements(fallback or (dist.requires if dist is not None else []))]
    names = [_own_wheel(folder, requires)]
    packed: set[str] = {canonicalize_name(DIST)}
    asked: set[tuple[str, str]] = set()
    queue = [Requirement(text) for text in requires]
    while queue:
        req = queue.pop(0)
        key = canonicalize_name(req.name)
        wanted = {extra for extra in req.extras if (key, extra) not in asked}
        if key in packed and not wanted:
            continue
        asked |= {(key, extra) for extra in req.extras}
        try:
            found = installed(req.name)
        except metadata.PackageNotFoundError:
            raise OperationFailed(f"cannot add {req.name} to the bundle's {WIZARD}/ folder: gc-wizard needs it and it "
                                  "is not installed beside this gc-wizard; install gc-wizard again, then make the "
                                  "bundle again.") from None
        if key not in packed:
            packed.add(key)
            if on_line is not None:
                on_line(f"packing {found.metadata['Name']} {found.version}")
            names.append(_repack(found, folder))
            queue += _requirements(found.requires, req.extras)
        else:
            queue += [r for r in _requirements(found.requires, wanted) if r not in _requirements(found.requires)]
    return [f"{WIZARD}/{name}" for name in names]


def install_wizard_line(bundle: str, venv: str = "~/gc-wizard-venv") -> str:
    """The one command that installs gc-wizard from a bundle's `wizard/` folder with no index (walk 26 #2), pinned
    to the version packed (34th hostile pass (part B) P3: unpinned, a higher `gc_wizard-9.9` wheel put in the
    folder was the one installed; `install --bundle` refuses a file its manifest does not list)."""
    return (f"python3 -m venv {venv} && {venv}/bin/pip install --no-index --find-links {bundle}/{WIZARD} "
            f"{DIST}=={__version__}")
