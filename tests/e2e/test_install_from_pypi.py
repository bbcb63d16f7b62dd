"""The real thing: `gc-wizard install jax0.4.23-cpu --yes` from PyPI, checked, then rolled back to.

GraphCast itself comes from a local v0.1.1 checkout (`GC_WIZARD_GRAPHCAST_SRC`): code and CI cannot
reach GitHub, and a stand-in would prove nothing about GraphCast, so without it the test skips.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.fixtures.jaxenv import require_graphcast_src
from tests.fixtures.state import last_json, run_cli


@pytest.mark.network
@pytest.mark.slow
def test_real_cpu_recipe_end_to_end_then_rollback_prefers_the_verified_one(tiny, isolated_state):
    src = require_graphcast_src()
    proc = run_cli("install", "jax0.4.23-cpu", "--yes", "--json", "--graphcast-src", src, "--level", "quick",
                   timeout=1500)
    assert proc.returncode == 0, proc.stderr[-3000:]
    real = last_json(proc)
    assert real["ok"] and real["status"] == "verified"
    versions = real["verify"]["tiers"][0]["versions"]
    assert versions["jax"] == "0.4.23" and versions["jaxlib"] == "0.4.23"
    assert versions["numpy"].startswith("1.") and versions["graphcast"] == "0.1.1"
    log = Path(real["log"]).read_text()
    assert "+ jax==0.4.23" in log and "jax_import" in log
    marker = json.loads((Path(real["env"]) / "gc-wizard-env.json").read_text())
    assert marker["backend"] == "cpu" and marker["verified"]

    (entry,) = [e for e in tiny.history() if e["id"] == real["entry_id"]]
    assert "jax==0.4.23" in entry["packages"] and "numpy==1.26.4" in entry["packages"]
    frozen = Path(entry["requirements_file"]).read_text()  # hashes from uv's cache of PyPI's index
    assert "jax==0.4.23 \\\n    --hash=sha256:" in frozen and "graphcast @ file://" in frozen

    _, a = tiny.install("tiny-a")  # newer, installed but never checked
    _, b = tiny.install("tiny-b")  # current
    proc = run_cli("rollback", "--yes", "--json", "--level", "quick", timeout=900)
    assert proc.returncode == 0, proc.stderr[-3000:]
    back = last_json(proc)
    assert back["ok"] and back["from"] == b["entry_id"] and back["to"] == real["entry_id"]
    assert back["verify"]["ok"] and back["env"] == real["env"]
    assert "current: tiny-b" in proc.stderr and "jax 0.4.23" in proc.stderr and "numpy 1.26.4" in proc.stderr
    current = [e for e in tiny.history() if e["current"]]
    assert [e["id"] for e in current] == [real["entry_id"]]
    assert Path(a["env"]).is_dir() and Path(b["env"]).is_dir()  # nothing deleted
