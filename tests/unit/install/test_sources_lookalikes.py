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

