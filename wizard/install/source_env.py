"""The GraphCast source and wheelhouses named in the environment (`GC_WIZARD_GRAPHCAST_SRC`,
`GC_WIZARD_FIND_LINKS`), merged with the options.

Its own module, with nothing but the standard library: the app reads these before its first frame, and
`wizard.install.sources` (which reads sources themselves) brings packaging and the recipe loader with it.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from urllib.parse import urlsplit

from wizard.patterns import LazyPattern
from wizard.security import expand_home

GRAPHCAST_SRC_VAR = "GC_WIZARD_GRAPHCAST_SRC"
FIND_LINKS_VAR = "GC_WIZARD_FIND_LINKS"


class FromVariable(str):
    """A source value as the variable gave it, which keeps that variable's name (`variable`) wherever the value
    goes, so a refusal names what the user set and what to change.

    Why: 38th hostile pass (part B) P3 — a `GC_WIZARD_FIND_LINKS`/`GC_WIZARD_GRAPHCAST_SRC` place another user could
    swap was refused as `--find-links DIR`/`--graphcast-src SRC`, options never given, and its copy-it fix left the
    variable pointing at the refused place (as `GC_WIZARD_ASSETS`, `UV_FIND_LINKS` and `PIP_FIND_LINKS` say theirs)."""

    variable: str

    def __new__(cls, value: str, variable: str) -> FromVariable:
        made = super().__new__(cls, value)
        made.variable = variable
        return made

    def __reduce__(self):
        return FromVariable, (str(self), self.variable)


def given_as(value: str, option: str, shown: object = None) -> tuple[str, str | None]:
    """(how a source value was given — "GC_WIZARD_FIND_LINKS entry DIR", "GC_WIZARD_GRAPHCAST_SRC=SRC" or
    "--find-links DIR", with `shown` in place of the value when given — and its variable, or None for an option)."""
    variable = getattr(value, "variable", None)
    shown = value if shown is None else shown
    if variable == FIND_LINKS_VAR:
        return f"{variable} entry {shown}", variable
    if variable:
        return f"{variable}={shown}", variable
    return f"{option} {shown}", None


def kept_origin(value: str, new: str) -> str:
    """`new` (the same source spelt another way, e.g. made absolute) keeping `value`'s variable, if it has one."""
    variable = getattr(value, "variable", None)
    return FromVariable(new, variable) if variable else new


def env_sources(environ: Mapping[str, str] | None = None) -> tuple[str | None, list[str]]:
    """(GraphCast source, find-links folders) set in the environment, each keeping its variable (`FromVariable`);
    empty parts are ignored."""
    environ = os.environ if environ is None else environ
    src = (environ.get(GRAPHCAST_SRC_VAR) or "").strip() or None
    return (FromVariable(src, GRAPHCAST_SRC_VAR) if src else None,
            [FromVariable(link, FIND_LINKS_VAR) for link in split_find_links(environ.get(FIND_LINKS_VAR) or "")])


#: A `:` that starts a URL's `//` or a port (`host:8080`) is part of the URL, not a separator.
_URL_START = LazyPattern(r"^[A-Za-z][A-Za-z0-9+.-]*$")


def split_find_links(value: str) -> list[str]:
    """`GC_WIZARD_FIND_LINKS` split at its `:` like PATH, except inside a URL (`https://host:8080/wheels/`):
    a wheelhouse URL, which `--find-links` takes, came out as the folders `https` and `//host`."""
    parts: list[str] = []
    pieces = value.split(":")
    i = 0
    while i < len(pieces):
        piece = pieces[i]
        if _URL_START.match(piece) and i + 1 < len(pieces) and pieces[i + 1].startswith("//"):
            piece, i = f"{piece}:{pieces[i + 1]}", i + 1
            # still in its authority (`user:password@host:port`), where a `:` is the URL's own
            while "/" not in piece.split("//", 1)[1] and i + 1 < len(pieces) and pieces[i + 1][:1] not in ("/", "~", "."):
                piece, i = f"{piece}:{pieces[i + 1]}", i + 1
        parts.append(piece)
        i += 1
    return [part for part in parts if part.strip()]


def link_place(url: str) -> tuple[str, str, str]:
    """Where a find-links URL points, without its credentials and query: a masked URL (as history, answers and
    reports keep it) and the full one the user gives again name the same place."""
    parts = urlsplit(url)
    try:
        port = parts.port
    except ValueError:  # `https://h:abc/`: no place a given URL could match
        port = None
    return parts.scheme.lower(), (parts.hostname or "").lower() + (f":{port}" if port else ""), parts.path.rstrip("/")


def merged_sources(graphcast_src: str | None, find_links: list[str] | tuple[str, ...] | None,
                   environ: Mapping[str, str] | None = None) -> tuple[str | None, list[str]]:
    """Options win over the environment for the GraphCast source; find-links add up (options first), each
    place once (`unique_links`)."""
    env_src, env_links = env_sources(environ)
    return graphcast_src or env_src, unique_links([*(find_links or []), *env_links])


def unique_links(links: list[str] | tuple[str, ...]) -> list[str]:
    """The find-links in their order, each place once, as first spelt: `GC_WIZARD_FIND_LINKS` naming one folder
    5000 times printed it 5000 times in the plan (and handed it to the installer as often). `house`,
    `./house/` and its absolute path are one folder; nothing is looked up on disk."""
    seen: set[str] = set()
    out: list[str] = []
    for link in links:
        key = link if "://" in link else os.path.normpath(os.path.abspath(expand_home(link)))
        if key not in seen:
            seen.add(key)
            out.append(link)
    return out
