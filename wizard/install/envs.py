"""The environments the wizard builds: where they go, their marker, their exact package set, their size.

Why here and not in history: an environment must describe itself. Each one carries
`gc-wizard-env.json` (recipe, backend, runtime variables, verified date), so `activate`, `kernel
install` and `verify` know what it is without the history file, and a rollback can rebuild it from
its frozen package set (`uv pip freeze`, which reads any venv or conda env through its Python).

Hashes: `uv pip freeze` gives none, but uv's cache holds the package index's sha256 for every file
it downloaded, so right after an install `uv pip compile --offline --generate-hashes` turns the frozen
set into a hash-pinned requirements file in a fraction of a second, without the network. uv gives no
hashes for wheels from a --find-links folder, nor without a cache; then the plain `name==version` set
is all there is, and nothing fails. A rebuild from the hashed file has uv check every hash it lists.

Disk use counts hardlinked files once: uv hardlinks from its cache, so a second environment with the
same packages costs almost nothing, and `du`-like sums that count every link would scare users.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any

from wizard import paths
from wizard.children import die_with_parent
from wizard.errors import OperationFailed

MARKER = "gc-wizard-env.json"
#: The versions a person compares between two environments (shown by rollback).
KEY_PACKAGES = ("jax", "jaxlib", "nvidia-cudnn-cu12", "nvidia-cudnn-cu11", "numpy", "graphcast")


# --------------------------------------------------------------------------- the marker

def write_marker(env: Path, data: dict[str, Any]) -> None:
    """Write `<env>/gc-wizard-env.json` atomically (contract in TEAM.md; extra keys allowed)."""
    path = Path(env) / MARKER
    tmp = path.with_name(f".{MARKER}.{os.getpid()}.tmp")
    try:
        tmp.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
        os.replace(tmp, path)
    except BaseException:  # a full disk or a signal: no temp file left in the environment
        try:
            tmp.unlink()
        except OSError:
            pass
        raise


def read_marker(env: str | os.PathLike[str]) -> dict[str, Any]:
    """The env marker's contents, or {} when there is none or it cannot be read (older or foreign envs)."""
    from wizard import bounded

    try:
        data = bounded.loads_json(bounded.read_text(Path(env) / MARKER, bounded.MARKER_BYTES))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def restore_marker(env: Path, previous: dict[str, Any] | None) -> None:
    """Put back the marker an environment had before (None: it had none, so remove ours)."""
    if previous:
        write_marker(env, previous)
    else:
        (Path(env) / MARKER).unlink(missing_ok=True)


# --------------------------------------------------------------------------- where

def env_python(env: Path | str) -> Path:
    return Path(env) / "bin" / "python"


def is_managed(env: Path | str) -> bool:
    """True for a folder inside the state folder's envs/ (the only ones gc-wizard may delete)."""
    root = paths.envs_dir().resolve()
    return root in Path(env).resolve().parents


def remove_env(env: Path | str) -> int:
    """Delete a managed environment's folder; returns the bytes freed. Refuses anything else."""
    env = Path(env)
    if not is_managed(env):
        raise OperationFailed(f"{env} is not a managed environment (not under {paths.envs_dir()}); "
                              "gc-wizard only deletes environments it created.")
    freed = disk_usage(env) if env.exists() else 0
    shutil.rmtree(env, ignore_errors=True)
    if env.exists():
        raise OperationFailed(f"could not delete all of {env}; remove the rest by hand.")
    return freed


def frozen_dir() -> Path:
    """Hash-pinned requirement files, one per install (`frozen/<entry-id>.txt`), kept with the state."""
    return paths.state_dir() / "frozen"


# --------------------------------------------------------------------------- package sets

def _uv() -> str:
    from uv import find_uv_bin

    return find_uv_bin()


def freeze(env: Path | str, timeout: float = 120) -> list[str]:
    """The environment's exact package set as sorted `name==version` (or `name @ url`) lines.

    Raises OperationFailed when it cannot be read: an empty list always means an empty environment.
    """
    python = env_python(env)
    if not python.exists():
        raise OperationFailed(f"cannot list the packages of {env}: {python} does not exist")
    try:
        proc = subprocess.run([_uv(), "pip", "freeze", "--python", str(python)], capture_output=True, text=True, preexec_fn=die_with_parent(),
                              timeout=timeout)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise OperationFailed(f"cannot list the packages of {env}: {exc}") from None
    if proc.returncode != 0:
        why = (proc.stderr.strip().splitlines() or [f"exit status {proc.returncode}"])[-1]
        raise OperationFailed(f"cannot list the packages of {env}: {why}")
    return sorted(line.strip() for line in proc.stdout.splitlines() if line.strip() and not line.startswith("#"))


def hashed_requirements(env: Path | str, packages: list[str], out: Path, *, find_links: list[str] = (),
                        timeout: float = 60) -> Path | None:
    """Write `packages` with the index's sha256 hashes (from uv's cache, offline) to `out`.

    Lines with a direct URL (`graphcast @ file:///…`) are copied as they are; packages uv has no
    hash for stay plain pins. None when uv gives no hash at all (nothing is written then).
    """
    pinned = [p for p in packages if "==" in p and " @ " not in p and not p.startswith("-")]
    direct = [p for p in packages if p not in pinned]
    if not pinned:
        return None
    out.parent.mkdir(parents=True, exist_ok=True)
    links = [arg for link in find_links for arg in ("--find-links", str(link))]
    with tempfile.TemporaryDirectory(prefix="gc-wizard-freeze-") as tmp:
        source = Path(tmp) / "frozen.in"
        source.write_text("\n".join(pinned) + "\n", encoding="utf-8")
        compiled = Path(tmp) / "frozen.txt"
        try:
            proc = subprocess.run(
                [_uv(), "pip", "compile", "--quiet", "--offline", "--generate-hashes", "--no-deps",
                 "--no-header", "--no-annotate", "--python", str(env_python(env)), *links, str(source),
                 "-o", str(compiled)],
                capture_output=True, text=True, preexec_fn=die_with_parent(), timeout=timeout)
        except (OSError, subprocess.TimeoutExpired):
            return None
        if proc.returncode != 0 or not compiled.exists():
            return None
        text = compiled.read_text(encoding="utf-8").rstrip("\n")
    if "--hash=" not in text:
        return None  # uv hashes what an index lists, not the files of a --find-links folder
    header = f"# The exact package set of {env}, frozen by gc-wizard (hashes from the installer's cache).\n"
    out.write_text(header + text + "\n" + "".join(line + "\n" for line in direct), encoding="utf-8")
    return out


def sync(env: Path | str, packages: list[str], *, find_links: list[str] = (), requirements_file: str | None = None,
         timeout: float = 3600) -> str:
    """Make `env`'s package set exactly `packages` (install what is missing, remove what is extra).

    Offline from uv's cache first, then online. Uses the hash-pinned file when there is one. Returns
    which way worked ("offline" / "online"); raises OperationFailed with uv's own words otherwise.
    """
    links = [arg for link in find_links for arg in ("--find-links", str(link))]
    python = str(env_python(env))
    errors: list[str] = []
    with tempfile.TemporaryDirectory(prefix="gc-wizard-sync-") as tmp:
        if requirements_file and Path(requirements_file).is_file():
            source = requirements_file
        else:
            source = str(Path(tmp) / "requirements.txt")
            Path(source).write_text("".join(p + "\n" for p in packages), encoding="utf-8")
        empty = ["--allow-empty-requirements"] if not packages else []
        for how, extra in (("offline", ["--offline"]), ("online", [])):
            try:
                proc = subprocess.run([_uv(), "pip", "sync", "--python", python, *empty, *links, *extra, source],
                                      capture_output=True, text=True, preexec_fn=die_with_parent(), timeout=timeout)
            except (OSError, subprocess.TimeoutExpired) as exc:
                errors.append(f"{how}: {exc}")
                continue
            if proc.returncode == 0:
                return how
            lines = [line.strip() for line in proc.stderr.splitlines() if line.strip()]
            errors.append(f"{how}: " + (" ".join(lines[-3:]) if lines else f"exit status {proc.returncode}"))
    raise OperationFailed(f"could not restore the package set of {env} — " + "; ".join(errors))


def key_versions(packages: list[str]) -> dict[str, str]:
    """jax, jaxlib, cuDNN, numpy, graphcast from a frozen list ("name==version" or "name @ url")."""
    found: dict[str, str] = {}
    for line in packages:
        if " @ " in line:
            name, _, version = line.partition(" @ ")
        else:
            name, _, version = line.partition("==")
        name = name.strip().lower().replace("_", "-")
        if name in KEY_PACKAGES:
            found[name] = version.strip()
    return {name: found[name] for name in KEY_PACKAGES if name in found}


# --------------------------------------------------------------------------- disk

def disk_usage(path: Path | str, seen: set[tuple[int, int]] | None = None) -> int:
    """Bytes used under `path`, hardlinked files counted once (uv hardlinks from its cache).

    Pass the same `seen` set for several folders to get what they use together.
    """
    seen = set() if seen is None else seen
    total = 0
    for root, dirs, files in os.walk(path):
        for name in files + [d for d in dirs if os.path.islink(os.path.join(root, d))]:
            try:
                st = os.lstat(os.path.join(root, name))
            except OSError:
                continue
            key = (st.st_dev, st.st_ino)
            if key in seen:
                continue
            seen.add(key)
            total += st.st_blocks * 512
    return total


def free_gib(path: Path | str) -> float:
    """Free space (GiB) on the file system that holds `path`, or would hold it once created."""
    probe = Path(path).absolute()
    while not probe.exists() and probe != probe.parent:
        probe = probe.parent
    return shutil.disk_usage(probe).free / 2**30


def check_free_disk(path: Path | str, need_gib: float, what: str) -> None:
    """OperationFailed naming the folder, what is free and what is needed, when there is too little."""
    free = free_gib(path)
    if need_gib and free < need_gib:
        raise OperationFailed(f"only {free:.1f} GiB are free at {Path(path).absolute().parent}, and {what} needs "
                              f"about {need_gib:g} GiB; free some space or build on another disk with --env DIR.")
