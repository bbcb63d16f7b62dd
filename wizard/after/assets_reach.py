"""Whether the forecast's files can be fetched from here, asked where a forecast is offered (the words for a host
that does not answer are `next_steps.unreachable_words`, light enough for the app's first frame).

Why: the Done screen, the text left after quitting and `install`'s "Next:" lines offered a first forecast on a
server that cannot reach storage.googleapis.com; the forecast then failed with `assets_unreachable` (walk 21 #4).
The plan asks the same question of GraphCast's host before anything downloads (`install.sources.unreachable_source`);
this asks it of the forecast's, with the same one HEAD request (`recipes.alternatives.reachable`, a few seconds at
most). A local folder (`--assets DIR`, GC_WIZARD_ASSETS) has no host to ask.
"""

from __future__ import annotations

import os
import urllib.parse

from wizard.after.assets import BUCKET_URL
from wizard.recipes.alternatives import REACH_TIMEOUT, reachable


def unreachable_host(location: str | None = None, timeout: float = REACH_TIMEOUT) -> str | None:
    """The host the forecast's files come from (`--assets URL`, GC_WIZARD_ASSETS, else the public bucket) when it
    does not answer here; None when it does, or the files are in a local folder."""
    location = (location or os.environ.get("GC_WIZARD_ASSETS") or BUCKET_URL).strip()
    if not location.startswith(("http://", "https://")):
        return None
    parts = urllib.parse.urlsplit(location)
    if not parts.hostname:
        return None
    port = f":{parts.port}" if parts.port else ""  # asked without a login: only whether the host answers
    return None if reachable(f"{parts.scheme}://{parts.hostname}{port}/", timeout) else parts.hostname
