"""A login in a URL (`https://user:pw@mirror/`, sent as basic auth) goes only to the host it was given for, whatever
a redirect names (36th hostile pass (part A) P3: the forecast's asset reads and the find-links look sent it on to
another host, through urllib's redirect handler, which copies every header)."""

from __future__ import annotations

import http.server
import threading
import urllib.error
import urllib.request

import pytest

from wizard.after import assets
from wizard.install.remote_wheelhouse import page_problem
from wizard.web_login import RedirectRefused, login_opener, split_login


class _Recorder(http.server.BaseHTTPRequestHandler):
    """Each GET recorded as (port, path, Authorization); a path under /go/ redirected to `server.to` + path."""

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        port = self.server.server_address[1]
        self.server.seen.append((port, self.path, self.headers.get("Authorization")))
        if self.path.startswith("/go/") and self.server.to:
            self.send_response(302)
            self.send_header("Location", self.server.to + self.path.replace("/go/", "/at/", 1))
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        body = b"0" * 64 + b"  params/x.npz\n"
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args) -> None:
        pass


@pytest.fixture
def two_hosts():
    """A server that redirects (/go/…) and the server it redirects to, told apart by port; both record to one list."""
    seen: list[tuple[int, str, str | None]] = []
    servers = []
    for _ in range(2):
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Recorder)
        server.seen, server.to = seen, None
        threading.Thread(target=server.serve_forever, daemon=True).start()
        servers.append(server)
    first, second = servers
    first.to = f"http://localhost:{second.server_address[1]}"
    try:
        yield first.server_address[1], second.server_address[1], seen
    finally:
        for server in servers:
            server.shutdown()
            server.server_close()


def _logins_at(seen, port: int) -> list[str | None]:
    return [auth for at, _, auth in seen if at == port]


def test_the_forecasts_read_does_not_send_the_login_to_the_host_a_redirect_names(two_hosts):
    first, second, seen = two_hosts
    assert assets._get_text(f"http://alice:PWREDIR9@127.0.0.1:{first}/go/SHA256SUMS", missing_ok=False)
    assert _logins_at(seen, first) == [split_login("http://alice:PWREDIR9@h/")[1]["Authorization"]]
    assert _logins_at(seen, second) == [None]


def test_the_find_links_look_does_not_send_the_login_to_the_host_a_redirect_names(two_hosts):
    first, second, seen = two_hosts
    assert page_problem(f"http://alice:PWREDIR9@127.0.0.1:{first}/go/wh/") is None
    assert _logins_at(seen, first) and all(_logins_at(seen, first))
    assert _logins_at(seen, second) == [None]


def test_a_redirect_on_the_same_host_keeps_the_login(two_hosts):
    first, _, seen = two_hosts
    request = urllib.request.Request(f"http://127.0.0.1:{first}/at/x", headers=split_login("http://a:b@h/")[1])
    handler = login_opener().handlers
    redirects = next(h for h in handler if isinstance(h, urllib.request.HTTPRedirectHandler))
    new = redirects.redirect_request(request, None, 302, "Found", {}, f"http://127.0.0.1:{first}/other")
    assert new.get_header("Authorization") == request.get_header("Authorization")
    upgraded = urllib.request.Request("http://mirror.example/simple/", headers=split_login("http://a:b@h/")[1])
    assert redirects.redirect_request(upgraded, None, 301, "Moved", {}, "https://mirror.example/simple/"
                                      ).get_header("Authorization")  # requests' (pip's) rule: http:80 -> https:443
    other_port = redirects.redirect_request(upgraded, None, 302, "Found", {}, "http://mirror.example:8080/simple/")
    assert other_port.get_header("Authorization") is None


def test_a_redirect_from_https_to_http_is_refused():
    request = urllib.request.Request("https://mirror.example/assets/SHA256SUMS")
    redirects = next(h for h in login_opener().handlers if isinstance(h, urllib.request.HTTPRedirectHandler))
    with pytest.raises(RedirectRefused) as refused:
        redirects.redirect_request(request, None, 302, "Found", {}, "http://mirror.example/assets/SHA256SUMS")
    assert isinstance(refused.value, urllib.error.URLError)
    assert "from https:// to http:// (http://mirror.example)" in str(refused.value.reason)


def test_every_module_that_sends_a_login_opens_through_the_logins_opener():
    """The second path to the same leak: a module that turns a login into a header (`split_login`) and opens its
    requests with urllib's own `urlopen` or `build_opener`, whose redirect handler copies the header anywhere."""
    import ast
    from pathlib import Path

    import wizard

    offenders = []
    for path in Path(wizard.__file__).parent.rglob("*.py"):
        if path.name == "web_login.py":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names = {node.attr if isinstance(node, ast.Attribute) else node.id for node in ast.walk(tree)
                 if isinstance(node, (ast.Attribute, ast.Name))}
        if "split_login" in names and names & {"urlopen", "build_opener"}:
            offenders.append(path.name)
    assert offenders == []
