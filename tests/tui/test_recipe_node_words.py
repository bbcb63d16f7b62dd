"""The recipe list after detection through srun: a fitting recipe "fits node gpu07", not "this machine"."""

from __future__ import annotations

from tests.unit.detect.test_slurm_node_words import _facts
from wizard.recipes.loader import load_recipes
from wizard.recipes.match import match_recipes
from wizard.tui.screens.recipe import describe_match, option_label


def test_the_recipe_rows_and_detail_name_the_node(tmp_path):
    matches = match_recipes(load_recipes([]), _facts(tmp_path))
    fitting = next(m for m in matches if m.compatible and not m.recommended)
    assert "fits node gpu07" in option_label(fitting)
    assert "Compatible with node gpu07." in describe_match(fitting)
