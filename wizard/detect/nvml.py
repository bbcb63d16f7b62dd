"""Reads the driver through NVML, calling `libnvidia-ml.so.1` with ctypes (inside the probe child).

NVML is the first source: it is what nvidia-smi itself reads, it gives the driver version
(`nvmlSystemGetDriverVersion`), the driver's *maximum* CUDA version
(`nvmlSystemGetCudaDriverVersion_v2`) and every GPU's name, memory, compute capability and UUID.

Why ctypes and not the `pynvml` bindings: detection needs nine of NVML's functions, and importing
pynvml (8,000 lines of structures and wrappers) cost the probe child more than its whole Python start-up,
on every `detect`. The calls below are the ones pynvml makes for the same questions (the same function
names and versions, buffer sizes and structures), and errors read as pynvml words them (its table of
messages, then `nvmlErrorString`), so the facts and the warnings' quotes are the same;
`tests/unit/detect/test_nvml_ctypes.py` compares the two on every stand-in profile.

`query()` runs inside the short-lived probe child (`gpu_child.py`), never in the wizard's own
process: loading `libnvidia-ml.so.1` can hang on a wedged GPU, and the library is found through
the `LD_LIBRARY_PATH` the process *started* with. It returns plain JSON-able data; the parent turns
that into a `Reading` (`wizard.detect.gpu_answer`). Standard library only: the child imports this
file as a plain module.
"""

from __future__ import annotations

import ctypes

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

#: pynvml's own words for these codes (`NVMLError._errcode_to_string`); others ask `nvmlErrorString`.
MESSAGES = {
    1: "Uninitialized", 2: "Invalid Argument", 3: "Not Supported", 4: "Insufficient Permissions",
    5: "Already Initialized", 6: "Not Found", 7: "Insufficient Size", 8: "Insufficient External Power",
    9: "Driver Not Loaded", 10: "Timeout", 11: "Interrupt Request Issue", 12: "NVML Shared Library Not Found",
    13: "Function Not Found", 14: "Corrupted infoROM", 15: "GPU is lost", 16: "GPU requires restart",
    17: "The operating system has blocked the request.", 18: "RM has detected an NVML/RM version mismatch.",
    20: "Insufficient Memory", 999: "Unknown Error",
}

#: Buffer sizes pynvml passes (nvml.h's *_V2_BUFFER_SIZE and the driver version's).
_DRIVER_VERSION_SIZE = 80
_NAME_SIZE = 96
_UUID_SIZE = 96
_MIB = 1024 * 1024


class NvmlError(Exception):
    """A call that did not return NVML_SUCCESS; `code` is NVML's return code."""

    def __init__(self, code: int, message: str) -> None:
        super().__init__(message)
        self.code = code


class _Memory(ctypes.Structure):
    """nvmlMemory_t, what `nvmlDeviceGetMemoryInfo` (v1) fills."""

    _fields_ = [("total", ctypes.c_ulonglong), ("free", ctypes.c_ulonglong), ("used", ctypes.c_ulonglong)]


class _Library:
    """`libnvidia-ml.so.1` with pynvml's error handling: a missing function is "Function Not Found"."""

    def __init__(self, lib: ctypes.CDLL) -> None:
        self.lib = lib

    def message(self, code: int) -> str:
        if code in MESSAGES:
            return MESSAGES[code]
        try:
            text = self.lib.nvmlErrorString
        except AttributeError:
            return "NVML Error with code %d" % code
        text.restype = ctypes.c_char_p
        value = text(code)
        return value.decode(errors="replace") if value else "NVML Error with code %d" % code

    def call(self, name: str, *args) -> None:
        try:
            function = getattr(self.lib, name)
        except AttributeError:
            raise NvmlError(NVML_ERROR_FUNCTION_NOT_FOUND, self.message(NVML_ERROR_FUNCTION_NOT_FOUND)) from None
        code = function(*args)
        if code != 0:
            raise NvmlError(code, self.message(code))

    def text(self, name: str, size: int, *before) -> str:
        buffer = ctypes.create_string_buffer(size)
        self.call(name, *before, buffer, ctypes.c_uint(size))
        return buffer.value.decode(errors="replace")


def _gpu(nvml: _Library, index: int) -> dict:
    gpu: dict = {"index": index}
    handle = ctypes.c_void_p()
    try:
        nvml.call("nvmlDeviceGetHandleByIndex_v2", ctypes.c_uint(index), ctypes.byref(handle))
    except NvmlError as exc:  # e.g. a GPU that fell off the bus
        gpu["error"] = str(exc)
        return gpu

    def memory() -> int:
        info = _Memory()
        nvml.call("nvmlDeviceGetMemoryInfo", handle, ctypes.byref(info))
        return int(info.total) // _MIB

    def capability() -> str:
        major, minor = ctypes.c_int(), ctypes.c_int()
        nvml.call("nvmlDeviceGetCudaComputeCapability", handle, ctypes.byref(major), ctypes.byref(minor))
        return "%d.%d" % (major.value, minor.value)

    for key, read in (
        ("name", lambda: nvml.text("nvmlDeviceGetName", _NAME_SIZE, handle)),
        ("memory_total_mib", memory),
        ("compute_capability", capability),
        ("uuid", lambda: nvml.text("nvmlDeviceGetUUID", _UUID_SIZE, handle)),
    ):
        try:
            gpu[key] = read()
        except NvmlError as exc:
            gpu.setdefault("errors", {})[key] = str(exc)
    return gpu


def _cuda_version(nvml: _Library) -> int | None:
    for getter in ("nvmlSystemGetCudaDriverVersion_v2", "nvmlSystemGetCudaDriverVersion"):
        value = ctypes.c_int()
        try:
            nvml.call(getter, ctypes.byref(value))
        except NvmlError:  # FunctionNotFound on old libraries; v2's LibraryNotFound
            continue
        return value.value
    return None


def query() -> dict:
    """Ask NVML everything detection needs; never raises."""
    try:
        nvml = _Library(ctypes.CDLL("libnvidia-ml.so.1"))
    except OSError:
        code = NVML_ERROR_LIBRARY_NOT_FOUND
        return {"status": "absent", "code": code, "error": MESSAGES[code]}
    try:
        nvml.call("nvmlInitWithFlags", ctypes.c_uint(0))
    except NvmlError as exc:
        return {"status": _STATUS_BY_CODE.get(exc.code, "failed"), "code": exc.code, "error": str(exc)}
    try:
        result: dict = {"status": "ok", "gpus": []}
        result["driver_version"] = nvml.text("nvmlSystemGetDriverVersion", _DRIVER_VERSION_SIZE)
        result["cuda_version"] = _cuda_version(nvml)
        count = ctypes.c_uint()
        nvml.call("nvmlDeviceGetCount_v2", ctypes.byref(count))
        result["gpus"] = [_gpu(nvml, index) for index in range(count.value)]
        return result
    except NvmlError as exc:
        return {"status": "failed", "code": exc.code, "error": str(exc)}
    finally:
        try:
            nvml.call("nvmlShutdown")
        except NvmlError:
            pass
