"""The environments the wizard builds: their marker file, their exact package set, their disk use.

Each environment carries `gc-wizard-env.json` (recipe, backend, runtime variables, verified date),
so `activate`, `kernel install` and `verify` know what it is without the history file.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

MARKER = "gc-wizard-env.json"
KEY_PACKAGES = ("jax", "jaxlib", "numpy", "nvidia-cudnn-cu12", "nvidia-cudnn-cu11", "graphcast")


def write_marker(env: Path, data: dict[str, Any]) -> None:
    path = Path(env) / MARKER
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(data, indent=1))
    os.replace(tmp, path)


def read_marker(env: str | os.PathLike[str]) -> dict[str, Any]:
    """The env marker's contents, or {} when there is none or it cannot be read (older or foreign envs)."""
    try:
        data = json.loads((Path(env) / MARKER).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def env_python(env: Path) -> Path:
    return Path(env) / "bin" / "python"


def freeze(env: Path, timeout: float = 120) -> list[str]:
    """The environment's exact package set as `name==version` lines (uv reads any venv's Python)."""
    from uv import find_uv_bin

    proc = subprocess.run([find_uv_bin(), "pip", "freeze", "--python", str(env_python(env))],
                          capture_output=True, text=True, timeout=timeout)
    if proc.returncode != 0:
        return []
    return sorted(line.strip() for line in proc.stdout.splitlines() if line.strip() and not line.startswith("#"))


def key_versions(packages: list[str]) -> dict[str, str]:
    """jax, jaxlib, numpy, cuDNN… from a frozen list ("name==version" or "name @ url")."""
    found: dict[str, str] = {}
    for line in packages:
        name, _, version = line.partition("==")
        name = name.strip().lower().replace("_", "-")
        if name in KEY_PACKAGES:
            found[name] = version.strip() or line.partition(" @ ")[2]
    return found


def disk_usage(path: Path) -> int:
    """Bytes used under `path`, hardlinked files counted once (uv hardlinks from its cache)."""
    seen: set[tuple[int, int]] = set()
    total = 0
    for root, _dirs, files in os.walk(path):
        for name in files:
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


def free_gib(path: Path) -> float:
    probe = Path(path)
    while not probe.exists() and probe != probe.parent:
        probe = probe.parent
    return shutil.disk_usage(probe).free / 2**30
