"""Walk 27 (vague "here"): "install it as here" left a newcomer to guess what "here" meant. No user-facing text of the wizard's
(its modules, its data, the app's) says "as here"; each says what is meant (`after.next_steps.carry_words`)."""

from __future__ import annotations

import re
from pathlib import Path

WIZARD = Path(__file__).resolve().parents[2] / "wizard"


def test_no_text_of_the_wizard_says_as_here():
    found = [f"{path.relative_to(WIZARD)}:{n}" for path in sorted(WIZARD.rglob("*"))
             if path.suffix in (".py", ".yaml", ".json", ".tcss")
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if re.search(r"\bas here\b", line, re.IGNORECASE)]
    assert found == []
