"""Walk 27 (rollback's check time): rollback's GraphCast check ran with no word of how long it takes, while install's said "GraphCast jit
init: started (about 50 s on the CPU; Ctrl-C stops it)". Both take the check's `on_tier_start` from one place
(`transaction.tier_start_reporter`), so the CLI prints the same line during a rollback and the app's rollback screen
shows it in its log. Real tiny installs; the check itself is a stand-in that starts its GraphCast tier and passes."""

from __future__ import annotations

from pathlib import Path

from tests.fixtures.cli import run_inproc
from wizard.flows import rollback as rollback_flow
from wizard.flows.describe_check import tier_start_words
from wizard.flows.types import Tier
from wizard.verify.check import VerifyResult


def _passing_check(started: list[str]):
    def check(env: Path, *, backend: str, level: str = "notebook", log_path: Path | None = None, **kw):
        if kw.get("on_tier_start") is not None:
            kw["on_tier_start"]("graphcast_jit_init")
        tier = Tier(name="graphcast_jit_init", status="passed", seconds=1.0)
        started.append(backend)
        return VerifyResult(ok=True, env=str(env), backend=backend, level=level, tiers=[tier], findings=[],
                            log=str(log_path), seconds=1.0)

    return check


def test_rollback_s_check_says_its_usual_time_as_install_s_does(tiny, monkeypatch):
    _, a = tiny.install("tiny-a")
    tiny.install("tiny-b")
    started: list[str] = []
    monkeypatch.setattr(rollback_flow, "verify_env", _passing_check(started))
    proc = run_inproc("rollback", a["entry_id"], "--yes")
    assert proc.returncode == 0, proc.stderr
    words = tier_start_words("graphcast_jit_init", "cpu")
    assert words is not None and "about" in words and started == ["cpu"]
    # wrapped between words at the terminal's width, each row indented (walk 33 #5)
    assert " ".join(words.split()) in " ".join(proc.stdout.split()), proc.stdout
