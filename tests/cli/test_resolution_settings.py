"""An installer setting that changes how packages are picked or checked is named by the plan and, when it makes a
step fail, by the failure (`install.resolution_settings`).

Before (32nd hostile pass, part B, P2): with `UV_REQUIRE_HASHES=1` the plan was silent and the install failed at
"Install the 1 pinned packages" with uv's "--require-hashes" message and no word of the variable. The real CLI in
this process, on the tiny recipes."""

from __future__ import annotations

import json

from tests.fixtures.cli import run_inproc


def test_uv_require_hashes_is_named_by_the_plan_and_by_the_failed_install(tiny, monkeypatch):
    monkeypatch.setenv("UV_REQUIRE_HASHES", "1")
    plan = run_inproc("plan", "tiny-a", *tiny.args()[:-1])
    assert plan.returncode == 0, (plan.stdout, plan.stderr)
    assert "UV_REQUIRE_HASHES=1 would have uv require a sha256" in " ".join(plan.stdout.split()), plan.stdout
    described = run_inproc("plan", "tiny-a", "--json", *tiny.args()[:-1])
    assert any("UV_REQUIRE_HASHES" in note for note in json.loads(described.stdout)["notes"])
    proc, _result = tiny.install("tiny-a")
    assert proc.returncode != 0
    assert "The cause is your setting: UV_REQUIRE_HASHES=1" in proc.stdout + proc.stderr, (proc.stdout, proc.stderr)
