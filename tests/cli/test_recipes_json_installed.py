"""Walk 25 #8: `recipes --json` had no "installed" or "current": the current recipe and an installed one looked
exactly like recipes never installed, while the text said "Already installed and current". Two real installs
(uv, the tests' wheelhouse), then the JSON says which is which."""

from __future__ import annotations

from tests.fixtures.cli import run_inproc
from tests.fixtures.state import last_json


def test_recipes_json_says_installed_and_current(tiny):
    for recipe_id in ("tiny-a", "tiny-b"):
        proc, result = tiny.install(recipe_id)
        assert proc.returncode == 0 and result["ok"], proc.stderr
    listed = {r["id"]: r for r in last_json(run_inproc("recipes", "--json", "--recipes-dir", tiny.recipes))}
    assert (listed["tiny-a"]["installed"], listed["tiny-a"]["current"]) == (True, False)
    assert (listed["tiny-b"]["installed"], listed["tiny-b"]["current"]) == (True, True)
    assert (listed["jax0.4.23-cpu"]["installed"], listed["jax0.4.23-cpu"]["current"]) == (False, False)
