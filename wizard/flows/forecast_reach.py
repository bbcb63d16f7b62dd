"""Whether the forecast's files' host answers, asked in the background where a forecast is offered.

Why in the background: the question is one HEAD request of up to a few seconds (`after.assets_reach`), and the
screens that offer a forecast (the Done screen, the text left after quitting, `install`'s "Next:" lines) must
not wait for it; it is started early and read when the words are drawn.
"""

from __future__ import annotations

import threading

from wizard.after.assets_reach import unreachable_host
from wizard.recipes.alternatives import REACH_TIMEOUT

__all__ = ["AssetsReach"]


class AssetsReach:
    """The question, started now in a daemon thread; `host()` reads the answer."""

    def __init__(self, location: str | None = None, env: str | None = None) -> None:
        self._host: str | None = None
        self._thread = threading.Thread(target=self._ask, args=(location, env), name="assets-reach", daemon=True)
        self._thread.start()

    def _ask(self, location: str | None, env: str | None) -> None:
        """Without `location`, the place a forecast in `env` takes its files from (`assets_place`): a bundle's or the
        last forecast's folder has no host to ask (walk 26 #13: one resolver of that place, so the Done screen does
        not send the user for the bucket's files when f reads the lab's folder)."""
        try:
            if not location:
                # deferred: read in this thread, off the screen's path
                from wizard.after.forecast import default_assets
                from wizard.install.envs import Env

                location = default_assets(Env.at(env) if env else None)
            self._host = unreachable_host(location)
        except Exception:  # a check that fails says nothing: the forecast says what went wrong, if anything
            self._host = None

    def host(self, wait: float = REACH_TIMEOUT + 1) -> str | None:
        """The host that does not answer, or None (it answers, there is none, or no answer came within `wait`)."""
        self._thread.join(wait)
        return None if self._thread.is_alive() else self._host
