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
    said = " ".join((proc.stdout + proc.stderr).split())  # read across the CLI's fold: its place moves with the path
    assert "The cause is your setting: UV_REQUIRE_HASHES=1" in said, (proc.stdout, proc.stderr)


def test_a_tls_trust_variable_is_named_by_the_plan_and_by_each_steps_log(tiny, monkeypatch, tmp_path):
    """Fixers' leftover (TLS trust variables): SSL_CERT_FILE was passed on to every step and named nowhere."""
    ca = tmp_path / "private" / "site-ca.pem"
    ca.parent.mkdir(mode=0o700)
    ca.write_text("")
    monkeypatch.setenv("SSL_CERT_FILE", str(ca))
    plan = run_inproc("plan", "tiny-a", *tiny.args()[:-1])
    assert plan.returncode == 0, (plan.stdout, plan.stderr)
    assert f"SSL_CERT_FILE={ca} has uv trust the certificate authorities" in " ".join(plan.stdout.split())
    proc, result = tiny.install("tiny-a")
    assert proc.returncode == 0, proc.stderr[-3000:]
    log = open(result["log"]).read()
    assert log.count(f"SSL_CERT_FILE={ca} has uv trust") >= 2, log[-3000:]
