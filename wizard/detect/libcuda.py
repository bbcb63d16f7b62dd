"""Reads the driver's maximum CUDA version from `libcuda.so.1` with ctypes (`cuDriverGetVersion`).

The last source in the chain: it needs no CUDA toolkit and no NVML, only the driver's user-space
library, and it answers "1000 * major + 10 * minor" (12020 = CUDA 12.2). It gives no driver version
and no GPUs. `cuInit` is deliberately not called: it is slow and it is not what is asked.

`query()` runs in the probe child (`gpu_child.py`), like NVML; standard library only (not even `typing`: every
import is paid on each `detect`). The parent reads
its answer in `wizard.detect.gpu_probe`.
"""

from __future__ import annotations

import ctypes


def query() -> dict:
    try:
        lib = ctypes.CDLL("libcuda.so.1")
    except OSError as exc:
        return {"status": "absent", "error": str(exc)}
    version = ctypes.c_int(0)
    try:
        code = lib.cuDriverGetVersion(ctypes.byref(version))
    except AttributeError:
        return {"status": "failed", "error": "libcuda.so.1 has no cuDriverGetVersion"}
    if code != 0:
        return {"status": "failed", "error": f"cuDriverGetVersion returned CUDA error {code}"}
    return {"status": "ok", "cuda_version": version.value}
