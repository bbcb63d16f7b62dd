"""A GraphCast source that is a look-alike is refused before anything installs, saying what it is."""

from __future__ import annotations

from tests.fixtures.wheels import build_wheel
from wizard.install.sources import check_graphcast_source
from wizard.recipes.loader import load_recipes


def test_pypis_gencast_wheel_is_refused_as_a_lookalike(tmp_path):
    wheel = build_wheel(tmp_path / "house", "gencast", "0.1.3", summary="Generate podcasts from text")
    verdict = check_graphcast_source(load_recipes()["jax0.12.0.1-cpu"], str(wheel))
    assert not verdict.ok
    assert "an unrelated podcast generator" in verdict.problem
    assert "GenCast ships inside its graphcast package (v0.2 and later)" in verdict.problem
    assert "needs DeepMind's graphcast 0.2" in verdict.problem



def _checkout(root, name: str, version: str):
    """A source folder whose setup.py names `name` `version` (read by the wizard, never run)."""
    root.mkdir(parents=True)
    (root / "setup.py").write_text(f'from setuptools import setup\nsetup(\n    name="{name}",\n    version="{version}",\n)\n')
    return root


def test_weathernext_recipes_take_a_weathernext_checkout_and_refuse_graphcast(tmp_path):
    recipe = load_recipes()["weathernext0.3.0-cpu"]
    assert check_graphcast_source(recipe, str(_checkout(tmp_path / "wn", "weathernext", "0.3.0"))).ok
    refused = check_graphcast_source(recipe, str(_checkout(tmp_path / "gc", "graphcast", "0.2")))
    assert not refused.ok and "needs DeepMind's weathernext 0.3" in refused.problem
    newer = check_graphcast_source(recipe, str(_checkout(tmp_path / "main", "weathernext", "0.3.1.dev")))
    assert not newer.ok and "check out the right tag" in newer.problem and "unrelated" not in newer.problem
    # And a GraphCast recipe still calls WeatherNext what it is.
    v02 = check_graphcast_source(load_recipes()["jax0.12.0.1-cpu"], str(tmp_path / "wn"))
    assert not v02.ok and "renamed WeatherNext" in v02.problem
