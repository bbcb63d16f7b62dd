"""Says, before anything is installed, which GraphCast and GenCast models this machine's memory can hold.

Why: the most common way a working install still fails is memory — 0.25° GenCast runs out of GPU memory
on a 48 GB L40 and compiles in about 300 GB of host RAM; 37-level GraphCast runs out on a 24 GB RTX 4090.
A new lab member should learn that from the wizard, not after an hour of compiling. The figures are data
(`wizard/data/model_memory.yaml`, each with its source and how far to trust it); this module only
compares them with the detected facts (each GPU's memory, host RAM capped by a cgroup limit).

Verdicts per model: "fits" (a GPU with enough memory and enough host RAM), "gpu_too_small", "host_too_small"
(the GPU would do, the compile would not), "cpu_only" (no GPU, enough host RAM: runs, slowly), "no" (not
even on the CPU), "unknown" (a size could not be read). GB in the data are decimal, as the sources say.
"""

from __future__ import annotations

from pathlib import Path

from wizard import paths
from wizard.detect.facts import Facts, gib
from wizard.detect.record import record
from wizard.errors import UserError
from wizard.yaml_data import SHAPE_ERRORS, YAMLError, load_table

TYPE_CHECKING = False  # `typing.TYPE_CHECKING` without importing `typing` (start-up time, issue 23)
if TYPE_CHECKING:
    from typing import Any

MODEL_MEMORY_PATH = paths.DATA_DIR / "model_memory.yaml"
BASES = ("documented", "reported", "estimate")
VERDICTS = ("fits", "gpu_too_small", "host_too_small", "cpu_only", "no", "unknown")
_MIB_PER_GB = 1e9 / 2**20


@record
class ModelNeed:
    id: str
    model: str
    resolution: str
    name: str
    gpu_gb: float
    host_gb: float
    basis: str
    source: str


@record
class ModelFit:
    need: ModelNeed
    verdict: str
    gpus: tuple[int, ...]
    """Indices of the GPUs with enough memory for it."""
    message: str

    def to_dict(self) -> dict[str, Any]:
        n = self.need
        return {"id": n.id, "model": n.model, "resolution": n.resolution, "name": n.name,
                "gpu_gb": n.gpu_gb, "host_gb": n.host_gb, "basis": n.basis, "source": n.source,
                "verdict": self.verdict, "fits": self.verdict == "fits", "gpus": list(self.gpus),
                "message": self.message, "needs": needs_text(n)}


def load_needs(path: Path = MODEL_MEMORY_PATH) -> tuple[ModelNeed, ...]:
    """The models' needs from the data file; a broken file is one sentence naming it."""
    try:
        return load_table(paths.package_file(path), needs_from)
    except (OSError, YAMLError, *SHAPE_ERRORS) as exc:
        raise UserError(f"the model memory table {path} is unreadable ({exc})") from None


def needs_from(data: Any) -> tuple[ModelNeed, ...]:
    """The table's data as needs, each field of the type the YAML gives; anything else raises one of
    `yaml_data.SHAPE_ERRORS` (`load_table` then parses the YAML again rather than trust a cache of that shape)."""
    models = data["models"] if isinstance(data, dict) else None
    if not isinstance(models, list) or not models:
        raise ValueError("'models' is not a list of models")
    needs = []
    for item in models:
        if not isinstance(item, dict):
            raise TypeError(f"a model is {type(item).__name__}, not a mapping")
        need = ModelNeed(id=_text(item, "id"), model=_text(item, "model"), resolution=_text(item, "resolution"),
                         name=_text(item, "name"), gpu_gb=_gb(item, "gpu_gb"), host_gb=_gb(item, "host_gb"),
                         basis=_text(item, "basis"), source=" ".join(_text(item, "source").split()))
        if need.basis not in BASES:
            raise ValueError(f"basis {need.basis!r} of {need.id} is not one of {', '.join(BASES)}")
        float(need.resolution)  # shown as a number of degrees (`summary_lines`)
        needs.append(need)
    return tuple(needs)


def _text(item: dict, key: str) -> str:
    value = item[key]
    if not isinstance(value, str):
        raise TypeError(f"{key!r} is {type(value).__name__}, not text")
    return value


def _gb(item: dict, key: str) -> float:
    value = item[key]
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value < float("inf"):
        raise ValueError(f"{key!r} is not a positive number of GB")
    return float(value)


def assess(facts: Facts, needs: tuple[ModelNeed, ...] | None = None) -> list[ModelFit]:
    """One verdict per model, in the data file's order."""
    needs = load_needs() if needs is None else needs
    host_mib = facts.memory.usable_mib if facts.memory else None
    limited = bool(facts.memory and facts.memory.limit_mib)
    out = []
    for need in needs:
        need_gpu_mib, need_host_mib = need.gpu_gb * _MIB_PER_GB, need.host_gb * _MIB_PER_GB
        known = [g for g in facts.gpus if g.memory_total_mib]
        big = tuple(g.index for g in known if g.memory_total_mib >= need_gpu_mib)
        host_ok = None if host_mib is None else host_mib >= need_host_mib
        host_text = ("host RAM unknown" if host_mib is None else
                     f"host RAM {gib(host_mib)}{' (cgroup limit)' if limited else ''}")
        if facts.gpus and not known:
            verdict, text = "unknown", "GPU memory could not be read"
        elif big and host_ok is not False:
            names = ("GPU " if len(big) == 1 else "GPUs ") + ", ".join(str(i) for i in big)
            verdict = "fits" if host_ok else "unknown"
            text = f"fits on {names}" + ("" if host_ok else f"; {host_text}: compile unchecked")
        elif big:
            verdict, text = "host_too_small", f"GPU ok; {host_text.replace('host ', '')} too small to compile"
        elif facts.gpus:
            largest = max(g.memory_total_mib for g in known)
            verdict, text = "gpu_too_small", f"largest GPU has {gib(largest, 0)}"
        elif host_ok:
            verdict, text = "cpu_only", f"on the CPU, slowly ({host_text})"  # "CPU only" says no GPU: one row at 80
        elif host_ok is None:
            verdict, text = "unknown", f"no GPU, and {host_text}"
        else:
            verdict, text = "no", f"no GPU; {host_text} too small"
        out.append(ModelFit(need=need, verdict=verdict, gpus=big, message=text))
    return out


WORDS = {"fits": "yes", "cpu_only": "CPU only", "gpu_too_small": "no", "host_too_small": "no", "no": "no",
         "unknown": "?"}


def needs_text(need: ModelNeed) -> str:
    """"needs ~16 GB GPU, ~24 GB RAM (documented)"."""
    return f"needs ~{need.gpu_gb:g} GB GPU, ~{need.host_gb:g} GB RAM ({need.basis})"


def summary_lines(fits: list[ModelFit]) -> list[str]:
    """One line per model: "GenCast 0.25°: no — the largest GPU has 17 GB; needs ~60 GB GPU, …"."""
    return [f"{f.need.model} {float(f.need.resolution):g}°: {WORDS[f.verdict]} — {f.message}; {needs_text(f.need)}"
            for f in fits]
