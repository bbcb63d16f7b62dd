"""The bundle an earlier install of a recipe came from is offered again in words that say what that install was:
"your last install" only for one that finished (`flows.history.remembered_bundle`, `attempt_words`) — in the plan's
unreachable GraphCast host, its unreachable index, and a failed step's advice alike.

Before (leftovers of the 30th hostile pass, item 3): all three said "your last install of RECIPE came from the bundle"
when the newest install from it had failed or been stopped — walk 28 #15's problem, fixed then for
`--graphcast-src` only."""

from __future__ import annotations

import pytest

from tests.fixtures.cli import run_inproc
from wizard.flows.describe_plan import index_down_words
from wizard.history.store import Entry, load_history
from wizard.install.plan import plan_install
from wizard.install.reach import Unreachable, advice_for
from wizard.recipes.loader import get_recipe

ENTRY = "20261128-181138-ab12"


def _history_with_a_bundle(tmp_path, status: str):
    bundle = tmp_path / "gc-bundle"
    bundle.mkdir()
    (bundle / "manifest.json").write_text("{}")
    history = load_history()
    history.add(Entry(id=ENTRY, kind="install", recipe="tiny-a", env=str(tmp_path / "e1"), status=status,
                      bundle=str(bundle)))
    history.save()
    return bundle


def test_a_bundle_only_a_stopped_install_came_from_is_offered_as_that_attempts(tiny, isolated_state, tmp_path):
    bundle = _history_with_a_bundle(tmp_path, "cancelled")
    (tiny.recipes / "tiny-a.yaml").write_text((tiny.recipes / "tiny-a.yaml").read_text()
                                             .replace("github.com", "github.invalid"))
    planned = " ".join(run_inproc("plan", "tiny-a", "--recipes-dir", str(tiny.recipes)).stdout.split())
    attempt = f"our last attempt to install tiny-a (stopped before it finished, history {ENTRY})"
    assert f"Y{attempt} came from the bundle {bundle}: install from it again" in planned, planned
    assert "last install of tiny-a" not in planned, planned
    recipe = get_recipe("tiny-a", [str(tiny.recipes)])
    down = index_down_words(plan_install(recipe), "https://pypi.org/simple")
    assert f": y{attempt} came from the bundle {bundle}: install from it again" in down, down
    # a failed step's advice (`transaction`) passes the same words to the host advice
    said = advice_for([Unreachable("pypi.org", "index", "x")], recipe, bundle_here=str(bundle),
                      bundle_install=f"y{attempt}")
    assert f"nstall from the bundle y{attempt} came from, which is here" in said, said


@pytest.mark.parametrize(("status", "words"), [("verified", "Your last install of tiny-a"),
                                               ("installed", "Your last install of tiny-a"),
                                               ("failed", f"Your last attempt to install tiny-a (failed, history {ENTRY})")])
def test_each_status_is_named_as_the_history_says_it(isolated_state, tmp_path, status, words):
    from wizard.flows.history import remembered_bundle

    bundle = _history_with_a_bundle(tmp_path, status)
    assert remembered_bundle("tiny-a") == (str(bundle), words)
