"""A find-links page on a web server is read with a bound before the installer reads it whole (seventh hostile
pass 12g: an endless page grew uv to 3.4 GB in five seconds)."""

from __future__ import annotations

import http.server
import threading
import time

import pytest

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


#: A body that arrives a byte at a time (ninth hostile pass W5/W6/W8: one `read(1 MB)` waited for a megabyte), and a
#: status line that does (tenth pass W9-W11: `urlopen` parsed it in one call no deadline reached). Either way the
#: install could not be stopped; now the look runs beside the waiting caller and takes what has arrived.
TRICKLING = ["trickle_page", "trickle_headers"]


@pytest.mark.parametrize("server", TRICKLING)
def test_a_page_that_trickles_in_is_read_for_a_bounded_time_and_said_to_be_slow(server, request):
    url = request.getfixturevalue(server)
    said: list[str] = []
    started = time.monotonic()
    assert page_problem(url, total_seconds=1.5, say=said.append) is None
    assert time.monotonic() - started < 5
    assert len(said) == 1 and said[0].startswith(f"the wheelhouse page {url} is slow (0 KB in 1.5 s)")


@pytest.mark.parametrize("server", TRICKLING)
def test_a_stop_asked_for_during_the_read_ends_it_at_once(server, request):
    url = request.getfixturevalue(server)
    cancel = threading.Event()
    threading.Timer(0.5, cancel.set).start()
    started = time.monotonic()
    assert page_problem(url, total_seconds=60, cancel=cancel) is None
    assert time.monotonic() - started < 5


@pytest.mark.flaky(reruns=2, reruns_delay=2)  # the loopback server shares this process: under a full machine its
# reply can miss the 2-second read timeout, and the look then rightly leaves the page to the installer (None)
def test_a_gzip_bomb_is_measured_decoded(gzip_bomb):
    """Tenth hostile pass W1/W2: 1 MB on the wire, 1 GiB decoded; the bound read the wire's bytes and let it pass,
    and uv then grew to 3.2 GB. The body is measured as the installer decodes it."""
    problem = page_problem(gzip_bomb, limit=16 * 1024 * 1024)
    assert problem is not None and problem.startswith(f"the wheelhouse page {gzip_bomb} (--find-links) holds more "
                                                      "than 16 MB")


@pytest.mark.parametrize("path", ["loop/", "back"])
def test_a_page_that_redirects_in_a_loop_is_refused_naming_it(path, redirect_server):
    """Eleventh hostile pass #143: a find-links URL redirecting for ever ended as "pkg-a was not found in the package
    registry", naming neither the page nor the loop. The loop is certain, so it is said before the install."""
    url = redirect_server + path
    problem = page_problem(url)
    assert problem is not None and problem.startswith(f"the wheelhouse page {url} (--find-links) redirects in a loop")
    assert page_problem(redirect_server + "hop") is None  # one redirect to a real page is fine


def test_a_redirect_to_another_scheme_is_named_as_such_not_as_a_loop(redirect_server):
    """Twelfth hostile pass #36: a redirect to `file:///etc/passwd` was refused as "redirects in a loop"."""
    problem = page_problem(redirect_server + "file")
    assert problem is not None and "redirects to file:///etc/passwd, which is not a web page" in problem
