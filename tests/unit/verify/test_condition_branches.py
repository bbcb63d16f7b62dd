"""A catalogue condition (`with:`/`without:`) is searched branch by branch, each with its own anchors.

Why: one unanchored branch made a whole alternation run at every position of every piece of a log that never
met it (the container condition alone cost 0.36 s a megabyte; a big log was read at 1 MB/s). Split, each branch
is found by a fast scan or skipped when its literal is absent. These tests hold that the split changes nothing
but the speed: for every condition of the catalogue, on every real log, the branches agree with the whole.
"""

from __future__ import annotations

import re

import pytest

from tests.corpus import load_corpus
from wizard.verify.diagnose import _condition_branches, _top_level_branches, load_known_failures


@pytest.mark.parametrize(("text", "branches"), [
    ("docker|[Cc]ontainer", ["docker", "[Cc]ontainer"]),
    (r"(?:a|b)c|\|y|[|]x|[^|]z", ["(?:a|b)c", r"\|y", "[|]x", "[^|]z"]),
    (r"[]|]q|w", ["[]|]q", "w"]),
    ("single", ["single"]),
])
def test_a_pattern_splits_only_at_its_top_level_bars(text, branches):
    assert _top_level_branches(text) == branches


def _conditions() -> list[re.Pattern]:
    seen: dict[tuple[str, int], re.Pattern] = {}
    for entry in load_known_failures():
        for condition in (*entry.contexts, *entry.absences):
            if condition is not None:
                seen.setdefault((condition.pattern, condition.flags), condition)
    return list(seen.values())


def test_every_condition_split_into_branches_agrees_with_the_whole_on_every_real_log():
    conditions = _conditions()
    assert conditions, "the catalogue has no with/without conditions"
    for log in load_corpus():
        text = log.text()
        for condition in conditions:
            split = any(branch.search(text) for branch, _anchors in _condition_branches(condition.pattern,
                                                                                        condition.flags))
            assert split == bool(condition.search(text)), (log.name, condition.pattern)


def test_a_branch_with_a_literal_is_anchored_by_it():
    """`\\bGPU\\b` (three letters) and `\\bsrun\\b` are anchored; a branch with no literal of two is searched whole."""
    branches = dict((b.pattern, anchors) for b, anchors in _condition_branches(r"\bGPU\b|\bsrun\b|^\w+\d", re.M))
    assert branches == {r"\bGPU\b": ("GPU",), r"\bsrun\b": ("srun",), r"^\w+\d": None}
