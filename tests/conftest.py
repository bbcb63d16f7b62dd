"""Registers the shared fixtures (each area keeps its own in tests/fixtures/) and marks every test by tier.

The folders are the tiers: `tests/unit/<package>/` and `tests/cli/` are the fast tier (in-process, no
index, a minute on two cores); `tests/e2e/` runs real processes (installs, signals, Slurm); `tests/tui/`
drives the app with Pilot and in tmux. Each test gets its tier's marker from its folder, so
`-m unit`, `-m "not e2e"` and the like select by what a test is, not by a list kept by hand.

Tests that use the single-node Slurm cluster share one worker under pytest-xdist (`xdist_group`, with
`--dist loadgroup`): one cluster per machine is what Slurm's daemons expect.

Tests marked `big` download several GB (the jax0.10.2-cuda12 stack); they run only with
GC_WIZARD_BIG_TESTS=1, so the default run (and CI) skips them with that reason.
"""

import os
from pathlib import Path

import pytest

pytest_plugins = [
    "tests.fixtures.state",
    "tests.fixtures.wheels",
    "tests.fixtures.gpu",
    "tests.fixtures.tiny",
    "tests.fixtures.jaxenv",
    "tests.fixtures.slurm",
    "tests.fixtures.index",
    "tests.fixtures.processes",
    "tests.fixtures.cli",
    "tests.fixtures.pythons",
    "tests.fixtures.tmux",
    "tests.fixtures.assets_server",
    "tests.fixtures.forecast",
    "tests.fixtures.modes",
    "tests.fixtures.full_disk",
]

TESTS = Path(__file__).resolve().parent
TIERS = {"unit": "unit", "cli": "cli", "e2e": "e2e", "tui": "tui"}
SLURM_FIXTURES = {"slurm", "slurm_cluster"}


def _tier(item) -> str | None:
    try:
        first = Path(str(item.path)).resolve().relative_to(TESTS).parts[0]
    except ValueError:
        return None
    return TIERS.get(first)


def pytest_collection_modifyitems(config, items):
    big = os.environ.get("GC_WIZARD_BIG_TESTS") == "1"
    skip = pytest.mark.skip(reason="downloads several GB; set GC_WIZARD_BIG_TESTS=1 to run it")
    for item in items:
        tier = _tier(item)
        if tier:
            item.add_marker(getattr(pytest.mark, tier))
        if SLURM_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.slurm)
            item.add_marker(pytest.mark.xdist_group("slurm"))
        if "big" in item.keywords and not big:
            item.add_marker(skip)
