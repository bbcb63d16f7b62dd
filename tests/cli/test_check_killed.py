"""A GraphCast check whose probe a signal ends says which signal, as an install's step does (eighteenth hostile
pass P20: "the probe exited with status -9 …, which matches no known failure")."""

from __future__ import annotations

from tests.fixtures.state import last_json, run_cli


def test_a_probe_killed_by_sigkill_is_said_with_the_signal_and_what_sends_it(tiny):
    tiny.house.add("jax", "0.4.23", module_source="import os, signal\nos.kill(os.getpid(), signal.SIGKILL)\n")
    tiny.write("tiny-killed", ["pkg-a==1.0", "jax==0.4.23"])
    proc, installed = tiny.install("tiny-killed")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    check = run_cli("verify", "--env", installed["env"], "--json", "--level", "quick")
    assert check.returncode == 1, check.stdout + check.stderr
    text = str(last_json(check))
    assert "the probe was killed by SIGKILL (what the kernel's out-of-memory killer sends" in text, text[-1500:]
    assert "status -9" not in text and "Traceback" not in check.stderr
