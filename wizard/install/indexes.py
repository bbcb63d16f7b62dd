"""The package indexes the user's own environment sends the installer to — `UV_INDEX_URL`, `PIP_INDEX_URL`,
`UV_EXTRA_INDEX_URL` and the like — each with the variable that names it.

Why: the installer runs with every UV_*/PIP_* setting the user made (`runner.PASSED_PREFIXES`), so a lab mirror
or a stale `UV_INDEX_URL=http://127.0.0.1:9/simple` is where the packages come from. The plan said "the package
index (PyPI)" and a failed install "cannot reach 127.0.0.1 … the packages come from the package index", naming
neither the address nor the variable to check (seventh hostile pass t24g S4). The plan and the advice read them
here. Only the environment is read: the wizard reads no pip.conf or uv.toml.
"""

from __future__ import annotations

import os
import re
import urllib.parse
from collections.abc import Mapping
from dataclasses import dataclass

from wizard.security import redact_secrets

#: The variables each installer reads, in its order, and whether each adds an index (extra) or replaces
#: PyPI (default; the first one set wins). uv reads no PIP_* variable and pip no UV_* one.
_VARIABLES = {
    "uv": (("UV_DEFAULT_INDEX", False), ("UV_INDEX_URL", False), ("UV_INDEX", True), ("UV_EXTRA_INDEX_URL", True)),
    "pip": (("PIP_INDEX_URL", False), ("PIP_EXTRA_INDEX_URL", True)),
}
#: `UV_INDEX` entries may be named: `internal=https://host/simple`.
_NAMED = re.compile(r"^[A-Za-z0-9_.-]+=(?=[A-Za-z][A-Za-z0-9+.-]*://)")


@dataclass(frozen=True)
class IndexSetting:
    url: str
    variable: str
    extra: bool
    """True: asked besides the default index; False: asked instead of PyPI."""

    def shown(self) -> str:
        """The URL as it may be printed: a password or token masked, the user name kept (as the steps show it)."""
        return redact_secrets(self.url, keep_user=True)

    def host(self) -> str | None:
        try:
            return (urllib.parse.urlsplit(self.url).hostname or "").lower() or None
        except ValueError:
            return None

    def to_dict(self) -> dict[str, object]:
        return {"url": self.shown(), "variable": self.variable, "extra": self.extra}

    def describe(self) -> str:
        """"the index http://mirror/simple (from UV_INDEX_URL)"."""
        kind = "the extra index" if self.extra else "the index"
        return f"{kind} {self.shown()} (from {self.variable})"


def index_settings(installer: str | None = None, environ: Mapping[str, str] | None = None) -> list[IndexSetting]:
    """The indexes `installer` ("uv" or "pip"; None: either) is sent to by the environment, default first.
    Empty when none is set: the installer then asks PyPI."""
    environ = os.environ if environ is None else environ
    out: list[IndexSetting] = []
    for name in ([installer] if installer in _VARIABLES else list(_VARIABLES)):
        default_found = False
        for variable, extra in _VARIABLES[name]:
            for value in (environ.get(variable) or "").split():
                if not extra and default_found:
                    break
                default_found = default_found or not extra
                out.append(IndexSetting(_NAMED.sub("", value), variable, extra))
    return out


def index_for_host(host: str, environ: Mapping[str, str] | None = None) -> IndexSetting | None:
    """The index setting whose URL is on `host` (any installer's), or None."""
    return next((s for s in index_settings(None, environ) if s.host() == host.lower()), None)
