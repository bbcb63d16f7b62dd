"""Tells a CPU-fallback warning that a run outlived from the failure it then met.

Why: JAX picks its default backend and, when the GPU one is missing, only warns and goes on on the CPU
(jax/_src/xla_bridge.py, `_suggest_missing_backends`): "An NVIDIA GPU may be present on this machine, but a
CUDA-enabled jaxlib is not installed. Falling back to cpu.", "CUDA backend failed to initialize: ERR (Set
TF_CPP_MIN_LOG_LEVEL=0 and rerun for more info.)", the TPU one, and before JAX 0.4.17 "No GPU/TPU found, falling
back to CPU.". A run that then stops on an exception about the GPU, a device, a backend or memory failed for
the fallback; a run that stops on an exception about something else (Brax's loader refusing an RK4 model,
batch 95's mujoco_1442) failed for that, which the CPU would have raised as well: the fallback is not its root
cause, and a log whose other failure no entry explains must give the unrecognised result, not the warning.

Pure text in, data out: the scanner (`diagnose.Scanner`) feeds the lines, `_findings` asks which hits go.
"""

from __future__ import annotations

import re

#: JAX's own fallback warnings, every wording its releases print (any backend named after "Falling back to").
WARNING = re.compile(
    r"An NVIDIA GPU may be present on this machine, but a CUDA-enabled jaxlib is not installed\. Falling back to"
    r"|A Google TPU may be present on this machine, but either a TPU-enabled jaxlib or libtpu is not installed\."
    r"|CUDA backend failed to initialize: .*\(Set TF_CPP_MIN_LOG_LEVEL=0 and rerun for more info\.\)"
    r"|No GPU/TPU found, falling back to CPU",
    re.IGNORECASE)

#: Cheap tests that a piece of log may hold a warning (before the regex runs over it).
WARNING_WORDS = ("alling back to", "ALLING BACK TO", "backend failed to initialize")

#: A raised exception as Python's traceback ends with it: the class (dotted or not) at the line's start, then ": ".
EXCEPTION = re.compile(r"^[ \t]*(?:[\w.]+\.)?[A-Z]\w*(?:Error|Exception):[ \t][^\n]*$", re.MULTILINE)

#: What an exception that the fallback can cause speaks of: the GPU, CUDA and its libraries, a device, backend or
#: platform, XLA and jaxlib themselves, memory (a model run on the CPU's memory instead).
DEVICE_WORDS = re.compile(
    r"gpu|cuda|cudnn|cublas|cusolver|cusparse|cufft|nvidia|nccl|ptx|driver|device|backend|platform|tpu|"
    r"xla|jaxlib|memory|RESOURCE_EXHAUSTED|alloc",
    re.IGNORECASE)


def is_warning(line: str) -> bool:
    """Whether an evidence line is one of JAX's fallback warnings."""
    return WARNING.search(line) is not None


def unrelated(exception: str) -> bool:
    """Whether a raised exception's line names nothing a CPU fallback could have caused."""
    return DEVICE_WORDS.search(exception) is None


def last_exception(text: str, base: int = 0) -> tuple[int, str] | None:
    """The last raised exception's line in `text` and its absolute position (`base` + offset), or None."""
    last = None
    for match in EXCEPTION.finditer(text):
        last = match
    return (base + last.start(), last.group(0).strip()) if last is not None else None
