"""A wheelhouse on a web server (`--find-links https://…/`), read once with a bound before the installer reads it.

Why: uv and pip read a find-links page whole into memory, with no limit. A page that never ends (a
misconfigured server streaming a log, a proxy's endless error page, a hostile host) grew the installer to
3.4 GB in five seconds on a shared login node (seventh hostile pass 12g), and its error then named neither
the page nor the cause. A real find-links page lists files: JAX's own release page is about 1 MB, the
largest public ones a few MB. So the wizard reads the page itself first, up to `PAGE_LIMIT`, and refuses the
install, naming the page, when there is more. It never refuses for what it could not learn: an unreachable
host, an error status or a slow page within the time allowed is left to the installer, which says so in its
own words (and the install stops there as before). A redirect loop is learnt for certain, and refused too.
"""

from __future__ import annotations

import http.client
import threading
import urllib.error
import urllib.parse
import urllib.request
import zlib
from collections.abc import Callable

from wizard.errors import UserError
from wizard.installer_files import CertificatesRefused, tls_context
from wizard.security import redact_secrets
from wizard.web_login import login_opener, split_login
from wizard.web_read import Cancelled, Deadline, TooSlow, chunks, open_url

#: The most a find-links page may hold: 64 times JAX's release page.
PAGE_LIMIT = 64 * 1024 * 1024
#: The longest wait for the server's next bytes (the connection and the answer included): a server that says
#: nothing for this long is left to the installer.
READ_TIMEOUT = 2.0
#: The whole look: past it the installer reads the page as it always did, and the user is told it is slow.
TOTAL_SECONDS = 15.0
#: A decoded piece is measured this much at a time (`web_read.chunks` reads what has arrived, `read1`: a page
#: trickling in a byte at a time still lets the deadline and a Ctrl-C be seen between reads; ninth hostile pass
#: W5/W6/W8: `read(1 MB)` waited for a full megabyte, and SIGTERM, SIGINT and SIGHUP did nothing for minutes).
_CHUNK = 64 * 1024


def _request(url: str) -> urllib.request.Request:
    """A GET for `url` with its `user:password@` sent as basic auth (as pip and uv send it), not in the URL."""
    url, login = split_login(url)
    # Compressed as the installers ask for it (uv sends gzip too), so a body that grows when decoded is measured.
    return urllib.request.Request(url, headers={"Accept": "text/html", "Accept-Encoding": "gzip, deflate",
                                                "User-Agent": "gc-wizard", **login})


class _Look:
    """One bounded read of a page through `web_read` (the reader every HTTP answer of the wizard's goes through): `read`
    counts the page's bytes as the installer will see them (a gzip or deflate body decoded: a 1 MB gzip page that grows
    to 1 GiB grew uv to 3.2 GB; tenth hostile pass W1/W2), `too_big` says the limit was passed, `slow` that the
    deadline came first (the status line and headers trickled in too: tenth hostile pass W9-W11, which `web_read`
    now holds for every reader), `cancelled` that `cancel` was set."""

    def __init__(self, url: str, limit: int, context) -> None:
        self.url, self.limit, self.context = url, limit, context
        self.read = 0
        self.too_big = self.slow = self.cancelled = False
        self.redirect_loop: str | None = None

    def run(self, deadline: Deadline, cancel: threading.Event | None) -> None:
        try:
            opener = login_opener(urllib.request.HTTPSHandler(context=self.context))  # its login kept to its host
            with open_url(opener, _request(self.url), timeout=READ_TIMEOUT, deadline=deadline,
                          cancel=cancel) as response:
                decoder = _decoder(response.headers.get("Content-Encoding", ""))
                for chunk in chunks(response, self.url, deadline=deadline, cancel=cancel):
                    self.read += decoder(chunk) if decoder is not None else len(chunk) * _UNDECODED_WEIGHT
                    if self.read > self.limit:
                        self.too_big = True
                        return
        except TooSlow:
            self.slow = True
        except Cancelled:
            self.cancelled = True
        except urllib.error.HTTPError as exc:
            if 300 <= exc.code < 400:  # urllib stops a redirect that comes back, or the tenth one: a loop
                self.redirect_loop = str(exc.headers.get("Location") or exc.url or "")
        except (OSError, ValueError, zlib.error, http.client.HTTPException):  # unreachable, refused, an error status
            return


#: A body in an encoding the standard library cannot decode (br, zstd: the wizard does not ask for them) counts as
#: this many times its size: what it decodes to is unknown, and a real page is rarely 64 times smaller squeezed.
_UNDECODED_WEIGHT = 64


def _decoder(encoding: str) -> Callable[[bytes], int] | None:
    """A function giving how many bytes each piece of a `Content-Encoding: gzip|deflate` body decodes to, decoding
    at most a megabyte at a time (never the whole bomb); `len` for an identity body; None for one it cannot decode."""
    encoding = encoding.strip().lower()
    if encoding in ("", "identity"):
        return len
    if encoding not in ("gzip", "x-gzip", "deflate"):
        return None
    inflate = zlib.decompressobj(47 if "gzip" in encoding else 15)  # 47: a gzip or zlib header, told apart

    def decoded(piece: bytes) -> int:
        size = len(inflate.decompress(piece, _CHUNK * 16))
        while inflate.unconsumed_tail:
            size += len(inflate.decompress(inflate.unconsumed_tail, _CHUNK * 16))
        return size

    return decoded


def page_problem(url: str, *, limit: int = PAGE_LIMIT, total_seconds: float = TOTAL_SECONDS,
                 cancel: threading.Event | None = None, say: Callable[[str], None] | None = None) -> str | None:
    """The sentence that refuses `url` as a find-links page (it holds more than `limit` bytes, decoded; or a CA variable
    another user could swap would be trusted to read it: `installer_files.tls_context`), or None: the
    page is of a page's size, or nothing could be learnt in time or before `cancel` was set (the installer then reads
    it as before; `say` is told when the page was too slow to read whole)."""
    try:
        if urllib.parse.urlsplit(url).scheme not in ("http", "https"):
            return None
    except ValueError:  # not a URL at all (`http://[::1`): the installer says so in its own words
        return None
    try:
        # The rule of every connection gc-wizard opens (`installer_files.tls_context`), for an http:// page too (its
        # server may redirect to https://): a CA file another user could swap is refused, in the installers' words.
        context = tls_context("the look at a remote wheelhouse page", "trust a server of their choosing and have "
                              "the installer read the wheels it lists", "nothing was read from it")
    except CertificatesRefused as exc:
        return str(exc)
    look = _Look(url, limit, context)
    look.run(Deadline(total_seconds), cancel)
    if look.cancelled:
        return None
    if look.slow:
        if say is not None:
            say(f"the wheelhouse page {redact_secrets(url)} is slow ({look.read // 1024:,} KB in "
                f"{total_seconds:g} s); the installer reads it next, and may take as long again")
        return None
    if look.redirect_loop is not None:
        # Certain, unlike a refused connection or an error status: uv reads no wheel through a loop and later says
        # the packages are "not found in the package registry", naming neither the page nor the loop (#143).
        target = look.redirect_loop
        if target and urllib.parse.urlsplit(target).scheme.lower() not in ("", "http", "https"):
            # urllib refuses a redirect to another scheme (`file:///etc/passwd`, `javascript:`) the same way
            how = f"redirects to {redact_secrets(target)}, which is not a web page"  # (twelfth hostile pass #36)
        else:
            how = "redirects in a loop" + (f" (last to {redact_secrets(target)})" if target else "")
        return (f"the wheelhouse page {redact_secrets(url)} (--find-links) {how}, so no installer can read a wheel "
                "through it. Check the URL (it should list .whl files), or copy the wheels into a local folder.")
    if look.too_big:
        return (f"the wheelhouse page {redact_secrets(url)} (--find-links) holds more than "
                f"{limit // (1024 * 1024)} MB and was still sending; a find-links page lists files "
                "and is a few MB at most, and the installer would read all of it into memory. Check "
                "the URL (it should list .whl files), or copy the wheels into a local folder.")
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
