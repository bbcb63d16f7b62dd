"""The parent's side of the probe child: start it, and read its one line as NVML and libcuda readings.

Why a child at all: loading `libnvidia-ml.so.1` or `libcuda.so.1` can hang on a wedged GPU or crash on a
broken driver; in a child that is a `timeout` or `failed` reading, and the wizard goes on (nvidia-smi,
procfs). The child runs with `-I -S` (a bare interpreter's start: no `site`, no environment variables
that change Python), reads NVML through NVIDIA's pynvml (its folder passed with `--path`) and libcuda
with ctypes; see `gpu_child.py`. This module never loads either library itself.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

from wizard import paths
from wizard.detect import deadline
from wizard.detect.facts import Gpu
from wizard.detect.reading import Reading, cuda_from_int

_CHILD = Path(__file__).resolve().parent / "gpu_child.py"


#: Folders the loader searches after LD_LIBRARY_PATH and its cache (glibc's trusted folders).
_SYSTEM_LIB_DIRS = ("/lib", "/usr/lib", "/lib64", "/usr/lib64", "/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu",
                    "/lib/aarch64-linux-gnu", "/usr/lib/aarch64-linux-gnu")
DRIVER_SONAMES = ("libnvidia-ml.so.1", "libcuda.so.1")


def driver_library_in_folders(environ: dict[str, str]) -> bool:
    """The loader's search without its cache: LD_LIBRARY_PATH, the trusted folders, this Python's `lib/`.

    A few stat calls, so `detect` starts the probe child at once on the usual GPU server (the driver's
    libraries in /usr/lib/…) instead of waiting for `ldconfig -p` first."""
    # deferred: detect loads libpath a moment later anyway; importing gpu_probe stays as light as it was
    from wizard.detect.libpath import ld_library_path_entries

    # split as ld.so does, `;` too (24th hostile pass (part B) P1); an empty entry is "." to ld.so
    folders = [d or "." for d in ld_library_path_entries(environ.get("LD_LIBRARY_PATH"))]
    folders += [*_SYSTEM_LIB_DIRS, os.path.join(sys.prefix, "lib")]
    return any(os.path.exists(os.path.join(d, soname)) for d in folders for soname in DRIVER_SONAMES)


def start(environ: dict[str, str], timeout: float) -> deadline.Running:
    """Start the child now; `read(running.finish(), timeout)` collects it."""
    argv = [sys.executable, "-I", "-S", str(paths.package_file(_CHILD))]
    import importlib.util  # deferred: a host without the driver's library starts no child (issue 23)

    found = importlib.util.find_spec("pynvml")
    if found is not None and found.origin:  # without pynvml the child says so itself ("not importable")
        argv += ["--path", str(Path(found.origin).parent)]
    return deadline.start(argv, env=environ, timeout=timeout)


def read(done: deadline.Completed, timeout: float) -> tuple[Reading, Reading]:
    """(the NVML reading, the libcuda reading) from the child's answer, a timeout or a crash."""
    if done.timed_out:
        detail = f"the NVML probe gave no answer in {timeout:g} s (a wedged GPU or driver?)"
        return Reading("nvml", "timeout", detail=detail), Reading("libcuda", "skipped")
    try:
        data = json.loads(done.stdout.strip().splitlines()[-1])  # data, never code (gpu_child.py)
        if not isinstance(data, dict):
            raise ValueError("not the probe's answer")
    except (ValueError, TypeError, MemoryError, RecursionError, IndexError):
        tail = (done.output.splitlines() or ["no output"])[-1]
        return Reading("nvml", "failed", detail=f"the NVML probe failed: {tail}"), Reading("libcuda", "skipped")
    nvml_reading = nvml_reading_of(data["nvml"]) if "nvml" in data else Reading("nvml", "skipped")
    cuda_reading = libcuda_reading_of(data["libcuda"]) if "libcuda" in data else Reading("libcuda", "skipped")
    return nvml_reading, cuda_reading


def nvml_reading_of(data: dict) -> Reading:
    """The child's NVML answer (`nvml.query()`) as a `Reading` (source "nvml")."""
    status = data.get("status", "failed")
    if status != "ok":
        return Reading("nvml", status, detail=data.get("error", ""))
    gpus = [
        Gpu(index=g["index"], name=g.get("name") or "unknown NVIDIA GPU", memory_total_mib=g.get("memory_total_mib"),
            compute_capability=g.get("compute_capability"), source="nvml", uuid=g.get("uuid"))
        for g in data.get("gpus", [])
    ]
    return Reading("nvml", "ok", version=data.get("driver_version") or None,
                   cuda=cuda_from_int(data.get("cuda_version")), gpus=gpus)


def libcuda_reading_of(data: dict) -> Reading:
    """The child's libcuda answer (`libcuda.query()`) as a `Reading` (source "libcuda")."""
    status = data.get("status", "failed")
    if status != "ok":
        return Reading("libcuda", status, detail=data.get("error", ""))
    cuda = cuda_from_int(data.get("cuda_version"))
    if cuda is None:
        return Reading("libcuda", "failed", detail="cuDriverGetVersion returned 0")
    return Reading("libcuda", "ok", cuda=cuda)


def answered_fully(reading: Reading) -> bool:
    """NVML gave the driver, its CUDA version and the GPUs: nvidia-smi, read after it, would change nothing."""
    return reading.status == "ok" and bool(reading.version and reading.cuda and reading.gpus)
