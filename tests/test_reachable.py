"""The look ahead at a remote GraphCast source: real sockets on this machine, no outside network."""

from __future__ import annotations

import socket

from wizard.install.reachable import check_reach, remote_host


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]  # free again once closed: nothing listens there


def test_remote_sources_are_told_from_local_ones():
    pin = "graphcast @ git+https://github.com/google-deepmind/graphcast@97d1ad50b0b7af4aaed7790167dffa769bae1f2c"
    assert remote_host(pin) == ("github.com", 443)
    assert remote_host("git+ssh://git@example.org:2222/g.git") == ("example.org", 2222)
    assert remote_host("https://files.example.org/graphcast-0.1.1.tar.gz") == ("files.example.org", 443)
    assert remote_host("/home/me/graphcast") is None and remote_host("graphcast-0.1.1-py3-none-any.whl") is None
    assert check_reach("/home/me/graphcast") is None


def test_a_listening_host_answers_and_a_closed_port_is_said():
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        port = server.getsockname()[1]
        found = check_reach(f"git+https://127.0.0.1:{port}/graphcast@v0.1.1", environ={})
    assert found.ok and found.sentence() == "127.0.0.1 answers from here"
    refused = check_reach(f"git+https://127.0.0.1:{_closed_port()}/graphcast", environ={})
    assert not refused.ok and refused.why == "connection refused"
    assert refused.sentence() == "127.0.0.1 cannot be reached from here (connection refused)"


def test_a_name_that_does_not_resolve_is_said():
    found = check_reach("git+https://graphcast.invalid/x", environ={}, timeout=2)
    assert not found.ok and found.why in ("name not known", "no answer in 2 s")


def test_the_proxy_is_tried_when_one_is_set_and_no_proxy_is_honoured():
    port = _closed_port()
    environ = {"HTTPS_PROXY": f"http://127.0.0.1:{port}", "no_proxy": "internal.lab"}
    via = check_reach("git+https://github.com/google-deepmind/graphcast", environ=environ)
    assert via.via == f"127.0.0.1:{port}" and not via.ok
    assert via.sentence().startswith("github.com (through the proxy 127.0.0.1:")
    direct = check_reach(f"https://git.internal.lab:{_closed_port()}/g.tar.gz", environ=environ, timeout=2)
    assert direct.via is None
