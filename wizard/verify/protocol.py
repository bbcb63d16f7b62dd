"""The verify probe's line protocol and its tiers, typed: the one copy the wizard reads.

The probe (`wizard/verify/probe/graphcast_probe.py`) runs under the environment's own Python, which
cannot import the wizard, so it keeps its own copy of these constants; `tests/test_probe_protocol.py`
loads the probe by path and pins that copy to this one.

While it runs the probe prints `TIER_START_PREFIX {"name": …}` when a tier begins and
`TIER_PREFIX {tier as JSON}` when it ends (on stderr), then the whole result as one JSON line on
stdout. Each tier is a `Tier`: its name, a status (`passed`, `failed`, `skipped`, `not_run`, or
`cancelled` when the user stopped the check in it), its seconds, the error when it failed, and
whatever else the probe measured (`details`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, get_args

TIERS = ("jax_import", "backend", "cudnn_op", "graphcast_jit_init")
#: The tier a GraphCast with GenCast (v0.2 and later) adds after TIERS.
GENCAST_TIER = "gencast_jit_init"
#: Every tier a probe can report, in order (the probe's own `TIERS`).
ALL_TIERS = TIERS + (GENCAST_TIER,)
#: Each tier in words, as both faces and the history show it (never the id).
TIER_TITLES = {
    "jax_import": "import jax and jaxlib; find GraphCast",
    "backend": "JAX backend and devices",
    "cudnn_op": "a convolution on the GPU (cuDNN)",
    "graphcast_jit_init": "GraphCast jit init (the notebook's cell)",
    "gencast_jit_init": "GenCast jit init (1°, GPU-safe attention)",
}
TIER_PREFIX = "gc-wizard-tier: "
TIER_START_PREFIX = "gc-wizard-tier-start: "

TierStatus = Literal["passed", "failed", "skipped", "not_run", "cancelled"]
TIER_STATUSES: tuple[str, ...] = get_args(TierStatus)
_CORE_KEYS = ("name", "ok", "status", "seconds", "error")


@dataclass(frozen=True)
class Tier:
    """One tier of the GraphCast check, as the probe reported it."""

    name: str
    status: TierStatus
    seconds: float | None = None
    error: Mapping[str, Any] | None = None
    """`{"type", "message"}` when the tier failed."""
    details: Mapping[str, Any] = field(default_factory=dict)
    """Everything else the probe reported (versions, devices, parameter count, reason, warnings…)."""

    @property
    def ok(self) -> bool:
        """Passed, or skipped because it does not apply (the cuDNN tier on the CPU)."""
        return self.status in ("passed", "skipped")

    @property
    def reason(self) -> str | None:
        return self.details.get("reason")

    @classmethod
    def from_probe(cls, data: Mapping[str, Any]) -> Tier:
        """A tier from the probe's JSON; a status it does not name is worked out from `ok`/`skipped`."""
        status = data.get("status")
        if status not in TIER_STATUSES:
            status = "skipped" if data.get("skipped") else ("passed" if data.get("ok") else "failed")
        error = data.get("error")
        seconds = data.get("seconds")
        return cls(name=str(data.get("name") or "?"), status=status,
                   seconds=float(seconds) if isinstance(seconds, (int, float)) and not isinstance(seconds, bool)
                   else None,
                   error=error if isinstance(error, Mapping) else ({"message": str(error)} if error else None),
                   details={k: v for k, v in data.items() if k not in _CORE_KEYS})

    def with_details(self, **more: Any) -> Tier:
        return Tier(self.name, self.status, self.seconds, self.error, {**self.details, **more})

    def to_dict(self) -> dict[str, Any]:
        """The probe's shape (the verify JSON of docs/interface.md)."""
        data: dict[str, Any] = {"name": self.name, "ok": self.ok, "status": self.status, "seconds": self.seconds}
        data.update(self.details)
        if self.error is not None:
            data["error"] = dict(self.error)
        return data
