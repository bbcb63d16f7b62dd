"""Every HTTP answer gc-wizard reads itself, under a deadline for the whole answer, not for each byte.

Why: a socket timeout restarts with every byte, so a server that trickles (one byte every 2 s, or header lines
that never end) kept `forecast --list --assets http://…` waiting for days with a 30 s timeout (37th hostile pass
(part A) P1): `urlopen` parses the status line and every header in one call that no deadline or Ctrl-C reaches,
and `read(n)` waits for all `n` bytes. The wheelhouse look had learnt this alone (tenth hostile pass W9-W11); the
forecast's listing, its downloads, the bucket's listing and the reach checks had not. So here, once:

- `open_url` sends the request and waits for the status line and headers in a thread of its own (a daemon, left
  when the deadline or a cancel comes: it holds only its own socket, and an answer that arrives late is closed),
  the caller waiting with its deadline and its cancel (a Ctrl-C is seen within a tenth of a second);
- `chunks` reads the body a piece at a time as it arrives (`read1`: never waiting for a full buffer), and gives up
  at the deadline — or, for a large download that may rightly take hours, when less than `min_rate` bytes a second
  arrived over the last `window` seconds (a download that keeps moving, however slowly, is never cut off).

Each refusal is a `TooSlow` (an OSError, so every caller's "cannot be read" path takes it), one sentence naming the
address (its password and query left out: `shown_url`) and what was too slow.
"""

from __future__ import annotations

import threading
import time
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterator
from typing import TypeVar

from wizard.security import redact_credentials

T = TypeVar("T")

#: Between two looks at the deadline and the cancel while the headers are awaited.
_POLL = 0.1
#: The most one read takes: a trickling body is still a piece at a time, the deadline seen between pieces.
_CHUNK = 1 << 20


class TooSlow(OSError):
    """An answer that did not come whole in the time allowed, or a download that stopped moving: one sentence."""


class Cancelled(Exception):
    """The caller's cancel was set while the answer was awaited."""


def shown_url(url: str) -> str:
    """`url` for a message: a password left out and a query string (a signed URL's signature, a token) cut to
    `?…`, so an address can be named in full without what makes it work."""
    try:
        parts = urllib.parse.urlsplit(redact_credentials(url))
        return urllib.parse.urlunsplit(parts._replace(query="…" if parts.query else "", fragment=""))
    except ValueError:
        return "the address given"


def _seconds(value: float) -> str:
    return f"{value:g} s"


class Deadline:
    """When a whole answer must be in: `seconds` from now (kept, for the sentence that names it)."""

    def __init__(self, seconds: float) -> None:
        self.seconds, self.at = seconds, time.monotonic() + seconds

    def left(self) -> float:
        return self.at - time.monotonic()


def open_url(opener: urllib.request.OpenerDirector, request: urllib.request.Request, *, timeout: float,
             deadline: Deadline, cancel: threading.Event | None = None):
    """`opener.open(request, timeout=timeout)`, its status line and headers awaited until `deadline` (the
    connection, the TLS handshake and any redirects included): `answer_within`."""
    return answer_within(lambda: opener.open(request, timeout=timeout), request.full_url, deadline=deadline,
                         cancel=cancel)


def answer_within(ask: Callable[[], T], url: str, *, deadline: Deadline, cancel: threading.Event | None = None) -> T:
    """What `ask` returns (an HTTP response: it has `close`), awaited in a thread of its own until `deadline`.
    Raises what `ask` raises (an HTTPError, a refused connection), `TooSlow` past the deadline, `Cancelled` when
    `cancel` is set; an answer that comes after either is closed, never read."""
    done = threading.Event()
    result: dict = {}
    lock = threading.Lock()

    def run() -> None:
        try:
            answer = ask()
        except BaseException as exc:  # noqa: BLE001 (handed to the caller, who raises it)
            answer, result["error"] = None, exc
        with lock:
            if result.get("left"):  # the caller gave up: an answer that came late is closed, never read
                if answer is not None:
                    answer.close()
                return
            result["answer"] = answer
            done.set()

    threading.Thread(target=run, name="gc-wizard-http", daemon=True).start()
    while not done.wait(_POLL):
        stop = cancel is not None and cancel.is_set()
        if stop or deadline.left() <= 0:
            with lock:
                if not done.is_set():
                    result["left"] = True
                    if stop:
                        raise Cancelled
                    raise TooSlow(f"{shown_url(url)} did not send its answer's headers within "
                                  f"{_seconds(deadline.seconds)} (a server sending them a byte at a time, or not "
                                  "at all)")
    if "error" in result:
        raise result["error"]
    return result["answer"]


def chunks(response, url: str, *, deadline: Deadline | None = None, min_rate: float | None = None,
           window: float = 60.0, cancel: threading.Event | None = None) -> Iterator[bytes]:
    """The body of `response` a piece at a time as it arrives. Raises `TooSlow` when `deadline` passes before the body ends, or when less than `min_rate` bytes a second came over
    the last `window` seconds; `Cancelled` when `cancel` is set. One read waits at most the socket's own timeout."""
    mark, since_mark = time.monotonic(), 0
    read = getattr(response, "read1", None) or response.read
    while True:
        if cancel is not None and cancel.is_set():
            raise Cancelled
        now = time.monotonic()
        if deadline is not None and now >= deadline.at:
            raise TooSlow(f"{shown_url(url)} did not send its whole answer within {_seconds(deadline.seconds)} "
                          "(a server sending it a byte at a time)")
        if min_rate is not None and now - mark >= window:
            if since_mark < min_rate * window:
                raise TooSlow(f"{shown_url(url)} sent {since_mark:,} bytes in the last {_seconds(round(now - mark))}, "
                              f"less than the {int(min_rate):,} bytes a second a download needs to finish")
            mark, since_mark = now, 0
        piece = read(_CHUNK)
        if not piece:
            # Closed at its end, as `read` closes it: `read1` leaves it open, and a kept-open connection then
            # refuses its next request (http.client's CannotSendRequest).
            getattr(response, "close", lambda: None)()
            return
        since_mark += len(piece)
        yield piece


def read_whole(response, url: str, limit: int, *, deadline: Deadline, cancel: threading.Event | None = None) -> bytes:
    """The whole body, up to `limit` + 1 bytes (the caller sees that it was more than `limit`), by `deadline`."""
    parts, size = [], 0
    for piece in chunks(response, url, deadline=deadline, cancel=cancel):
        parts.append(piece)
        size += len(piece)
        if size > limit:
            break
    return b"".join(parts)[: limit + 1]
