"""YAML read as plain data: libyaml's C parser where PyYAML ships it, PyYAML's own safe parser otherwise.

Both build only dicts, lists, strings and numbers (no tags that construct objects or run code). The C
parser reads the tables `detect` loads on every run several times faster, which `detect --json` feels.
"""

from __future__ import annotations

import yaml

#: The safe loader, C-accelerated when available (manylinux PyYAML wheels carry libyaml).
SafeLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
YAMLError = yaml.YAMLError


def load_data(text: str):
    """Parse `text` as YAML data; raises `YAMLError` on malformed input."""
    return yaml.load(text, Loader=SafeLoader)  # noqa: S506 - SafeLoader/CSafeLoader construct plain data only
