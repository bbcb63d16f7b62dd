"""Plans for a GPU that is not here: `--assume-driver VERSION [--assume-cc X.Y]`.

Why: on a login node without Slurm access, or when an admin prepares a node before its GPUs arrive,
no probe can read a driver — and then only the CPU recipe fits. Conda users set `CONDA_OVERRIDE_CUDA`
for the same reason. Unlike `GC_WIZARD_CUDA_DRIVER_VERSION` (source "profile", which only overrides
the CUDA version), an assumed driver comes with an assumed GPU so that GPU recipes can match at all,
and every assumed fact says `source: "assumed"`, with a warning, so nobody mistakes it for a reading.
The driver's newest CUDA version comes from `wizard/data/driver_cuda.yaml`.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from packaging.version import InvalidVersion, Version

from wizard.detect.facts import DRIVER_IN_TROUBLE, DetectWarning, Driver, Facts, Gpu
from wizard.errors import UserError
from wizard.yaml_data import SHAPE_ERRORS, YAMLError, load_table

SOURCE = "assumed"
_TABLE = Path(__file__).resolve().parents[1] / "data" / "driver_cuda.yaml"
#: Warnings that describe the driver this machine lacks; they do not apply to the assumed one.
_REPLACED_WARNINGS = ("no_nvidia_driver", *DRIVER_IN_TROUBLE, "driver_override")


@lru_cache(maxsize=1)
def _rows() -> tuple[tuple[Version, str], ...]:
    """The table's rows, newest driver first; a broken table is one sentence naming it (its data, from the state's
    cache or parsed, in a shape `_rows_from` does not take ended `detect --assume-driver` as "a bug": 38th hostile pass
    (part B) P4)."""
    from wizard import paths  # loaded already; read from a zipapp through a copy

    try:
        return load_table(paths.package_file(_TABLE), _rows_from)
    except (OSError, YAMLError, *SHAPE_ERRORS) as exc:
        raise UserError(f"the driver table {_TABLE} is unreadable ({exc})") from None


def _rows_from(data: object) -> tuple[tuple[Version, str], ...]:
    """The table's data as (minimum driver, CUDA) rows, or one of `yaml_data.SHAPE_ERRORS`: a list of at least one
    mapping, each with `driver_min` and `cuda` written as text ("535.54.03", "12.2")."""
    if not isinstance(data, list) or not data:
        raise ValueError("it is not a list of drivers")
    rows = []
    for number, row in enumerate(data, 1):
        if not isinstance(row, dict):
            raise TypeError(f"row {number} is {type(row).__name__}, not a mapping")
        driver, cuda = row["driver_min"], row["cuda"]
        if not (isinstance(driver, str) and isinstance(cuda, str) and re.fullmatch(r"[0-9]{1,3}\.[0-9]{1,3}", cuda)):
            raise ValueError(f"row {number} has no CUDA version and driver written as text")
        rows.append((Version(driver), cuda))
    return tuple(sorted(rows, reverse=True))


def parse_driver(value: str) -> Version:
    text = (value or "").strip()
    if not re.fullmatch(r"[0-9]{3}(\.[0-9]+){0,2}", text):
        raise UserError(f"--assume-driver {value!r} is not an NVIDIA driver version like 535.104.05 or 550.")
    try:
        return Version(text)
    except InvalidVersion:
        raise UserError(f"--assume-driver {value!r} is not an NVIDIA driver version like 535.104.05.") from None


def cuda_for_driver(value: str) -> str:
    """The newest CUDA version driver `value` supports ("535.104.05" -> "12.2")."""
    version = parse_driver(value)
    if len(version.release) == 1:  # "535" means the 535 branch: its first release
        version = Version(f"{version.release[0]}.999")
    for minimum, cuda in _rows():
        if version >= minimum:
            return cuda
    oldest = _rows()[-1]
    raise UserError(f"--assume-driver {value}: driver branches older than {oldest[0]} (CUDA {oldest[1]}) run no "
                    "recipe gc-wizard knows.")


def parse_cc(value: str | None) -> str | None:
    if value is None:
        return None
    text = value.strip()
    if not re.fullmatch(r"[0-9]{1,2}\.[0-9]", text):
        raise UserError(f"--assume-cc {value!r} is not a compute capability like 8.0 (A100) or 9.0 (H100).")
    return text


def assume(facts: Facts, driver: str, cc: str | None = None) -> Facts:
    """`facts` with the driver (and one GPU) replaced by assumed ones, marked as such."""
    cuda = cuda_for_driver(driver)
    cc = parse_cc(cc)
    gpu_name = "assumed GPU" if cc else "assumed GPU (compute capability not given)"
    gpus = (Gpu(index=0, name=gpu_name, memory_total_mib=None, compute_capability=cc, source=SOURCE),)
    warning = DetectWarning("assumed_driver", (
        f"Planning for NVIDIA driver {driver} (CUDA up to {cuda})"
        + (f" and a GPU of compute capability {cc}" if cc else "")
        + f" that {facts.host or 'this machine'} does not have (--assume-driver). Nothing was read from a GPU; "
        "verify on the GPU node before relying on it (gc-wizard verify --slurm)."))
    kept = tuple(w for w in facts.warnings if w.id not in _REPLACED_WARNINGS)
    return facts._replace(driver=Driver(version=driver, cuda_driver_version=cuda, source=SOURCE),
                          gpus=gpus, warnings=(warning, *kept))


def check_options(driver: str | None, cc: str | None) -> None:
    """Bad combinations as a UserError before anything runs."""
    if cc is not None and driver is None:
        raise UserError("--assume-cc needs --assume-driver (the driver the assumed GPU runs under).")
    if driver is not None:
        cuda_for_driver(driver)
        parse_cc(cc)
