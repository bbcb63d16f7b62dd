"""No folded row passes the width unless it is one unbreakable span longer than the width (walk 39 #5): the CLI's
`recipes` folded "(`gc-wizard history` lists them all)." to 80 columns, then printed the program as its whole path, so
the row reached 84 columns and the terminal cut "a" / "ll)." mid-word."""

from __future__ import annotations

import random
import re

import pytest

from wizard import paths
from wizard.commands import output
from wizard.wrap import wrap

ME = "/home/lab2/gc-wizard/.venv/bin/gc-wizard"
WORDS = ("a", "new", "install", "builds", "another", "environment", "beside", "it", "(lists", "them", "all).",
         "/home/lab2/.local/share/gc-wizard/envs/jax0.4.23-cpu-20261129-114133", "--graphcast-src", "8 GB")


def _one_unit(row: str) -> bool:
    """A row holding a single unbreakable span (a word, or one backquoted span with what is glued to it)."""
    return " " not in re.sub(r"`[^`]*`", "X", row.strip())


def _text(rng: random.Random) -> str:
    parts = []
    for _ in range(rng.randint(3, 30)):
        if rng.random() < 0.2:
            words = " ".join(rng.choice(WORDS) for _ in range(rng.randint(0, 6)))
            span = ("`gc-wizard " + words).rstrip() + "`"
            parts.append(rng.choice(("(", "")) + span + rng.choice(("", ".", ").")))
        else:
            parts.append(rng.choice(WORDS))
    return " ".join(parts)


def test_the_core_wrap_keeps_every_row_within_the_width_but_a_lone_long_span():
    rng = random.Random(39_5)
    for _ in range(400):
        width, text = rng.randint(20, 120), _text(rng)
        indent = " " * rng.randint(0, 6)
        for row in wrap(text, width, indent, indent + "  "):
            assert len(row) <= width or _one_unit(row), (width, row)


@pytest.mark.parametrize("me", [ME, "PYTHONPATH=/work/a/very/long/checkout /usr/bin/python3 -m wizard", "gc-wizard"])
def test_the_cli_fold_measures_the_program_as_it_is_printed(monkeypatch, me):
    """`output.wrapped`, then `say` (which spells each quoted `gc-wizard` as a new shell runs it): every printed row
    within the width, unless it is one span longer than the width alone."""
    monkeypatch.setattr(paths, "wizard_command", lambda: me)
    rng = random.Random(39_05)
    for _ in range(300):
        width, text = rng.randint(40, 100), _text(rng)
        printed = output.runnable("\n".join(output.wrapped(text, width, "    ", "      ")))
        for row in printed.split("\n"):
            assert len(row) <= width or _one_unit(row), (width, row)
        assert "`gc-wizard " not in printed or me == "gc-wizard"


def test_the_recipes_row_walk_39_saw(monkeypatch):
    monkeypatch.setattr(paths, "wizard_command", lambda: ME)
    text = ("Already installed and current: a new install builds another environment beside it (`gc-wizard history` "
            "lists them all).")
    printed = output.runnable("\n".join(output.wrapped(text, 80, "    ", "      "))).split("\n")
    assert max(map(len, printed)) <= 80, printed
    assert any(f"(`{ME} history`" in row for row in printed), printed
