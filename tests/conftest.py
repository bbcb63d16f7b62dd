"""Registers the shared fixtures; each area keeps its own in tests/fixtures/.

Tests marked `big` download several GB (the jax0.10.2-cuda12 stack); they run only with
GC_WIZARD_BIG_TESTS=1, so the default run (and CI) skips them with that reason.
"""

import os

import pytest

pytest_plugins = [
    "tests.fixtures.state",
    "tests.fixtures.wheels",
    "tests.fixtures.gpu",
    "tests.fixtures.tiny",
    "tests.fixtures.jaxenv",
    "tests.fixtures.slurm",
    "tests.fixtures.index",
]


def pytest_collection_modifyitems(config, items):
    if os.environ.get("GC_WIZARD_BIG_TESTS") == "1":
        return
    skip = pytest.mark.skip(reason="downloads several GB; set GC_WIZARD_BIG_TESTS=1 to run it")
    for item in items:
        if "big" in item.keywords:
            item.add_marker(skip)
