"""A find-links page on a web server is read with a bound before the installer reads it whole (seventh hostile
pass 12g: an endless page grew uv to 3.4 GB in five seconds)."""

from __future__ import annotations

import http.server
import threading
import time

from tests.fixtures.index import closed_port
from wizard.install.remote_wheelhouse import page_problem


def test_an_endless_page_is_refused_naming_it_without_its_token(endless_page):
    url, _ = endless_page
    problem = page_problem(url + "?token=glpat-AbCdEf0123456789xyzQW", limit=4 * 1024 * 1024)
    assert problem is not None and "glpat-AbCdEf0123456789xyzQW" not in problem
    assert problem.startswith(f"the wheelhouse page {url}?token=<redacted> (--find-links) holds more than 4 MB")
    assert "copy the wheels into a local folder" in problem


def test_the_page_gets_its_login_as_basic_auth_not_in_the_url(endless_page):
    url, seen = endless_page
    assert page_problem(url.replace("http://", "http://lab:s3cret@"), limit=1024 * 1024) is not None
    assert seen == ["Basic bGFiOnMzY3JldA=="]  # lab:s3cret, as pip and uv send it


def test_a_page_of_a_pages_size_passes(tmp_path):
    (tmp_path / "index.html").write_text('<a href="pkg_a-1.0-py3-none-any.whl">pkg_a</a>\n' * 20_000)
    handler = lambda *a, **k: http.server.SimpleHTTPRequestHandler(*a, directory=str(tmp_path), **k)  # noqa: E731
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        assert page_problem(f"http://127.0.0.1:{server.server_address[1]}/", limit=4 * 1024 * 1024) is None
    finally:
        server.shutdown()
        server.server_close()


def test_what_cannot_be_learnt_is_left_to_the_installer():
    assert page_problem(f"http://127.0.0.1:{closed_port()}/wheels/") is None  # nobody answers
    assert page_problem("/srv/wheels") is None and page_problem("file:///srv/wheels") is None
    assert page_problem("http://[::1") is None  # not a URL at all: the installer's own words say so


def test_a_page_that_trickles_in_is_read_for_a_bounded_time_and_said_to_be_slow(trickle_page):
    """Ninth hostile pass W5/W6/W8: one `read(1 MB)` waited for a megabyte that came a byte at a time, and the
    install could not be stopped. Reads take what has arrived, so the deadline is kept and the page said slow."""
    said: list[str] = []
    started = time.monotonic()
    assert page_problem(trickle_page, total_seconds=1.5, say=said.append) is None
    assert time.monotonic() - started < 6
    assert len(said) == 1 and said[0].startswith(f"the wheelhouse page {trickle_page} is slow (0 KB in 1.5 s)")


def test_a_stop_asked_for_during_the_read_ends_it_at_once(trickle_page):
    cancel = threading.Event()
    threading.Timer(0.5, cancel.set).start()
    started = time.monotonic()
    assert page_problem(trickle_page, total_seconds=60, cancel=cancel) is None
    assert time.monotonic() - started < 5


def test_headers_that_trickle_in_are_left_at_the_deadline_and_a_stop_heard(trickle_headers):
    """Tenth hostile pass W9-W11: the status line came a byte at a time, `urlopen` parsed it in one call no deadline
    reached, and the install ignored SIGINT, SIGTERM and SIGHUP. The look now runs beside the waiting caller."""
    said: list[str] = []
    started = time.monotonic()
    assert page_problem(trickle_headers, total_seconds=1.5, say=said.append) is None
    assert time.monotonic() - started < 5 and len(said) == 1 and "is slow (0 KB in 1.5 s)" in said[0]
    cancel = threading.Event()
    threading.Timer(0.5, cancel.set).start()
    started = time.monotonic()
    assert page_problem(trickle_headers, total_seconds=60, cancel=cancel) is None
    assert time.monotonic() - started < 5


def test_a_gzip_bomb_is_measured_decoded(gzip_bomb):
    """Tenth hostile pass W1/W2: 1 MB on the wire, 1 GiB decoded; the bound read the wire's bytes and let it pass,
    and uv then grew to 3.2 GB. The body is measured as the installer decodes it."""
    problem = page_problem(gzip_bomb, limit=16 * 1024 * 1024)
    assert problem is not None and problem.startswith(f"the wheelhouse page {gzip_bomb} (--find-links) holds more "
                                                      "than 16 MB")
