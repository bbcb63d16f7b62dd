"""Detects what this machine really has: driver, max CUDA, GPUs, CUDA/cuDNN libraries, Python, disk.

`detect()` is the one entry point. The driver is read through a chain, each link recording its
`source`: NVML (through pynvml, in the probe child) → `nvidia-smi` → `/proc/driver/nvidia/version` →
`libcuda.so.1` (`cuDriverGetVersion`). The slow, hang-prone probes (the NVML/libcuda child, nvidia-smi,
the target environment's interpreter) run as children under one deadline, so a wedged driver costs a
warning, not a hang. Nothing waits that needn't:
- the loader's cache is read from `/etc/ld.so.cache` in this process (`ldcache`), not by `ldconfig -p`;
- the NVML/libcuda child is not started when neither library is anywhere the loader would look
  (GPU-less hosts and login nodes pay nothing for it);
- nvidia-smi runs only when it can add something: when NVML gave the driver, its CUDA version and the GPUs,
  nvidia-smi (which reads the same NVML) would say the same, so it is not started. When NVML fails it
  runs next; when NVML is slow (`SMI_GRACE`) it starts beside it, so a hanging NVML still costs one
  deadline, not two.

An admin override, `GC_WIZARD_CUDA_DRIVER_VERSION=12.2` (like conda's `CONDA_OVERRIDE_CUDA`), sets
the driver's maximum CUDA version for matching when no probe can read it (a container build host);
the fact is then reported with source `profile`, and a warning says so. A value that is not a CUDA
version (`12.2`) is a `UserError` naming it.
"""

from __future__ import annotations

import os
import re
import time
from pathlib import Path

from wizard import paths
from wizard.detect import (
    deadline,
    environment,
    gpu_probe,
    head_start,
    kernel_module,
    ldcache,
    libpath,
    slurm_env,
    smi,
)
from wizard.detect.facts import CudaLibrary, DetectWarning, Driver, DriverProbe, Facts, Gpu, this_host
from wizard.detect.libraries import inventory, parse_ldconfig, start_ldconfig
from wizard.detect.reading import Reading
from wizard.errors import UserError
from wizard.patterns import ascii_digits

PROBE_TIMEOUT = deadline.PROBE_TIMEOUT
#: Seconds NVML has to answer before nvidia-smi is started beside it (a quarter of a shorter deadline).
SMI_GRACE = 0.5
OVERRIDE_VAR = "GC_WIZARD_CUDA_DRIVER_VERSION"
#: The loader cache's entries detection reads: the CUDA/cuDNN libraries (`parse_ldconfig`) and the driver's
#: (`driver_library_findable`). The rest of a server's cache (hundreds of libraries) is never decoded.
LDCONFIG_NAMES = tuple(f"lib{name}" for name in libpath.LIBRARY_NAMES) + gpu_probe.DRIVER_SONAMES


def check_override(environ: dict[str, str]) -> str | None:
    """A sentence naming a malformed override value, or None."""
    value = environ.get(OVERRIDE_VAR, "").strip()
    if value and not re.fullmatch(r"[0-9]+\.[0-9]+", value):
        return f"{OVERRIDE_VAR}={value!r} is not a CUDA version like 12.2; fix or unset it."
    return None


def choose_driver(nvml_r: Reading, smi_r: Reading, kernel_module_r: Reading, cuda_r: Reading,
                  environ: dict[str, str]) -> tuple[Driver | None, list[Gpu]]:
    """The chain: the first source that read the driver wins; later ones only fill its gaps."""
    cuda_fallback = next((r.cuda for r in (nvml_r, smi_r, cuda_r) if r.status == "ok" and r.cuda), None)
    driver: Driver | None = None
    gpus: list[Gpu] = []
    for reading in (nvml_r, smi_r, kernel_module_r, cuda_r):
        if reading.status == "ok" and (reading.version or reading.cuda):
            driver = Driver(version=reading.version or next(
                (r.version for r in (nvml_r, smi_r, kernel_module_r) if r.status == "ok" and r.version), None),
                cuda_driver_version=reading.cuda or cuda_fallback, source=reading.source)
            break
    for reading in (nvml_r, smi_r):
        if reading.status == "ok" and reading.gpus:
            gpus = reading.gpus
            break
    override = environ.get(OVERRIDE_VAR, "").strip()
    if override:
        driver = Driver(version=driver.version if driver else None, cuda_driver_version=override, source="profile")
    return driver, gpus


#: What to do about a driver probe that never answered: the same words wherever a hang is reported.
HUNG_ADVICE = ("Run `nvidia-smi` by hand: if it hangs there too, the driver or a GPU is wedged, and only an admin "
               "can fix it (a GPU reset or a reboot); ask the admins.")
#: Each source's words when it found nothing at all.
_ABSENT_WORDS = {"nvml": "no NVML library", "nvidia-smi": "no nvidia-smi", "procfs": "no /proc/driver/nvidia/version",
                 "libcuda": "no libcuda.so.1"}


def nothing_found_words(readings: tuple[Reading, ...]) -> str:
    """"no NVML library, nvidia-smi failed with exit status 4, …": what each source really said.

    Why not a fixed list: a source that is there but failed is not "no <source>"; the sentence named nvidia-smi
    missing on a server where it was installed (hostile pass P5). A skipped source says nothing; a failure's own
    words are in its `probe_failed` warning."""
    words = []
    for reading in readings:
        if reading.status == "absent":
            words.append(_ABSENT_WORDS.get(reading.source, f"no {reading.source}"))
        elif reading.status not in ("skipped", "ok"):
            code = f" with exit status {reading.exit_code}" if reading.exit_code else ""
            words.append(f"{reading.source} is there but {reading.status.replace('_', ' ')}{code}")
    return ", ".join(words)


def driver_warnings(nvml_r: Reading, smi_r: Reading, kernel_module_r: Reading, cuda_r: Reading,
                    driver: Driver | None, environ: dict[str, str]) -> list[DetectWarning]:
    readings = (nvml_r, smi_r, kernel_module_r, cuda_r)
    warnings: list[DetectWarning] = []
    not_loaded = next((r for r in readings if r.status == "not_loaded"), None)
    mismatch = next((r for r in readings if r.status == "mismatch"), None)

    def quoted(status: str) -> str:
        said = [f'{r.source} says "{r.detail.strip()}"' for r in readings if r.status == status and r.detail.strip()]
        if cuda_r.status == "ok" and cuda_r.cuda:
            said.append(f"libcuda.so.1 is installed and reports CUDA {cuda_r.cuda}")
        return "; ".join(said)

    if not_loaded is not None and (driver is None or driver.source in ("libcuda", "profile")):
        warnings.append(DetectWarning("driver_not_loaded", (
            "The NVIDIA driver's libraries are installed, but the kernel driver is not loaded "
            f"({quoted('not_loaded') or 'driver not loaded'}). No GPU recipe can work "
            "until an admin loads it (modprobe nvidia) or reboots the server.")))
    if mismatch is not None:
        warnings.append(DetectWarning("driver_library_mismatch", (
            f"The NVIDIA driver's libraries and kernel module are different versions ({quoted('mismatch')}); "
            "this usually means the driver was upgraded without a reboot. Ask an admin to reboot the server.")))
    hung = [r for r in (nvml_r, smi_r) if r.status == "timeout"]
    if driver is None and not_loaded is None and mismatch is None and hung:
        warnings.append(DetectWarning("driver_not_answering", (
            "An NVIDIA driver is installed here but does not answer: "
            + "; ".join(f"{r.source}: {r.detail}" for r in hung) + ". That is a hung driver or GPU, not a missing "
            f"one. {HUNG_ADVICE} Until it answers, only the CPU recipes can run on this machine.")))
    elif driver is None and not_loaded is None and mismatch is None:
        warnings.append(DetectWarning("no_nvidia_driver", (
            f"No NVIDIA driver was found ({nothing_found_words(readings)}). "
            "Only the CPU recipes can run on this machine.")))
    for reading in readings:
        if reading.status == "timeout":
            advice = "" if any(w.id == "driver_not_answering" for w in warnings) else f" {HUNG_ADVICE}"
            warnings.append(DetectWarning("probe_timeout", f"{reading.source}: {reading.detail}{advice}"))
        elif reading.status == "failed" and driver is None:
            warnings.append(DetectWarning("probe_failed", f"{reading.source}: {reading.detail}"))
    if driver is not None and driver.source == "profile":
        warnings.append(DetectWarning("driver_override", (
            f"{OVERRIDE_VAR}={driver.cuda_driver_version} overrides the driver's CUDA version; "
            "matching trusts it instead of the driver.")))
    return warnings


def visible_devices_warnings(environ: dict[str, str], gpus: list[Gpu]) -> list[DetectWarning]:
    if "CUDA_VISIBLE_DEVICES" not in environ:
        return []
    value = environ["CUDA_VISIBLE_DEVICES"].strip()
    if value in ("", "-1", "none", "NoDevFiles"):
        return [DetectWarning("cuda_visible_devices_empty", (
            f"CUDA_VISIBLE_DEVICES={value!r} hides every GPU from CUDA programs, so JAX will fall back to the "
            "CPU. Unset it (unset CUDA_VISIBLE_DEVICES) or list the GPUs to use, e.g. CUDA_VISIBLE_DEVICES=0."))]
    bad = []
    for item in (part.strip() for part in value.split(",")):
        if ascii_digits(item):
            if gpus and int(item) >= len(gpus):
                bad.append(item)
        elif not (item.startswith(("GPU-", "MIG-")) and (not gpus or any(
                (g.uuid or "").startswith(item) for g in gpus) or item.startswith("MIG-"))):
            bad.append(item)
    if bad:
        return [DetectWarning("cuda_visible_devices_invalid", (
            f"CUDA_VISIBLE_DEVICES={value!r} names {', '.join(bad)}, which is not a GPU on this machine "
            f"(GPUs 0–{max(len(gpus) - 1, 0)}); CUDA stops reading the list there and may see no GPU at all."))]
    return []


def module_warnings(environ: dict[str, str]) -> list[DetectWarning]:
    loaded = [m for m in environ.get("LOADEDMODULES", "").split(":") if m]
    cuda_mods = [m for m in loaded if any(k in m.lower() for k in ("cuda", "cudnn", "nvhpc"))]
    if not cuda_mods:
        return []
    return [DetectWarning("cuda_modules_loaded", (
        f"Environment modules with CUDA are loaded ({', '.join(cuda_mods)}); they put their CUDA/cuDNN on "
        "LD_LIBRARY_PATH and PATH, where they can shadow the recipe's own. Run `module unload "
        + " ".join(cuda_mods) + "` before using the environment (gc-wizard activate also drops those folders).")
    )]


def _major_minor(version: str | None) -> tuple[int, int] | None:
    parts = (version or "").split(".")
    try:
        return int(parts[0]), int(parts[1] if len(parts) > 1 else 0)
    except ValueError:
        return None


def toolkit_on_path_sentence(folder: str, reason: str, driver_cuda: str | None) -> str | None:
    """What a CUDA toolkit's bin/ on PATH means on this machine, or None when it is harmless here.

    Why compare with the driver: XLA runs the first ptxas on PATH. One from an older CUDA than the
    driver's (a cluster's default `cuda/11.2` module) or a newer one than the driver can run is what
    breaks jit compiles; one of the driver's own CUDA release line (a GPU image's /usr/local/cuda 13.0
    under a CUDA 13.0 driver, as on a real H100 server) runs fine, and calling it a problem there sent
    users after a fault they did not have.
    """
    toolkit = _major_minor(libpath.toolkit_version(os.path.dirname(os.path.normpath(folder))))
    driver = _major_minor(driver_cuda)
    fix = '`eval "$(gc-wizard activate)"` removes it from PATH.'
    if toolkit is None or driver is None:
        return f"{folder} on PATH {reason}; XLA may run that ptxas instead of the environment's own. {fix}"
    if toolkit[0] == driver[0] and toolkit <= driver:
        return None
    said = f"{toolkit[0]}.{toolkit[1]}"
    if toolkit > driver:
        return (f"{folder} on PATH {reason}; that ptxas (CUDA {said}) is newer than this driver runs (CUDA up to "
                f"{driver_cuda}), and XLA may use it, whose kernels the driver then refuses. {fix}")
    return (f"{folder} on PATH {reason}; XLA may pick up that old ptxas (CUDA {said}; this driver runs CUDA "
            f"{driver_cuda}). {fix}")


def library_warnings(libraries: list[CudaLibrary], environ: dict[str, str],
                     driver_cuda: str | None = None, *, cpu_only: bool = False) -> list[DetectWarning]:
    """CUDA folders on LD_LIBRARY_PATH and PATH, and CUDA libraries preloaded, that a recipe's own would lose to.
    `cpu_only` (no NVIDIA driver at all: only the CPU recipes run here): the folders on LD_LIBRARY_PATH and PATH
    are not said, since a CPU jaxlib loads no CUDA library and runs no ptxas, so nothing is shadowed (walk 25 #8:
    the lab's `LD_LIBRARY_PATH=/usr/local/cuda/lib64` sat as a "!" problem beside "No NVIDIA driver" for a CPU
    recipe); activation still leaves them out and says why."""
    warnings: list[DetectWarning] = []
    if cpu_only:
        return preload_warnings(environ)  # a preloaded library is loaded into every program, a CPU one too
    by_folder: dict[str, list[CudaLibrary]] = {}
    for lib in libraries:
        if lib.found_via == "LD_LIBRARY_PATH":
            by_folder.setdefault(os.path.dirname(lib.path), []).append(lib)
    for entry, named in libpath.library_path_folders(environ.get("LD_LIBRARY_PATH", "")):  # an empty entry too
        reason = libpath.cuda_dir_reason(entry)
        if not reason:
            continue
        has_cudnn = any(f.name == "cudnn" for f in libpath.libraries_in(entry))
        wid = "ld_library_path_cudnn" if has_cudnn else "ld_library_path_cuda"
        warnings.append(DetectWarning(wid, (
            f"{named} on LD_LIBRARY_PATH {reason}; it would shadow the recipe's own "
            f"{'cuDNN' if has_cudnn else 'CUDA libraries'} (the cause of 'Loaded runtime CuDNN library: 8.2.1 but "
            "source was compiled with: 8.6.0'). gc-wizard keeps it out of installs and verify; "
            '`eval "$(gc-wizard activate)"` removes it from your shell.')))
    warnings += preload_warnings(environ)
    _, bins = libpath.split_cuda_bin_dirs(environ.get("PATH", ""))
    for folder, reason in bins:
        sentence = toolkit_on_path_sentence(folder, reason, driver_cuda)
        if sentence:
            warnings.append(DetectWarning("path_cuda_toolkit", sentence))
    return warnings


def preload_warnings(environ: dict[str, str], system: list[tuple[str, str]] | None = None) -> list[DetectWarning]:
    """A CUDA, cuDNN, NCCL or driver library preloaded into every process (LD_PRELOAD, /etc/ld.so.preload): it, not
    the environment's own or the driver's, is what JAX then talks to (22nd hostile pass P8: a preloaded libcuda was
    loaded into the wizard itself while detect said "no libcuda.so.1")."""
    warnings = []
    for lib, reason in libpath.split_preload(environ.get("LD_PRELOAD", ""))[1]:
        warnings.append(DetectWarning("ld_preload_cuda", (
            f"{lib} on LD_PRELOAD {reason}: it is loaded into every program before anything else, so JAX talks to "
            "it, not to the environment's own libraries or the installed driver, and what detection read of the "
            "driver may be that library's answer. gc-wizard keeps it out of installs and verify; "
            '`eval "$(gc-wizard activate)"` removes it from your shell (or `unset LD_PRELOAD`).')))
    for lib, reason in libpath.system_preload() if system is None else system:
        warnings.append(DetectWarning("ld_preload_cuda", (
            f"{lib} in {libpath.ETC_PRELOAD} {reason}: it is loaded into every program on this machine before "
            "anything else, so JAX talks to it, not to the environment's own libraries or the installed driver; "
            f"no variable can undo that, so ask an admin to take it out of {libpath.ETC_PRELOAD}.")))
    return warnings


def driver_library_findable(environ: dict[str, str], ldconfig_text: str | None) -> bool:
    """Could `dlopen("libnvidia-ml.so.1")` or `dlopen("libcuda.so.1")` find anything in a new process?

    Mirrors the loader's search (LD_LIBRARY_PATH, the ldconfig cache, the trusted system folders, and
    this interpreter's `lib/`, which a conda python reaches through its RPATH). When the cache could
    not be read the answer is "yes": the probe child then finds out for real.
    """
    if ldconfig_text is None:
        return True
    listed = {line.split(None, 1)[0] for line in ldconfig_text.splitlines() if line.strip()}
    if listed.intersection(gpu_probe.DRIVER_SONAMES):
        return True
    return gpu_probe.driver_library_in_folders(environ)


def _driver_readings(environ: dict[str, str], ldconfig_text: str | None, child: deadline.Running | None,
                     timeout: float, deadline_at: float) -> tuple[Reading, Reading, Reading]:
    """(NVML, nvidia-smi, libcuda) readings: the child's answer, and nvidia-smi only where it can add to it."""
    smi_run = None
    if child is None and driver_library_findable(environ, ldconfig_text):
        child = gpu_probe.start(environ, timeout)
    if child is None:  # nothing to load: spare the machine a Python start-up (GPU-less hosts, login nodes)
        smi_run = smi.start(env=environ, timeout=timeout)
        where = "LD_LIBRARY_PATH, the ldconfig cache or the system library folders"
        nvml_r = Reading("nvml", "absent", detail=f"libnvidia-ml.so.1 is not in {where}")
        cuda_r = Reading("libcuda", "absent", detail=f"libcuda.so.1 is not in {where}")
    else:
        answer = child.finish_within(min(SMI_GRACE, timeout / 4))
        if answer is None:  # NVML is slow (waking GPUs, or wedged): nvidia-smi starts beside it
            smi_run = smi.start(env=environ, timeout=max(deadline_at - time.monotonic(), 0.1))
            answer = child.finish()
        nvml_r, cuda_r = gpu_probe.read(answer, timeout)
    if smi_run is None and not gpu_probe.answered_fully(nvml_r):
        smi_run = smi.start(env=environ, timeout=max(deadline_at - time.monotonic(), min(timeout, 1.0)))
    if smi_run is None:
        smi_r = Reading("nvidia-smi", "skipped", detail="NVML answered; nvidia-smi reads the same library")
    else:
        smi_r = smi_run.finish()
    return nvml_r, smi_r, cuda_r


def detect(target_env: Path | None = None, environ: dict[str, str] | None = None, *,
           timeout: float = PROBE_TIMEOUT) -> Facts:
    """Everything gc-wizard needs to know about this machine; never raises for a failed probe.

    `timeout` bounds each probe (seconds); a probe that runs over becomes a `probe_timeout` warning.
    Raises `UserError` only for bad input: a `target_env` that does not exist, a malformed override.
    """
    started = time.perf_counter()
    deadline_at = time.monotonic() + timeout
    environ = dict(os.environ if environ is None else environ)
    target = environment.choose_target(target_env, environ)
    override_problem = check_override(environ)
    if override_problem:
        raise UserError(override_problem)

    # The children start before anything is waited on: they are independent, and all run under `timeout`.
    child = head_start.adopt(environ, timeout)
    if child is None and gpu_probe.driver_library_in_folders(environ):
        child = gpu_probe.start(environ, timeout)
    interp = environment.start_interpreter_query(target, timeout)
    ldconfig_text = ldcache.text(names=LDCONFIG_NAMES)
    if ldconfig_text is None:  # a cache this wizard cannot read: ldconfig itself lists it
        ldconfig = start_ldconfig(timeout)
        done = ldconfig.finish() if ldconfig is not None else None
        ldconfig_text = done.stdout if done is not None and done.ok else None

    # What needs no driver reading is read while the probe child runs.
    kernel_module_r = kernel_module.probe()
    ld_folders = parse_ldconfig(ldconfig_text) if ldconfig_text else []
    environment.finish_interpreter_query(target, interp)
    python, env_info = environment.describe(target)
    libraries = inventory(environ, target.site_dirs, ld_folders)
    disk, platform, memory = environment.disk_info(paths.state_dir()), environment.platform_info(), \
        environment.memory_info()

    nvml_r, smi_r, cuda_r = _driver_readings(environ, ldconfig_text, child, timeout, deadline_at)
    driver, gpus = choose_driver(nvml_r, smi_r, kernel_module_r, cuda_r, environ)
    if driver is not None and driver.source == "libcuda" and any(
            r.status in ("not_loaded", "mismatch") for r in (nvml_r, smi_r)):
        driver = None  # libcuda answers without the kernel module; such a driver cannot run anything

    warnings = driver_warnings(nvml_r, smi_r, kernel_module_r, cuda_r, driver, environ)
    warnings += visible_devices_warnings(environ, gpus)
    warnings += module_warnings(environ)
    warnings += library_warnings(libraries, environ, driver.cuda_driver_version if driver else None,
                                 cpu_only=any(w.id == "no_nvidia_driver" for w in warnings))
    if target.problem:
        warnings.append(DetectWarning("target_python_failed", target.problem))

    return Facts(
        driver=driver, gpus=tuple(gpus), cuda_libraries=tuple(libraries), python=python,
        environment=env_info, disk=disk, platform=platform, warnings=tuple(warnings),
        seconds=round(time.perf_counter() - started, 3), host=this_host(),
        slurm=slurm_env.job_marker(environ), memory=memory,
        driver_probes=tuple(DriverProbe(r.source, r.status, r.detail, r.path, r.exit_code, r.seconds)
                            for r in (nvml_r, smi_r, kernel_module_r, cuda_r)),
    )
