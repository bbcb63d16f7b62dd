"""Provides the records that detection returns (`wizard.detect.record`: written as frozen dataclasses, built as
named tuples, because detection is on every command's start-up path — issue 23).

Facts are data: each records where it came from (`source`) so that the user — and a support
report — can see *why* the wizard believes it. `Facts.to_dict()` is the `detect --json` shape of
`docs/interface.md`; names there are the API, so fields are only ever added.
"""

from __future__ import annotations

import os

from wizard.detect.record import record

TYPE_CHECKING = False  # `typing.TYPE_CHECKING` without importing `typing` (start-up time, issue 23)
if TYPE_CHECKING:
    from typing import Any

#: Where a driver/GPU fact came from (docs/interface.md: `source` values). "assumed" is a GPU that is not
#: here at all (`--assume-driver`), planned for in advance.
SOURCES = ("nvml", "nvidia-smi", "procfs", "libcuda", "profile", "assumed")


@record
class Driver:
    version: str | None
    """e.g. "535.104.05"; None when only the CUDA version could be read (libcuda)."""
    cuda_driver_version: str | None
    """The *maximum* CUDA version this driver supports, "12.2"."""
    source: str


#: Warnings that mean an NVIDIA driver IS on this machine but cannot be used now: installed but not loaded, its
#: libraries and kernel module from different versions, or a driver that does not answer (a probe hung until its
#: deadline). Every face and the matcher treat them alike: a GPU server in trouble, never "no driver".
DRIVER_IN_TROUBLE = ("driver_not_loaded", "driver_library_mismatch", "driver_not_answering")


@record
class DriverProbe:
    """What one link of the driver chain observed, as `detect --json` reports it (`driver_probes`).

    Why kept in the facts: "absent", "timeout" (there, but no answer before the deadline) and "failed" (ended with
    `exit_code`) call for different fixes, and a support report or a script must be able to tell them apart without
    parsing a warning's words."""

    source: str
    """"nvml", "nvidia-smi", "procfs" or "libcuda"."""
    status: str
    """ok · absent · not_loaded · mismatch · failed · timeout · skipped (`wizard.detect.reading.STATUSES`)."""
    detail: str = ""
    path: str | None = None
    exit_code: int | None = None
    seconds: float | None = None


@record
class Gpu:
    index: int
    name: str
    memory_total_mib: int | None
    compute_capability: str | None
    source: str
    uuid: str | None = None


@record
class CudaLibrary:
    name: str
    """"cudnn", "cudart", "cublas", … (the library's short name)."""
    version: str | None
    path: str
    found_via: str
    """"LD_LIBRARY_PATH", "conda", "/usr/local/cuda", "ldconfig", "wheel"."""
    loads_first: bool = False
    """True for the copy the dynamic loader would pick first for this library name."""


@record
class PythonInfo:
    version: str
    executable: str


@record
class EnvironmentInfo:
    kind: str
    """"conda", "venv" or "system"."""
    path: str
    packages: dict[str, str] = {}  # noqa: RUF012 (a new dict for each record: `record`)
    jaxlib_cuda_tag: str | None = None
    """e.g. "cuda12.cudnn89" from a `jaxlib 0.4.23+cuda12.cudnn89` local version."""


@record
class DiskInfo:
    state_free_gib: float | None
    path: str = ""


def gib(mib: float, digits: int = 1) -> str:
    """A memory size this machine reported (host RAM, a GPU's memory) as every face shows it: in GiB, as `detect`
    does. Walk 21 #14: the same 23.5 GiB of RAM was also "25 GB" and "24105 MiB", and read as three numbers."""
    return f"{mib / 1024:.{digits}f} GiB"


@record
class HostMemory:
    """The host's RAM, for the memory preflight (GenCast 0.25° compiles in about 300 GB of it)."""

    total_mib: int | None
    """MemTotal from /proc/meminfo."""
    available_mib: int | None = None
    """MemAvailable: what a new process can take now without swapping."""
    limit_mib: int | None = None
    """A cgroup memory limit below the total (a Slurm job, a container), else None."""
    source: str = "procfs"

    @property
    def usable_mib(self) -> int | None:
        """What one process could use at most: the total, capped by a cgroup limit."""
        values = [v for v in (self.total_mib, self.limit_mib) if v]
        return min(values) if values else None


@record
class DetectWarning:
    id: str
    message: str


@record
class Platform:
    os: str
    arch: str
    glibc: str | None


@record
class Facts:
    driver: Driver | None
    gpus: tuple[Gpu, ...]
    cuda_libraries: tuple[CudaLibrary, ...]
    python: PythonInfo
    environment: EnvironmentInfo
    disk: DiskInfo
    platform: Platform
    warnings: tuple[DetectWarning, ...] = ()
    seconds: float = 0.0
    host: str = ""
    """The machine these facts were read on (its short host name, `this_host()` there)."""
    slurm: dict[str, Any] | None = None
    """Set when detection ran on a cluster node through `srun`: {"node", "partition", "job_id", "srun"}."""
    memory: HostMemory | None = None
    """Host RAM (None when it could not be read)."""
    driver_probes: tuple[DriverProbe, ...] = ()
    """Each driver source's own outcome, in chain order (empty in facts saved by older wizards)."""

    def to_dict(self) -> dict[str, Any]:
        return _plain(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Facts:
        """Rebuilds facts from `to_dict()` output (the support report and tests read saved JSON)."""
        return cls(
            driver=Driver(**data["driver"]) if data.get("driver") else None,
            gpus=tuple(Gpu(**g) for g in data.get("gpus", [])),
            cuda_libraries=tuple(CudaLibrary(**c) for c in data.get("cuda_libraries", [])),
            python=PythonInfo(**data["python"]),
            environment=EnvironmentInfo(**data["environment"]),
            disk=DiskInfo(**data["disk"]),
            platform=Platform(**data.get("platform", {"os": "linux", "arch": "x86_64", "glibc": None})),
            warnings=tuple(DetectWarning(**w) for w in data.get("warnings", [])),
            seconds=data.get("seconds", 0.0),
            host=str(data.get("host") or ""),
            slurm=dict(data["slurm"]) if isinstance(data.get("slurm"), dict) else None,
            memory=HostMemory(**data["memory"]) if isinstance(data.get("memory"), dict) else None,
            driver_probes=tuple(DriverProbe(**p) for p in data.get("driver_probes") or [] if isinstance(p, dict)),
        )


def _plain(value: Any) -> Any:
    """`value` as JSON data: records as objects, tuples as lists, a dict copied (as `dataclasses.asdict` did)."""
    if isinstance(value, tuple) and hasattr(value, "_asdict"):
        return {name: _plain(item) for name, item in value._asdict().items()}
    if isinstance(value, (list, tuple)):
        return [_plain(item) for item in value]
    if isinstance(value, dict):
        return {name: _plain(item) for name, item in value.items()}
    return value


def this_host() -> str:
    """This machine's short host name, as facts record it (`Facts.host`): what tells saved facts read here from a
    GPU node's (`flows.machine.read_here`)."""
    return os.uname().nodename.split(".")[0]
