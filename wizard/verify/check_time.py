"""How long the GraphCast check's slow tiers take (`wizard/data/check_times.yaml`), for the plan's estimate and
the running tier's clock.

Why (walk 25 #7): on a 2-core CPU server the GenCast jit init ran for two minutes showing only "(running, 110 s)",
and the plan had said neither that v0.2 recipes check GenCast too nor how long that takes. The figures are data,
each with its basis (measured on a named machine, or an estimate), so a new measurement is one edited line.
"""

from __future__ import annotations

from dataclasses import dataclass

from wizard import paths
from wizard.yaml_data import SHAPE_ERRORS, YAMLError, load_table

CHECK_TIMES_PATH = paths.DATA_DIR / "check_times.yaml"
BACKENDS = ("cpu", "gpu")


@dataclass(frozen=True)
class TierTime:
    tier: str
    backend: str
    seconds: float
    basis: str
    cores: int | None = None

    def about(self) -> str:
        """"about 2 min" / "about 50 s": rounded as a person says a wait."""
        if self.seconds < 90:
            return f"about {max(10, round(self.seconds / 10) * 10):.0f} s"
        return f"about {round(self.seconds / 60):.0f} min"

    def basis_words(self) -> str:
        """"measured on 2 CPU cores" / "an estimate"."""
        if self.basis == "measured":
            return f"measured on {self.cores} CPU cores" if self.cores else "measured"
        return "an estimate"


_TIMES: dict[tuple[str, str], TierTime] | None = None


def tier_times() -> dict[tuple[str, str], TierTime]:
    """Every (tier, backend) the data gives a time for. A table that cannot be read gives none: a missing
    estimate, never a failed plan."""
    global _TIMES
    if _TIMES is None:
        try:
            _TIMES = load_table(paths.package_file(CHECK_TIMES_PATH), times_from)
        except (OSError, YAMLError, *SHAPE_ERRORS):
            _TIMES = {}
    return _TIMES


def times_from(data: object) -> dict[tuple[str, str], TierTime]:
    """The table's data as times, or one of `yaml_data.SHAPE_ERRORS` for data of another shape: `load_table` uses
    a cache of the state only when its data passes this, so a swapped one is parsed again, never read as no times
    (38th hostile pass (part B) P4). A backend other than `BACKENDS` is passed over (a later table's)."""
    tiers = data["tiers"] if isinstance(data, dict) else None
    if not isinstance(tiers, dict) or not tiers:
        raise ValueError("'tiers' is not a mapping of tiers")
    times: dict[tuple[str, str], TierTime] = {}
    for tier, rows in tiers.items():
        if not isinstance(tier, str) or not isinstance(rows, dict):
            raise TypeError("a tier is not a mapping of backends")
        for backend, row in rows.items():
            if backend not in BACKENDS:
                continue
            seconds, cores, basis = row["seconds"], row.get("cores"), row.get("basis", "")
            if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not 0 < seconds < float("inf"):
                raise ValueError(f"the {tier} {backend} time is not a positive number of seconds")
            if not isinstance(basis, str) or not (cores is None or type(cores) is int and cores > 0):
                raise TypeError(f"the {tier} {backend} basis or cores are not text and a whole number")
            times[(tier, backend)] = TierTime(tier, backend, float(seconds), basis, cores)
    return times


def tier_time(tier: str, backend: str | None) -> TierTime | None:
    """The time `tier` takes on `backend` ("cpu", or "gpu" for any accelerator), or None when the data has none."""
    if backend not in BACKENDS:
        backend = "gpu" if backend else None
    return tier_times().get((tier, backend)) if backend else None
