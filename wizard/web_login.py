"""A URL's `user:password@` as the installers send it: a basic-auth header, never part of the address.

Why one place: the forecast's asset fetch, the download-size look-ups and the bounded read of a remote find-links
page each turned a mirror's login into a header with their own copy of the same lines (pip and uv send it so,
and a login left in the address would be sent, logged and shown).
"""

from __future__ import annotations

import base64
import urllib.error
import urllib.parse
import urllib.request


def split_login(url: str) -> tuple[str, dict[str, str]]:
    """`url` without its login, and the `Authorization` header that carries it ({} when it has none)."""
    parts = urllib.parse.urlsplit(url)
    if parts.username is None:
        return url, {}
    pair = f"{urllib.parse.unquote(parts.username)}:{urllib.parse.unquote(parts.password or '')}"
    host = parts.hostname or ""
    if ":" in host:  # an IPv6 address keeps its brackets in the address
        host = f"[{host}]"
    netloc = host + (f":{parts.port}" if parts.port else "")
    return (urllib.parse.urlunsplit(parts._replace(netloc=netloc)),
            {"Authorization": "Basic " + base64.b64encode(pair.encode()).decode()})


def login_opener(*handlers: urllib.request.BaseHandler) -> urllib.request.OpenerDirector:
    """The opener of every request gc-wizard sends with a login (`split_login`'s header): urllib's, with `handlers`
    (a TLS context's, a proxy's) and a redirect rule of its own (`_LoginRedirects`).

    Why: 36th hostile pass (part A) P3 — urllib's redirect handler copies every header but the body's to whatever
    address a redirect names, so a mirror's `302 Location: http://other-host/…` received the forecast's and the
    find-links look's `Authorization: Basic …`, which uv and pip keep to the host it was given for."""
    return urllib.request.build_opener(*handlers, _LoginRedirects())


class RedirectRefused(urllib.error.URLError):
    """A redirect from https:// to http://, which no request of the wizard's follows."""


class _LoginRedirects(urllib.request.HTTPRedirectHandler):
    """urllib's redirects, but the login is kept only for the scheme, host and port it was given for (pip's and uv's
    rule, from requests' `should_strip_auth`: http on port 80 going to https on 443 of the same host keeps it), and
    a redirect from https:// to http:// is refused outright: what came over TLS would go on in the clear."""

    def redirect_request(self, req, fp, code, msg, headers, newurl):  # noqa: ANN001, ANN201 (urllib's signature)
        new = super().redirect_request(req, fp, code, msg, headers, newurl)
        if new is None:
            return None
        before, after = urllib.parse.urlsplit(req.full_url), urllib.parse.urlsplit(new.full_url)
        if before.scheme == "https" and after.scheme != "https":
            raise RedirectRefused(f"it redirected from https:// to {after.scheme}:// "
                                  f"({_origin_words(after)}), which gc-wizard does not follow")
        if not _same_origin(before, after):
            new.remove_header("Authorization")
        return new


_DEFAULT_PORTS = {"http": 80, "https": 443}


def _origin(parts: urllib.parse.SplitResult) -> tuple[str, str, int | None]:
    try:
        port = parts.port
    except ValueError:
        port = None
    return parts.scheme.lower(), (parts.hostname or "").lower(), port or _DEFAULT_PORTS.get(parts.scheme.lower())


def _same_origin(before: urllib.parse.SplitResult, after: urllib.parse.SplitResult) -> bool:
    """Whether a login given for `before` may go to `after`: the same scheme, host and port, or the same host's
    upgrade from http on its default port to https on its own."""
    old, new = _origin(before), _origin(after)
    if old == new:
        return True
    return old[1] == new[1] and old == ("http", old[1], 80) and new == ("https", new[1], 443)


def _origin_words(parts: urllib.parse.SplitResult) -> str:
    scheme, host, port = _origin(parts)
    return f"{scheme}://{host}" + (f":{port}" if port and port != _DEFAULT_PORTS.get(scheme) else "")
