"""Registers the shared fixtures; each area keeps its own in tests/fixtures/."""

pytest_plugins = [
    "tests.fixtures.state",
    "tests.fixtures.wheels",
    "tests.fixtures.gpu",
    "tests.fixtures.tiny",
    "tests.fixtures.jaxenv",
    "tests.fixtures.slurm",
    "tests.fixtures.index",
]
