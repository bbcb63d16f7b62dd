"""The probe keeps its own copy of the line protocol (it runs under the environment's Python, which
cannot import the wizard); this pins that copy to wizard/verify/protocol.py, and the typed tiers to the
probe's JSON."""

from __future__ import annotations

import importlib.util

import pytest

from wizard.verify import protocol
from wizard.verify.probe import PROBE_PATH
from wizard.verify.protocol import Tier


def _probe():
    spec = importlib.util.spec_from_file_location("gc_probe_copy", PROBE_PATH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_probe_keeps_the_same_protocol():
    probe = _probe()
    assert probe.TIERS == protocol.ALL_TIERS
    assert probe.BASE_TIERS == protocol.TIERS
    assert probe.TIER_PREFIX == protocol.TIER_PREFIX
    assert probe.TIER_START_PREFIX == protocol.TIER_START_PREFIX


def test_the_terminal_app_titles_every_tier():
    from wizard.tui.screens.verify import TIER_TITLES

    assert tuple(TIER_TITLES) == protocol.ALL_TIERS


@pytest.mark.parametrize(("data", "status", "ok"), [
    ({"name": "backend", "ok": True, "status": "passed", "seconds": 1.5, "devices": [1]}, "passed", True),
    ({"name": "cudnn_op", "ok": True, "status": "skipped", "seconds": 0.0, "skipped": True, "reason": "cpu"},
     "skipped", True),
    ({"name": "graphcast_jit_init", "ok": False, "status": "not_run", "seconds": 0.0, "reason": "not run"},
     "not_run", False),
    ({"name": "jax_import", "ok": False, "status": "failed", "seconds": 2,
      "error": {"type": "ImportError", "message": "no jax"}}, "failed", False),
    ({"name": "backend", "ok": False, "status": "cancelled", "seconds": None,
      "error": {"type": "Cancelled", "message": "stopped"}}, "cancelled", False),
    ({"name": "backend", "ok": True}, "passed", True),  # an older probe without "status"
])
def test_tiers_round_trip_the_probes_json(data, status, ok):
    tier = Tier.from_probe(data)
    assert (tier.status, tier.ok) == (status, ok)
    again = Tier.from_probe(tier.to_dict())
    assert again == tier
    out = tier.to_dict()
    assert (out["status"], out["ok"]) == (status, ok)
    assert all(out[k] == v for k, v in data.items() if k not in ("status", "ok", "seconds"))
    if isinstance(data.get("seconds"), (int, float)):
        assert out["seconds"] == data["seconds"]
