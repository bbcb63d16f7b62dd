"""The download size asks the index the install will use (a lab's mirror, a closed index), never PyPI behind
the user's back; a closed index is "unknown" at once, with the index named."""

from __future__ import annotations

import http.server
import json
import threading
import time
import urllib.request

import pytest

from wizard.install.cost import PYPI_SIMPLE, WORKERS, download_size, index_url


def test_the_index_comes_from_the_variables_uv_reads_first_to_last():
    assert index_url({}) == PYPI_SIMPLE
    assert index_url({"PIP_INDEX_URL": "https://mirror.lab/simple"}) == "https://mirror.lab/simple/"
    assert index_url({"PIP_INDEX_URL": "https://b/simple/", "UV_INDEX_URL": "https://a/simple/"}) == "https://a/simple/"
    assert index_url({"UV_DEFAULT_INDEX": "http://c/simple/", "UV_INDEX_URL": "https://a/"}) == "http://c/simple/"
    assert index_url({"UV_INDEX_URL": "/not/a/url"}) == PYPI_SIMPLE


PEP691 = "application/vnd.pypi.simple.v1+json"


def _reply(handler: http.server.BaseHTTPRequestHandler, body: bytes, content_type: str | None = None) -> None:
    """One 200 answer with its length (the HTTP/1.1 handlers keep the connection open for the next page)."""
    handler.send_response(200)
    if content_type:
        handler.send_header("Content-Type", content_type)
    handler.send_header("Content-Length", str(len(body)))
    handler.end_headers()
    handler.wfile.write(body)


class _Pep691(http.server.BaseHTTPRequestHandler):
    """A mirror's simple index in its JSON form: one project, `pkg`, with a wheel for every Python."""

    def log_message(self, *args) -> None:
        pass

    def do_GET(self) -> None:
        if self.path != "/simple/pkg/":
            self.send_error(404)
            return
        body = json.dumps({"files": [
            {"filename": "pkg-1.0-py3-none-any.whl", "size": 12345},
            {"filename": "pkg-0.9-py3-none-any.whl", "size": 1},
        ]}).encode()
        _reply(self, body, PEP691)


@pytest.fixture
def mirror():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Pep691)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/simple/"
    server.shutdown()


def test_sizes_come_from_the_mirror_the_install_uses(mirror, monkeypatch):
    monkeypatch.delenv("UV_DEFAULT_INDEX", raising=False)  # uv reads it before UV_INDEX_URL
    monkeypatch.setenv("UV_INDEX_URL", mirror)
    size = download_size({"pkg": "1.0", "absent": "2.0"})
    assert size.per_package == {"pkg": 12345} and size.unknown == ("absent",)
    assert size.error is None
    assert f"1 package from the index at {mirror}" in size.describe()


def test_a_closed_index_is_unknown_at_once_and_named(closed_indexes):
    size = download_size({f"pkg{i}": "1.0" for i in range(64)})
    assert size.known == 0 and len(size.unknown) == 64
    assert size.error.startswith(f"the index {closed_indexes} could not be read")
    assert "download size unknown" in size.describe()


class _SlowFor(_Pep691):
    """Answers `pkg` at once and `slow` only after the budget (a congested index)."""

    def do_GET(self) -> None:
        if self.path == "/simple/slow/":
            time.sleep(6)
            self.path = "/simple/pkg/"
        super().do_GET()


def test_the_plan_waits_a_budget_then_says_how_much_is_known_and_the_cache_answers_next_time(monkeypatch):
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _SlowFor)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/simple/"
    monkeypatch.delenv("UV_DEFAULT_INDEX", raising=False)
    monkeypatch.setenv("UV_INDEX_URL", url)
    size = download_size({"pkg": "1.0", "slow": "1.0"}, budget=2.0)
    assert size.per_package == {"pkg": 12345} and size.late == 1 and size.unknown == ("slow",)
    assert size.describe().endswith("1 of 2 sizes known so far")
    server.shutdown()
    server.server_close()  # the index is gone: the size read before comes from the cache, nothing is asked
    again = download_size({"pkg": "1.0"}, budget=2.0)
    assert again.per_package == {"pkg": 12345} and again.error is None


class _EveryProject(http.server.BaseHTTPRequestHandler):
    """An HTTP/1.1 index (connections stay open) that has every project, each with one wheel whose size is
    the length of its name; it counts the connections it accepted and the pages it served."""

    protocol_version = "HTTP/1.1"
    connections: list[int] = []
    pages: list[str] = []

    def log_message(self, *args) -> None:
        pass

    def setup(self) -> None:
        super().setup()
        self.connections.append(1)

    def do_GET(self) -> None:
        self.pages.append(self.path)
        name = self.path.rstrip("/").rsplit("/", 1)[-1]
        body = json.dumps({"files": [{"filename": f"{name}-1.0-py3-none-any.whl", "size": len(name)}]}).encode()
        _reply(self, body, PEP691)


@pytest.fixture
def every_project():
    handler = type("_Counting", (_EveryProject,), {"connections": [], "pages": []})
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield server, handler
    server.shutdown()
    server.server_close()


def test_a_cold_plan_asks_every_project_over_a_few_kept_open_connections(every_project, monkeypatch):
    server, handler = every_project
    monkeypatch.delenv("UV_DEFAULT_INDEX", raising=False)
    monkeypatch.setenv("UV_INDEX_URL", f"http://127.0.0.1:{server.server_address[1]}/simple/")
    pins = {f"project{i:02d}": "1.0" for i in range(40)}
    size = download_size(pins)
    assert size.known == 40 and size.unknown == () and size.error is None
    assert size.per_package["project07"] == len("project07")
    assert len(handler.pages) == 40
    assert len(handler.connections) <= WORKERS  # one DNS look-up and handshake per worker, not per project


def test_behind_a_proxy_the_look_ups_go_through_it(every_project, monkeypatch):
    server, handler = every_project  # as a forward proxy: it is sent the whole URL, and answers for any host
    # An earlier urlopen in this process, before the proxy was set: urllib's shared opener keeps that.
    urllib.request.urlopen(f"http://127.0.0.1:{server.server_address[1]}/simple/earlier/", timeout=10).read()
    handler.pages.clear()
    monkeypatch.delenv("UV_DEFAULT_INDEX", raising=False)
    monkeypatch.setenv("UV_INDEX_URL", "http://mirror.invalid/simple/")  # only the proxy can reach it
    monkeypatch.setenv("http_proxy", f"http://127.0.0.1:{server.server_address[1]}")
    for name in ("no_proxy", "NO_PROXY"):
        monkeypatch.delenv(name, raising=False)
    size = download_size({"alpha": "1.0", "beta": "1.0"})
    assert size.per_package == {"alpha": 5, "beta": 4} and size.error is None
    assert sorted(handler.pages) == ["http://mirror.invalid/simple/alpha/", "http://mirror.invalid/simple/beta/"]


@pytest.mark.network
def test_pypi_answers_over_https_with_the_shared_tls_context(monkeypatch):
    for name in ("UV_DEFAULT_INDEX", "UV_INDEX_URL", "PIP_INDEX_URL"):
        monkeypatch.delenv(name, raising=False)
    size = download_size({"six": "1.17.0", "zipp": "3.17.0"}, budget=None)
    assert size.error is None and size.unknown == ()
    assert size.per_package["six"] == 11050  # six-1.17.0-py2.py3-none-any.whl, as PyPI lists it


def _entry(filename: str, size: int, **extra) -> dict:
    """A file entry as PyPI writes it (sorted keys: the nested metadata objects come before the name)."""
    return {"core-metadata": {"sha256": "ab" * 32}, "data-dist-info-metadata": {"sha256": "ab" * 32},
            "filename": filename, "hashes": {"sha256": "cd" * 32}, "requires-python": ">=3.9", "size": size,
            "upload-time": "2024-01-01T00:00:00Z", "url": f"https://files.example/{filename}", "yanked": False,
            **extra}


#: Project pages that make the wheel's entry harder to find than PyPI's usual layout.
PAGES = {
    # PyPI's layout: thousands of other files around it, the nested objects first.
    "big": json.dumps({"files": [_entry(f"big-0.{i}-py3-none-any.whl", i) for i in range(2000)]
                       + [_entry("big-1.0-py3-none-any.whl", 4242), _entry("big-1.0.tar.gz", 1)],
                       "meta": {"api-version": "1.1"}, "name": "big"}, sort_keys=True),
    # Compact separators, a yanked wheel whose reason has braces, the version spelled "1.0.0".
    "odd": json.dumps({"files": [_entry("odd-1.0-py3-none-any.whl", 1, yanked="broken {see #1}"),
                                 _entry("odd-1.0.0-py3-none-any.whl", 777)]},
                      separators=(",", ":")),
    # An entry with more nested objects before its name than the quick search looks through: read whole.
    "deep": json.dumps({"files": [{**{f"a{i}": {"x": i} for i in range(12)},
                                   "filename": "deep-2.0-py3-none-any.whl", "size": 99}]}, sort_keys=True),
}


class _Pages(_EveryProject):
    def do_GET(self) -> None:
        name = self.path.rstrip("/").rsplit("/", 1)[-1]
        body = PAGES[name].encode()
        _reply(self, body)


def test_the_wheel_is_found_in_pages_laid_out_every_way(monkeypatch):
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Pages)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    monkeypatch.delenv("UV_DEFAULT_INDEX", raising=False)
    monkeypatch.setenv("UV_INDEX_URL", f"http://127.0.0.1:{server.server_address[1]}/simple/")
    size = download_size({"big": "1.0", "odd": "1.0", "deep": "2.0"}, python_version="3.11")
    server.shutdown()
    server.server_close()
    assert size.per_package == {"big": 4242, "odd": 777, "deep": 99} and size.error is None


def test_local_files_are_said_apart_from_the_download(mirror, tmp_path, monkeypatch):
    """walk 26 #13: offline, from a bundle, the plan said "Download: about 265 MB (94 from the wheelhouse)" when
    nothing was downloaded. What local files bring is said as local files; "about …" counts only the index's."""
    from tests.fixtures.wheels import build_wheel
    from wizard.install.cost import human

    house = tmp_path / "house"
    local = build_wheel(house, "here", "1.0", module_source="x = 1\n" * 500).stat().st_size
    alone = download_size({"here": "1.0"}, find_links=[str(house)], offline=True)
    assert alone.describe() == f"nothing: the 1 package (about {human(local)}) is a local file, in the wheelhouse"
    monkeypatch.delenv("UV_DEFAULT_INDEX", raising=False)
    monkeypatch.setenv("UV_INDEX_URL", mirror)
    both = download_size({"here": "1.0", "pkg": "1.0"}, find_links=[str(house)])
    assert both.bytes == local + 12345  # the whole, for the plan's disk words
    assert both.describe() == (f"about {human(12345)} (1 package from the index at {mirror}); 1 more package (about "
                               f"{human(local)}) is a local file, in the wheelhouse")
