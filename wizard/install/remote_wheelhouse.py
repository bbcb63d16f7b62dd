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
import threading
import time
import urllib.parse
import urllib.request
from collections.abc import Callable

from wizard.errors import UserError
from wizard.security import redact_secrets

#: The most a find-links page may hold: 64 times JAX's release page.
PAGE_LIMIT = 64 * 1024 * 1024
#: The longest wait for the server's next bytes (the connection and the answer included): a server that says
#: nothing for this long is left to the installer.
READ_TIMEOUT = 2.0
#: The whole look: past it the installer reads the page as it always did, and the user is told it is slow.
TOTAL_SECONDS = 15.0
#: One read takes what has arrived, up to this much (`read1`): a page trickling in a byte at a time still lets
#: the deadline and a Ctrl-C be seen between reads (ninth hostile pass W5/W6/W8: `read(1 MB)` waited for a full
#: megabyte, the install's signal handler waited for it, and SIGTERM, SIGINT and SIGHUP did nothing for minutes).
_CHUNK = 64 * 1024


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


def page_problem(url: str, *, limit: int = PAGE_LIMIT, total_seconds: float = TOTAL_SECONDS,
                 cancel: threading.Event | None = None, say: Callable[[str], None] | None = None) -> str | None:
    """The sentence that refuses `url` as a find-links page (it holds more than `limit` bytes), or None: the page
    is of a page's size, or nothing could be learnt in time or before `cancel` was set (the installer then reads
    it as before; `say` is told when the page was too slow to read whole)."""
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
            while not (cancel is not None and cancel.is_set()):
                if time.monotonic() >= deadline:
                    if say is not None:
                        say(f"the wheelhouse page {redact_secrets(url)} is slow ({read // 1024:,} KB in "
                            f"{total_seconds:g} s); the installer reads it next, and may take as long again")
                    return None
                chunk = response.read1(_CHUNK)
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


def refuse_endless_pages(links, *, offline: bool = False, cancel: threading.Event | None = None,
                         say: Callable[[str], None] | None = None) -> None:
    """UserError naming the first find-links page of `links` that holds more than a page can (`page_problem`).
    Offline, the installer reads no remote page, so none is read here either. Called where an operation
    starts (install, lock, bundle), never while a plan is shown: no look-up blocks a screen."""
    if offline:
        return
    for link in links:
        problem = page_problem(str(link), cancel=cancel, say=say)
        if problem:
            raise UserError(problem)
