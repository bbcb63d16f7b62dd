"""Tells which library and tool folders hold CUDA or cuDNN, so an environment can run without them.

Why: a real help request (cuDNN 8.2.1 loaded against a jaxlib built for 8.6) is what a stray folder
on `LD_LIBRARY_PATH` costs. JAX >= 0.4.19 finds its pip-installed `nvidia-*` libraries through RPATH,
but transitive dependencies and anything loaded before JAX still come from `LD_LIBRARY_PATH`; and an
old toolkit's `ptxas` on `PATH` is what XLA falls back to. Detection reports these folders, and the
plan/activate code drops them from the variables it hands to an environment — both through here, so
"a CUDA folder" means the same thing everywhere.

Only file names are read (plus a version header or the toolkit's `version.json` when the file name
carries only the major version); nothing is loaded.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from wizard import bounded
from wizard.detect.record import record

#: The CUDA/cuDNN libraries that matter to JAX, by the stem of their file name (`lib<stem>.so*`).
LIBRARY_NAMES = (
    "cudnn", "cudart", "cublas", "cublasLt", "cufft", "cusolver", "cusparse", "cupti", "nvJitLink",
    "nvrtc", "nccl",
)

#: How each library is named in sentences.
PRETTY = {
    "cudnn": "cuDNN", "cudart": "CUDA runtime", "cublas": "cuBLAS", "cublasLt": "cuBLASLt",
    "cufft": "cuFFT", "cusolver": "cuSOLVER", "cusparse": "cuSPARSE", "cupti": "CUPTI",
    "nvJitLink": "nvJitLink", "nvrtc": "NVRTC", "nccl": "NCCL",
}

#: The key for each library in a CUDA toolkit's `version.json` (CUDA >= 11.1 ships one).
_TOOLKIT_JSON_KEYS = {
    "cudart": "cuda_cudart", "cublas": "libcublas", "cublasLt": "libcublas", "cufft": "libcufft",
    "cusolver": "libcusolver", "cusparse": "libcusparse", "cupti": "cuda_cupti", "nvJitLink": "libnvjitlink",
    "nvrtc": "cuda_nvrtc",
}

#: The distribution-name prefix of the `nvidia-*` wheel that ships each library.
_WHEEL_PREFIX = {
    "cudnn": "nvidia_cudnn", "cudart": "nvidia_cuda_runtime", "cublas": "nvidia_cublas",
    "cublasLt": "nvidia_cublas", "cufft": "nvidia_cufft", "cusolver": "nvidia_cusolver",
    "cusparse": "nvidia_cusparse", "cupti": "nvidia_cuda_cupti", "nvJitLink": "nvidia_nvjitlink",
    "nvrtc": "nvidia_cuda_nvrtc", "nccl": "nvidia_nccl",
}

#: Toolkit programs whose presence makes a `PATH` folder a CUDA toolkit `bin/`.
CUDA_TOOLS = ("nvcc", "ptxas", "nvlink", "fatbinary", "cuobjdump", "nvdisasm", "cuda-gdb")

#: Folders that stay on `PATH` even when they hold CUDA tools: dropping them breaks the shell.
_SYSTEM_BIN_DIRS = frozenset({"/bin", "/sbin", "/usr/bin", "/usr/sbin", "/usr/local/bin", "/usr/local/sbin"})

_LIB_RE = re.compile(r"^lib(" + "|".join(LIBRARY_NAMES) + r")\.so((?:\.[0-9]+)*)$")


@record
class LibraryFile:
    """One CUDA/cuDNN library in one folder."""

    name: str
    """Short name, one of LIBRARY_NAMES ("cudnn")."""
    path: str
    """The real file, symlinks resolved (`/opt/cudnn/lib64/libcudnn.so.8.2.1`)."""
    version: str | None
    """From the file name, else from `cudnn_version.h` / the toolkit's `version.json`."""
    listed_as: str
    """The name found in the folder (`libcudnn.so.8`), before resolving symlinks."""


def _version_from_name(file_name: str) -> str | None:
    match = _LIB_RE.match(file_name)
    if not match or not match.group(2):
        return None
    return match.group(2).lstrip(".")


def cudnn_header_version(lib_dir: str | Path) -> str | None:
    """cuDNN's full version from a `cudnn_version.h` (or old `cudnn.h`) beside or above `lib_dir`."""
    lib_dir = Path(lib_dir)
    for include in (lib_dir, lib_dir.parent / "include", lib_dir.parent.parent / "include"):
        for header in ("cudnn_version.h", "cudnn.h"):
            path = include / header
            try:
                text = bounded.read_lenient_text(path, bounded.MARKER_BYTES)
            except (OSError, ValueError):
                continue
            parts = [re.search(rf"#define\s+CUDNN_{key}\s+([0-9]+)", text) for key in ("MAJOR", "MINOR", "PATCHLEVEL")]
            if parts[0] and parts[1]:
                return ".".join(p.group(1) for p in parts if p)
    return None


def toolkit_version_json(lib_dir: str | Path) -> dict:
    """The nearest CUDA toolkit `version.json` above `lib_dir` (lib64/, targets/<arch>/lib/), or {}."""
    lib_dir = Path(lib_dir)
    for root in (lib_dir.parent, lib_dir.parent.parent, lib_dir.parent.parent.parent):
        try:
            return bounded.read_json(root / "version.json", bounded.MARKER_BYTES, lenient=True)
        except (OSError, ValueError):
            continue
    return {}


def toolkit_version(root: str | Path) -> str | None:
    """The CUDA toolkit version of a toolkit root (`/usr/local/cuda-11.2`): version.json, version.txt, name."""
    root = Path(root)
    try:
        data = bounded.read_json(root / "version.json", bounded.MARKER_BYTES, lenient=True)
        version = data.get("cuda", {}).get("version")
        if version:
            return ".".join(version.split(".")[:2])
    except (OSError, ValueError, AttributeError):
        pass
    try:
        match = re.search(r"CUDA Version\s+([0-9]+\.[0-9]+)", bounded.read_lenient_text(root / "version.txt", bounded.MARKER_BYTES))
        if match:
            return match.group(1)
    except (OSError, ValueError):
        pass
    match = re.search(r"cuda-?([0-9]+\.[0-9]+)", str(root.resolve()) if root.exists() else str(root))
    return match.group(1) if match else None


def dist_info_version(name: str, lib_dir: str | Path, listings: dict[str, list[str]] | None = None) -> str | None:
    """The version of the `nvidia-*` wheel that ships `lib_dir` (`site-packages/nvidia/cudnn/lib`).

    Also reads a toolkit laid out from those wheels (`<root>/dist-info/nvidia_cuda_runtime-13.0.96.dist-info`).
    `listings` keeps each folder's names for the next library of the same folder (`libraries_in`).
    """
    prefix = _WHEEL_PREFIX.get(name)
    if not prefix:
        return None
    lib_dir = Path(lib_dir)
    pattern = re.compile(rf"^{prefix}(?:[_-]cu[0-9]+)?-([0-9][\w.]*)\.dist-info$", re.I)
    for where in (str(lib_dir.parent.parent.parent), str(lib_dir.parent / "dist-info")):
        if listings is not None and where in listings:
            entries = listings[where]
        else:
            try:
                entries = os.listdir(where)
            except OSError:
                entries = []
            if listings is not None:
                listings[where] = entries
        for entry in entries:
            match = pattern.match(entry)
            if match:
                return match.group(1)
    return None


def _refine(name: str, version: str | None, lib_dir: str, seen: dict | None = None) -> str | None:
    """A major-only version ("8", "13") made precise from headers, version.json or dist-info.

    `seen` keeps what one folder's files share (its toolkit's version.json, the folders listed for dist-info) for
    the folder's next library: a wheel folder of ten libraries read the same files ten times (issue 23)."""
    if version and "." in version:
        return version
    seen = {} if seen is None else seen
    if "toolkit" not in seen:
        seen["toolkit"] = toolkit_version_json(lib_dir)
    for better in (
        cudnn_header_version(lib_dir) if name == "cudnn" else None,
        seen["toolkit"].get(_TOOLKIT_JSON_KEYS.get(name, ""), {}).get("version"),
        dist_info_version(name, lib_dir, seen.setdefault("listings", {})),
    ):
        if better and (version is None or better.split(".")[0] == version):
            return better
    return version


def libraries_in(directory: str | Path) -> list[LibraryFile]:
    """The CUDA/cuDNN libraries in one folder, one entry per real file, in LIBRARY_NAMES order."""
    directory = str(directory)
    try:
        names = os.listdir(directory)
    except OSError:
        return []
    by_real: dict[str, list[str]] = {}
    for file_name in names:
        if not _LIB_RE.match(file_name):
            continue
        real = os.path.realpath(os.path.join(directory, file_name))
        if os.path.isfile(real):  # a dangling symlink loads nothing
            by_real.setdefault(real, []).append(file_name)
    found = []
    seen: dict = {}  # what the folder's libraries share (`_refine`)
    for real, listed in by_real.items():
        # The soname-like entry (libcudnn.so.8) is what the loader asks for; the dev link (.so) is not.
        listed.sort(key=lambda n: (n.endswith(".so"), len(n)))
        name = _LIB_RE.match(listed[0]).group(1)
        versions = [_version_from_name(os.path.basename(real))] + [_version_from_name(n) for n in listed]
        version = max((v for v in versions if v), key=lambda v: v.count("."), default=None)
        found.append(LibraryFile(name=name, path=real, version=_refine(name, version, directory, seen),
                                 listed_as=listed[0]))
    order = {name: i for i, name in enumerate(LIBRARY_NAMES)}
    found.sort(key=lambda lib: (order[lib.name], lib.path))
    return found


def describe(libraries: list[LibraryFile]) -> str:
    """"cuDNN 8.2.1, cuBLAS 11.2" — the libraries of one folder in a sentence."""
    parts = []
    for lib in libraries:
        text = PRETTY.get(lib.name, lib.name) + (f" {lib.version}" if lib.version else "")
        if text not in parts:
            parts.append(text)
    return ", ".join(parts)


def cuda_dir_reason(directory: str) -> str | None:
    """Why a library folder counts as a CUDA folder ("holds cuDNN 8.2.1"), or None."""
    libraries = libraries_in(directory)
    if libraries:
        return f"holds {describe(libraries)}"
    if os.path.basename(os.path.normpath(directory)) == "stubs" and os.path.exists(os.path.join(directory, "libcuda.so")):
        return "holds the CUDA driver stub libcuda.so (it makes every CUDA program fail)"
    return None


def cuda_bin_dir_reason(directory: str) -> str | None:
    """Why a `PATH` folder counts as a CUDA toolkit bin/ ("holds ptxas, nvcc (CUDA 11.2)"), or None."""
    tools = [tool for tool in CUDA_TOOLS if os.path.isfile(os.path.join(directory, tool))]
    if not tools:
        return None
    version = toolkit_version(Path(directory).parent)
    return f"holds {', '.join(tools)}" + (f" (CUDA {version})" if version else "")


#: What ld.so splits `LD_LIBRARY_PATH` on: glibc's `_dl_init_paths` hands `fillin_rpath` the separators ":;" for it
#: (only ":" for a DT_RPATH/DT_RUNPATH), and an empty piece is the folder a program starts in either way.
_LD_LIBRARY_PATH_SEPARATORS = re.compile(r"[:;]")


def ld_library_path_entries(value: str | None) -> list[str]:
    """The pieces of an `LD_LIBRARY_PATH` value as ld.so reads them, in order, empty ones kept (each is the folder a
    program starts in); an unset or empty value is no entry at all. The one split of an ld.so search list: detect,
    activate, the kernel spec, the module file, the check's shadow finding and the report all read it here, and
    apply their own rules for relative and empty pieces to what it returns.

    Why: glibc splits `LD_LIBRARY_PATH` on `;` as well as `:`, but the wizard split on `:` only, so a relative entry
    after `;` (`/usr/lib;..`) stayed in `activate`'s export and kernel.json, and a cuDNN reached after `;` was
    missed by detect (24th hostile pass (part B) P1)."""
    return _LD_LIBRARY_PATH_SEPARATORS.split(value) if value else []


def library_path_folders(value: str) -> list[tuple[str, str]]:
    """(the folder to read, how to name it) for each `LD_LIBRARY_PATH` entry, in the loader's order. An empty entry
    (a leading or trailing `:`, or `::`) is the folder a program starts in to ld.so, as `.` is: it is read as `.`
    and named so. An empty value is no entry at all.

    Why: detect caught `LD_LIBRARY_PATH=.` holding cuDNN 8 but not `/usr/lib:` or `/usr/lib::/lib` (23rd hostile
    pass P6), the common slip of `export LD_LIBRARY_PATH=/opt/x/lib:$LD_LIBRARY_PATH` with the variable empty."""
    folders: list[tuple[str, str]] = []
    for entry in ld_library_path_entries(value):
        if entry:
            folders.append((entry, entry))
            continue
        try:
            here = f", here {os.getcwd()}"
        except OSError:
            here = ""
        folders.append((".", f"an empty entry (the folder a program starts in{here})"))
    return folders


def split_cuda_dirs(value: str) -> tuple[list[str], list[tuple[str, str]]]:
    """Split an `LD_LIBRARY_PATH` value into the folders to keep and the (folder, reason) pairs to drop.

    A folder is dropped when it holds a CUDA or cuDNN library (or the driver stub). Empty entries
    (which mean "the current directory" to the loader) are dropped silently.
    """
    return _kept_and_dropped((entry for entry in ld_library_path_entries(value) if entry), cuda_dir_reason)


def _kept_and_dropped(entries, reason_of) -> tuple[list[str], list[tuple[str, str]]]:
    """The entries to keep (each once, in order) and the (entry, reason) pairs `reason_of` drops: one split for a
    library path and for LD_PRELOAD."""
    kept: list[str] = []
    removed: list[tuple[str, str]] = []
    for entry in entries:
        reason = reason_of(entry)
        if reason:
            removed.append((entry, reason))
        elif entry not in kept:
            kept.append(entry)
    return kept, removed


def split_cuda_bin_dirs(value: str) -> tuple[list[str], list[tuple[str, str]]]:
    """Split a `PATH` value into the folders to keep and the (folder, reason) pairs to drop.

    A folder is dropped when it holds CUDA toolkit programs (nvcc, ptxas, ...), except the system
    folders (/usr/bin, ...): they are kept, because a shell without them is worse than any ptxas.
    """
    kept: list[str] = []
    removed: list[tuple[str, str]] = []
    for entry in value.split(os.pathsep):
        if not entry:
            continue
        reason = None if os.path.normpath(entry) in _SYSTEM_BIN_DIRS else cuda_bin_dir_reason(entry)
        if reason:
            removed.append((entry, reason))
        elif entry not in kept:
            kept.append(entry)
    return kept, removed


#: The driver's own libraries by file name: one preloaded decides which driver JAX talks to.
_DRIVER_RE = re.compile(r"^lib(cuda|nvidia-ml|nvidia-ptxjitcompiler|nvcuvid)\.so((?:\.[0-9]+)*)$")
_DRIVER_PRETTY = {"cuda": "the CUDA driver library", "nvidia-ml": "the NVIDIA management library (NVML)",
                  "nvidia-ptxjitcompiler": "the driver's PTX compiler", "nvcuvid": "the driver's video decoder"}
#: The system-wide preload list, read like LD_PRELOAD (`man ld.so`).
ETC_PRELOAD = "/etc/ld.so.preload"


def preload_entries(value: str) -> list[str]:
    """The libraries an `LD_PRELOAD` value (or /etc/ld.so.preload's text) names: the loader splits on spaces and
    colons (`man ld.so`)."""
    return [entry for entry in re.split(r"[:\s]+", value or "") if entry]


def preloaded_library_reason(entry: str) -> str | None:
    """Why a preloaded library matters to JAX ("is cuDNN 8.2.1"), or None: a CUDA, cuDNN or NCCL library, or the
    driver's own, by file name (link resolved); a library in every process's address space before any other
    decides what JAX talks to, as a folder on LD_LIBRARY_PATH does (22nd hostile pass P8)."""
    names = [os.path.basename(entry)]
    try:
        names.append(os.path.basename(os.path.realpath(entry)))
    except (OSError, ValueError):
        pass
    for name in names:
        driver = _DRIVER_RE.match(name)
        if driver:
            return f"is {_DRIVER_PRETTY[driver.group(1)]} ({name})"
        match = _LIB_RE.match(name)
        if match:
            version = _version_from_name(name)
            return f"is {PRETTY.get(match.group(1), match.group(1))}" + (f" {version}" if version else "") + f" ({name})"
    return None


def split_preload(value: str) -> tuple[list[str], list[tuple[str, str]]]:
    """Split an `LD_PRELOAD` value into the libraries to keep and the (library, reason) pairs to drop."""
    return _kept_and_dropped(preload_entries(value), preloaded_library_reason)


def system_preload() -> list[tuple[str, str]]:
    """The (library, reason) pairs of /etc/ld.so.preload that `preloaded_library_reason` names: preloaded into
    every process on this machine, which no variable of the wizard's can undo."""
    try:
        text = bounded.read_head(ETC_PRELOAD, 64 * 1024).decode("utf-8", "replace")
    except OSError:
        return []
    lines = [line.split("#", 1)[0] for line in text.splitlines()]
    return split_preload(" ".join(lines))[1]
