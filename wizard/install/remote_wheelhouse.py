"""A wheelhouse on a web server (`--find-links https://…/`), read once with a bound before the installer reads it.

Why: uv and pip read a find-links page whole into memory, with no limit. A page that never ends (a
misconfigured server streaming a log, a proxy's endless error page, a hostile host) grew the installer to
3.4 GB in five seconds on a shared login node (seventh hostile pass 12g), and its error then named neither
the page nor the cause. A real find-links page lists files: JAX's own release page is about 1 MB, the
largest public ones a few MB. So the wizard reads the page itself first, up to `PAGE_LIMIT`, and refuses the
install, naming the page, when there is more. It never refuses for what it could not learn: an unreachable
host, an error status or a slow page within the time allowed is left to the installer, which says so in its
own words (and the install stops there as before).
"""

from __future__ import annotations

import base64
import http.client
import os
import ssl
import time
import urllib.parse
import urllib.request

from wizard.errors import UserError
from wizard.security import redact_secrets

#: The most a find-links page may hold: 64 times JAX's release page.
PAGE_LIMIT = 64 * 1024 * 1024
#: Each read's wait, and the whole look's: past it the installer reads the page as it always did.
READ_TIMEOUT = 10.0
TOTAL_SECONDS = 20.0
_CHUNK = 1024 * 1024


def _request(url: str) -> urllib.request.Request:
    """A GET for `url` with its `user:password@` sent as basic auth (as pip and uv send it), not in the URL."""
    parts = urllib.parse.urlsplit(url)
    headers = {"Accept": "text/html", "User-Agent": "gc-wizard"}
    if parts.username is not None:
        pair = f"{urllib.parse.unquote(parts.username)}:{urllib.parse.unquote(parts.password or '')}"
        headers["Authorization"] = "Basic " + base64.b64encode(pair.encode()).decode()
        netloc = parts.hostname or ""
        if parts.port:
            netloc += f":{parts.port}"
        url = urllib.parse.urlunsplit((parts.scheme, netloc, parts.path, parts.query, parts.fragment))
    return urllib.request.Request(url, headers=headers)


def page_problem(url: str, *, limit: int = PAGE_LIMIT, total_seconds: float = TOTAL_SECONDS) -> str | None:
    """The sentence that refuses `url` as a find-links page (it holds more than `limit` bytes), or None: the page
    is of a page's size, or nothing could be learnt in time (the installer then reads it as before)."""
    try:
        if urllib.parse.urlsplit(url).scheme not in ("http", "https"):
            return None
    except ValueError:  # not a URL at all (`http://[::1`): the installer says so in its own words
        return None
    context = ssl.create_default_context(cafile=os.environ.get("SSL_CERT_FILE") or None)
    opener = urllib.request.build_opener(urllib.request.HTTPSHandler(context=context))
    deadline = time.monotonic() + total_seconds
    read = 0
    try:
        with opener.open(_request(url), timeout=READ_TIMEOUT) as response:
            while time.monotonic() < deadline:
                chunk = response.read(_CHUNK)
                if not chunk:
                    return None
                read += len(chunk)
                if read > limit:
                    return (f"the wheelhouse page {redact_secrets(url)} (--find-links) holds more than "
                            f"{limit // (1024 * 1024)} MB and was still sending; a find-links page lists files "
                            "and is a few MB at most, and the installer would read all of it into memory. Check "
                            "the URL (it should list .whl files), or copy the wheels into a local folder.")
    except (OSError, ValueError, http.client.HTTPException):  # unreachable, refused, an error status, cut off
        return None
    return None


def refuse_endless_pages(links, *, offline: bool = False) -> None:
    """UserError naming the first find-links page of `links` that holds more than a page can (`page_problem`).
    Offline, the installer reads no remote page, so none is read here either. Called where an operation
    starts (install, lock, bundle), never while a plan is shown: no look-up blocks a screen."""
    if offline:
        return
    for link in links:
        problem = page_problem(str(link))
        if problem:
            raise UserError(problem)
