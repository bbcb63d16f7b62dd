"""Ranks the possible causes of a symptom-only log with what is known about the machine and environment.

Why: many logs hold only the symptom — "DNN library initialization failed" / CUDNN_STATUS_INTERNAL_ERROR,
a CPU fallback, "no CUDA-capable device" — because the line naming the cause was never printed (a
quieter log level, or the message went to a cell that was not copied). The text alone cannot tell a
cuDNN older than the jaxlib's build from a full GPU or an old driver, but the machine can: which cuDNN
the loader picks first (detect), the jaxlib build and its nvidia-* wheels (`diagnose --env`), the
free GPU memory the log itself reported. Each candidate cause comes with how to tell it apart.

Pure data in, data out: the caller gathers the facts; nothing here runs or imports anything.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any


@dataclass(frozen=True)
class Context:
    """What is known beside the log. Every field may be unknown (None)."""

    gpu_memory: tuple[int, int] | None = None
    """(free, total) bytes from the log's "Memory usage:" line."""
    cudnn_loaded: str | None = None
    """The cuDNN version the loader would pick first for the environment ("8.2.1")."""
    cudnn_loaded_from: str | None = None
    """Where that copy is (a folder, with how it was found)."""
    cudnn_built: str | None = None
    """The cuDNN the jaxlib was built for ("8.6", "9.1"), from its build tag or wheel requirements."""
    jaxlib_cpu_only: bool | None = None
    driver_cuda: str | None = None
    """The CUDA version the driver supports ("12.2")."""
    jaxlib_cuda: str | None = None
    """The CUDA major the jaxlib was built for ("12")."""
    driver_present: bool | None = None
    frameworks: tuple[str, ...] = ()
    """Other CUDA frameworks in the environment (torch, tensorflow) that bring their own cuDNN."""
    recipe: str | None = None
    """The recipe the environment was installed from (its gc-wizard marker): fixes name recipes of its family."""
    slurm_login_node: bool | None = None
    graphcast_given: tuple[str, str] | None = None
    """(GraphCast version, local source) the environment was installed from with `--graphcast-src` (its marker's
    `graphcast_given`): every install line a fix prints for that GraphCast version gives it again
    (`diagnose.with_given_graphcast`)."""
    """The check ran here, on a machine with no GPU device, where Slurm's srun answers (a cluster's login node)."""

    @classmethod
    def merge(cls, context: Context | None, facts: Any, gpu_memory: tuple[int, int] | None) -> Context:
        """`context` (an inspected environment) completed by detection facts and the log's memory line."""
        ctx = context or cls()
        if gpu_memory is not None:
            ctx = replace(ctx, gpu_memory=gpu_memory)
        if facts is None:
            return ctx
        updates: dict[str, Any] = {}
        if ctx.cudnn_loaded is None:
            first = [lib for lib in getattr(facts, "cuda_libraries", ()) if lib.name == "cudnn" and lib.loads_first]
            if first and first[0].version:
                updates["cudnn_loaded"] = first[0].version
                updates["cudnn_loaded_from"] = f"{first[0].path} (via {first[0].found_via})"
        driver = getattr(facts, "driver", None)
        if ctx.driver_present is None:
            updates["driver_present"] = driver is not None and bool(driver.version)
        if ctx.driver_cuda is None and driver is not None and driver.cuda_driver_version:
            updates["driver_cuda"] = str(driver.cuda_driver_version)
        env = getattr(facts, "environment", None)
        if env is not None and ctx.cudnn_built is None and ctx.jaxlib_cpu_only is None:
            built = cudnn_from_tag(env.jaxlib_cuda_tag)
            if built:
                updates["cudnn_built"] = built
            if env.packages.get("jaxlib") and not env.jaxlib_cuda_tag:
                updates["jaxlib_cpu_only"] = True
            if not ctx.frameworks:
                updates["frameworks"] = tuple(n for n in ("torch", "tensorflow") if n in env.packages)
        return replace(ctx, **updates)


def cudnn_from_tag(tag: str | None) -> str | None:
    """"8.9" from a jaxlib local version tag like "cuda12.cudnn89"; None when the tag names no cuDNN."""
    match = re.search(r"cudnn([0-9])([0-9]+)", tag or "")
    return f"{match.group(1)}.{match.group(2)}" if match else None


def _version(text: str | None) -> tuple[int, ...]:
    return tuple(int(p) for p in re.findall(r"[0-9]+", text or "")[:3])


def older(loaded: str | None, built: str | None) -> bool | None:
    """Whether cuDNN `loaded` cannot serve a jaxlib built for `built` (other major, or older minor)."""
    a, b = _version(loaded), _version(built)
    if len(a) < 2 or len(b) < 2:
        return None
    return a[0] != b[0] or a[:2] < b[:2]


def _free_fraction(ctx: Context) -> float | None:
    if ctx.gpu_memory is None or ctx.gpu_memory[1] <= 0:
        return None
    return ctx.gpu_memory[0] / ctx.gpu_memory[1]


def rank(symptom: str, ctx: Context) -> tuple[dict[str, str], ...]:
    """The causes of `symptom`, most likely first: each {"id", "title", "why", "check"}."""
    scored: list[tuple[int, dict[str, str]]] = []

    def add(score: int, cause_id: str, title: str, why: str, check: str) -> None:
        scored.append((score, {"id": cause_id, "title": title, "why": why, "check": check}))

    free = _free_fraction(ctx)
    mismatch = older(ctx.cudnn_loaded, ctx.cudnn_built)
    if symptom == "dnn_library_init_failed":
        if mismatch:
            add(100, "cudnn_version_mismatch", "an older cuDNN is loaded",
                f"the loader picks cuDNN {ctx.cudnn_loaded} ({ctx.cudnn_loaded_from}) but the jaxlib was built "
                f"for {ctx.cudnn_built}", "`gc-wizard diagnose --env DIR` names the folder; rerun with it off "
                "LD_LIBRARY_PATH")
        elif mismatch is None:
            add(50, "cudnn_version_mismatch", "an older cuDNN may be loaded",
                "the cuDNN version that loads was not in the log", "rerun with TF_CPP_MIN_LOG_LEVEL=0 and look "
                "for \"Loaded runtime CuDNN library\"; `gc-wizard diagnose --env DIR` shows which cuDNN loads first")
        if free is not None and free < 0.25:
            add(90, "gpu_out_of_memory", "the GPU is (nearly) full",
                f"the log reports only {free:.0%} of GPU memory free", "`nvidia-smi` shows who holds it; "
                "XLA_PYTHON_CLIENT_PREALLOCATE=false stops a JAX process from taking 75% up front")
        elif free is None:
            add(40, "gpu_out_of_memory", "the GPU may be full", "the log did not say how much memory was free",
                "`nvidia-smi` during the run")
        if ctx.frameworks:
            add(60 if mismatch is not False else 30, "cudnn_version_mismatch",
                "another framework loads its own cuDNN first",
                f"{' and '.join(ctx.frameworks)} in the same environment bring their own cuDNN",
                "import jax before torch/tensorflow, or run JAX in a process of its own")
        if _driver_older(ctx):
            add(80, "driver_too_old", "the driver is older than the jaxlib's CUDA",
                f"the driver supports CUDA {ctx.driver_cuda}, the jaxlib needs CUDA {ctx.jaxlib_cuda}",
                "`nvidia-smi` shows the driver's CUDA version")
    elif symptom == "cpu_fallback":
        if ctx.jaxlib_cpu_only:
            add(100, "cpu_only_jaxlib", "the jaxlib is a CPU-only build",
                "no CUDA build of jaxlib and no jax CUDA plugin in the environment",
                "`gc-wizard diagnose --env DIR` lists the jaxlib build")
        elif ctx.jaxlib_cpu_only is None:
            add(50, "cpu_only_jaxlib", "the jaxlib may be a CPU-only build", "the jaxlib build is not known",
                "`pip list | grep jax` in the environment: a GPU jaxlib reads +cuda or has jax-cuda12-plugin")
        if mismatch:
            add(90, "cuda_component_outdated", "an older cuDNN is loaded",
                f"cuDNN {ctx.cudnn_loaded} loads first but the jaxlib was built for {ctx.cudnn_built}",
                "`gc-wizard diagnose --env DIR`")
        if ctx.driver_present is False:
            add(95, "driver_not_loaded", "no NVIDIA driver is reachable", "detection found no working driver",
                "`nvidia-smi` on the node that runs the job")
        if _driver_older(ctx):
            add(80, "driver_too_old", "the driver is older than the jaxlib's CUDA",
                f"the driver supports CUDA {ctx.driver_cuda}, the jaxlib needs CUDA {ctx.jaxlib_cuda}",
                "`nvidia-smi`")
    elif symptom == "no_cuda_device":
        if ctx.slurm_login_node:  # walk 24 #3: the causes named WSL and exclusive mode, never the node it ran on
            add(98, "slurm_login_node", "this is a login node with no GPU, and Slurm is here",
                "the check ran on this machine, not on a GPU node: add `--slurm [PARTITION]` "
                "(`gc-wizard verify --env DIR --slurm`) to run it on one through srun",
                "`gc-wizard detect --slurm` shows the GPU node's GPUs")
        if ctx.driver_present is False:
            add(95, "driver_not_loaded", "no NVIDIA driver is reachable", "detection found no working driver",
                "`nvidia-smi` on the node that runs the job")
        add(60, "no_cuda_device", "the GPU is hidden from the process",
            "CUDA_VISIBLE_DEVICES or the job's GPU request decides what CUDA sees",
            "`echo $CUDA_VISIBLE_DEVICES` in the job; ask Slurm for a GPU (--gres=gpu:1)")
        # The causes of clusters, shared servers and WSL that print this same symptom (known_failures.yaml has
        # each as its own entry for the logs that name it).
        add(50, "slurm_gpu_binding", "a Slurm task sees another GPU set than it asks for",
            "with --gpus-per-task (or --gpu-bind) each task sees only its own GPUs, renumbered from 0",
            "`srun … bash -c 'echo $CUDA_VISIBLE_DEVICES'` for each task")
        add(45, "gpu_busy_exclusive_process", "the GPU is in exclusive-process mode and already taken",
            "shared servers often allow one process per GPU", "`nvidia-smi`: \"E. Process\" and the process on it")
        add(40, "wsl_libcuda_path", "under WSL, Windows' libcuda is not the one found",
            "WSL's driver library lives in /usr/lib/wsl/lib", "`uname -r` (…microsoft…) and "
            "`ldconfig -p | grep libcuda`")
        if free is not None and free < 0.1:
            add(70, "gpu_out_of_memory", "the GPU is full", f"only {free:.0%} of its memory is free", "`nvidia-smi`")
    scored.sort(key=lambda item: -item[0])
    seen: set[str] = set()
    out = []
    for _score, cause in scored:
        key = cause["id"] + cause["title"]
        if key not in seen:
            seen.add(key)
            out.append(cause)
    return tuple(out)


def _driver_older(ctx: Context) -> bool:
    driver, needed = _version(ctx.driver_cuda), _version(ctx.jaxlib_cuda)
    return bool(driver and needed) and driver[:1] < needed[:1]
