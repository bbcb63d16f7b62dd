"""The app's recipe list and Machine screen mark a recipe whose newest install failed its GraphCast check, with the
failure and what to do (walk 28 #8: the app recommended it again as if untroubled)."""

from __future__ import annotations

from types import SimpleNamespace

from tests.fixtures.results import FAILED_CHECK
from tests.fixtures.results import install_entry as _install
from tests.fixtures.state import save_entries
from wizard.flows.describe_machine import next_step_text
from wizard.flows.history import last_failed_checks
from wizard.recipes.loader import get_recipe
from wizard.tui.screens.recipe import describe_match, option_label


def test_the_app_says_it_on_the_row_the_text_and_the_machine_screen(isolated_state):
    save_entries([_install(6, "failed", FAILED_CHECK)])
    words = last_failed_checks()["jax0.4.23-cpu"]
    match = SimpleNamespace(recipe=get_recipe("jax0.4.23-cpu"), recommended=True, compatible=True, cautioned=False, machine="node vm", summary="",
                            reasons=[], warnings=[], unreachable=())
    assert option_label(match, failed=True).startswith("! jax0.4.23-cpu") and "last check failed · recommended" in \
        option_label(match, failed=True)
    assert f"! {words}" in describe_match(match, failed=words)
    facts = SimpleNamespace(slurm=None, gpus=[])
    assert f"Recommended: jax0.4.23-cpu\n! {words}\nPress Enter" in next_step_text(facts, match, failed=words)
