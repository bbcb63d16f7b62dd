"""Walk 26 #13: `bundle --help` said the target's Python defaults to "the wizard's own"; for a recipe that does not
take it (JAX 0.12 needs 3.12+, the wizard on 3.11) it rightly used 3.13. Both helps now say what
`lockfile.default_python_version` does."""

from __future__ import annotations

import sys

import pytest

from tests.fixtures.cli import run_inproc
from wizard.install.lockfile import default_python_version
from wizard.recipes.loader import load_recipes
from wizard.recipes.match import python_fits


@pytest.mark.parametrize("command", ["bundle", "lock"])
def test_the_help_says_the_default_python_as_it_is_chosen(command):
    proc = run_inproc(command, "--help")
    text = " ".join(proc.stdout.split())
    assert "the wizard's own if the recipe takes it, else the newest the recipe takes" in text


def test_a_recipe_that_does_not_take_the_wizards_python_gets_its_newest():
    recipe = load_recipes()["jax0.12.0.1-cpu"]
    own = f"{sys.version_info.major}.{sys.version_info.minor}"
    expected = own if python_fits(recipe.machine.python, f"{own}.0") else "3.13"
    assert default_python_version(recipe) == expected
