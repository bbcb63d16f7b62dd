"""Finds the CUDA/cuDNN libraries already on the machine, and which copy of each would load first.

A real help request is this module's reason to exist: a cuDNN 8.2.1 nobody knew about was loaded
instead of the 8.6 jaxlib was built for. Places looked at, in the dynamic loader's order:
`LD_LIBRARY_PATH` entries, then the `ldconfig` cache; and, off the search path but worth naming,
the active conda env's `lib/`, `/usr/local/cuda*/lib64`, and the `nvidia-*` wheels in the target
environment (which jaxlib >= 0.4.19 reaches through RPATH).

`loads_first` marks, for each library name and soname major (`libcudnn.so.8` and `libcudnn.so.9` are
different requests), the copy a `dlopen("libcudnn.so.8")` by a process with this environment would
get: the first `LD_LIBRARY_PATH` folder that has it, else the `ldconfig` cache. That is the copy that shadows a recipe's own libraries for anything RPATH does not cover
(transitive dependencies, libraries loaded earlier by torch or TF).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from wizard.detect import deadline, libpath
from wizard.detect.facts import CudaLibrary
from wizard.patterns import LazyPattern

_LDCONFIG_RE = LazyPattern(r"^\s*(lib(" + "|".join(libpath.LIBRARY_NAMES) + r")\.so[.0-9]*)\s+\(([^)]*)\)\s+=>\s+(\S+)")


def start_ldconfig(timeout: float) -> deadline.Running | None:
    for exe in ("/sbin/ldconfig", "/usr/sbin/ldconfig"):
        if os.access(exe, os.X_OK):
            return deadline.start([exe, "-p"], timeout=timeout)
    return None


def parse_ldconfig(text: str) -> list[str]:
    """The folders of the CUDA/cuDNN libraries in `ldconfig -p` output, in cache order."""
    folders: list[str] = []
    for line in text.splitlines():
        match = _LDCONFIG_RE.match(line)
        if match and "64" in match.group(3):  # skip 32-bit copies
            folder = os.path.dirname(match.group(4))
            if folder not in folders:
                folders.append(folder)
    return folders


def _entries(folder: str, prefix: str = "", then: str = "") -> list[str]:
    """`glob.glob(folder/prefix*[/then])`, sorted, without importing `glob` on every `detect` (issue 23): the names
    in `folder` that start with `prefix` (none hidden, as `*` matches none), each with `then` after it where that
    exists."""
    try:
        names = os.listdir(folder)
    except OSError:
        return []
    paths = (os.path.join(folder, name, then) if then else os.path.join(folder, name)
             for name in names if name.startswith(prefix) and not name.startswith("."))
    return sorted(path for path in paths if not then or os.path.lexists(path))


def _wheel_lib_dirs(site_dirs: list[Path]) -> list[str]:
    found: list[str] = []
    for site in site_dirs:
        found.extend(_entries(str(site / "nvidia"), then="lib"))
    return found


def inventory(environ: dict[str, str], site_dirs: list[Path], ldconfig_folders: list[str]) -> list[CudaLibrary]:
    """Every CUDA/cuDNN library found, loader-order sources first, with `loads_first` set."""
    sources: list[tuple[str, str]] = []
    for folder, _ in libpath.library_path_folders(environ.get("LD_LIBRARY_PATH", "")):  # an empty entry is "."
        if (folder, "LD_LIBRARY_PATH") not in sources:
            sources.append((folder, "LD_LIBRARY_PATH"))
    sources.extend((folder, "ldconfig") for folder in ldconfig_folders)
    conda = environ.get("CONDA_PREFIX")
    if conda:
        sources.append((os.path.join(conda, "lib"), "conda"))
    for root in _entries("/usr/local", "cuda"):
        for sub in ("lib64", "lib"):
            sources.append((os.path.join(root, sub), "/usr/local/cuda"))
    sources.extend((folder, "wheel") for folder in _wheel_lib_dirs(site_dirs))

    found: list[CudaLibrary] = []
    seen_paths: set[str] = set()
    first_for: dict[tuple[str, str], str] = {}
    for folder, via in sources:
        for lib in libpath.libraries_in(folder):
            on_search_path = via in ("LD_LIBRARY_PATH", "ldconfig")
            key = (lib.name, soname_major(lib))
            if on_search_path and key not in first_for:
                first_for[key] = lib.path
            if lib.path in seen_paths:
                continue
            seen_paths.add(lib.path)
            found.append(CudaLibrary(name=lib.name, version=lib.version, path=lib.path, found_via=via,
                                     loads_first=first_for.get(key) == lib.path and on_search_path))
    return found


def soname_major(lib: libpath.LibraryFile) -> str:
    """"8" for libcudnn.so.8: a program asks for one major, so each major has its own first copy."""
    match = re.search(r"\.so\.([0-9]+)", lib.listed_as)
    return match.group(1) if match else (lib.version or "").split(".")[0]
