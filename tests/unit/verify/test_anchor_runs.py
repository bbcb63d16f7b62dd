"""A progress bar with no line end stays cheap to read, and every cause beside it is still found.

The anchors (literals a pattern cannot match without) are looked up in a haystack where a run of one character
longer than `ANCHOR_RUN` is cut to that length: a 120 MB line of dots took two minutes, each anchor ending in "."
searched at every position (the e2e case in tests/e2e/faults/test_umask_and_big_input.py ran past its 600 s under
a full machine). That is only exact while no anchor holds a longer run, which the catalogue is held to here.
"""

from __future__ import annotations

import io
import re

import pytest

from wizard.verify.diagnose import ANCHOR_RUN, _condition_branches, diagnose_stream, load_known_failures


def _anchors():
    for entry in load_known_failures():
        for group in (*entry.anchors, *entry.context_anchors, *entry.absence_anchors):
            yield from group or ()
        for condition in (*entry.contexts, *entry.absences):
            if condition is not None:
                for _, found in _condition_branches(condition.pattern, condition.flags):
                    yield from found or ()


def test_no_anchor_of_the_catalogue_holds_a_longer_run():
    longest = max((len(m.group()), anchor) for anchor in _anchors() for m in re.finditer(r"(.)\1*", anchor))
    assert longest[0] <= ANCHOR_RUN, longest


@pytest.mark.parametrize("bar", [".", "#", "=", " ", "█"])
def test_a_cause_on_the_line_of_a_long_progress_bar_is_found(bar):
    cause = "Loaded runtime CuDNN library: 8.2.1 but source was compiled with: 8.9.4."
    for text in (bar * 200_000 + cause + "\n", cause + " " + bar * 200_000 + "\n",
                 bar * 100_000 + "\n" + cause + "\n" + bar * 100_000):
        (finding,) = diagnose_stream(io.StringIO(text))
        assert finding.id == "cudnn_version_mismatch", bar
