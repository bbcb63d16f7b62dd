"""Stand-ins for the NVIDIA driver at the hardware boundary, so detection is tested on a GPU-less machine.

`standin_env(profile, workdir)` returns the environment variables that make a *new* process see a
fake GPU server: the real `pynvml` loads our compiled `libnvidia-ml.so.1` (and ctypes our
`libcuda.so.1`) through `LD_LIBRARY_PATH`, and `PATH` finds our `nvidia-smi`, which prints the real
tool's formats. Nothing in gc-wizard knows about them: the product code runs unchanged.

The library is compiled with `cc` once per source version into `tests/standins/build/` (gitignored).
Profiles are `profiles/<name>.profile` (key=value); a path to any profile file works too.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
PROFILES = HERE / "profiles"
BUILD = HERE / "build"
SOURCE = HERE / "nvml_standin.c"
SMI_SOURCE = HERE / "nvidia_smi.py"

#: The variable the stand-ins read their profile file from.
PROFILE_VAR = "GC_WIZARD_STANDIN_PROFILE"

PROFILE_NAMES = sorted(p.stem for p in PROFILES.glob("*.profile"))


def profile_path(profile: str | Path) -> Path:
    path = Path(profile)
    if path.suffix == ".profile" and path.exists():
        return path.resolve()
    path = PROFILES / f"{profile}.profile"
    if not path.exists():
        raise ValueError(f"no stand-in profile {profile!r}; known: {', '.join(PROFILE_NAMES)}")
    return path


def read_profile(profile: str | Path) -> dict[str, str]:
    values: dict[str, str] = {}
    for line in profile_path(profile).read_text().splitlines():
        line = line.strip()
        if line and not line.startswith("#") and "=" in line:
            key, value = line.split("=", 1)
            values[key.strip()] = value.strip()
    return values


def build_library() -> Path:
    """Compile the stand-in shared object once (keyed by the source's hash) and return its path."""
    digest = hashlib.sha256(SOURCE.read_bytes()).hexdigest()[:16]
    target = BUILD / f"nvml_standin-{digest}.so"
    if target.exists():
        return target
    BUILD.mkdir(parents=True, exist_ok=True)
    partial = BUILD / f".{target.name}.{os.getpid()}.tmp"
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        raise RuntimeError("the NVML stand-in needs a C compiler (cc); install gcc")
    subprocess.run([cc, "-shared", "-fPIC", "-O1", "-Wall", "-o", str(partial), str(SOURCE)],
                   check=True, capture_output=True, text=True)
    os.replace(partial, target)  # atomic: concurrent builders never see half a file
    return target


def _path_without_nvidia_smi(value: str) -> list[str]:
    """The inherited PATH minus any folder with a real nvidia-smi (a test on a GPU host stays fake)."""
    return [d for d in value.split(os.pathsep) if d and not os.path.exists(os.path.join(d, "nvidia-smi"))]


def standin_env(profile: str | Path, workdir: Path) -> dict[str, str]:
    """Environment variables (LD_LIBRARY_PATH, PATH, the profile variable) for a fake GPU server.

    `workdir/standin-<profile>/lib` gets `libnvidia-ml.so.1` / `libcuda.so.1` unless the profile
    says `nvml=absent` / `libcuda=absent`; `.../bin` gets `nvidia-smi` unless `smi=absent`.
    Merge the result over `os.environ` for a subprocess (or set it with monkeypatch).
    """
    source = profile_path(profile)
    values = read_profile(source)
    root = Path(workdir) / f"standin-{source.stem}"
    lib = root / "lib"
    bin_dir = root / "bin"
    for folder in (lib, bin_dir):
        if folder.exists():
            shutil.rmtree(folder)
        folder.mkdir(parents=True)
    built = None
    for key, soname in (("nvml", "libnvidia-ml.so.1"), ("libcuda", "libcuda.so.1")):
        if values.get(key, "absent") != "absent":
            built = built or build_library()
            (lib / soname).symlink_to(built)
    if values.get("smi", "absent") != "absent":
        smi = bin_dir / "nvidia-smi"
        body = SMI_SOURCE.read_text()
        smi.write_text(f"#!{sys.executable} -I\n{body}")
        smi.chmod(0o755)
    path = [str(bin_dir), *_path_without_nvidia_smi(os.environ.get("PATH", os.defpath))]
    return {
        "LD_LIBRARY_PATH": str(lib),
        "PATH": os.pathsep.join(path),
        PROFILE_VAR: str(source),
    }
