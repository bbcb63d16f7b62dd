"""The package indexes the user's own environment sends the installer to — `UV_INDEX_URL`, `PIP_INDEX_URL`,
`UV_EXTRA_INDEX_URL` and the like — each with the variable that names it.

Why: the installer runs with every UV_*/PIP_* setting the user made (`runner.PASSED_PREFIXES`), so a lab mirror
or a stale `UV_INDEX_URL=http://127.0.0.1:9/simple` is where the packages come from. The plan said "the package
index (PyPI)" and a failed install "cannot reach 127.0.0.1 … the packages come from the package index", naming
neither the address nor the variable to check (seventh hostile pass t24g S4). The plan and the advice read them
here — and the find-links pages (`UV_FIND_LINKS`, `PIP_FIND_LINKS`) and the settings files each installer reads on
its own (`uv.toml`, a `pyproject.toml` with `[tool.uv]` above the folder it runs in, `pip.conf`), which change where
packages come from just as much and were named nowhere (twelfth hostile pass #7). Files are read as data (TOML,
INI), bounded, and one that cannot be read is passed over: it is the installer's to complain about.
"""

from __future__ import annotations

import os
import re
import urllib.parse
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from wizard.installer_files import SOURCE_VARIABLES, listed, source_tables
from wizard.installer_settings import pip_files, uv_files
from wizard.security import redact_url

#: `UV_INDEX` entries may be named: `internal=https://host/simple` (shown without the name).
_NAMED = re.compile(r"^[A-Za-z0-9_.-]+=(?=[A-Za-z][A-Za-z0-9+.-]*://)")


@dataclass(frozen=True)
class IndexSetting:
    url: str
    variable: str
    """The variable that names it, or the settings file (its path) that does."""
    extra: bool
    """True: asked besides the default index; False: asked instead of PyPI."""
    kind: str = "index"
    """"index", or "find-links" (a page or folder of files the installer also takes packages from)."""
    cut_password: bool = False
    """True: the piece before a blank that was inside a password (`https://u:1234` of `https://u:1234 SEK@host/`):
    what follows its user name is the password's first word, even when it reads as a port."""

    def shown(self) -> str:
        """The URL as it may be printed: a password or token masked, the user name kept (as the steps show it); a
        piece with no scheme, split off a password with a blank in it, masked before its `@` (`redact_url`), and
        the piece before it masked after its user name (known limit after pass 24: URL password read as a port)."""
        head = _CUT_HEAD.match(self.url) if self.cut_password else None
        if head:
            return f"{head.group('head')}***"
        return redact_url(self.url, keep_user=True)

    def host(self) -> str | None:
        try:
            return (urllib.parse.urlsplit(self.url).hostname or "").lower() or None
        except ValueError:
            return None

    def to_dict(self) -> dict[str, object]:
        return {"url": self.shown(), "variable": self.variable, "extra": self.extra, "kind": self.kind}

    def describe(self) -> str:
        """"the index http://mirror/simple (from UV_INDEX_URL)"."""
        kind = "the find-links" if self.kind == "find-links" else "the extra index" if self.extra else "the index"
        return f"{kind} {self.shown()} (from {self.variable})"


def index_settings(installer: str | None = None, environ: Mapping[str, str] | None = None,
                   cwd: str | os.PathLike[str] | None = None) -> list[IndexSetting]:
    """The indexes and find-links pages `installer` ("uv" or "pip"; None: either) is sent to by the environment and
    by its settings files, default first. Empty when none is set: the installer then asks PyPI. `cwd`: the folder
    the installer runs in (uv looks for project settings there and above); None: none is looked for."""
    environ = os.environ if environ is None else environ
    out: list[IndexSetting] = []
    for name in ([installer] if installer in SOURCE_VARIABLES else list(SOURCE_VARIABLES)):
        from_env: list[IndexSetting] = []
        # the variables the swap check reads too (`installer_files.SOURCE_VARIABLES`, 28th pass (part B) P1)
        for variable, separators, kind in SOURCE_VARIABLES[name]:
            values = listed(name, environ.get(variable) or "", separators)
            links = kind == "find-links"
            from_env += [IndexSetting(value if links else _NAMED.sub("", value), variable, kind != "index",
                                      "find-links" if links else "index", cut_password=cut)
                         for value, cut in zip(values, _cut_heads(values), strict=True)]
        files = uv_files(environ, cwd) if name == "uv" else pip_files(environ)
        # Each kind of setting comes from the first place that sets it — a variable, then the nearest file — as
        # both tools read them (a variable replaces a file's value; a user's pip.conf the system's), never merged.
        chosen: list[IndexSetting] = []
        taken: set[str] = set()
        for group in (from_env, *(_file_settings(name, path) for path in files)):
            chosen += [s for s in group if _category(s) not in taken]
            taken |= {_category(s) for s in group}
        default = next((s for s in chosen if not s.extra), None)  # the first default named wins
        out += ([default] if default else []) + [s for s in chosen if s.extra]
    return out


#: A piece that ends inside a URL's userinfo: a scheme, a user, a `:` and a word, no `@` nor `/` after it.
_CUT_HEAD = re.compile(r"^(?P<head>(?:[A-Za-z0-9_.-]+=)?[A-Za-z][A-Za-z0-9+.-]*://[^\s/@:]*:)[^\s/@]*$")
#: A piece with no scheme whose start, up to an `@`, is the rest of a password (`SEKtail@host/simple/`).
_CUT_TAIL = re.compile(r"^(?![A-Za-z][A-Za-z0-9+.-]*://)[^\s/@\"'<>]{1,768}@")


def _cut_heads(pieces: list[str]) -> list[bool]:
    """For each piece of a variable split at blanks, whether it is the head of a password the split cut: it ends in
    its userinfo (`https://u:1234`) and the next piece goes on to the `@` (`SEKtail@host/…`). The head's last word
    reads as a port on its own, so it was printed (known limit after pass 24: URL password read as a port)."""
    return [bool(_CUT_HEAD.match(piece)) and i + 1 < len(pieces) and bool(_CUT_TAIL.match(pieces[i + 1]))
            for i, piece in enumerate(pieces)]


def _category(setting: IndexSetting) -> str:
    return setting.kind if setting.kind == "find-links" else "extra" if setting.extra else "default"


def _file_settings(installer: str, path: Path) -> list[IndexSetting]:
    """The index and find-links settings `path` holds for `installer`, as data (never run), each key from the table
    `uv pip` reads first (`installer_files.source_tables`, the reader the swap check uses too)."""
    values: dict[str, list[str]] = {}
    for table in source_tables(installer, path):
        values.update(table)
    where = str(path)
    # `[[index]]` with `default = true` replaces PyPI, as `index-url` does: it is the index, not an extra one
    # (eighteenth hostile pass P3: the plan called a uv.toml's only index "the extra index").
    defaults = [*values.get("index.default", []), *values.get("index-url", [])][:1]
    out = [IndexSetting(url, where, False) for url in defaults]
    out += [IndexSetting(url, where, True) for url in [*values.get("index", []), *values.get("extra-index-url", [])]]
    out += [IndexSetting(url, where, True, "find-links") for url in values.get("find-links", [])]
    return out


def index_for_host(host: str, environ: Mapping[str, str] | None = None) -> IndexSetting | None:
    """The index setting whose URL is on `host` (any installer's), or None."""
    return next((s for s in index_settings(None, environ) if s.host() == host.lower()), None)
