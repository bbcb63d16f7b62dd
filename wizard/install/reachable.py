"""Can this server open a connection to a remote source's host — asked before the install, not after.

Why: most GPU nodes reach PyPI but not GitHub, where a recipe's GraphCast comes from. Without a look
ahead, the Plan screen shows the recipe's `git+https://github.com/…` pin as fine and the install
fails at its third step (`reach.py` then explains the failure). One TCP connection attempt with a
short limit tells the user before anything runs, so they give a local checkout (key g) first.

What it does and does not prove: a TCP connection to port 443 (or the URL's port) — not that git or
the installer will get through (a TLS-inspecting firewall, credentials). When an HTTPS proxy is set
for the host (`https_proxy`, `all_proxy`, not excluded by `no_proxy`), the installers go through it,
so the proxy is what is tried. Name resolution and connecting run in a daemon thread, because
`getaddrinfo` has no timeout of its own; a lookup that hangs counts as "no answer".
"""

from __future__ import annotations

import os
import socket
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from urllib.parse import urlsplit

DEFAULT_TIMEOUT = 3.0


@dataclass(frozen=True)
class Reach:
    host: str
    ok: bool
    via: str | None = None
    """The proxy tried instead of the host ("proxy.lab:3128"), or None: the host itself."""
    why: str = ""
    """When not ok: what happened ("no answer in 3 s", "name not known", "connection refused")."""

    def sentence(self) -> str:
        where = f"{self.host} (through the proxy {self.via})" if self.via else self.host
        return f"{where} answers from here" if self.ok else f"{where} cannot be reached from here ({self.why})"


def remote_host(source: str) -> tuple[str, int] | None:
    """(host, port) of a remote install source — `git+https://…`, `https://…`, `pkg @ https://…` — or
    None for a local path."""
    url = source.split(" @ ", 1)[-1].strip()
    if url.startswith("git+"):
        url = url[len("git+"):]
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        return None
    if parts.scheme not in ("https", "http", "ssh", "git") or not parts.hostname:
        return None
    return parts.hostname, port or {"https": 443, "http": 80, "ssh": 22, "git": 9418}[parts.scheme]


def _proxy_for(host: str, environ: Mapping[str, str]) -> tuple[str, int] | None:
    def get(name: str) -> str:
        return environ.get(name) or environ.get(name.upper()) or ""

    excluded = [item.strip().lstrip(".").lower() for item in get("no_proxy").split(",") if item.strip()]
    if "*" in excluded or any(host.lower() == item or host.lower().endswith("." + item) for item in excluded):
        return None
    proxy = get("https_proxy") or get("all_proxy")
    if not proxy:
        return None
    try:
        parts = urlsplit(proxy if "://" in proxy else f"http://{proxy}")
        return (parts.hostname, parts.port or 8080) if parts.hostname else None
    except ValueError:
        return None


def _connect(host: str, port: int, timeout: float) -> str | None:
    """None when a connection opened; else why not, in a few words."""
    try:
        with socket.create_connection((host, port), timeout=timeout):
            return None
    except socket.gaierror:
        return "name not known"
    except TimeoutError:
        return f"no answer in {timeout:g} s"
    except ConnectionRefusedError:
        return "connection refused"
    except OSError as exc:
        return exc.strerror or type(exc).__name__


def check_reach(source: str, *, timeout: float = DEFAULT_TIMEOUT, environ: Mapping[str, str] | None = None
                ) -> Reach | None:
    """Whether the host of `source` (or the proxy for it) takes a connection; None for a local source."""
    target = remote_host(source)
    if target is None:
        return None
    host, port = target
    proxy = _proxy_for(host, os.environ if environ is None else environ)
    try_host, try_port = proxy or (host, port)
    outcome: list[str | None] = []
    worker = threading.Thread(target=lambda: outcome.append(_connect(try_host, try_port, timeout)), daemon=True,
                              name=f"reach {try_host}")
    worker.start()
    worker.join(timeout + 0.5)
    why = outcome[0] if outcome else f"no answer in {timeout:g} s"
    return Reach(host=host, ok=why is None, via=f"{try_host}:{try_port}" if proxy else None, why=why or "")
