"""Walk 26 #10: `verify --json` run while another gc-wizard (the app) holds the state folder says in its JSON that
it was not recorded ("recorded": false and why), not only on stderr: a lab script reads only the last line.

A real environment (tiny recipe, real uv), a real `python -m wizard verify` process, the real state lock held."""

from __future__ import annotations

from tests.fixtures.state import last_json, run_cli
from wizard.lock import StateLock


def test_verify_json_says_whether_it_was_recorded(tiny):
    proc, result = tiny.install("tiny-a")
    assert proc.returncode == 0, proc.stderr
    env = result["env"]
    with StateLock("test"):  # as the app holds it while it runs
        held = run_cli("verify", "--env", env, "--json", "--level", "quick")
    data = last_json(held)
    assert data["recorded"] is False
    assert "another gc-wizard holds the state folder" in data["not_recorded"]
    assert "Traceback" not in held.stderr
    free = last_json(run_cli("verify", "--env", env, "--json", "--level", "quick"))
    assert free["recorded"] is True and free["not_recorded"] is None
