"""Matches recipes to the detected machine and says why, in plain words, for every recipe.

The wizard's promise is "the right stack for *this* server, and why", so a match is never a bare
yes/no: every failed constraint becomes its own sentence in `reasons` ("needs a driver for CUDA >=
12.0; this one supports 11.4"), and every caveat of a compatible recipe goes to `warnings`.

Decisions (documented here because they are policy, not mechanics):

- **Recommendation.** Exactly one compatible recipe is recommended: the best compatible GPU stack, else
  the best compatible CPU stack. Among those, in order: the highest `preference` (an admin's choice);
  not one with a GPU caution (below); one whose Python is already on the machine over one that needs uv
  to download a Python; one installable from the index alone over one with a pin only GitHub has
  (`outside_index`, WeatherNext's gdm-xarray-jax); one that runs the default GraphCast version (`DEFAULT_GRAPHCAST_VERSION`, the
  demo notebook's v0.1.1 on JAX 0.4.23) over a newer one; then the highest CUDA major and driver-CUDA
  floor; then the newer JAX (JAX 0.12.0.1 over 0.10.2 for the same GraphCast, where its Python 3.12+ is on
  the machine). So the 0.4.23 stack stays the default wherever it fits, and the modern stack (GraphCast v0.2)
  is recommended where it cannot — a Blackwell GPU, only Python 3.12 on the machine, a driver only the
  newer CUDA accepts — with the reason in its summary. Only when *nothing* fits (an unsupported OS, or no
  acceptable Python anywhere with downloads off) is nothing recommended, and then every recipe's
  reasons say why.
- **GraphCast version.** `graphcast_version="0.2"` (the CLI's `--graphcast-version`, the app's version
  key) narrows the recommendation to recipes that run that GraphCast; the others stay listed, with
  their verdicts, and are not recommended.
- **GPU cautions.** A recipe may name GPUs it runs on but should not be used for (`gpu_cautions`, e.g.
  cuBLAS 12.8 on Blackwell, which JAX warns can corrupt results): it stays compatible, says why in a
  warning, and is never recommended; when nothing else fits the GPU, the CPU stack's loud warning says so.
- **Never a silent CPU fallback.** When the machine has an NVIDIA GPU or driver but no GPU recipe fits,
  the CPU recipe is still the recommendation, and its first warning says so loudly, quoting the reason
  each GPU recipe failed.
- **Several GPUs with mixed compute capabilities.** A GPU recipe is compatible if at least one GPU
  qualifies. The GPUs that do not qualify are named in a warning that suggests `CUDA_VISIBLE_DEVICES`
  with the indices of the usable ones, since JAX uses every visible GPU by default.
- **Hopper (sm_90) and PTX.** jaxlib 0.4.23 ships only PTX for sm_90, which the driver must JIT with a
  driver that knows the toolkit's CUDA version. Recipes express this as `gpu_driver_rules`; a GPU under
  a rule whose driver minimum is not met does *not* qualify (so an H100-only box with driver 530 is
  incompatible with the CUDA 12 recipe, not a warning). This rule is inferred rather than documented
  by JAX, and the reason says so.
- **Driver below `driver_warn_below`**: compatible, with a warning (XLA disables parallel compilation).
- **Python.** The wizard can build the environment with another interpreter, so the recipe's Python
  range is checked against every interpreter found (`pythons`, from `wizard.recipes.pythons.find_pythons`),
  not only the one the wizard runs on. None fitting is a warning when uv may download one
  (`python_downloads=True`) and a reason otherwise.
- **Unknown facts** (a driver whose version or CUDA version could not be read, a GPU whose compute
  capability is unknown) do not block; each gets a warning saying what was assumed.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from packaging.specifiers import SpecifierSet
from packaging.version import InvalidVersion, Version

from wizard.detect.facts import DRIVER_IN_TROUBLE, Facts, Gpu, PythonInfo
from wizard.recipes.loader import Recipe

_ARCH_ALIASES = {"amd64": "x86_64", "x64": "x86_64", "arm64": "aarch64", "armv8": "aarch64"}


#: The GraphCast the wizard recommends by default: v0.1.1, the version the demo notebook runs.
DEFAULT_GRAPHCAST_VERSION = "0.1.1"
#: What each GraphCast version is, for the faces' group headings.
GRAPHCAST_LABELS = {
    "0.1.1": "the demo notebook (JAX 0.4.23)",
    "0.2": "with GenCast (JAX 0.10.2 or 0.12, NumPy 2)",
    "0.3": "WeatherNext v0.3.0 (JAX 0.12, Python 3.12+)",
}


def graphcast_label(version: str) -> str:
    """"GraphCast v0.2 — with GenCast (…)": the heading of a recipe group."""
    what = GRAPHCAST_LABELS.get(version)
    return f"GraphCast v{version}" + (f" — {what}" if what else "")


@dataclass(frozen=True)
class RecipeMatch:
    recipe: Recipe
    compatible: bool
    recommended: bool
    reasons: tuple[str, ...]
    """Why the recipe does not fit this machine; empty when it does."""
    warnings: tuple[str, ...] = ()
    """Caveats of a compatible recipe (or extra context for an incompatible one)."""
    summary: str = ""
    """One line for the list view: why it is recommended, or its first reason."""
    usable_gpus: tuple[int, ...] = field(default=())
    cautioned: bool = False
    """Compatible, but a GPU of this machine is under one of the recipe's `gpu_cautions`."""
    machine: str = "this machine"
    """The machine the verdict is about, in words: "this machine", or "node gpu07" (facts read through srun)."""
    python_download: str | None = None
    """The Python uv would download for it ("3.13"), when no fitting one is on this machine; else None."""
    unreachable: tuple[str, ...] = ()
    """Hosts its install needs that do not answer from here (`alternatives.with_python_reach`: the Python download's),
    flagged as a plan flags an unreachable source (walk 25 #2)."""

    @property
    def graphcast_version(self) -> str:
        return self.recipe.graphcast.version

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.recipe.id,
            "title": self.recipe.title,
            "graphcast_version": self.recipe.graphcast.version,
            "backend": self.recipe.backend,
            "requirements": list(self.recipe.requirements),
            "compatible": self.compatible,
            "recommended": self.recommended,
            "reasons": list(self.reasons),
            "warnings": list(self.warnings),
            "summary": self.summary,
            "usable_gpus": list(self.usable_gpus),
            "cautioned": self.cautioned,
            "python_download": self.python_download,
            "unreachable": list(self.unreachable),
            "alternatives": [a.to_dict() for a in self.recipe.alternatives],
            "runtime_env": dict(self.recipe.runtime_env),
            "disk_gib": self.recipe.disk_gib,
            "limit": self.recipe.limit,
            "path": str(self.recipe.path),
        }


def version_tuple(text: str | None) -> tuple[int, ...] | None:
    """"535.104.05" -> (535, 104, 5); "12.2" -> (12, 2); None or no digits -> None."""
    if not text:
        return None
    parts = re.findall(r"[0-9]+", str(text))
    return tuple(int(p) for p in parts) if parts else None


def _lt(a: str | None, b: str) -> bool:
    ta, tb = version_tuple(a), version_tuple(b)
    if ta is None or tb is None:
        return False
    width = max(len(ta), len(tb))
    return ta + (0,) * (width - len(ta)) < tb + (0,) * (width - len(tb))


def _download_version(recipe: Recipe) -> str | None:
    """The Python uv would be asked to download for `recipe` (`pythons._download_request`: "3.13")."""
    from wizard.recipes.pythons import download_request  # deferred: only a recipe needing a download asks

    return download_request(recipe.machine.python) or None


def range_text(spec: str) -> str:
    """">=3.10,<3.12" -> "3.10–3.11" (`_range_text`), for the words other modules build."""
    return _range_text(spec)


def python_range_words(spec: str) -> str:
    """A recipe's Python range as every face says it, "Python 3.12–3.13": the recipe list's row, the details'
    headline, the "!" sentence on uv's Python download, in the CLI and the app alike. Walk 38 #5: the row and headline
    said "needs Python 3.13" (the version uv would fetch) where the "!" said "the recipe needs 3.12–3.13", and a user
    with 3.12 could not tell from the headline that it would do."""
    return f"Python {_range_text(spec)}"


def _range_text(spec: str) -> str:
    """">=3.10,<3.12" -> "3.10–3.11" when it is a plain minor range, else the specifier itself."""
    m_lo = re.search(r">=\s*3\.([0-9]+)(?:\.0)?\b", spec)
    m_hi = re.search(r"<\s*3\.([0-9]+)(?:\.0)?\b", spec)
    parts = [p.strip() for p in spec.split(",") if p.strip()]
    if m_lo and m_hi and len(parts) == 2 and "<=" not in spec:
        lo, hi = int(m_lo.group(1)), int(m_hi.group(1)) - 1
        return f"3.{lo}" if lo == hi else f"3.{lo}–3.{hi}"
    return spec


def _short_python(version: str) -> str:
    t = version_tuple(version) or ()
    return ".".join(str(x) for x in t[:2]) if len(t) >= 2 else version


def python_fits(spec: str, version: str) -> bool:
    try:
        return SpecifierSet(spec).contains(Version(version), prereleases=True)
    except InvalidVersion:
        return False


def _gpu_label(gpu: Gpu) -> str:
    return f"GPU {gpu.index} ({gpu.name})"


def _check_platform(recipe: Recipe, facts: Facts, reasons: list[str]) -> None:
    m = recipe.machine
    os_name = (facts.platform.os or "").lower()
    arch = _ARCH_ALIASES.get((facts.platform.arch or "").lower(), (facts.platform.arch or "").lower())
    allowed_arch = {_ARCH_ALIASES.get(a, a) for a in m.arch}
    if os_name not in m.os:
        reasons.append(f"runs on {', '.join(m.os)} only; this machine runs {facts.platform.os or 'an unknown OS'}")
    if arch not in allowed_arch:
        reasons.append(f"has wheels for {', '.join(m.arch)} only; this machine is {facts.platform.arch or 'unknown'}")
    if m.glibc_min and os_name == "linux":
        if facts.platform.glibc is None:
            reasons.append(f"needs glibc >= {m.glibc_min}; no glibc was found (a musl-based Linux such as "
                           "Alpine cannot use these wheels)")
        elif _lt(facts.platform.glibc, m.glibc_min):
            reasons.append(f"needs glibc >= {m.glibc_min}; this machine has {facts.platform.glibc}")


def _check_python(recipe: Recipe, facts: Facts, pythons: Sequence[PythonInfo] | None, downloads: bool,
                  reasons: list[str], warnings: list[str]) -> bool:
    """Checks the recipe's Python range; True when a fitting Python is already on the machine. `pythons` None: the
    facts were read elsewhere (a saved file, a Slurm node), and which other Pythons that machine has is not known."""
    spec = recipe.machine.python
    wanted = _range_text(spec)
    own = facts.python
    if python_fits(spec, own.version):
        return True
    if pythons is None:  # not "none was found" (walk 20 #2: saved facts said uv would download one, wrongly)
        warnings.append(f"Python {_short_python(own.version)} is outside {wanted}; the facts name no other Python, so "
                        f"the install uses a Python {wanted} if that machine has one, else uv downloads one (which "
                        "needs internet access)")
        return False
    others = [p for p in pythons if python_fits(spec, p.version)]
    if others:
        best = max(others, key=lambda p: version_tuple(p.version) or ())
        warnings.append(f"Python {_short_python(own.version)} is outside {wanted}; the environment will use "
                        f"Python {best.version} ({best.executable})")
        return True
    found = sorted({_short_python(p.version) for p in [own, *pythons]}, key=lambda v: version_tuple(v) or ())
    found_text = ", ".join(found)
    if downloads:
        warnings.append(f"Python {_short_python(own.version)} is outside {wanted} and no Python {wanted} was "
                        f"found (found: {found_text}); uv will download one, which needs internet access")
    else:
        reasons.append(f"Python {_short_python(own.version)} is outside {wanted}, and no Python {wanted} was "
                       f"found on PATH or through uv (found: {found_text})")
    return False


def _check_gpu(recipe: Recipe, facts: Facts, reasons: list[str], warnings: list[str]) -> tuple[int, ...]:
    """Driver and GPU checks for a gpu recipe; returns the indices of the GPUs that qualify."""
    m = recipe.machine
    driver = facts.driver
    if driver is None:
        if facts.gpus:
            names = ", ".join(_gpu_label(g) for g in facts.gpus)
            reasons.append(f"no usable NVIDIA driver was found, although the machine has {names}; "
                           "see `gc-wizard detect` for why")
        elif any(w.id == "driver_not_loaded" for w in facts.warnings):
            reasons.append("the NVIDIA driver is installed but not loaded; an admin must load it "
                           "(modprobe nvidia) or reboot")
        elif any(w.id == "driver_library_mismatch" for w in facts.warnings):
            reasons.append("the NVIDIA driver's libraries and kernel module differ (upgraded without a "
                           "reboot); an admin must reboot the server")
        elif any(w.id == "driver_not_answering" for w in facts.warnings):
            reasons.append("the NVIDIA driver is installed but does not answer (a hung driver or GPU); run "
                           "`nvidia-smi` by hand, and ask the admins if it hangs there too")
        else:
            reasons.append("no NVIDIA driver was found")
        return ()

    driver_ok = True
    if m.driver_cuda_min:
        if driver.cuda_driver_version is None:
            warnings.append(f"the driver's CUDA version could not be read; assumed it supports CUDA "
                            f">= {m.driver_cuda_min}")
        elif _lt(driver.cuda_driver_version, m.driver_cuda_min):
            driver_ok = False
            reasons.append(f"needs a driver for CUDA >= {m.driver_cuda_min}; this one supports "
                           f"{driver.cuda_driver_version}")
    if m.driver_min:
        if driver.version is None:
            warnings.append(f"the driver's version could not be read; assumed it is >= {m.driver_min}")
        elif _lt(driver.version, m.driver_min):
            driver_ok = False
            reasons.append(f"needs NVIDIA driver >= {m.driver_min}; this one is {driver.version}")
    if driver_ok and m.driver_warn_below and driver.version and _lt(driver.version, m.driver_warn_below):
        warnings.append(f"driver {driver.version} is below {m.driver_warn_below}, the native driver for this "
                        "CUDA version: XLA will warn that the driver is older than ptxas and compile without "
                        "parallelism (slower); a driver update is recommended")

    if not facts.gpus:
        reasons.append("the NVIDIA driver is present but no GPU was found (check that this node or container "
                       "has GPUs assigned)")
        return ()

    usable: list[int] = []
    rejected: list[tuple[Gpu, str]] = []
    for gpu in facts.gpus:
        why = _gpu_problem(recipe, gpu, driver.version, warnings)
        if why is None:
            usable.append(gpu.index)
        else:
            rejected.append((gpu, why))

    if not usable:
        reasons.extend(why for _, why in rejected)
        return ()
    if rejected and driver_ok:
        names = "; ".join(why for _, why in rejected)
        visible = ",".join(str(i) for i in usable)
        warnings.append(f"not every GPU can run this stack ({names}); JAX uses every visible GPU, so set "
                        f"CUDA_VISIBLE_DEVICES={visible} to use only the ones that can")
    return tuple(usable) if driver_ok else ()


def _gpu_problem(recipe: Recipe, gpu: Gpu, driver_version: str | None, warnings: list[str]) -> str | None:
    m = recipe.machine
    cc = gpu.compute_capability
    label = _gpu_label(gpu)
    if cc is None:
        warnings.append(f"the compute capability of {label} is unknown; assumed it is supported")
        return None
    if m.compute_capability_min and _lt(cc, m.compute_capability_min):
        return f"compute capability {cc} of {label} is below {m.compute_capability_min}"
    if m.compute_capability_max and _lt(m.compute_capability_max, cc):
        return (f"compute capability {cc} of {label} is above {m.compute_capability_max}, the newest this "
                "jaxlib can compile for")
    for rule in m.gpu_driver_rules:
        if not _lt(cc, rule.compute_capability_min) and driver_version and _lt(driver_version, rule.driver_min):
            why = f": {rule.why}" if rule.why else ""
            return (f"{label} (compute capability {cc}) needs NVIDIA driver >= {rule.driver_min}; this one is "
                    f"{driver_version}{why}")
    return None


def _cautions(recipe: Recipe, facts: Facts, usable: tuple[int, ...]) -> list[str]:
    """Warnings for the usable GPUs that fall under one of the recipe's `gpu_cautions`."""
    out = []
    for gpu in facts.gpus:
        if gpu.index not in usable or gpu.compute_capability is None:
            continue
        for caution in recipe.machine.gpu_cautions:
            below = caution.compute_capability_below
            if not _lt(gpu.compute_capability, caution.compute_capability_min) and (
                    below is None or _lt(gpu.compute_capability, below)):
                out.append(f"NOT RECOMMENDED on {_gpu_label(gpu)} (compute capability {gpu.compute_capability}): "
                           f"{caution.why}")
                break
    return out


def _rank(recipe: Recipe) -> tuple:
    m = recipe.machine
    return (
        recipe.backend == "gpu",
        recipe.preference,
        m.cuda_major or 0,
        version_tuple(m.driver_cuda_min) or (),
        recipe.id,
    )


@dataclass
class _Verdict:
    recipe: Recipe
    reasons: list[str]
    warnings: list[str]
    usable: tuple[int, ...]
    local_python: bool
    cautioned: bool
    downloads: bool = False
    """uv would download this recipe's Python: none that fits is on the machine."""

    def choice_key(self) -> tuple:
        """Higher is better among compatible recipes (see the module docstring's order)."""
        r = self.recipe
        return (
            r.backend == "gpu",
            r.preference,
            not self.cautioned,
            self.local_python,
            not r.outside_index,
            r.graphcast.version == DEFAULT_GRAPHCAST_VERSION,
            r.machine.cuda_major or 0,
            version_tuple(r.machine.driver_cuda_min) or (),
            version_tuple(r.graphcast.version) or (),
            version_tuple(r.pins.get("jax")) or (),
            r.id,
        )


def _why_not_default(best: _Verdict, verdicts: list[_Verdict]) -> str | None:
    """Why no recipe of the default GraphCast was chosen for `best`'s backend, in one clause."""
    peers = [v for v in verdicts if v.recipe.graphcast.version == DEFAULT_GRAPHCAST_VERSION
             and v.recipe.backend == best.recipe.backend]
    if not peers:
        return None
    peer = max(peers, key=_Verdict.choice_key)
    if peer.reasons:
        why = peer.reasons[0]
    elif not peer.local_python:
        why = next((w for w in peer.warnings if w.startswith("Python")), "it needs a Python download")
    elif peer.cautioned:
        why = next((w for w in peer.warnings if w.startswith("NOT RECOMMENDED")), "a GPU caution")
    else:
        return None
    return f"{peer.recipe.id}: {why}"


def _why_this_stack(best: _Verdict, candidates: list[_Verdict]) -> str:
    """Why `best` over the other fitting stacks for the same GraphCast and backend, in one clause ("" when
    it had no rival): a newer JAX, and CUDA 13 over CUDA 12 — each said, so a user who knows JAX 0.10
    from a paper sees why the wizard picked something else."""
    peers = [v.recipe for v in candidates if v is not best and v.recipe.backend == best.recipe.backend
             and v.recipe.graphcast.version == best.recipe.graphcast.version]
    mine = best.recipe
    jax = mine.pins.get("jax")
    older = sorted(r.pins.get("jax") for r in peers
                   if r.pins.get("jax") and (version_tuple(r.pins.get("jax")) or ()) < (version_tuple(jax) or ()))
    clauses = []
    if jax and older:
        clauses.append(f"JAX {jax} is the newest release that runs it here (newer than {older[-1]})")
    # A rival's own limit, from its recipe file (walk 26 #6: "GenCast's forecast fails on JAX 0.10.2"): the reason
    # that decides it for a user asked for GenCast, said here and beside the rival's own line.
    for limit in dict.fromkeys(r.limit for r in peers if r.limit and r.pins.get("jax") != jax):
        clauses.append(limit)
    cuda = mine.machine.cuda_major or 0
    if cuda >= 13 and any((r.machine.cuda_major or 0) < cuda for r in peers):
        clauses.append("CUDA 13 is what JAX's install guide now leads with (its CUDA 12 builds are to be dropped)")
    return "; ".join(clauses)


def match_recipes(recipes: dict[str, Recipe] | Iterable[Recipe], facts: Facts, *,
                  pythons: Sequence[PythonInfo] | None = (), python_downloads: bool = True,
                  graphcast_version: str | None = None) -> list[RecipeMatch]:
    """Every recipe with its verdict, the recommended one first, then compatible ones, then the rest.

    `pythons` are the other interpreters found (the wizard's own is `facts.python`), None when they are not known;
    `python_downloads` says whether uv may download a Python when none fits; `graphcast_version`
    ("0.1.1", "0.2") narrows the recommendation to recipes that run that GraphCast.
    """
    items = list(recipes.values()) if isinstance(recipes, dict) else list(recipes)
    verdicts: list[_Verdict] = []
    for recipe in items:
        reasons: list[str] = []
        warnings: list[str] = []
        _check_platform(recipe, facts, reasons)
        usable: tuple[int, ...] = ()
        if recipe.backend == "gpu":
            usable = _check_gpu(recipe, facts, reasons, warnings)
        local = _check_python(recipe, facts, pythons, python_downloads, reasons, warnings)
        cautions = _cautions(recipe, facts, usable) if not reasons else []
        warnings[:0] = cautions
        # uv would download its Python (none fits here): the host that needs is checked by the caller (walk 25 #2)
        verdicts.append(_Verdict(recipe, reasons, warnings, usable, local, bool(cautions),
                                 downloads=not local and pythons is not None and python_downloads and not reasons))

    compatible = [v for v in verdicts if not v.reasons]
    candidates = [v for v in compatible if not v.cautioned
                  and (graphcast_version is None or v.recipe.graphcast.version == graphcast_version)]
    best = max(candidates, key=_Verdict.choice_key, default=None)
    # A driver that is installed but not loaded (or mismatched after an upgrade) is still a GPU server
    # that the user expects to use: the CPU recommendation must say so loudly.
    has_nvidia = facts.driver is not None or bool(facts.gpus) or any(w.id in DRIVER_IN_TROUBLE for w in facts.warnings)
    gpu_failures = [(v.recipe, v.reasons[0] if v.reasons else v.warnings[0]) for v in verdicts
                    if v.recipe.backend == "gpu" and (v.reasons or v.cautioned)
                    and (graphcast_version is None or v.recipe.graphcast.version == graphcast_version)]
    any_gpu_fits = any(v.recipe.backend == "gpu" for v in candidates)
    why_modern = None
    if best is not None and graphcast_version is None and best.recipe.graphcast.version != DEFAULT_GRAPHCAST_VERSION:
        why_modern = _why_not_default(best, verdicts)

    matches: list[RecipeMatch] = []
    for v in verdicts:
        recipe, reasons, warnings = v.recipe, v.reasons, v.warnings
        is_best = best is not None and v is best
        in_scope = graphcast_version is None or recipe.graphcast.version == graphcast_version
        if recipe.backend == "cpu" and not reasons and has_nvidia and not any_gpu_fits and in_scope:
            # One reason per cause, naming the recipes it stops (not the same sentence once per recipe).
            by_reason: dict[str, list[str]] = {}
            for failed, first in gpu_failures:
                by_reason.setdefault(first, []).append(failed.id)
            why = "; ".join(f"{first} ({', '.join(sorted(ids))})" if len(by_reason) > 1 else first
                            for first, ids in by_reason.items()) or "no GPU recipe is installed"
            what = "AN NVIDIA GPU" if facts.gpus else "AN NVIDIA DRIVER"
            warnings.insert(0, f"THIS MACHINE HAS {what}, BUT NO GPU RECIPE FITS IT: {why}. "
                               "This CPU stack runs GraphCast on the CPU only, which is far slower.")
        version = recipe.graphcast.version
        if reasons:
            summary = reasons[0]
        elif is_best and why_modern:
            summary = (f"recommended: no GraphCast v{DEFAULT_GRAPHCAST_VERSION} recipe fits this machine "
                       f"({why_modern}), so this stack runs GraphCast v{version}")
        elif is_best and recipe.backend == "gpu":
            summary = "recommended: the newest GPU stack that fits this machine"
            if graphcast_version is not None:
                summary = f"recommended for GraphCast v{version}: the GPU stack that fits this machine"
            why_stack = _why_this_stack(v, candidates)
            summary += f"; {why_stack}" if why_stack else ""
        elif is_best and has_nvidia:
            summary = "recommended, but CPU only: no GPU recipe fits this machine's GPU"
        elif is_best:
            summary = "recommended: no NVIDIA GPU was found, so the CPU stack is the one that fits"
            why_stack = _why_this_stack(v, candidates)
            summary += f"; {why_stack}" if why_stack else ""
        elif v.cautioned:
            summary = "compatible, but not recommended on this GPU: " + warnings[0].split(": ", 1)[-1]
        elif not in_scope:
            summary = f"compatible; runs GraphCast v{version}, and v{graphcast_version} was asked for"
        elif recipe.backend == "cpu" and any_gpu_fits:
            summary = "compatible, but a GPU stack fits this machine and is far faster"
        elif best is not None and best.recipe.graphcast.version != version:
            summary = (f"compatible; pick it for GraphCast v{version} (the recommendation is for "
                       f"v{best.recipe.graphcast.version})")
        elif best is not None and best.recipe.pins.get("jax") != recipe.pins.get("jax") \
                and best.recipe.graphcast.version == version:
            theirs, ours = best.recipe.pins.get("jax"), recipe.pins.get("jax")
            # A pin a recipe lacks is said so, never printed as "None" (review: a test recipe's "(this one: None)").
            on = f"on JAX {theirs}" if theirs else "with another JAX"
            this = f"this one: {ours}" if ours else "this one pins no JAX"
            summary = f"compatible; the recommended stack runs the same GraphCast {on} ({this})"
            summary += f"; {recipe.limit}" if recipe.limit else ""
        else:
            summary = "compatible; the recommended stack is the better fit for the same GraphCast"
        machine = _machine_words(facts)
        matches.append(RecipeMatch(
            recipe=recipe, compatible=not reasons, recommended=is_best,
            reasons=tuple(r.replace("this machine", machine) for r in reasons),
            warnings=tuple(w.replace("THIS MACHINE", machine.upper()) for w in warnings),
            summary=summary.replace("this machine", machine), usable_gpus=v.usable, cautioned=v.cautioned,
            machine=machine, python_download=_download_version(recipe) if v.downloads else None,
        ))
    order = {id(m): i for i, m in enumerate(sorted(matches, key=lambda m: _rank(m.recipe), reverse=True))}
    matches.sort(key=lambda m: (not m.recommended, not m.compatible, order[id(m)]))
    return matches


def _machine_words(facts: Facts) -> str:
    """"this machine", or "node gpu07" for facts read on a GPU node through srun (the login node is not it)."""
    marker = getattr(facts, "slurm", None) or {}
    return f"node {marker.get('node') or '?'}" if marker.get("srun") else "this machine"


def graphcast_versions(recipes: dict[str, Recipe] | Iterable[Recipe]) -> list[str]:
    """The GraphCast versions the recipes run, oldest first."""
    items = recipes.values() if isinstance(recipes, dict) else recipes
    return sorted({r.graphcast.version for r in items}, key=lambda v: version_tuple(v) or ())


def group_by_graphcast(matches: Sequence[RecipeMatch]) -> list[tuple[str, list[RecipeMatch]]]:
    """The matches grouped by the GraphCast version they run, oldest version first, each group in the
    matches' own order (recommended, compatible, the rest)."""
    versions = sorted({m.graphcast_version for m in matches}, key=lambda v: version_tuple(v) or ())
    return [(v, [m for m in matches if m.graphcast_version == v]) for v in versions]
