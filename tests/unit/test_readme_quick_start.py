"""The README opens with the two commands a fresh machine needs: one starts the product, one runs the tests.

Why a test: CI (`.ci/run`) runs the second line of the Quick start block verbatim, and a rewrite of the README that
left one command there (the test command moved to Development) made CI run nothing it could parse.
"""

from __future__ import annotations

import re
from pathlib import Path

README = Path(__file__).resolve().parents[2] / "README.md"


def _quick_start_commands() -> list[str]:
    text = README.read_text(encoding="utf-8")
    block = re.search(r"^## Quick start\s*$.*?^```[a-z]*\n(.*?)^```", text, re.S | re.M)
    assert block, "README.md has no ## Quick start section with a code block"
    return [line for line in block.group(1).splitlines() if line.strip() and not line.strip().startswith("#")]


def test_the_quick_start_starts_the_product_then_runs_the_tests():
    start, tests = _quick_start_commands()[:2]
    assert start.startswith("python3 -m venv .venv") and start.endswith(".venv/bin/gc-wizard"), start
    assert tests.startswith("python3 -m venv .venv") and '.[test]' in tests and "-m pytest" in tests, tests


def test_the_fast_tier_is_named_beside_them():
    text = README.read_text(encoding="utf-8")
    quick = text[text.index("## Quick start"):text.index("\n## ", text.index("## Quick start") + 1)]
    assert "fast tier" in quick and "pytest tests/unit tests/cli" in quick
