"""Every connection gc-wizard opens itself takes its TLS context from one place (`installer_files.tls_context`),
after the installers' rule on the CA variables OpenSSL reads on its own: the reach checks
(`recipes.alternatives.reachable`) and the look at a remote wheelhouse page (`install.remote_wheelhouse`) trusted
another user's SSL_CERT_FILE silently while plan, lock and forecast refused it."""

from __future__ import annotations

import ast
import socket
from pathlib import Path

import pytest

import wizard
from tests.fixtures.modes import open_folder
from wizard.install import remote_wheelhouse
from wizard.installer_files import CertificatesRefused, tls_context
from wizard.recipes import alternatives


@pytest.fixture
def listener():
    """A port that accepts connections and never answers: whether anything connected is read back afterwards."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(8)
    server.setblocking(False)
    try:
        yield server
    finally:
        server.close()


def _connected(server: socket.socket) -> bool:
    try:
        peer, _ = server.accept()
    except BlockingIOError:
        return False
    peer.close()
    return True


@pytest.fixture
def swappable_ca(tmp_path, monkeypatch):
    ww = open_folder(tmp_path / "ww")
    (ww / "ca.pem").write_text("not a CA\n")
    monkeypatch.setenv("SSL_CERT_FILE", str(ww / "ca.pem"))
    return ww


def test_the_reach_check_sends_nothing_under_a_swappable_ca_file(swappable_ca, listener):
    url = f"http://127.0.0.1:{listener.getsockname()[1]}/"
    assert alternatives.reachable(url, timeout=0.5) is True  # nothing learnt: never said unreachable
    assert not _connected(listener)


def test_the_wheelhouse_look_refuses_a_swappable_ca_file_in_the_installers_words(swappable_ca, listener):
    url = f"http://127.0.0.1:{listener.getsockname()[1]}/wheels/"
    said = remote_wheelhouse.page_problem(url, total_seconds=1.0)
    assert not _connected(listener)
    assert said is not None and "(from SSL_CERT_FILE, which the look at a remote wheelhouse page read" in said
    assert str(swappable_ca) in said and "every user can write" in said


def test_the_one_context_is_refused_or_made(swappable_ca, monkeypatch):
    with pytest.raises(CertificatesRefused, match="SSL_CERT_FILE"):
        tls_context("x", "y", "z")
    monkeypatch.delenv("SSL_CERT_FILE")
    assert tls_context("x", "y", "z").verify_mode.name == "CERT_REQUIRED"


def test_no_module_opens_a_connection_past_the_one_context():
    """The class, not the cases: `ssl.create_default_context` is called in `installer_files.tls_context` alone, and
    every `urlopen` is given the context it made."""
    root = Path(wizard.__file__).parent
    wrong = []
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            where = f"{path.relative_to(root)}:{node.lineno}"
            if name == "create_default_context" and path.name != "installer_files.py":
                wrong.append(where)
            if name == "urlopen" and not any(k.arg == "context" for k in node.keywords):
                wrong.append(where)
    assert wrong == []
