"""The one reading of a GraphCast source as the user or a recipe spells it: a path, a `file:` URL in any form uv and
pip take (`file:///DIR`, `file://localhost/DIR`, `FILE:///DIR`, `file:/DIR`), a PEP 508 direct reference
(`graphcast @ file:/DIR`, `graphcast@https://…`), a VCS URL (`git+file:///repo@v0.1.1`, `git+https://…`), or a remote
archive's URL.

Why one: the identity check (`sources.read_identity`) stripped a lower-case `file://` itself, and the private build
copy (`source_copy.local_source`) took anything with `://` for remote, while the swap rule read every spelling through
`security.local_url`. So `--graphcast-src file:///DIR` passed the comparison and was then built in place (a stale
`build/lib/sitecustomize.py` went into the env), and `file://localhost/DIR` was not compared at all (an edited
setup.py ran unannounced) — 31st hostile pass (part B) P5. Every reader (plan, install, bundle, rollback, diagnose,
the history's offer of the last source) asks this module what a source names.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from wizard.security import expand_home, local_url

#: `name @ URL` (PEP 508's direct reference, extras allowed, spaces around `@` optional). A path starts with `/`,
#: `~` or `.` and a URL with its scheme, so neither is taken for a name.
_DIRECT_REFERENCE = re.compile(
    r"^\s*(?P<name>[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)\s*(?:\[[^\]]*\])?\s*@\s*(?P<url>\S.*?)\s*\Z", re.DOTALL)
#: A URL of some scheme (`https:`, `git+ssh:`, `s3:`): no place on this machine unless `local_url` read it as one.
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
#: The `subdirectory=` of a URL's fragment: pip and uv build that folder of the one the URL names.
_SUBDIRECTORY = re.compile(r"(?:^|&)subdirectory=([^&]+)")


@dataclass(frozen=True)
class SourceSpelling:
    """What a GraphCast source names. `place` is the folder, wheel or sdist on this machine for a local source in
    any spelling (a path as given, `~` expanded, relative ones as they are), else None; `vcs` is the VCS prefix
    (`git+`) of a VCS URL, whose `place` (for `git+file:`) is the repository, not something to build in place."""

    given: str
    name: str | None
    url: str
    vcs: str = ""
    place: Path | None = None
    revision: str | None = None

    @property
    def local(self) -> Path | None:
        """The folder or file built or installed as it is (a checkout, a wheel, an sdist), whatever its spelling;
        None for a remote source or a VCS repository (which uv clones)."""
        return self.place if not self.vcs else None


def source_spelling(text: str) -> SourceSpelling:
    """What `text` names (see the module); ValueError for a `file:` URL on another host, which names no place here."""
    text = text.strip()
    name = None
    url = text
    reference = _DIRECT_REFERENCE.match(text)
    if reference is not None and not text.startswith(("/", "~", ".")) and (
            " @ " in text or _SCHEME.match(reference.group("url"))):  # `co@v1` is a folder's name, not a reference
        name, url = reference.group("name").lower().replace("_", "-").replace(".", "-"), reference.group("url")
    found = local_url(url)
    if found is not None:
        vcs, path, tail = found
        revision = None
        if vcs:  # `git+file:///repo@v0.1.1`: the revision follows the path after its last `@`
            head, at, rest = path.rpartition("@")
            if at and "/" not in rest:
                path, revision = head, rest
        place = Path(path)
        sub = _SUBDIRECTORY.search(tail.partition("#")[2])
        if sub is not None and not vcs:
            place = place / sub.group(1)
        return SourceSpelling(text, name, url, vcs, place, revision)
    if "://" in url or _SCHEME.match(url):
        vcs = url.partition("+")[0] + "+" if re.match(r"^[A-Za-z]+\+", url) else ""
        return SourceSpelling(text, name, url, vcs)
    return SourceSpelling(text, name, url, "", Path(expand_home(url)))


def local_source_path(text: str) -> Path | None:
    """The folder or file a GraphCast source names on this machine in any spelling (`SourceSpelling.local`), made
    absolute; None for a remote source, a VCS one, or a `file:` URL of another host."""
    try:
        local = source_spelling(text).local
    except ValueError:
        return None
    return local.absolute() if local is not None else None
