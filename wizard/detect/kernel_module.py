"""Reads the loaded kernel module's version from `/proc/driver/nvidia/version`.

The third source: it exists exactly when the NVIDIA kernel module is loaded, needs no library and
no program, and names the driver version (not the CUDA version):

    NVRM version: NVIDIA UNIX x86_64 Kernel Module  535.104.05  Sat Aug 19 01:15:15 UTC 2023
    NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  535.104.05  Release Build  (...)
"""

from __future__ import annotations

from wizard.detect.reading import Reading
from wizard.patterns import LazyPattern

PATH = "/proc/driver/nvidia/version"

_VERSION_RE = LazyPattern(r"NVRM version:.*?Kernel Module(?:\s+for\s+\S+)?\s+([0-9]+\.[0-9]+(?:\.[0-9]+)?)")


def parse(text: str) -> str | None:
    match = _VERSION_RE.search(text)
    return match.group(1) if match else None


def probe(path: str = PATH) -> Reading:
    try:
        with open(path, errors="replace") as handle:
            text = handle.read(4096)
    except FileNotFoundError:
        return Reading("procfs", "absent", detail=f"{path} does not exist (no NVIDIA kernel module is loaded)")
    except OSError as exc:
        return Reading("procfs", "failed", detail=f"{path}: {exc.strerror or exc}")
    version = parse(text)
    if version is None:
        return Reading("procfs", "failed", detail=f"{path} names no driver version")
    return Reading("procfs", "ok", version=version)
