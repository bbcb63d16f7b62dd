"""Allows `python -m wizard`, which the tests use to run the real CLI in a subprocess."""

from wizard.cli import run

raise SystemExit(run())
