"""The choices an install offers, defined once: the faces build their options from these.

Kept in a module with no imports so the CLI can build its parser without loading the installer (nor `typing`:
these are plain tuples of strings, which every command's parser reads at start-up; issue 23).
"""

from __future__ import annotations

#: uv first: it is the default (fast, and its cache makes repeated installs warm).
INSTALLERS: tuple[str, ...] = ("uv", "pip")
#: `notebook` is the demo notebook's own model and grid; `quick` a smaller one for a fast check.
LEVELS: tuple[str, ...] = ("quick", "notebook")
DEFAULT_INSTALLER = "uv"
DEFAULT_LEVEL = "notebook"
#: The GraphCast versions the built-in recipes run: v0.1.1 (the demo notebook), v0.2 (with GenCast), v0.3
#: (WeatherNext v0.3.0, GraphCast's current release).
GRAPHCAST_VERSIONS: tuple[str, ...] = ("0.1.1", "0.2", "0.3")
