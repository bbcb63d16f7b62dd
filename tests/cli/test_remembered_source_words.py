"""The source an earlier install used is offered again in words that say what that install was: "your last install"
only for one that finished. Walk 28 #15: the plan said "Your last install of GraphCast 0.1.1 used …" while the only
earlier install had been stopped with Ctrl-C."""

from __future__ import annotations

from types import SimpleNamespace

from tests.fixtures.cli import run_inproc
from wizard.flows.history import attempt_words


def test_a_source_only_a_failed_install_used_is_offered_as_that_attempts(tiny, isolated_state):
    tiny.write("tiny-broken", ["pkg-a==1.0", "pkg-nowhere==9.9"])  # in no wheelhouse: the packages' step fails
    failed = run_inproc("install", "tiny-broken", "--yes", *tiny.args())
    assert failed.returncode == 1, failed.stderr
    (entry,) = tiny.history()
    (tiny.recipes / "tiny-a.yaml").write_text((tiny.recipes / "tiny-a.yaml").read_text()
                                             .replace("github.com", "github.invalid"))
    planned = " ".join(run_inproc("plan", "tiny-a", "--recipes-dir", str(tiny.recipes), "--find-links",
                                  str(tiny.house.path)).stdout.split())
    assert "Your last install of" not in planned, planned
    assert (f"Your last attempt to install GraphCast 0.1.1 (failed, history {entry['id']}) used {tiny.graphcast}: "
            "give it again") in planned, planned
    plain = " ".join(run_inproc("--recipes-dir", str(tiny.recipes), "--find-links", str(tiny.house.path)).stdout.split())
    assert f"which your last attempt to install GraphCast 0.1.1 (failed, history {entry['id']}) used" in plain


def test_each_status_is_named_as_the_history_says_it():
    def words(status: str) -> str:
        return attempt_words(SimpleNamespace(status=status, id="20261128-181138-ab12"), "GraphCast 0.1.1")

    assert words("verified") == words("installed") == "Your last install of GraphCast 0.1.1"
    assert words("cancelled") == ("Your last attempt to install GraphCast 0.1.1 (stopped before it finished, history "
                                  "20261128-181138-ab12)")
    assert "(still running, history" in words("running")
