"""Reads the driver through NVML with the real `pynvml` (the `nvidia-ml-py` package).

NVML is the first source: it is what nvidia-smi itself reads, it gives the driver version
(`nvmlSystemGetDriverVersion`), the driver's *maximum* CUDA version
(`nvmlSystemGetCudaDriverVersion_v2`) and every GPU's name, memory, compute capability and UUID.

`query()` runs inside the short-lived probe child (`gpu_child.py`), never in the wizard's own
process: loading `libnvidia-ml.so.1` can hang on a wedged GPU, and the library is found through
the `LD_LIBRARY_PATH` the process *started* with. It returns plain data; `gpu_probe.nvml_reading_of`
turns that into a `Reading` in the parent. The child imports this file as a plain module, with
pynvml's folder put on its path by the parent (`gpu_probe.start`): pynvml is imported inside
`query()`, so a missing pynvml is an answer ("not importable"), not a dead child.

Why pynvml and not our own ctypes calls: it is NVIDIA's maintained binding, kept in step with each
driver's NVML (versioned functions, structure layouts, error words). Importing it is most of the child's
run (about 25 ms of a bare interpreter's 10 ms start here), but the child starts first and runs while the
wizard reads everything else, so it costs the user less than that.
"""

from __future__ import annotations

#: NVML return codes (nvml.h) that mean something other than "failed".
NVML_ERROR_DRIVER_NOT_LOADED = 9
NVML_ERROR_LIBRARY_NOT_FOUND = 12
NVML_ERROR_FUNCTION_NOT_FOUND = 13
NVML_ERROR_LIB_RM_VERSION_MISMATCH = 18

_STATUS_BY_CODE = {
    NVML_ERROR_LIBRARY_NOT_FOUND: "absent",
    NVML_ERROR_DRIVER_NOT_LOADED: "not_loaded",
    NVML_ERROR_LIB_RM_VERSION_MISMATCH: "mismatch",
}


def _text(value) -> str:
    return value.decode(errors="replace") if isinstance(value, bytes) else str(value)


def query() -> dict:
    """Ask NVML everything detection needs; never raises."""
    try:
        import pynvml  # here, not at the top: a missing pynvml is an answer, not a child that died at start
    except ImportError as exc:
        return {"status": "failed", "error": f"the pynvml module (nvidia-ml-py) is not importable: {exc}"}
    try:
        pynvml.nvmlInit()
    except pynvml.NVMLError as exc:
        code = getattr(exc, "value", None)
        return {"status": _STATUS_BY_CODE.get(code, "failed"), "code": code, "error": _text(exc)}
    try:
        result: dict = {"status": "ok", "gpus": []}
        result["driver_version"] = _text(pynvml.nvmlSystemGetDriverVersion())
        cuda = None
        for getter in ("nvmlSystemGetCudaDriverVersion_v2", "nvmlSystemGetCudaDriverVersion"):
            try:
                cuda = getattr(pynvml, getter)()
                break
            except pynvml.NVMLError:  # FunctionNotFound on old libraries; v2's LibraryNotFound
                continue
        result["cuda_version"] = cuda
        for index in range(pynvml.nvmlDeviceGetCount()):
            gpu: dict = {"index": index}
            try:
                handle = pynvml.nvmlDeviceGetHandleByIndex(index)
            except pynvml.NVMLError as exc:  # e.g. a GPU that fell off the bus
                gpu["error"] = _text(exc)
                result["gpus"].append(gpu)
                continue
            for key, read in (
                ("name", lambda h: _text(pynvml.nvmlDeviceGetName(h))),
                ("memory_total_mib", lambda h: int(pynvml.nvmlDeviceGetMemoryInfo(h).total) // (1024 * 1024)),
                ("compute_capability", lambda h: "%d.%d" % pynvml.nvmlDeviceGetCudaComputeCapability(h)),
                ("uuid", lambda h: _text(pynvml.nvmlDeviceGetUUID(h))),
            ):
                try:
                    gpu[key] = read(handle)
                except pynvml.NVMLError as exc:
                    gpu.setdefault("errors", {})[key] = _text(exc)
            result["gpus"].append(gpu)
        return result
    except pynvml.NVMLError as exc:
        return {"status": "failed", "code": getattr(exc, "value", None), "error": _text(exc)}
    finally:
        try:
            pynvml.nvmlShutdown()
        except pynvml.NVMLError:
            pass
