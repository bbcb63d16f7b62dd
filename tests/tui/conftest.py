"""Fixtures for the terminal-app tests: a package index that asks for a password, like a lab's private one."""

from __future__ import annotations

import base64
import functools
import http.server
import threading

import pytest

USER, PASSWORD = "lab", "s3cret-pw"


class _AuthWheels(http.server.SimpleHTTPRequestHandler):
    """Serves a wheelhouse only to requests with the right basic-auth header; 401 otherwise."""

    def log_message(self, *args) -> None:
        pass

    def do_GET(self) -> None:
        token = base64.b64encode(f"{USER}:{PASSWORD}".encode()).decode()
        if self.headers.get("Authorization") != f"Basic {token}":
            self.send_response(401)
            self.send_header("WWW-Authenticate", 'Basic realm="lab wheels"')
            self.end_headers()
            return
        super().do_GET()


@pytest.fixture
def auth_index(wheelhouse):
    """The `wheelhouse` folder served at a local URL that needs USER/PASSWORD (pip asks for them)."""
    handler = functools.partial(_AuthWheels, directory=str(wheelhouse.path))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()
