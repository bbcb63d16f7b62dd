"""Checks an existing Python environment (venv or conda) for the known failures, without running it.

Why: a real help request came from a user with an existing conda environment whose jaxlib was built
for cuDNN 8.6 while an old cuDNN 8.2.1 sat first on LD_LIBRARY_PATH. That environment was broken before
any code ran, and everything needed to say so is on disk: the jax/jaxlib/plugin `*.dist-info` folders
(versions, the jaxlib's CUDA/cuDNN build, the nvidia-* wheels' requirements), the library folders the
loader would search, the `ptxas` on PATH, which `graphcast` package is installed. So `gc-wizard diagnose
--env DIR` reads those files and reports each problem as a finding with the same ids and fixes as a log
diagnosis. Nothing is imported into the wizard's process and nothing in the environment is run, so it
is fast (well under a second) and safe on a login node.

The loader order modelled for the environment's jaxlib (glibc's, for a library that asks for
`libcudnn.so.8`): `LD_LIBRARY_PATH` folders first, then the jaxlib's RUNPATH (the nvidia-* wheels of a
pip install), then a conda environment's `lib/`, then the `ldconfig` cache. That is why a folder on
LD_LIBRARY_PATH wins over the right pip cuDNN.
"""

from __future__ import annotations

import ast
import email.parser
import os
import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from packaging.requirements import InvalidRequirement, Requirement

from wizard import bounded, venv_config
from wizard.children import which
from wizard.detect import deadline, environment, kernel_module, libpath, libraries
from wizard.errors import UserError
from wizard.install.envs import read_marker
from wizard.install.recorded_set import file_path
from wizard.patterns import ascii_digits
from wizard.recipes.family import default_recipes, family_recipes
from wizard.security import cut, expand_home, shell_word
from wizard.tree_walk import walk
from wizard.verify import causes
from wizard.verify.diagnose import Finding, with_given_graphcast
from wizard.verify.shadow import environment_shadow
from wizard.verify.user_variables import behaviour_finding

#: The oldest Linux driver each CUDA major runs on (NVIDIA's CUDA toolkit release notes, minor version
#: compatibility table); jax's installation notes give the same 525.60.13 for CUDA 12.
MIN_DRIVER_FOR_CUDA = {11: (450, 80, 2), 12: (525, 60, 13), 13: (580, 65, 6)}

#: The last jaxlib built against NumPy 1 only (jaxlib 0.4.26 is the first built for NumPy 2).
_LAST_NUMPY1_JAXLIB = (0, 4, 25)

#: GraphCast source markers that need a newer JAX / xarray than some environments have.
_NEEDS_JAX_TREE = re.compile(r"\bjax\.tree\.(?:map|leaves|flatten|structure)\b")
_NEEDS_DATATREE = re.compile(r"\bxarray\.DataTree\b|\bxr\.DataTree\b|from xarray import DataTree")


#: The nvidia-* wheels that carry CUDA parts (not e.g. nvidia-ml-py, the NVML bindings).
_CUDA_WHEEL = re.compile(r"^nvidia-(cu|cuda|nccl|nvjitlink|nvtx|nvshmem|cusparselt)")


@dataclass
class EnvReport:
    """What `diagnose --env` found: the environment's GPU stack as read from disk, and its findings."""

    path: str
    kind: str
    python: str | None = None
    packages: dict[str, str] = field(default_factory=dict)
    jaxlib_build: dict[str, Any] | None = None
    """{"cuda": "12", "cudnn": "8.9", "from": how it was read}; None for a CPU-only jaxlib or no jaxlib."""
    nvidia_wheels: dict[str, str] = field(default_factory=dict)
    cudnn_loads_first: dict[str, str] | None = None
    """{"version", "path", "via"}: the cuDNN a `dlopen` by this environment's jaxlib would get."""
    libraries_first: list[dict[str, str]] = field(default_factory=list)
    ptxas: dict[str, str] | None = None
    graphcast: dict[str, str] | None = None
    driver: str | None = None
    findings: list[Finding] = field(default_factory=list)
    recipe: str | None = None
    """The recipe gc-wizard installed the environment from (its marker); None for any other environment."""
    graphcast_given: tuple[str, str] | None = None
    """(GraphCast version, local source) its marker says the install took with `--graphcast-src`."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "env": self.path, "kind": self.kind, "python": self.python, "packages": self.packages,
            "jaxlib_build": self.jaxlib_build, "nvidia_wheels": self.nvidia_wheels,
            "cudnn_loads_first": self.cudnn_loads_first, "libraries_first": self.libraries_first,
            "ptxas": self.ptxas, "graphcast": self.graphcast, "driver": self.driver,
            "findings": [f.to_dict() for f in self.findings], "recipe": self.recipe,
        }

    def context(self) -> causes.Context:
        """What this report tells the cause ranking of a symptom-only log from this environment."""
        build = self.jaxlib_build or {}
        return causes.Context(
            cudnn_loaded=(self.cudnn_loads_first or {}).get("version"),
            cudnn_loaded_from=(self.cudnn_loads_first or {}).get("path"),
            cudnn_built=build.get("cudnn"), jaxlib_cpu_only=("jaxlib" in self.packages and not build) or None,
            jaxlib_cuda=build.get("cuda"),
            frameworks=tuple(n for n in ("torch", "tensorflow") if n in self.packages), recipe=self.recipe,
            graphcast_given=self.graphcast_given)


# --------------------------------------------------------------------------------------------------
# Reading the environment


def _version_tuple(text: str | None) -> tuple[int, ...]:
    return tuple(int(p) for p in re.findall(r"[0-9]+", (text or "").split("+")[0])[:3])


def site_dirs(prefix: Path) -> list[Path]:
    found = []
    for pattern in ("lib/python3*/site-packages", "lib64/python3*/site-packages", "lib/python3*/dist-packages"):
        found.extend(sorted(prefix.glob(pattern)))
    return [d for d in found if d.is_dir()]


def _dist_info(sites: list[Path], name: str) -> Path | None:
    wanted = environment.normalize(name)
    for site in sites:
        try:
            entries = os.listdir(site)
        except OSError:
            continue
        for entry in entries:
            match = re.match(r"^(?P<name>.+?)-(?P<version>[0-9][^-]*?)\.(dist-info|egg-info)$", entry)
            if match and environment.normalize(match.group("name")) == wanted:
                return site / entry
    return None


def _metadata(dist_info: Path | None) -> Any:
    if dist_info is None:
        return None
    for name in ("METADATA", "PKG-INFO"):
        try:
            text = bounded.read_lenient_text(dist_info / name, bounded.MARKER_BYTES)
        except (OSError, ValueError):
            continue
        return email.parser.Parser().parsestr(text, headersonly=True)
    return None


def _requirement(meta: Any, pattern: str) -> str | None:
    """The lower bound of the first Requires-Dist whose name matches `pattern`, whatever the order of its
    specifiers: `nvidia-cudnn-cu12>=9.1,<10` and, as JAX's real plugin wheels write it (seen on an H100),
    `nvidia-cudnn-cu13<10.0,>=9.12.0.46; sys_platform == "linux" and extra == "with-cuda"`."""
    if meta is None:
        return None
    for text in meta.get_all("Requires-Dist") or []:
        try:
            req = Requirement(text)
        except InvalidRequirement:
            continue
        if not re.fullmatch(pattern, req.name):
            continue
        bounds = [spec.version for spec in req.specifier if spec.operator in (">=", "==", "~=", "===")]
        if bounds:
            return bounds[0]
    return None


def jaxlib_build(prefix: Path, sites: list[Path], packages: dict[str, str]) -> dict[str, Any] | None:
    """The CUDA and cuDNN the environment's jaxlib was built for; None when it is CPU-only."""
    version = packages.get("jaxlib", "")
    tag = version.split("+", 1)[1] if "+" in version else None
    if tag:
        cuda = re.search(r"cuda([0-9]+)", tag)
        return {"cuda": cuda.group(1)[:2] if cuda and len(cuda.group(1)) > 2 else (cuda.group(1) if cuda else None),
                "cudnn": causes.cudnn_from_tag(tag), "from": f"jaxlib {version}"}
    try:
        conda_meta = sorted(os.listdir(prefix / "conda-meta"))
    except OSError:
        conda_meta = []
    for entry in conda_meta:
        match = re.match(r"^jaxlib-[0-9.]+-cuda([0-9]+)", entry)
        if match:
            build = {"cuda": match.group(1)[:2], "cudnn": None, "from": f"conda {entry[:-5]}"}
            try:
                depends = bounded.read_json(prefix / "conda-meta" / entry, bounded.MARKER_BYTES,
                                            lenient=True).get("depends", [])
            except (OSError, ValueError):
                depends = []
            for dep in depends:
                found = re.match(r"^cudnn\s+>=?([0-9]+\.[0-9]+)", str(dep))
                if found:
                    build["cudnn"] = found.group(1)
            return build
    for name in packages:
        match = re.match(r"^jax-cuda([0-9]+)-plugin$", name)
        if match:
            meta = _metadata(_dist_info(sites, name))
            cudnn = _requirement(meta, rf"nvidia-cudnn-cu{match.group(1)}")
            return {"cuda": match.group(1), "cudnn": ".".join(cudnn.split(".")[:2]) if cudnn else None,
                    "from": f"{name} {packages[name]}"}
    return None


def _ldconfig_folders() -> list[str]:
    running = libraries.start_ldconfig(timeout=0.5)
    if running is None:
        return []
    done = running.finish()
    return libraries.parse_ldconfig(done.stdout) if done.ok else []


def loader_order(prefix: Path, sites: list[Path], environ: dict[str, str], kind: str,
                 ldconfig: list[str]) -> list[tuple[str, str]]:
    """(folder, how it is reached) in the order the dynamic loader would search them for this env."""
    order: list[tuple[str, str]] = []
    for entry in libpath.ld_library_path_entries(environ.get("LD_LIBRARY_PATH")):  # `;` too, as ld.so splits
        if entry:
            order.append((entry, "LD_LIBRARY_PATH"))
    for site in sites:
        for lib_dir in sorted(site.glob("nvidia/*/lib")):
            order.append((str(lib_dir), "the jaxlib's RUNPATH (nvidia-* wheel)"))
    if kind == "conda":
        order.append((str(prefix / "lib"), "the conda environment's lib/"))
    order.extend((folder, "the ldconfig cache") for folder in ldconfig)
    return order


def libraries_first(order: list[tuple[str, str]]) -> dict[tuple[str, str], dict[str, str]]:
    """For each (library, soname major), the copy found first along `order`."""
    first: dict[tuple[str, str], dict[str, str]] = {}
    for folder, via in order:
        for lib in libpath.libraries_in(folder):
            key = (lib.name, libraries.soname_major(lib))
            if key not in first:
                first[key] = {"name": lib.name, "version": lib.version or "unknown", "path": lib.path,
                              "folder": folder, "via": via}
    return first


def ptxas_on_path(environ: dict[str, str], env: Path | None = None) -> dict[str, str] | None:
    """The first `ptxas` on PATH and its CUDA version: from the toolkit folder it sits in, else from a short run of
    it — never a run of one inside `env`, the environment being inspected (`diagnose --env` checks an environment
    without running it; eleventh hostile pass #151: an activated env's own `bin/ptxas` ran). Its version is then
    "unknown", which no finding reads as too old."""
    path = which("ptxas", environ.get("PATH", ""))  # the PATH trust rule (25th pass (part B) P5)
    if path is None:
        return None
    version = libpath.toolkit_version(Path(os.path.realpath(path)).parent.parent)
    real_env = os.path.realpath(env) + os.sep if env is not None else None
    if version is None and real_env is not None and os.path.realpath(path).startswith(real_env):
        return {"path": path, "version": "unknown"}
    if version is None:
        # Not inside a toolkit folder: ask the program itself (a short run, under a deadline).
        done = deadline.start([path, "--version"], timeout=0.5).finish()
        match = re.search(r"release ([0-9]+\.[0-9]+)", done.stdout or "") if done.ok else None
        version = match.group(1) if match else None
    return {"path": path, "version": version or "unknown"}


#: `MAPPING = {'graphcast': '/home/u/graphcast/graphcast'}` in the finder setuptools writes for an editable install.
_FINDER_MAPPING = re.compile(r"^MAPPING\s*(?::[^=\n]*)?=\s*(\{[^\n]*\})\s*$", re.MULTILINE)


def package_folder(sites: list[Path], dist: Path | None, name: str) -> Path | None:
    """The folder the environment imports `name` from, read from files, nothing run: in site-packages, or — for an
    editable install (`pip install -e ~/graphcast`) — the checkout it points at: the project folder its
    `direct_url.json` names, the `MAPPING` of setuptools' editable finder (PEP 660, read as data, never imported),
    or a plain folder line of a `.pth` file (`setup.py develop`, a src layout's static path).

    Why: an editable GraphCast has no `graphcast/` in site-packages, so `diagnose --env` called DeepMind's own
    checkout "PyPI's unrelated graphcast package" and told the user to uninstall it (eighteenth hostile pass P14)."""
    candidates = [site / name for site in sites]
    if dist is not None:
        try:
            direct = bounded.read_json(dist / "direct_url.json", bounded.MARKER_BYTES, lenient=True)
            url = str(direct.get("url", "")) if isinstance(direct, dict) else ""
            project = file_path(url)  # any `file:` form, the one parser (review: this split `file://` itself)
            if project is not None:
                candidates += [project / name, project / "src" / name]
        except (OSError, ValueError):
            pass
    for site in sites:
        for finder in sorted(site.glob(f"__editable___{name}*finder.py")):
            candidates += _finder_folders(finder, name)
        for pth in sorted(site.glob("*.pth")):
            try:
                lines = bounded.read_lenient_text(pth, bounded.MARKER_BYTES).splitlines()
            except (OSError, ValueError):
                continue
            candidates += [Path(line.strip()) / name for line in lines
                           if line.strip().startswith("/") and not line.startswith(("import ", "import\t"))]
    return next((folder for folder in candidates if folder.is_dir()), None)


def _finder_folders(finder: Path, name: str) -> list[Path]:
    """The folder `name` maps to in an editable finder's `MAPPING` literal (a dict of strings, read as data)."""
    try:
        match = _FINDER_MAPPING.search(bounded.read_lenient_text(finder, bounded.MARKER_BYTES))
        mapping = ast.literal_eval(match.group(1)) if match else {}
    except (OSError, ValueError, SyntaxError, MemoryError, RecursionError):
        return []
    folder = mapping.get(name) if isinstance(mapping, dict) else None
    return [Path(folder)] if isinstance(folder, str) and folder.startswith("/") else []


def graphcast_info(sites: list[Path]) -> dict[str, str] | None:
    """Which `graphcast` is installed: DeepMind's (it has autoregressive.py) or PyPI's unrelated one."""
    dist = _dist_info(sites, "graphcast")
    meta = _metadata(dist)
    package = package_folder(sites, dist, "graphcast")
    if dist is None and package is None:
        return None
    version = (meta.get("Version") if meta is not None else None) or "unknown"
    summary = (meta.get("Summary") if meta is not None else None) or ""
    deepmind = package is not None and (package / "autoregressive.py").is_file()
    if not deepmind and dist is not None:
        try:
            direct = bounded.read_json(dist / "direct_url.json", bounded.MARKER_BYTES, lenient=True)
            deepmind = "deepmind/graphcast" in str(direct.get("url", ""))
        except (OSError, ValueError):
            pass
    info = {"version": version, "which": "deepmind" if deepmind else "unrelated", "summary": cut(summary, 160)}
    if deepmind and package is not None:
        source = ""
        for name in ("graphcast.py", "xarray_jax.py", "autoregressive.py", "rollout.py", "gencast.py"):
            try:
                source += bounded.read_lenient_text(package / name, bounded.FACTS_BYTES)
            except (OSError, ValueError):
                continue
        info["uses_jax_tree"] = "yes" if _NEEDS_JAX_TREE.search(source) else "no"
        info["uses_datatree"] = "yes" if _NEEDS_DATATREE.search(source) else "no"
    return info


# --------------------------------------------------------------------------------------------------
# Findings


def _recipe(build: dict[str, Any] | None, driver: str | None, installed: str | None = None,
            no_driver_here: bool = False) -> str:
    """The recipe a fix names: of the family (GraphCast and JAX) of the recipe the environment was installed from
    (`installed`, its marker) when known, else the default GraphCast's; its GPU build by the driver when it is known,
    else by the CUDA the jaxlib was built for — and the CPU one when this machine has no NVIDIA driver, since a CUDA
    recipe could not run here. Walk 26 #4: `diagnose --env` on a GraphCast v0.2 CPU environment named
    `jax0.4.23-cuda12-cudnn89` (another GraphCast, on a machine with no driver); the same family rule the log's
    diagnosis uses (`diagnose.fix_recipes`)."""
    version = _version_tuple(driver)
    major = None
    if version:
        major = max((m for m, floor in MIN_DRIVER_FOR_CUDA.items() if version >= floor), default=None)
    elif build and ascii_digits(str(build.get("cuda") or "")):
        major = int(build["cuda"])
    gpu, cpu = default_recipes(major)
    if installed:
        family_gpu, family_cpu = family_recipes(installed, major)
        gpu, cpu = family_gpu or gpu, family_cpu or cpu
    return cpu if no_driver_here and not driver else gpu


def _finding(fid: str, title: str, explanation: str, fix: str, evidence: list[str]) -> Finding:
    return Finding(id=fid, title=title, explanation=explanation, fix=fix, evidence=tuple(evidence))


def _findings(report: EnvReport, first: dict[tuple[str, str], dict[str, str]], recipe: str) -> list[Finding]:
    out: list[Finding] = []
    pk = report.packages
    build = report.jaxlib_build
    activate = '`eval "$(gc-wizard activate)"` drops old CUDA folders for the wizard\'s environments'
    if report.graphcast and report.graphcast["which"] == "unrelated":
        out.append(_finding(
            "wrong_graphcast_package", "PyPI's unrelated `graphcast` package is installed",
            f"This environment has graphcast {report.graphcast['version']} from PyPI "
            f"(\"{report.graphcast['summary'] or 'no summary'}\"), which is not DeepMind's GraphCast: it has no "
            "`graphcast.autoregressive`, so the notebook's imports fail.",
            f"`pip uninstall graphcast` and install DeepMind's from git, or `gc-wizard install {recipe}`.",
            [f"graphcast {report.graphcast['version']}: {report.graphcast['summary']}".strip()]))
    if "gencast" in pk:  # DeepMind never published a `gencast` distribution: GenCast is graphcast.gencast
        out.append(_finding(
            "wrong_graphcast_package", "PyPI's unrelated `gencast` package is installed",
            f"This environment has gencast {pk['gencast']} from PyPI, an unrelated podcast generator, not "
            "DeepMind's GenCast, which ships inside DeepMind's graphcast package (v0.2 and later) as "
            "`graphcast.gencast`.",
            "`pip uninstall gencast`, and get GenCast with DeepMind's GraphCast v0.2: `gc-wizard install "
            "jax0.12.0.1-cuda13` (or another GraphCast v0.2 recipe: `gc-wizard recipes --graphcast-version 0.2`).",
            [f"gencast {pk['gencast']}"]))
    jax_v, jaxlib_v = pk.get("jax"), pk.get("jaxlib")
    if jax_v and jaxlib_v and _version_tuple(jaxlib_v) > _version_tuple(jax_v):
        out.append(_finding(
            "jaxlib_mismatch", "jax and jaxlib versions do not fit together",
            f"jaxlib {jaxlib_v} is newer than jax {jax_v}; jax must be at least as new as jaxlib, so "
            "`import jax` fails.", f"Install the `{recipe}` recipe into a new environment (`gc-wizard install "
            f"{recipe}`), which pins both to one release; or put jax back to jaxlib's release in this environment "
            f"(`uv pip install --python {shell_word(str(report.path))} --no-deps jax=={jaxlib_v}`).", [f"jax {jax_v}", f"jaxlib {jaxlib_v}"]))
    numpy_v = pk.get("numpy")
    if numpy_v and jaxlib_v and _version_tuple(numpy_v)[:1] >= (2,) and _version_tuple(jaxlib_v) <= _LAST_NUMPY1_JAXLIB:
        out.append(_finding(
            "numpy2_incompatible", "NumPy 2 is installed, but this jaxlib was built for NumPy 1",
            f"jaxlib {jaxlib_v} is compiled against NumPy 1.x; with NumPy {numpy_v} `import jax` warns and the "
            "first array operation fails. NumPy 2 support arrived in jaxlib 0.4.26.",
            f'`pip install "numpy<2"` in this environment, or `gc-wizard install {recipe}` (numpy==1.26.4).',
            [f"numpy {numpy_v}", f"jaxlib {jaxlib_v}"]))
    for name, version in pk.items():
        match = re.match(r"^jax-cuda([0-9]+)-(plugin|pjrt)$", name)
        if match and jaxlib_v and _version_tuple(version)[:3] != _version_tuple(jaxlib_v)[:3]:
            out.append(_finding(
                "pjrt_api_mismatch", "The JAX CUDA plugin and jaxlib are from different releases",
                f"{name} {version} does not match jaxlib {jaxlib_v}; the plugin's PJRT API will not fit.",
                f"Pin jaxlib, jax-cuda{match.group(1)}-plugin and jax-cuda{match.group(1)}-pjrt to one version, "
                f"or `gc-wizard install {recipe}`.", [f"{name} {version}", f"jaxlib {jaxlib_v}"]))
            break
    if jaxlib_v and build is None and report.driver:
        out.append(_finding(
            "cpu_only_jaxlib", "The installed jaxlib cannot use the GPU (CPU-only build)",
            f"jaxlib {jaxlib_v} is PyPI's CPU build and no jax CUDA plugin is installed, while this machine has "
            f"an NVIDIA driver ({report.driver}); JAX will run on the CPU.",
            f"Install the `{recipe}` recipe into a new environment (`gc-wizard install {recipe}`).",
            [f"jaxlib {jaxlib_v}"]))
    if build:
        needed = build.get("cudnn")
        cudnn_major = needed.split(".")[0] if needed else None
        loaded = first.get(("cudnn", cudnn_major)) if cudnn_major else None
        if loaded is None and cudnn_major:
            loaded = next((v for (n, _m), v in first.items() if n == "cudnn"), None)
        if loaded and needed and causes.older(loaded["version"], needed):
            on_ld = loaded["via"] == "LD_LIBRARY_PATH"
            out.append(_finding(
                "cudnn_version_mismatch", "An older cuDNN would be loaded than the one this jaxlib was built for",
                f"This jaxlib ({build['from']}) was built against cuDNN {needed}, but the loader would pick cuDNN "
                f"{loaded['version']} from {loaded['folder']} (found through {loaded['via']}) first. cuDNN needs the "
                "same major and an equal or newer minor version, so GPU convolutions and GraphCast's jit init fail "
                "with \"DNN library initialization failed\".",
                (f"Remove {loaded['folder']} from LD_LIBRARY_PATH before running this environment ({activate}); "
                 if on_ld else "") + f"or install the `{recipe}` recipe into a new environment (`gc-wizard install "
                f"{recipe}`), which brings the pip cuDNN jaxlib needs.",
                [f"jaxlib built for cuDNN {needed} ({build['from']})",
                 f"cuDNN {loaded['version']} loads first: {loaded['path']} (via {loaded['via']})"]))
        elif needed and not any(n == "cudnn" for (n, _m) in first):
            out.append(_finding(
                "cuda_library_missing", "No cuDNN would be found for this jaxlib",
                f"This jaxlib ({build['from']}) needs cuDNN {needed}, but none of the folders the loader searches "
                "for this environment holds a cuDNN.", f"Install the `{recipe}` recipe into a new environment "
                f"(`gc-wizard install {recipe}`): it brings the pip cuDNN wheel.", [f"jaxlib built for cuDNN {needed}"]))
        cuda_major = build.get("cuda")
        min_driver = MIN_DRIVER_FOR_CUDA.get(int(cuda_major)) if cuda_major and ascii_digits(cuda_major) else None
        if report.driver and min_driver and _version_tuple(report.driver) < min_driver:
            need = ".".join(str(p) for p in min_driver)
            out.append(_finding(
                "driver_too_old", "The NVIDIA driver is too old for this jaxlib's CUDA",
                f"This jaxlib is built for CUDA {cuda_major}, which needs driver {need} or newer; this machine's "
                f"driver is {report.driver}.", "Install the recipe that fits this driver (`gc-wizard recipes`: "
                "with a CUDA 11 driver that is `jax0.4.23-cuda11-cudnn86`), or ask for a newer driver.",
                [f"driver {report.driver}", f"jaxlib built for CUDA {cuda_major}"]))
        has_nvcc_wheel = any(n.startswith("nvidia-cuda-nvcc") for n in report.nvidia_wheels)
        ptxas = report.ptxas
        if ptxas and not has_nvcc_wheel and cuda_major and ptxas["version"] != "unknown" \
                and _version_tuple(ptxas["version"])[:1] < (int(cuda_major),):
            out.append(_finding(
                "ptxas_problem", "The ptxas on PATH is older than this jaxlib needs",
                f"XLA compiles GPU kernels with the first `ptxas` it finds; this environment has no "
                f"nvidia-cuda-nvcc wheel, so it uses {ptxas['path']} from CUDA {ptxas['version']}, older than the "
                f"CUDA {cuda_major} this jaxlib is built for.", f"Take that CUDA `bin` folder off PATH ({activate}), "
                f"or install the `{recipe}` recipe, which pins nvidia-cuda-nvcc.",
                [f"ptxas {ptxas['version']}: {ptxas['path']}"]))
    out.extend(_stale_nvjitlink(report.nvidia_wheels, recipe))
    gc = report.graphcast
    xr = pk.get("xarray")
    if gc and gc["which"] == "deepmind" and xr and _version_tuple(xr) >= _XARRAY_NO_DATASET_COPY:
        out.append(_finding(
            "xarray_incompatible", "This xarray breaks GraphCast's forecast (rollout)",
            f"xarray {xr} refuses `xarray.Dataset(a_dataset)` (from xarray 2026.4), which GraphCast's rollout.py "
            f"does for every forecast; the installed GraphCast ({gc['version']}) imports and inits, then the first "
            "rollout stops with \"Passing a Dataset as data_vars to the Dataset constructor is not supported\".",
            f'`pip install "xarray<2026.4"` in this environment, or `gc-wizard install {recipe}` (each recipe pins '
            "its xarray).", [f"xarray {xr}", f"graphcast {gc['version']}"]))
    if gc and gc["which"] == "deepmind" and jax_v:
        if gc.get("uses_jax_tree") == "yes" and _version_tuple(jax_v) < (0, 4, 25):
            out.append(_finding(
                "jax_too_old_for_graphcast", "This GraphCast needs a newer JAX than the environment has",
                f"The installed GraphCast ({gc['version']}) uses `jax.tree.map`, which needs jax 0.4.25 or newer; "
                f"this environment has jax {jax_v}.", f"Use GraphCast v0.1.1 with this JAX (`gc-wizard install "
                f"{recipe}`), or a recipe with a newer JAX (`gc-wizard recipes --graphcast-version 0.2`).",
                [f"graphcast {gc['version']} uses jax.tree", f"jax {jax_v}"]))
        if gc.get("uses_datatree") == "yes" and xr and _version_tuple(xr) < (2024, 10):
            out.append(_finding(
                "xarray_incompatible", "This GraphCast needs a newer xarray (xarray.DataTree)",
                f"The installed GraphCast ({gc['version']}) uses `xarray.DataTree`, added in xarray 2024.10; this "
                f"environment has xarray {xr}.", "Install a recipe for GraphCast v0.2 (`gc-wizard recipes "
                "--graphcast-version 0.2`), or upgrade xarray in this environment.", [f"xarray {xr}"]))
    return out


#: xarray 2026.4 refuses `xarray.Dataset(dataset)`, which GraphCast's rollout.py does (weathernext#213).
_XARRAY_NO_DATASET_COPY = (2026, 4)
#: The nvidia-*-cu12 wheels numbered by the CUDA release they come from (nvJitLink's own number is one too).
_TOOLKIT_NUMBERED = re.compile(r"^nvidia-cuda-(?:runtime|nvrtc|cupti|nvcc)-cu[0-9]+$")


def _stale_nvjitlink(wheels: dict[str, str], recipe: str) -> list[Finding]:
    """An nvidia-nvjitlink wheel from an older CUDA release than the other CUDA wheels: pip upgrades cuSOLVER and
    cuSPARSE without it (their metadata asks for no newer one), and they then fail to load (jax#18027)."""
    link = next(((n, v) for n, v in wheels.items() if re.match(r"^nvidia-nvjitlink-cu[0-9]+$", n)), None)
    toolkit = [(n, v) for n, v in wheels.items() if _TOOLKIT_NUMBERED.match(n)]
    if link is None or not toolkit:
        return []
    newest = max(toolkit, key=lambda item: _version_tuple(item[1])[:2])
    if _version_tuple(link[1])[:2] >= _version_tuple(newest[1])[:2]:
        return []
    return [_finding(
        "nvjitlink_outdated", "This environment's nvJitLink is older than its other CUDA libraries",
        f"{link[0]} {link[1]} comes from an older CUDA release than {newest[0]} {newest[1]}; cuSPARSE and "
        "cuSOLVER of the newer release need an nvJitLink at least as new, so JAX reports them missing (\"Unable "
        "to load cuSOLVER\") and falls back to the CPU.",
        f"`pip install -U {link[0]}` in this environment, or `gc-wizard install {recipe}` (the recipes pin "
        "nvJitLink with the rest).", [f"{link[0]} {link[1]}", f"{newest[0]} {newest[1]}"])]


#: How many entries of an environment's site-packages folders `outside_links` looks at: a CUDA environment holds
#: tens of thousands; past this the rest is not looked at, so a huge one costs a bounded time.
_LINK_SCAN_LIMIT = 200_000


def outside_links(prefix: Path, sites: list[Path]) -> tuple[int, int, str | None]:
    """(files of the site-packages folders that are links leading out of the environment, how many of those lead to
    nothing, the folder the first one leads into), read from disk, bounded.

    Why: 30th hostile pass (part B) P7 — uv with `UV_LINK_MODE=symlink` makes every package file a link into its
    cache; after `uv cache clean` every import failed, and `diagnose --env` said nothing about it."""
    inside = os.path.realpath(prefix)
    total = gone = seen = 0
    first: str | None = None
    for site in sites:
        for top, dirs, files in walk(site):
            for name in (*dirs, *files):
                seen += 1
                if seen > _LINK_SCAN_LIMIT:
                    return total, gone, first
                entry = os.path.join(top, name)
                if not os.path.islink(entry):
                    continue
                try:
                    target = os.path.join(top, os.readlink(entry))
                except OSError:
                    continue
                real = os.path.realpath(target)
                if real == inside or real.startswith(inside + os.sep):
                    continue
                total += 1
                gone += not os.path.exists(entry)
                first = first or os.path.dirname(os.path.normpath(target))
    return total, gone, first


def _link_finding(total: int, gone: int, first: str | None, recipe: str) -> Finding | None:
    """The finding for files kept outside the environment as links (`outside_links`), or None when there are none."""
    if not total:
        return None
    where = f" ({cut(first, 200)} …)" if first else ""
    if gone:
        return _finding(
            "files_link_into_missing_cache", f"{gone} files of this environment are links to files that are gone",
            f"{gone} of the {total} package files here that are links into a folder outside the environment{where} "
            "lead to nothing: the environment was made with uv's `UV_LINK_MODE=symlink`, which keeps the files in "
            "uv's cache, and that cache was cleaned since (`uv cache clean`, a purged scratch disk), so imports of "
            "those packages fail.",
            f"Install it again without symlink mode (`gc-wizard install {recipe}`, which makes environments that "
            "hold their own files).", [f"{gone} of {total} links lead to nothing"])
    return _finding(
        "files_link_into_cache", f"{total} files of this environment are links into a folder outside it",
        f"{total} package files here are links into a folder outside the environment{where}, as uv's "
        "`UV_LINK_MODE=symlink` makes them: cleaning that folder (`uv cache clean`, a purged scratch disk) would "
        "break this environment.",
        f"Keep that folder, or install it again without symlink mode (`gc-wizard install {recipe}`).",
        [f"{total} links out of the environment"])


def inspect_env(path: str | Path, environ: dict[str, str] | None = None, *, driver: str | None = None,
                read_driver: bool = True, ldconfig: list[str] | None = None) -> EnvReport:
    """Reads the environment at `path` from disk and returns what it holds and its findings.

    `environ` is the environment the user would run it with (LD_LIBRARY_PATH, PATH); the wizard's own by
    default. `driver` is the NVIDIA driver version (read from /proc/driver/nvidia/version when not given).
    """
    prefix = Path(expand_home(path))
    if not prefix.is_dir():
        raise UserError(f"The environment {prefix} does not exist or is not a folder.")
    prefix = prefix.absolute()
    environ = dict(os.environ if environ is None else environ)
    kind = environment.kind_of(prefix)
    sites = site_dirs(prefix)
    if not sites:
        raise UserError(f"{prefix} is not a Python environment: it has no lib/python3*/site-packages folder.")
    packages = environment.installed_packages(sites)
    if driver is None and read_driver:
        driver = kernel_module.probe().version
    report = EnvReport(path=str(prefix), kind=kind, packages={k: v for k, v in packages.items()
                                                               if not k.startswith("nvidia-")})
    unlike = venv_config.not_a_file(prefix / "pyvenv.cfg") if kind == "system" else None
    if unlike:  # named, not called a system Python (35th hostile pass (part A) P7)
        report.kind = f"not a venv: its pyvenv.cfg is {unlike}"
    report.python = next((m.group(1) for s in sites for m in [re.search(r"python(3\.[0-9]+)", str(s))] if m), None)
    report.nvidia_wheels = {k: v for k, v in packages.items() if _CUDA_WHEEL.match(k)}
    report.jaxlib_build = jaxlib_build(prefix, sites, packages)
    order = loader_order(prefix, sites, environ, kind, _ldconfig_folders() if ldconfig is None else ldconfig)
    first = libraries_first(order)
    report.libraries_first = [dict(v) for v in first.values()]
    wanted = ((report.jaxlib_build or {}).get("cudnn") or "").split(".")[0]
    cudnn = [v for (n, m), v in first.items() if n == "cudnn" and (not wanted or m == wanted)] or \
        [v for (n, _m), v in first.items() if n == "cudnn"]
    report.cudnn_loads_first = {k: cudnn[0][k] for k in ("version", "path", "via")} if cudnn else None
    report.ptxas = ptxas_on_path(environ, prefix)
    report.graphcast = graphcast_info(sites)
    report.driver = driver
    marker = read_marker(prefix)
    report.recipe = marker.recipe if marker is not None and isinstance(marker.recipe, str) else None
    extra = marker.extra if marker is not None else {}
    given, version = extra.get("graphcast_given"), extra.get("graphcast_version")
    report.graphcast_given = (version, given) if isinstance(given, str) and isinstance(version, str) else None
    recipe = _recipe(report.jaxlib_build, driver, report.recipe, read_driver)
    report.findings = [replace(found, fix=with_given_graphcast(found.fix, report.graphcast_given, found.id))
                       for found in _findings(report, first, recipe)]
    linked = _link_finding(*outside_links(prefix, sites), recipe)
    if linked is not None:  # first: nothing else here matters while the files themselves are gone
        report.findings.insert(0, linked)
    shadow = environment_shadow(prefix, environ)  # the same decision activate and the kernel make
    if shadow is not None:
        report.findings.insert(0, shadow)
    variables = behaviour_finding(environ, environ)  # PYTHONWARNINGS, JAX_*, XLA_* of this shell: a note (31B P12)
    if variables is not None:
        report.findings.append(variables)
    return report
