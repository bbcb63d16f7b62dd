"""The recipes as both faces list them: grouped by the GraphCast they run (oldest first, each group
recommended-first), each group named in one label, and the version recommended when none is chosen.

The matching itself is `flows.session.survey`; this is only its order and its headings, shared by
`gc-wizard recipes` and the app's Recipe screen so the two lists read alike.
"""

from __future__ import annotations

from wizard.install.sources import fetched_from_words
from wizard.recipes.match import DEFAULT_GRAPHCAST_VERSION, graphcast_label, group_by_graphcast

__all__ = ["DEFAULT_GRAPHCAST_VERSION", "fetched_from_words", "graphcast_label", "group_by_graphcast"]
