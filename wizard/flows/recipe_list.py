"""The recipes as both faces list them: grouped by the GraphCast they run (oldest first, each group
recommended-first), each group named in one label, and the version recommended when none is chosen.

The matching itself is `flows.session.survey`; this is only its order and its headings, shared by
`gc-wizard recipes` and the app's Recipe screen so the two lists read alike.
"""

from __future__ import annotations

from wizard.install.sources import fetched_from_words
from wizard.recipes.match import DEFAULT_GRAPHCAST_VERSION, graphcast_label, group_by_graphcast

__all__ = ["DEFAULT_GRAPHCAST_VERSION", "fetched_from_words", "graphcast_label", "group_by_graphcast",
           "unreachable_verdict"]


def unreachable_verdict(match) -> str | None:
    """A list row's verdict for a fitting recipe whose install needs a host that does not answer (`match.unreachable`:
    uv's Python download), instead of "fits this machine"; None otherwise. Walk 25 #2: the app's list said "✓ fits
    this machine" for a recipe whose Python would come from github.com, which did not answer."""
    if not match.compatible or not match.unreachable:
        return None
    what = f"Python {match.python_download}" if match.python_download else "a download"
    return f"needs {what}: {', '.join(match.unreachable)} does not answer"  # one row of 80 columns
