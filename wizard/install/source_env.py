"""The GraphCast source and wheelhouses named in the environment (`GC_WIZARD_GRAPHCAST_SRC`,
`GC_WIZARD_FIND_LINKS`), merged with the options.

Its own module, with nothing but the standard library: the app reads these before its first frame, and
`wizard.install.sources` (which reads sources themselves) brings packaging and the recipe loader with it.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

GRAPHCAST_SRC_VAR = "GC_WIZARD_GRAPHCAST_SRC"
FIND_LINKS_VAR = "GC_WIZARD_FIND_LINKS"


def env_sources(environ: Mapping[str, str] | None = None) -> tuple[str | None, list[str]]:
    """(GraphCast source, find-links folders) set in the environment; empty parts are ignored."""
    environ = os.environ if environ is None else environ
    src = (environ.get(GRAPHCAST_SRC_VAR) or "").strip() or None
    links = [part for part in (environ.get(FIND_LINKS_VAR) or "").split(":") if part.strip()]
    return src, links


def merged_sources(graphcast_src: str | None, find_links: list[str] | tuple[str, ...] | None,
                   environ: Mapping[str, str] | None = None) -> tuple[str | None, list[str]]:
    """Options win over the environment for the GraphCast source; find-links add up (options first)."""
    env_src, env_links = env_sources(environ)
    links = list(find_links or [])
    links += [link for link in env_links if link not in links]
    return graphcast_src or env_src, links
