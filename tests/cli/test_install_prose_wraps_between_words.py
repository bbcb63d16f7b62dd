"""The CLI's own sentences during an install, a check and a rollback wrap between words at the terminal's width (the
core's one wrap, `wizard.wrap`), never at its edge mid-word.

Walk 33 #5: at 80 columns the CLI printed "(pip prints nothing while it unpacks them: often a few minutes; nothing is
s" / "tuck.)", "Ct" / "rl-C stops it" and "is now t" / "he current environment": each written as one line, cut by the
terminal. The installer's own lines stay as it printed them."""

from __future__ import annotations

import io

from wizard.commands.install import TerminalEvents
from wizard.flows.types import Tier
from wizard.install.progress import PIP_QUIET_WORDS

LONG = ("the GraphCast check runs the notebook's model once on this machine's GPU; Ctrl-C stops it and keeps "
        "nothing, and a rerun later starts again from the beginning of the check")


def _rows(text: str) -> list[str]:
    return [row for row in text.splitlines() if row]


def test_the_wizards_own_sentences_wrap_between_words_at_80(monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    out = io.StringIO()
    events = TerminalEvents(out, assume_yes=True)
    events.line(None, "Installing collected packages: pip")
    events.message(LONG)
    events.verify_tier_start(LONG)
    events.verify_tier(Tier("cudnn_op", "skipped", seconds=0.0, details={"reason": LONG}))
    rows = _rows(out.getvalue())
    assert rows[0] == "    Installing collected packages: pip"  # the installer's own line, as printed
    assert all(len(row) <= 80 for row in rows), rows
    assert all(row.startswith("    ") for row in rows), rows
    said = " ".join(" ".join(rows).split())
    assert f"({PIP_QUIET_WORDS})" in said and said.count(LONG) == 3, said

