"""The NVML questions detection asks, asked through NVIDIA's own bindings (`pynvml`): the reference answer.

Run as a script in a process whose `LD_LIBRARY_PATH` points at a stand-in (or at a real driver); prints one
JSON line shaped like `wizard.detect.nvml.query()`'s, so a test can compare the wizard's ctypes calls with
what pynvml reads from the same library. This is the code detection ran before it called NVML itself.
"""

import json
import sys

import pynvml


def _text(value) -> str:
    return value.decode(errors="replace") if isinstance(value, bytes) else str(value)


def query() -> dict:
    try:
        pynvml.nvmlInit()
    except pynvml.NVMLError as exc:
        code = getattr(exc, "value", None)
        status = {12: "absent", 9: "not_loaded", 18: "mismatch"}.get(code, "failed")
        return {"status": status, "code": code, "error": _text(exc)}
    try:
        result = {"status": "ok", "gpus": []}
        result["driver_version"] = _text(pynvml.nvmlSystemGetDriverVersion())
        cuda = None
        for getter in ("nvmlSystemGetCudaDriverVersion_v2", "nvmlSystemGetCudaDriverVersion"):
            try:
                cuda = getattr(pynvml, getter)()
                break
            except pynvml.NVMLError:
                continue
        result["cuda_version"] = cuda
        for index in range(pynvml.nvmlDeviceGetCount()):
            gpu = {"index": index}
            try:
                handle = pynvml.nvmlDeviceGetHandleByIndex(index)
            except pynvml.NVMLError as exc:
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


if __name__ == "__main__":
    sys.stdout.write(json.dumps(query()) + "\n")
