"""37th hostile pass (part A) P1: every HTTP answer the wizard reads itself has a deadline for the whole answer
(`web_read`), not a socket timeout that restarts with every byte: a server trickling its headers or its body is
given up, in one sentence naming the address without its password or query, and a download that keeps moving is
never cut off. Against real loopback servers (`tests.fixtures.index`'s trickling ones); short deadlines by parameter."""

from __future__ import annotations

import http.server
import threading
import urllib.request

import pytest

from wizard import web_read
from wizard.after import assets
from wizard.errors import WizardError
from wizard.web_login import login_opener

TRICKLING = ["trickle_page", "trickle_headers"]


def _with_secrets(url: str) -> str:
    return url.replace("http://", "http://alice:SECRETPW@") + "?sig=SECRETSIG"


@pytest.mark.parametrize("server", TRICKLING)
def test_a_trickling_answer_is_given_up_and_named(server, request):
    url = _with_secrets(request.getfixturevalue(server))
    deadline = web_read.Deadline(1.0)
    with pytest.raises(web_read.TooSlow) as slow:
        answer = web_read.open_url(login_opener(), urllib.request.Request(url.replace("alice:SECRETPW@", "")),
                                   timeout=30, deadline=deadline)
        with answer:
            web_read.read_whole(answer, url, 1 << 20, deadline=deadline)
    said = str(slow.value)
    assert "127.0.0.1" in said and "SECRET" not in said and "\n" not in said
    assert isinstance(slow.value, OSError)  # every caller's "cannot be read" path takes it


@pytest.mark.parametrize("server", TRICKLING)
def test_the_forecasts_listing_gives_up_on_a_trickling_mirror(server, request, monkeypatch, tmp_path):
    """The tester's commands: `forecast --list --assets http://…` read the mirror's SHA256SUMS with a 30 s timeout per
    byte and waited for days. Now the whole answer has `TEXT_SECONDS`."""
    monkeypatch.setenv("GC_WIZARD_HOME", str(tmp_path / "home"))
    monkeypatch.setattr(assets, "TEXT_SECONDS", 1.0)
    url = request.getfixturevalue(server)
    with pytest.raises(WizardError) as refused:
        assets.open_source(_with_secrets(url))
    said = str(refused.value)
    assert "127.0.0.1" in said and "SECRET" not in said and "local copy" in said


def _moving(pieces: int, size: int, pause: float):
    class Moving(http.server.BaseHTTPRequestHandler):
        def log_message(self, *args) -> None:
            pass

        def do_GET(self) -> None:  # noqa: N802 (the standard library's name)
            self.send_response(200)
            self.send_header("Content-Length", str(pieces * size))
            self.end_headers()
            try:
                for _ in range(pieces):
                    self.wfile.write(b"x" * size)
                    self.wfile.flush()
                    threading.Event().wait(pause)
            except (BrokenPipeError, ConnectionResetError):
                pass

    return Moving


@pytest.fixture
def serve():
    servers = []

    def start(handler) -> str:
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        server.daemon_threads = True
        threading.Thread(target=server.serve_forever, daemon=True).start()
        servers.append(server)
        return f"http://127.0.0.1:{server.server_address[1]}/f"

    yield start
    for server in servers:
        server.shutdown()
        server.server_close()


def test_a_download_that_keeps_moving_is_not_cut_off_one_that_trickles_is(serve, trickle_page):
    """A download is held to a least rate over a window, never to a deadline: 40 pieces of 64 KB over a few
    windows finish; a byte at a time over the same windows is given up, naming the address."""
    url = serve(_moving(40, 64 * 1024, 0.02))
    deadline = web_read.Deadline(30.0)
    with web_read.open_url(login_opener(), urllib.request.Request(url), timeout=30, deadline=deadline) as answer:
        got = sum(len(p) for p in web_read.chunks(answer, url, min_rate=64 * 1024, window=0.2))
    assert got == 40 * 64 * 1024
    with web_read.open_url(login_opener(), urllib.request.Request(trickle_page), timeout=30,
                           deadline=deadline) as answer, pytest.raises(web_read.TooSlow) as slow:
        for _ in web_read.chunks(answer, trickle_page, min_rate=64 * 1024, window=0.5):
            pass
    assert "127.0.0.1" in str(slow.value) and "bytes a second" in str(slow.value)


def test_a_forecast_download_from_a_trickling_mirror_stops_and_can_resume(monkeypatch, tmp_path, trickle_page,
                                                                          trickle_headers):
    """`fetch`'s downloads go through the same reader: trickled headers past `HEADER_SECONDS`, a trickled body under
    `MIN_RATE`, each one AssetError naming the address."""
    monkeypatch.setattr(assets, "HEADER_SECONDS", 1.0)
    monkeypatch.setattr(assets, "MIN_RATE", 64 * 1024)
    monkeypatch.setattr(assets, "RATE_WINDOW", 0.5)
    for url in (trickle_headers, trickle_page):
        with pytest.raises(WizardError) as refused:
            assets._download(url + "f.nc", tmp_path / "f.nc.part", "f.nc", None, None)
        assert "127.0.0.1" in str(refused.value), str(refused.value)


def test_a_cancel_ends_the_wait_for_headers(trickle_headers):
    cancel = threading.Event()
    cancel.set()
    with pytest.raises(web_read.Cancelled):
        web_read.open_url(login_opener(), urllib.request.Request(trickle_headers), timeout=30,
                          deadline=web_read.Deadline(60.0), cancel=cancel)


@pytest.mark.parametrize("server", TRICKLING)
def test_the_size_queries_and_reach_checks_give_up_on_a_trickling_server(server, request, monkeypatch, tmp_path):
    """The second and third readers: the plan's size queries (a kept-open connection, `_IndexReader`) and the reach
    checks' HEAD, each through the same reader."""
    from wizard.install import cost
    from wizard.recipes.alternatives import reachable

    url = request.getfixturevalue(server)
    monkeypatch.delenv("UV_DEFAULT_INDEX", raising=False)
    monkeypatch.setenv("UV_INDEX_URL", url)
    monkeypatch.setenv("GC_WIZARD_HOME", str(tmp_path / "home"))
    size = cost.download_size({"pkg": "1.0"}, timeout=0.25)
    assert size.unknown == ("pkg",) and size.error is not None and "127.0.0.1" in size.error
    assert size.index_down is None  # it answered, slowly: not an index that is down
    assert reachable(url, timeout=0.5) is (server == "trickle_page")  # a status line that came is an answer


def test_every_http_answer_is_awaited_through_the_one_reader():
    """The class, not the cases: a module that opens an HTTP answer (`urlopen`, an opener's `open(…, timeout=…)`,
    http.client's `getresponse`) awaits it through `web_read` (`open_url` or `answer_within`), where the whole
    answer has a deadline."""
    import ast
    from pathlib import Path

    import wizard

    offenders = []
    for path in sorted(Path(wizard.__file__).parent.rglob("*.py")):
        if path.name == "web_read.py":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        opens, through = [], False
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
                if name in ("urlopen", "getresponse") or (name == "open" and any(k.arg == "timeout"
                                                                                 for k in node.keywords)):
                    opens.append(f"{path.name}:{node.lineno}")
                if name in ("open_url", "answer_within"):
                    through = True
        if opens and not through:
            offenders += opens
    assert offenders == []
