"""The recipes as both faces list them: grouped by the GraphCast they run (oldest first, each group
recommended-first), each group named in one label, and the version recommended when none is chosen.

The matching itself is `flows.session.survey`; this is only its order and its headings, shared by
`gc-wizard recipes` and the app's Recipe screen so the two lists read alike.
"""

from __future__ import annotations

from wizard.install.sources import fetched_from_words
from wizard.recipes.match import (
    DEFAULT_GRAPHCAST_VERSION,
    graphcast_label,
    group_by_graphcast,
    python_range_words,
)

__all__ = ["DEFAULT_GRAPHCAST_VERSION", "fetched_from_words", "graphcast_label", "group_by_graphcast",
           "unreachable_headline", "unreachable_verdict"]


def unreachable_verdict(match) -> str | None:
    """A list row's verdict for a fitting recipe whose install needs a host that does not answer (`match.unreachable`:
    uv's Python download), instead of "fits this machine"; None otherwise. Walk 25 #2: the app's list said "✓ fits
    this machine" for a recipe whose Python would come from github.com, which did not answer. Walk 37 #10: "needs
    Python 3.13: github.com does not answer" read as if github.com were why the Python is missing; the download is
    what the host stands for. One row of 80 columns: the details say it in full (`unreachable_headline`)."""
    if not match.compatible or not match.unreachable:
        return None
    verdict = f"{_needed(match)} download ({', '.join(match.unreachable)}) unreachable"
    # The host only where the row has room for it (a range is longer than one version): the details name it.
    return verdict if len(verdict) <= ROW_VERDICT_ROOM else f"{_needed(match)} download unreachable"


def unreachable_headline(match) -> str | None:
    """The details' first line for such a recipe, in place of "Compatible with this machine." (walk 37 #10: said
    above the "!" row that explains the download, it contradicted the list's "!"); None otherwise."""
    if not match.compatible or not match.unreachable:
        return None
    return (f"Fits {match.machine}, but needs {_needed(match)}, which uv would download from "
            f"{', '.join(match.unreachable)} (not reachable here).")


#: The room a list row has for its verdict beside the mark and the id: 80 columns less the frame's.
ROW_VERDICT_ROOM = 45


def _needed(match) -> str:
    """The recipe's Python range, as the "!" sentence says it (`python_range_words`), not the one version uv fetches."""
    return python_range_words(match.recipe.machine.python) if match.python_download else "a download"
