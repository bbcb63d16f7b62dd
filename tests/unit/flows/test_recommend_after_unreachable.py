"""Walk 24 #1: once an install of the recommended recipe failed because its own wheel page could not be reached, the
machine screen's recommendation takes the recipe's alternative source, saying why (the history remembers the host)."""

from __future__ import annotations

from tests.cli.test_unreachable_links import with_page
from tests.fixtures.cli import run_inproc
from tests.fixtures.state import last_json
from wizard.flows.describe_machine import recommended_line
from wizard.flows.history import unreachable_page_seen
from wizard.recipes.loader import get_recipe
from wizard.recipes.match import RecipeMatch


def test_a_failed_install_on_an_unreachable_page_turns_the_recommendation_to_the_alternative(tiny, isolated_state):
    with_page(tiny)
    recipe = get_recipe("tiny-a", [str(tiny.recipes)])
    assert unreachable_page_seen(recipe) is None  # nothing known yet: the recipe as it is
    proc = run_inproc("install", "tiny-a", "--yes", "--json", "--force", "--no-verify", "--recipes-dir",
                      str(tiny.recipes), "--graphcast-src", str(tiny.graphcast), timeout=300)
    error = last_json(proc)["error"]
    assert proc.returncode == 1 and "cannot reach wheels.invalid" in error, proc.stdout
    # Walk 24 #2: the failure's fix names the way that works here first, before a bundle made elsewhere.
    assert "--alternative from-index" in error and error.index("--alternative") < error.index("gc-wizard bundle")
    assert unreachable_page_seen(recipe) == "wheels.invalid"
    line = recommended_line(RecipeMatch(recipe=recipe, compatible=True, recommended=True, reasons=(), summary="recommended: x"),
                            None, unreachable_page_seen(recipe))
    assert line.startswith("Recommended: tiny-a from its alternative source from-index (a on the Plan screen)")
    assert "could not reach wheels.invalid" in line
