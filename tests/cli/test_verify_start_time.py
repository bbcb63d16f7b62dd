"""A verify's history entry says when the check began, not only when it ended (walk 23 #11: a
55 s `verify --json` was recorded with started = finished = its end, and an id from its end)."""

from __future__ import annotations

from datetime import datetime

from tests.fixtures.state import last_json, run_cli


def test_a_slow_verify_is_recorded_with_its_real_start(tiny):
    tiny.house.add("jax", "0.4.23", module_source="import time\ntime.sleep(3)\n")
    tiny.write("tiny-slow", ["pkg-a==1.0", "jax==0.4.23"])
    proc, installed = tiny.install("tiny-slow")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    check = run_cli("verify", "--env", installed["env"], "--json", "--level", "quick")
    assert "Traceback" not in check.stderr, check.stderr
    history = last_json(run_cli("history", "--json"))
    (entry,) = [e for e in history if e["kind"] == "verify"]
    started, finished = (datetime.fromisoformat(entry[key]) for key in ("started", "finished"))
    assert (finished - started).total_seconds() >= 3, entry
    assert entry["id"].startswith(started.strftime("%Y%m%d-%H%M%S")), entry
