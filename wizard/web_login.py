"""A URL's `user:password@` as the installers send it: a basic-auth header, never part of the address.

Why one place: the forecast's asset fetch, the download-size look-ups and the bounded read of a remote find-links
page each turned a mirror's login into a header with their own copy of the same lines (pip and uv send it so,
and a login left in the address would be sent, logged and shown).
"""

from __future__ import annotations

import base64
import urllib.parse


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
