"""Checks, inside a target environment, that JAX and GraphCast really work there.

Run by the *target environment's* Python (never the wizard's):

    <env>/bin/python graphcast_probe.py [--backend gpu|cpu|auto] [--level notebook|quick]
                                        [--graphcast-src DIR] [--gencast auto|yes|no]

Why a standalone script: the environment being checked may run another Python and has no `wizard`
package, so this file uses only the standard library plus what the environment itself provides, and
imports JAX and GraphCast lazily, tier by tier, so that each failure is caught and named where it
happens. The tiers run in order and stop at the first failure:

1. `jax_import` — import jax/jaxlib; versions of the stack and the jaxlib CUDA build tag;
2. `backend` — devices and default backend; a GPU expectation that lands on the CPU FAILS here;
3. `cudnn_op` — a small convolution on the GPU, the first thing that touches cuDNN (skipped on CPU);
4. `graphcast_jit_init` — the demo notebook's "Build jitted functions, and possibly initialize random
   weights" cell: GraphCast wrapped in Bfloat16Cast, InputsAndResiduals and an autoregressive
   Predictor, `jax.jit(run_forward.init)` with `PRNGKey(0)`, on synthetic inputs, targets, forcings
   and normalisation statistics built in memory (nothing is downloaded);
5. `gencast_jit_init` — only where the GraphCast under test has GenCast (v0.2 and later; `--gencast`):
   the GenCast mini demo's random-weights init (`jax.jit(loss_fn.init)`) on a 1-degree grid, with the
   GPU-safe attention (`triblockdiag_mha`, full mask) because splash attention runs on TPUs only.

Two code layouts are understood: `graphcast.*` (v0.1.1 and v0.2) and WeatherNext v0.3.0's
`weathernext.weathernext1_graph.graphcast` / `weathernext.weathernext1_gen.gencast` / `weathernext.utils.*`
with the separate `xarray_jax` package. The layout is read from `--graphcast-src` (which folder holds
which package), else from what the environment can import.

Output contract: while running, one `gc-wizard-tier-start: {"name": ...}` line and, when a tier ends,
one `gc-wizard-tier: {...}` line go to stderr (so a caller can show progress live); the LAST stdout
line is one JSON object with every tier. Everything JAX and XLA print stays on stderr untouched, so
the caller's log holds the real messages for diagnosis. Exit status: 0 all tiers passed, 1 a tier
failed, 2 bad arguments.
"""

from __future__ import annotations

import argparse
import functools
import importlib
import importlib.util
import json
import logging
import os
import platform
import resource
import sys
import time
import traceback
import warnings

PROBE_VERSION = 2
TIERS = ("jax_import", "backend", "cudnn_op", "graphcast_jit_init", "gencast_jit_init")
#: The tiers every run has; `gencast_jit_init` is added for a GraphCast that has GenCast.
BASE_TIERS = TIERS[:4]
TIER_PREFIX = "gc-wizard-tier: "
TIER_START_PREFIX = "gc-wizard-tier-start: "

#: Distributions whose versions are reported (the first six always, the others when present).
REPORTED = ("jax", "jaxlib", "numpy", "dm-haiku", "xarray", "graphcast")
#: WeatherNext v0.3.0 renamed the distribution (and needs gdm-xarray-jax); reported when present.
REPORTED_LAYOUT = ("weathernext", "gdm-xarray-jax", "dinosaur-dycore", "xarray-tensorstore", "tensorstore")
REPORTED_IF_PRESENT = (
    "scipy", "ml_dtypes", "flax", "chex", "optax", "jraph", "dm-tree", "pandas", "trimesh", "rtree",
    "jax-cuda12-plugin", "jax-cuda12-pjrt", "jax-cuda11-plugin", "jax-cuda11-pjrt",
    "nvidia-cudnn-cu12", "nvidia-cudnn-cu11", "nvidia-cuda-runtime-cu12", "nvidia-cuda-runtime-cu11",
    "nvidia-cuda-nvcc-cu12", "nvidia-cuda-nvcc-cu11", "nvidia-cublas-cu12", "nvidia-cublas-cu11",
    "jax-cuda13-plugin", "jax-cuda13-pjrt", "nvidia-cudnn-cu13", "nvidia-cuda-runtime", "nvidia-cublas",
) + REPORTED_LAYOUT
CUDA_PLUGINS = ("jax-cuda13-plugin", "jax-cuda12-plugin", "jax-cuda11-plugin")
VERSION_MODULES = ("jaxlib.cuda._versions", "jax_cuda13_plugin._versions", "jax_cuda12_plugin._versions",
                   "jax_cuda11_plugin._versions")

#: The notebook's 13 WeatherBench pressure levels (GraphCast's PRESSURE_LEVELS_WEATHERBENCH_13).
LEVELS_13 = (50, 100, 150, 200, 250, 300, 400, 500, 600, 700, 850, 925, 1000)

#: Model and grid for each level. "notebook" is the demo notebook's random-weights configuration on a
#: 1-degree grid (70,739 parameters); "quick" is a coarse grid with a smaller mesh for a fast check.
LEVELS = {
    "notebook": {"grid_degrees": 1.0, "mesh_size": 4, "latent_size": 32, "gnn_msg_steps": 4,
                 "hidden_layers": 1, "radius_query_fraction_edge_length": 0.6, "steps": 1},
    "quick": {"grid_degrees": 6.0, "mesh_size": 2, "latent_size": 32, "gnn_msg_steps": 2,
              "hidden_layers": 1, "radius_query_fraction_edge_length": 0.6, "steps": 1},
}

#: GenCast for each level, always on a 1-degree grid with the GPU-safe attention. "notebook" is the GenCast
#: mini demo's "Random" model (latent 512, mesh 4, 4 heads, 16-hop attention, 16 transformer layers);
#: "quick" keeps the grid and shrinks the network.
GENCAST_LEVELS = {
    "notebook": {"grid_degrees": 1.0, "mesh_size": 4, "latent_size": 512, "d_model": 512, "num_heads": 4,
                 "attention_k_hop": 16, "num_layers": 16, "ffw_hidden": 2048},
    "quick": {"grid_degrees": 1.0, "mesh_size": 4, "latent_size": 32, "d_model": 32, "num_heads": 1,
              "attention_k_hop": 4, "num_layers": 2, "ffw_hidden": 128},
}
GENCAST_ATTENTION = {"attention_type": "triblockdiag_mha", "mask_type": "full"}

MESSAGE_LIMIT = 4000


# --------------------------------------------------------------------------------------------------
# Small helpers


def _dist_version(name):
    try:
        from importlib import metadata
    except ImportError:  # Python < 3.8 has no importlib.metadata; report nothing rather than fail
        return None
    try:
        return metadata.version(name)
    except Exception:
        return None


def _emit(prefix, payload):
    """One progress line on stderr, flushed so the caller sees it as the tier ends."""
    sys.stderr.flush()
    sys.stderr.write(prefix + json.dumps(payload, default=str) + "\n")
    sys.stderr.flush()


def peak_rss_mib():
    # Linux reports ru_maxrss in KiB (macOS in bytes; GraphCast servers are Linux).
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    if sys.platform == "darwin":
        return round(rss / (1024 * 1024), 1)
    return round(rss / 1024, 1)


def _decode_cuda(value):
    """12020 -> "12.2" (CUDA runtime/driver encoding: 1000*major + 10*minor)."""
    if not isinstance(value, int) or value <= 0:
        return None
    return f"{value // 1000}.{(value % 1000) // 10}"


def _decode_cudnn(value):
    """8904 -> "8.9.4" (cuDNN 8 encoding: 1000*major + 100*minor + patch; cuDNN 9: 10000*major + …)."""
    if not isinstance(value, int) or value <= 0:
        return None
    if value >= 90000:
        return f"{value // 10000}.{(value % 10000) // 100}.{value % 100}"
    return f"{value // 1000}.{(value % 1000) // 100}.{value % 100}"


class _Capture:
    """Records Python warnings and `jax` logger records while still letting them reach stderr."""

    def __init__(self):
        self.messages = []
        self._orig_showwarning = None
        self._handler = None

    def _add(self, text):
        text = str(text).strip()
        if text and text not in self.messages and len(self.messages) < 50:
            self.messages.append(text[:MESSAGE_LIMIT])

    def __enter__(self):
        self._orig_showwarning = warnings.showwarning
        capture = self

        def showwarning(message, category, filename, lineno, file=None, line=None):
            capture._add(f"{category.__name__}: {message}")
            capture._orig_showwarning(message, category, filename, lineno, file, line)

        warnings.showwarning = showwarning

        class _Handler(logging.Handler):
            def emit(self, record):
                try:
                    message = record.getMessage()
                except Exception:
                    return
                capture._add(message)
                # Adding a handler switches off logging's last-resort stderr printer; keep the
                # message on stderr as JAX would have shown it when nobody else prints it.
                if not logging.getLogger().handlers:
                    sys.stderr.write(message + "\n")

        self._handler = _Handler(level=logging.WARNING)
        logging.getLogger("jax").addHandler(self._handler)
        return self

    def __exit__(self, *exc):
        warnings.showwarning = self._orig_showwarning
        logging.getLogger("jax").removeHandler(self._handler)
        return False


def _error_dict(exc):
    name = type(exc).__name__
    module = type(exc).__module__
    qualified = name if module in ("builtins", None) else f"{module}.{name}"
    lines = traceback.format_exception(type(exc), exc, exc.__traceback__)
    tail = "".join(lines).splitlines()[-20:]
    return {"type": qualified, "message": str(exc)[:MESSAGE_LIMIT], "traceback_tail": tail}


# --------------------------------------------------------------------------------------------------
# Tier 1: jax_import


#: Modules every DeepMind GraphCast release has (v0.1, v0.1.1, v0.2): the package's layout, checked
#: without importing it (its import needs the whole stack, which tier 4 exercises).
GRAPHCAST_MODULES = ("graphcast.py", "casting.py", "autoregressive.py", "xarray_jax.py", "normalization.py")


def _graphcast_identity(src):
    """Which `graphcast` this environment would import, and whether it is DeepMind's GraphCast.

    A wrong source installed with --no-deps "succeeds": GitHub's main branch is now `weathernext`
    (no `graphcast` module at all), and PyPI's `graphcast` is an unrelated project. So the module's
    layout and the distribution's metadata are read here, and a mismatch is this tier's failure.
    """
    import importlib.util

    info = {"deepmind": False, "present": False, "version": _dist_version("graphcast"), "path": None, "why": None}
    if src and _use_src(src) == "weathernext":
        # A WeatherNext v0.3.0 checkout given on purpose: GraphCast under its new name (weathernext.*).
        info.update(deepmind=True, present=True, path=os.path.join(os.path.abspath(src), "weathernext"),
                    layout="weathernext")
        return info
    if src:
        folder = os.path.join(src, "graphcast")
    else:
        try:
            spec = importlib.util.find_spec("graphcast")
        except (ImportError, ValueError):
            spec = None
        locations = list(getattr(spec, "submodule_search_locations", None) or []) if spec else []
        folder = locations[0] if locations else None
    info["path"] = folder
    if (folder is None or not os.path.isdir(folder)) and _find_spec("weathernext") is not None \
            and _find_spec("weathernext.weathernext1_graph") is not None:
        # WeatherNext v0.3.0 installed (the weathernext recipes): GraphCast under its new name.
        spec = _find_spec("weathernext")
        where = list(getattr(spec, "submodule_search_locations", None) or [])
        info.update(deepmind=True, present=True, version=_dist_version("weathernext"),
                    path=where[0] if where else None, layout="weathernext")
        return info
    if folder is None or not os.path.isdir(folder):
        other = _dist_version("weathernext")
        info["present"] = bool(other or info["version"])
        if other:
            info["why"] = (f"No module named 'graphcast'; the installed package is weathernext {other} (GraphCast's "
                           "main branch after v0.2), not GraphCast")
        else:
            info["why"] = "No module named 'graphcast' (GraphCast is not installed in this environment)"
        return info
    info["present"] = True
    missing = [name for name in GRAPHCAST_MODULES if not os.path.isfile(os.path.join(folder, name))]
    if missing:
        info["why"] = (f"{folder} has no {', '.join(missing)}; it is another project named graphcast (PyPI's "
                       f"unrelated package{', version ' + info['version'] if info['version'] else ''})")
        return info
    info["deepmind"] = True
    return info


def tier_jax_import(ctx):
    versions = {name: _dist_version(name) for name in REPORTED}
    for name in REPORTED_IF_PRESENT:
        version = _dist_version(name)
        if version is not None:
            versions[name] = version
    details = {"versions": versions, "python": platform.python_version(), "executable": sys.executable}
    ctx["partial"] = details
    try:  # where `import jax` will come from, known before it runs: a stray copy that then fails still names itself
        spec = importlib.util.find_spec("jax")
        if spec is not None and spec.origin:
            details["jax_path"] = os.path.dirname(spec.origin)
    except (ImportError, ValueError):
        pass

    jaxlib_dist = versions.get("jaxlib") or ""
    tag = jaxlib_dist.split("+", 1)[1] if "+" in jaxlib_dist else None
    details["jaxlib_build_tag"] = tag
    plugins = [name for name in CUDA_PLUGINS if versions.get(name)]
    details["cuda_plugins"] = plugins
    details["gpu_build"] = bool((tag and tag.startswith("cuda")) or plugins)

    import jax  # noqa: F401  (the thing under test)
    import jaxlib

    details["jax"] = getattr(jax, "__version__", None)
    try:
        from jaxlib import version as jaxlib_version

        details["jaxlib"] = jaxlib_version.__version__
    except Exception:
        details["jaxlib"] = getattr(jaxlib, "__version__", None)
    details["jax_path"] = os.path.dirname(getattr(jax, "__file__", "") or "")

    build = {}
    for module_name in VERSION_MODULES:
        try:
            module = importlib.import_module(module_name)
        except Exception:
            continue
        ctx["versions_module"] = module
        details["cuda_versions_module"] = module_name
        for attr in sorted(dir(module)):
            if attr.endswith("_build_version"):
                try:
                    build[attr[: -len("_build_version")]] = int(getattr(module, attr)())
                except Exception as exc:  # a build constant should never fail; record it if it does
                    build[attr[: -len("_build_version")]] = f"error: {exc}"
        break
    if build:
        details["cuda_build_versions"] = build
        details["cuda_build"] = _decode_cuda(build.get("cuda_runtime"))
        details["cudnn_build"] = _decode_cudnn(build.get("cudnn"))

    details["graphcast"] = identity = _graphcast_identity(ctx.get("graphcast_src"))
    if identity["present"] and not identity["deepmind"]:
        # Something else stands where GraphCast should be; an absent GraphCast fails at tier 4 instead.
        raise ProbeFailure(f"the `graphcast` here is not DeepMind's GraphCast: {identity['why']}", details)

    expected = ctx["backend_requested"]
    if expected == "auto":
        expected = "gpu" if details["gpu_build"] else "cpu"
    ctx["backend_expected"] = expected
    details["backend_expected"] = expected
    ctx["gpu_build"] = details["gpu_build"]
    ctx["jaxlib_dist"] = jaxlib_dist
    return details


# --------------------------------------------------------------------------------------------------
# Tier 2: backend


def _describe_device(device):
    return {"id": getattr(device, "id", None), "platform": getattr(device, "platform", None),
            "kind": getattr(device, "device_kind", None)}


def _backend_errors():
    try:
        from jax._src import xla_bridge

        errors = getattr(xla_bridge, "_backend_errors", {}) or {}
        return {str(k): str(v)[:MESSAGE_LIMIT] for k, v in errors.items() if str(v).strip()}
    except Exception:
        return {}


class ProbeFailure(Exception):
    """A check that ran and found the environment wrong (as opposed to an exception from the stack)."""


def tier_backend(ctx, capture):
    import jax
    import jax.numpy as jnp

    devices = jax.devices()
    default = jax.default_backend()
    details = {
        "default_backend": default,
        "devices": [_describe_device(d) for d in devices],
        "device_count": len(devices),
    }
    ctx["partial"] = details
    # A tiny computation: backend client creation alone does not compile anything; this does.
    value = float(jnp.arange(8, dtype=jnp.float32).sum())
    details["smoke_sum"] = value
    if value != 28.0:
        raise ProbeFailure(f"a trivial sum on {default} gave {value!r} instead of 28.0")
    errors = _backend_errors()
    if errors:
        details["backend_errors"] = errors
    ctx["devices"] = details["devices"]
    ctx["default_backend"] = default

    module = ctx.get("versions_module")
    if module is not None and default == "gpu":
        loaded = {}
        for attr in ("cuda_runtime_get_version", "cuda_driver_get_version", "cudnn_get_version"):
            function = getattr(module, attr, None)
            if function is None:
                continue
            try:
                loaded[attr[: -len("_get_version")]] = int(function())
            except Exception as exc:
                loaded[attr[: -len("_get_version")]] = f"error: {exc}"
        details["cuda_loaded_versions"] = loaded
        details["cuda_runtime_loaded"] = _decode_cuda(loaded.get("cuda_runtime"))
        details["cuda_driver"] = _decode_cuda(loaded.get("cuda_driver"))
        details["cudnn_loaded"] = _decode_cudnn(loaded.get("cudnn"))

    if ctx["backend_expected"] == "gpu" and default != "gpu":
        if not ctx.get("gpu_build"):
            reason = ("the installed jaxlib %s is a CPU-only build and no jax CUDA plugin is installed"
                      % (ctx.get("jaxlib_dist") or "?"))
        elif errors.get("cuda") or errors.get("gpu"):
            reason = "the CUDA backend failed to initialize: %s" % (errors.get("cuda") or errors.get("gpu"))
        else:
            reason = "the CUDA backend did not come up"
        jax_said = [m for m in capture.messages if "cuda" in m.lower() or "gpu" in m.lower()]
        message = (f"JAX is using the {default} backend, but this environment is meant to run on the GPU: {reason}.")
        if jax_said:
            message += " JAX said: " + " | ".join(jax_said)
        details["error_hint"] = "gpu_expected_cpu_found"
        raise ProbeFailure(message, details)
    return details


# --------------------------------------------------------------------------------------------------
# Tier 3: cudnn_op


def tier_cudnn_op(ctx):
    if ctx.get("default_backend") != "gpu":
        return {"skipped": True,
                "reason": f"no GPU backend to test; the backend expected here is {ctx['backend_expected']}"}
    import jax
    import numpy as np

    gpu = [d for d in jax.devices() if d.platform == "gpu"][0]
    x = jax.device_put(np.ones((1, 3, 16, 16), np.float32), gpu)
    k = jax.device_put(np.ones((4, 3, 3, 3), np.float32), gpu)
    conv = jax.jit(lambda a, b: jax.lax.conv_general_dilated(a, b, (1, 1), "VALID"))
    y = np.asarray(conv(x, k).block_until_ready())
    error = float(np.max(np.abs(y - 27.0)))
    details = {"device": _describe_device(gpu), "output_shape": list(y.shape), "max_abs_error": error}
    module = ctx.get("versions_module")
    if module is not None and hasattr(module, "cudnn_get_version"):
        try:
            details["cudnn_loaded"] = _decode_cudnn(int(module.cudnn_get_version()))
        except Exception as exc:
            details["cudnn_loaded"] = f"error: {exc}"
    if error > 1e-3:
        raise ProbeFailure(f"a 3x3 convolution on {gpu} gave wrong values (max error {error:g})", details)
    return details


# --------------------------------------------------------------------------------------------------
# Tier 4: graphcast_jit_init


#: Module names per code layout. "variables" is where the variable-name constants live.
LAYOUTS = {
    "graphcast": {
        "graphcast": "graphcast.graphcast", "casting": "graphcast.casting",
        "normalization": "graphcast.normalization", "autoregressive": "graphcast.autoregressive",
        "data_utils": "graphcast.data_utils", "xarray_jax": "graphcast.xarray_jax",
        "xarray_tree": "graphcast.xarray_tree", "variables": "graphcast.graphcast",
        "gencast": "graphcast.gencast", "denoiser": "graphcast.denoiser", "nan_cleaning": "graphcast.nan_cleaning",
        "rollout": "graphcast.rollout", "checkpoint": "graphcast.checkpoint",
    },
    "weathernext": {
        "graphcast": "weathernext.weathernext1_graph.graphcast", "casting": "weathernext.utils.casting",
        "normalization": "weathernext.utils.normalization", "autoregressive": "weathernext.utils.autoregressive",
        "data_utils": "weathernext.utils.data_utils", "xarray_jax": "xarray_jax",
        "xarray_tree": "weathernext.utils.xarray_tree", "variables": "weathernext.utils.variables",
        "gencast": "weathernext.weathernext1_gen.gencast", "denoiser": "weathernext.weathernext1_gen.denoiser",
        "nan_cleaning": "weathernext.utils.nan_cleaning",
        "rollout": "weathernext.utils.rollout", "checkpoint": "weathernext.utils.checkpoint",
    },
}
#: Every GraphCast module the demo notebook imports: an environment that passes the check can run the
#: notebook's forecast cells too (rollout imports dask, which an init alone never needs).
GRAPHCAST_NAMES = ("graphcast", "casting", "normalization", "autoregressive", "data_utils", "xarray_jax",
                   "xarray_tree", "variables", "rollout", "checkpoint")
GENCAST_MODULES = ("gencast", "denoiser", "nan_cleaning")


def _use_src(src):
    """Put a checkout first on sys.path (once) and say which layout it holds, or None."""
    src = os.path.abspath(src)
    if os.path.isfile(os.path.join(src, "graphcast.py")) and os.path.basename(src) in ("graphcast",
                                                                                        "weathernext"):
        src = os.path.dirname(src)  # the package folder itself was given
    if src not in sys.path:
        sys.path.insert(0, src)
    if os.path.isfile(os.path.join(src, "weathernext", "weathernext1_graph", "graphcast.py")):
        return "weathernext"
    if os.path.isfile(os.path.join(src, "graphcast", "graphcast.py")):
        return "graphcast"
    return None


def _find_spec(name):
    import importlib.util

    try:
        return importlib.util.find_spec(name)
    except (ImportError, ValueError):
        return None


def find_layout(src=None):
    """"graphcast" or "weathernext": the checkout's layout, else the one this environment can import
    (GraphCast's own name first, as the recipes install it)."""
    if src:
        found = _use_src(src)
        if found:
            return found
    if _find_spec("graphcast") is not None and _find_spec("graphcast.graphcast") is not None:
        return "graphcast"
    if _find_spec("weathernext") is not None and _find_spec("weathernext.weathernext1_graph") is not None:
        return "weathernext"
    return "graphcast"  # the import below then names the missing package


def has_gencast(src=None):
    """Whether the GraphCast under test ships GenCast (v0.2 and later), judged without importing it."""
    layout = find_layout(src)
    module = LAYOUTS[layout]["gencast"]
    parent, _, _ = module.rpartition(".")
    return _find_spec(parent) is not None and _find_spec(module) is not None


def graphcast_modules(src, names=None):
    names = GRAPHCAST_NAMES if names is None else names
    layout = find_layout(src)
    modules = {"layout": layout}
    for name in names:
        modules[name] = importlib.import_module(LAYOUTS[layout][name])
    return modules


def _constant(gc, *names):
    """The first of `names` found in the layout's constants module or its graphcast module."""
    for module in (gc["variables"], gc["graphcast"]):
        for name in names:
            if hasattr(module, name):
                return getattr(module, name)
    raise AttributeError(f"none of {', '.join(names)} is defined by {gc['variables'].__name__}")


def build_task_config(gc):
    """GraphCast's TASK variables with the notebook's 13 pressure levels and 12 h of input."""
    graphcast = gc["graphcast"]
    try:
        levels = tuple(_constant(gc, "PRESSURE_LEVELS_WEATHERBENCH_13"))
    except AttributeError:
        levels = LEVELS_13
    return graphcast.TaskConfig(
        input_variables=graphcast.TASK.input_variables,
        target_variables=graphcast.TASK.target_variables,
        forcing_variables=graphcast.TASK.forcing_variables,
        pressure_levels=levels,
        input_duration="12h",
    )


def build_model_config(gc, spec):
    return gc["graphcast"].ModelConfig(
        resolution=0,  # unused by the model: the grid comes from the data
        mesh_size=spec["mesh_size"],
        latent_size=spec["latent_size"],
        gnn_msg_steps=spec["gnn_msg_steps"],
        hidden_layers=spec["hidden_layers"],
        radius_query_fraction_edge_length=spec["radius_query_fraction_edge_length"],
    )


def _variable_kinds(gc, task_config):
    """Sorts the task's variables into static (lat, lon), atmospheric (with level) and surface ones;
    the progress features are left out because data_utils derives them from `datetime`."""
    static = set(_constant(gc, "STATIC_VARS"))
    atmospheric = set(_constant(gc, "ALL_ATMOSPHERIC_VARS"))
    derived = set(_constant(gc, "GENERATED_FORCING_VARS", "TIME_FORCING_VARS"))
    names = []
    for name in tuple(task_config.input_variables) + tuple(task_config.target_variables) + tuple(
            task_config.forcing_variables):
        if name not in names:
            names.append(name)
    kinds = {}
    for name in names:
        if name in derived:
            kinds[name] = "derived"
        elif name in static:
            kinds[name] = "static"
        elif name in atmospheric:
            kinds[name] = "atmospheric"
        else:
            kinds[name] = "surface"
    return kinds


def build_example_batch(gc, task_config, spec, seed=0):
    """An in-memory stand-in for an ERA5 example batch: dims batch/time/level/lat/lon, 6-hourly
    timedelta `time`, a (batch, time) `datetime`, every level of the task, float32 random values."""
    import numpy as np
    import xarray

    step = float(spec["grid_degrees"])
    n_lat = int(round(180.0 / step)) + 1
    n_lon = int(round(360.0 / step))
    lat = np.linspace(-90.0, 90.0, n_lat, dtype=np.float32)
    lon = (np.arange(n_lon) * step).astype(np.float32)
    levels = np.array(task_config.pressure_levels, dtype=np.int32)
    n_time = spec["steps"] + 2  # two input frames + the target steps
    time = np.arange(n_time) * np.timedelta64(int(spec.get("step_hours", 6)), "h")
    time = time.astype("timedelta64[ns]")
    datetime = (np.datetime64("2016-01-01T00:00:00", "ns") + time)[None, :]

    rng = np.random.default_rng(seed)
    data_vars = {}
    for name, kind in _variable_kinds(gc, task_config).items():
        if kind == "derived":
            continue
        if kind == "static":
            dims = ("lat", "lon")
        elif kind == "atmospheric":
            dims = ("batch", "time", "level", "lat", "lon")
        else:
            dims = ("batch", "time", "lat", "lon")
        sizes = {"batch": 1, "time": n_time, "level": len(levels), "lat": n_lat, "lon": n_lon}
        data_vars[name] = (dims, rng.standard_normal([sizes[d] for d in dims], dtype=np.float32))
    coords = {"lat": lat, "lon": lon, "level": levels, "time": time, "datetime": (("batch", "time"), datetime)}
    return xarray.Dataset(data_vars, coords=coords)


def build_normalization_stats(gc, task_config, with_min=False):
    """mean 0 / stddev 1 for every variable (per level for atmospheric ones): a missing variable would
    only be a logged warning and be left unnormalised, so every one gets an entry. `with_min` adds the
    `min_by_level` GenCast's NaN cleaner fills sea-surface temperature with."""
    import numpy as np
    import xarray

    levels = np.array(task_config.pressure_levels, dtype=np.int32)

    def dataset(value):
        data_vars = {}
        for name, kind in _variable_kinds(gc, task_config).items():
            if kind == "atmospheric":
                data_vars[name] = (("level",), np.full(len(levels), value, dtype=np.float32))
            else:
                data_vars[name] = ((), np.float32(value))
        return xarray.Dataset(data_vars, coords={"level": levels})

    stats = {"mean_by_level": dataset(0.0), "stddev_by_level": dataset(1.0), "diffs_stddev_by_level": dataset(1.0)}
    if with_min:
        stats["min_by_level"] = dataset(-3.0)
    return stats


def build_inputs(gc, task_config, spec):
    import dataclasses

    batch = build_example_batch(gc, task_config, spec)
    hours = int(spec.get("step_hours", 6))
    inputs, targets, forcings = gc["data_utils"].extract_inputs_targets_forcings(
        batch, target_lead_times=slice(f"{hours}h", f"{hours * spec['steps']}h"), **dataclasses.asdict(task_config))
    return inputs, targets, forcings


def graphcast_run_forward(gc, stats):
    """The demo notebook's `run_forward`: `construct_wrapped_graphcast` (GraphCast → Bfloat16Cast →
    InputsAndResiduals → autoregressive.Predictor) under `hk.transform_with_state`, configs as arguments.
    The check inits it; the forecast (forecast_probe.py) applies it."""
    import haiku as hk

    graphcast, casting = gc["graphcast"], gc["casting"]
    normalization, autoregressive = gc["normalization"], gc["autoregressive"]

    def construct_wrapped_graphcast(model_config, task_config):
        predictor = graphcast.GraphCast(model_config, task_config)
        predictor = casting.Bfloat16Cast(predictor)
        predictor = normalization.InputsAndResiduals(predictor, **stats)
        return autoregressive.Predictor(predictor, gradient_checkpointing=True)

    @hk.transform_with_state
    def run_forward(model_config, task_config, inputs, targets_template, forcings):
        predictor = construct_wrapped_graphcast(model_config, task_config)
        return predictor(inputs, targets_template=targets_template, forcings=forcings)

    return run_forward


def make_init(gc, model_config, task_config, stats):
    """`jax.jit(run_forward.init)` for the notebook's wrapped predictor (configs bound by partial,
    as the notebook does, so a config change invalidates jit's cache)."""
    import jax

    run_forward = graphcast_run_forward(gc, stats)
    return jax.jit(functools.partial(run_forward.init, model_config=model_config, task_config=task_config))


class _CompileTimes:
    """Collects JAX's own compile-phase durations (jax.monitoring), so trace and compile time are
    measured from the one real init call instead of tracing twice."""

    EVENTS = {
        "/jax/core/compile/jaxpr_trace_duration": "trace",
        "/jax/core/compile/jaxpr_to_mlir_module_duration": "lower",
        "/jax/core/compile/backend_compile_duration": "compile",
    }

    def __init__(self):
        self.durations = {"trace": [], "lower": [], "compile": []}
        self.active = False

    def install(self):
        try:
            from jax import monitoring
        except ImportError:
            return False

        def listener(event, duration, **kwargs):
            kind = self.EVENTS.get(event)
            if kind is not None and self.active:
                self.durations[kind].append(float(duration))

        monitoring.register_event_duration_secs_listener(listener)
        return True

    def summary(self):
        if not any(self.durations.values()):
            return {}
        # Nested jits are traced inside the outer trace, so the outer (longest) trace is the total.
        return {
            "trace_seconds": round(max(self.durations["trace"] or [0.0]), 3),
            "lower_seconds": round(sum(self.durations["lower"]), 3),
            "compile_seconds": round(sum(self.durations["compile"]), 3),
        }


def tier_graphcast_jit_init(ctx):
    import jax
    import numpy as np

    spec = LEVELS[ctx["level"]]
    details = {"level": ctx["level"], "config": dict(spec)}
    ctx["partial"] = details  # what was learnt before a failure is kept in the tier's report
    t0 = time.perf_counter()
    gc = graphcast_modules(ctx.get("graphcast_src"))
    details["layout"] = gc["layout"]
    details["graphcast_module"] = gc["graphcast"].__name__
    details["graphcast_path"] = os.path.dirname(os.path.abspath(gc["graphcast"].__file__))
    details["import_seconds"] = round(time.perf_counter() - t0, 3)

    t0 = time.perf_counter()
    task_config = build_task_config(gc)
    model_config = build_model_config(gc, spec)
    inputs, targets, forcings = build_inputs(gc, task_config, spec)
    stats = build_normalization_stats(gc, task_config)
    details["data_seconds"] = round(time.perf_counter() - t0, 3)
    details["grid"] = {"lat": int(inputs.sizes["lat"]), "lon": int(inputs.sizes["lon"]),
                       "levels": len(task_config.pressure_levels)}

    init_jitted = make_init(gc, model_config, task_config, stats)
    timer = _CompileTimes()
    timer.install()
    timer.active = True
    t0 = time.perf_counter()
    params, state = init_jitted(rng=jax.random.PRNGKey(0), inputs=inputs, targets_template=targets,
                                forcings=forcings)
    jax.block_until_ready((params, state))
    details["init_seconds"] = round(time.perf_counter() - t0, 3)
    timer.active = False
    details.update(timer.summary())
    return _describe_init(jax, np, params, ctx, details, "GraphCast")


# --------------------------------------------------------------------------------------------------
# Tier 5: gencast_jit_init


def build_gencast_configs(gc, spec):
    """The mini demo's "Random" GenCast: default sampler, noise and noise-encoder configs, the denoiser
    at the level's size, with the attention GenCast's GPU setup guide prescribes off TPUs."""
    gencast, denoiser = gc["gencast"], gc["denoiser"]
    transformer = denoiser.SparseTransformerConfig(
        attention_k_hop=spec["attention_k_hop"], d_model=spec["d_model"], num_heads=spec["num_heads"],
        num_layers=spec["num_layers"], ffw_hidden=spec["ffw_hidden"], **GENCAST_ATTENTION)
    architecture = denoiser.DenoiserArchitectureConfig(
        sparse_transformer_config=transformer, mesh_size=spec["mesh_size"], latent_size=spec["latent_size"])
    return {
        "task_config": gencast.TASK,
        "sampler_config": gencast.SamplerConfig(),
        "noise_config": gencast.NoiseConfig(),
        "noise_encoder_config": denoiser.NoiseEncoderConfig(),
        "denoiser_architecture_config": architecture,
    }


def gencast_constructor(gc, configs, stats):
    """The GenCast mini demo's `construct_wrapped_gencast`: GenCast wrapped in InputsAndResiduals and a
    NaNCleaner for sea-surface temperature. The check inits its loss; the forecast samples with it."""
    gencast, normalization, nan_cleaning = gc["gencast"], gc["normalization"], gc["nan_cleaning"]

    def construct_wrapped_gencast():
        predictor = gencast.GenCast(**configs)
        predictor = normalization.InputsAndResiduals(
            predictor, diffs_stddev_by_level=stats["diffs_stddev_by_level"],
            mean_by_level=stats["mean_by_level"], stddev_by_level=stats["stddev_by_level"])
        return nan_cleaning.NaNCleaner(predictor=predictor, reintroduce_nans=True, fill_value=stats["min_by_level"],
                                       var_to_clean="sea_surface_temperature")

    return construct_wrapped_gencast


def make_gencast_init(gc, configs, stats):
    """`jax.jit(loss_fn.init)` as the GenCast mini demo builds it (`gencast_constructor`)."""
    import haiku as hk
    import jax

    xarray_jax, xarray_tree = gc["xarray_jax"], gc["xarray_tree"]
    construct_wrapped_gencast = gencast_constructor(gc, configs, stats)

    @hk.transform_with_state
    def loss_fn(inputs, targets, forcings):
        predictor = construct_wrapped_gencast()
        loss, diagnostics = predictor.loss(inputs, targets, forcings)
        return xarray_tree.map_structure(lambda x: xarray_jax.unwrap_data(x.mean(), require_jax=True),
                                         (loss, diagnostics))

    return jax.jit(loss_fn.init)


def tier_gencast_jit_init(ctx):
    import jax
    import numpy as np

    spec = dict(GENCAST_LEVELS[ctx["level"]])
    details = {"level": ctx["level"], "config": dict(spec, **GENCAST_ATTENTION)}
    ctx["partial"] = details
    t0 = time.perf_counter()
    gc = graphcast_modules(ctx.get("graphcast_src"), GRAPHCAST_NAMES + GENCAST_MODULES)
    details["layout"] = gc["layout"]
    details["gencast_module"] = gc["gencast"].__name__
    details["gencast_path"] = os.path.dirname(os.path.abspath(gc["gencast"].__file__))
    details["import_seconds"] = round(time.perf_counter() - t0, 3)

    t0 = time.perf_counter()
    configs = build_gencast_configs(gc, spec)
    task_config = configs["task_config"]
    # GenCast steps 12 h: two input frames 12 h apart (input_duration 24h) and one 12 h target.
    data_spec = {"grid_degrees": spec["grid_degrees"], "steps": 1, "step_hours": 12}
    inputs, targets, forcings = build_inputs(gc, task_config, data_spec)
    stats = build_normalization_stats(gc, task_config, with_min=True)
    details["data_seconds"] = round(time.perf_counter() - t0, 3)
    details["grid"] = {"lat": int(inputs.sizes["lat"]), "lon": int(inputs.sizes["lon"]),
                       "levels": len(task_config.pressure_levels)}

    init_jitted = make_gencast_init(gc, configs, stats)
    timer = _CompileTimes()
    timer.install()
    timer.active = True
    t0 = time.perf_counter()
    params, state = init_jitted(rng=jax.random.PRNGKey(0), inputs=inputs, targets=targets, forcings=forcings)
    jax.block_until_ready((params, state))
    details["init_seconds"] = round(time.perf_counter() - t0, 3)
    timer.active = False
    details.update(timer.summary())
    return _describe_init(jax, np, params, ctx, details, "GenCast")


def gpu_peak_mib(jax):
    peaks = []
    for device in jax.devices():
        if getattr(device, "platform", "") != "gpu":
            continue
        try:
            stats = device.memory_stats() or {}
        except Exception:
            continue
        if "peak_bytes_in_use" in stats:
            peaks.append(stats["peak_bytes_in_use"])
    return round(max(peaks) / (1024 * 1024), 1) if peaks else None


# --------------------------------------------------------------------------------------------------
# Driver


def tier_names(ctx):
    """The tiers of this run: the four base tiers, and GenCast's where the GraphCast under test has it
    (`--gencast yes`), or where it is found (`auto`)."""
    choice = ctx.get("gencast", "auto")
    if choice == "auto":
        try:
            wanted = has_gencast(ctx.get("graphcast_src"))
        except Exception:
            wanted = False
    else:
        wanted = choice == "yes"
    return TIERS if wanted else BASE_TIERS


def run_tiers(ctx):
    tiers = []
    failed = None
    for name in tier_names(ctx):
        if failed is not None:
            tier = {"name": name, "ok": False, "status": "not_run", "seconds": 0.0,
                    "reason": f"not run: {failed} failed"}
            tiers.append(tier)
            _emit(TIER_PREFIX, tier)
            continue
        _emit(TIER_START_PREFIX, {"name": name})
        t0 = time.perf_counter()
        tier = {"name": name}
        ctx["partial"] = {}
        with _Capture() as capture:
            try:
                if name == "jax_import":
                    details = tier_jax_import(ctx)
                elif name == "backend":
                    details = tier_backend(ctx, capture)
                elif name == "cudnn_op":
                    details = tier_cudnn_op(ctx)
                elif name == "graphcast_jit_init":
                    details = tier_graphcast_jit_init(ctx)
                else:
                    details = tier_gencast_jit_init(ctx)
                tier.update(details)
                tier["ok"] = True
                tier["status"] = "skipped" if details.get("skipped") else "passed"
            except ProbeFailure as exc:
                message = exc.args[0]
                if len(exc.args) > 1 and isinstance(exc.args[1], dict):
                    tier.update(exc.args[1])
                tier["ok"] = False
                tier["status"] = "failed"
                tier["error"] = {"type": "ProbeFailure", "message": message[:MESSAGE_LIMIT]}
                sys.stderr.write(f"gc-wizard probe: {name} failed: {message}\n")
            except Exception as exc:
                tier.update(ctx.get("partial") or {})
                tier["ok"] = False
                tier["status"] = "failed"
                tier["error"] = _error_dict(exc)
                # The traceback goes to stderr as a notebook would show it, so the log holds it.
                traceback.print_exc()
        if capture.messages:
            tier["warnings"] = capture.messages
        tier["seconds"] = round(time.perf_counter() - t0, 3)
        tier.setdefault("ok", False)
        tiers.append(tier)
        _emit(TIER_PREFIX, tier)
        if not tier["ok"]:
            failed = name
    return tiers


def parse_args(argv):
    parser = argparse.ArgumentParser(
        prog="graphcast_probe.py", allow_abbrev=False,
        description="Check that JAX and a GraphCast jit init work in this Python environment.")
    parser.add_argument("--backend", choices=["gpu", "cpu", "auto"], default="auto",
                        help="the backend this environment is meant to use (auto: from the jaxlib build)")
    parser.add_argument("--level", choices=sorted(LEVELS), default="notebook")
    parser.add_argument("--graphcast-src", metavar="DIR", default=None,
                        help="a GraphCast checkout to import instead of an installed graphcast")
    parser.add_argument("--gencast", choices=["auto", "yes", "no"], default="auto",
                        help="run the GenCast tier (auto: when the GraphCast under test has GenCast)")
    return parser.parse_args(argv)


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    if args.graphcast_src and not os.path.isdir(args.graphcast_src):
        sys.stderr.write(f"graphcast_probe.py: --graphcast-src {args.graphcast_src} is not a folder\n")
        return 2
    started = time.perf_counter()
    ctx = {"backend_requested": args.backend, "backend_expected": args.backend, "level": args.level,
           "graphcast_src": args.graphcast_src, "gencast": args.gencast}
    tiers = run_tiers(ctx)
    result = {
        "probe_version": PROBE_VERSION,
        "ok": all(t["ok"] for t in tiers),
        "backend": ctx["backend_expected"],
        "backend_requested": args.backend,
        "level": args.level,
        "graphcast_src": args.graphcast_src,
        "python": platform.python_version(),
        "executable": sys.executable,
        "host": platform.node().split(".")[0],
        "tiers": tiers,
        "seconds": round(time.perf_counter() - started, 3),
        "peak_rss_mib": peak_rss_mib(),
    }
    sys.stderr.flush()
    sys.stdout.write("\n" + json.dumps(result, default=str) + "\n")
    sys.stdout.flush()
    return 0 if result["ok"] else 1


def _describe_init(jax, np, params, ctx, details: dict, model: str) -> dict:
    """What a jit init produced, the same for GraphCast and GenCast: parameters, memory, devices.

    Parameters that are not all finite fail the tier: an init that "works" but yields NaN would only
    break later, in the user's first forecast.
    """
    leaves = jax.tree_util.tree_leaves(params)
    details["param_count"] = int(sum(int(np.prod(leaf.shape)) for leaf in leaves))
    details["param_arrays"] = len(leaves)
    details["param_modules"] = len(params)
    details["params_finite"] = bool(all(np.isfinite(np.asarray(leaf, dtype=np.float32)).all() for leaf in leaves))
    details["peak_rss_mib"] = peak_rss_mib()
    details["devices"] = ctx.get("devices") or [_describe_device(d) for d in jax.devices()]
    gpu_peak = gpu_peak_mib(jax)
    if gpu_peak is not None:
        details["gpu_peak_mib"] = gpu_peak
    if not details["params_finite"]:
        raise ProbeFailure(f"{model} initialised {details['param_count']} parameters but some are not "
                           "finite (NaN/inf)", details)
    return details


if __name__ == "__main__":
    sys.exit(main())
