"""35th hostile pass (part B) P4: gc-wizard's own https requests trust no CA variable the installers refuse — the
plan's size queries ask `installer_files.certificate_problem` before any connection, as the forecast's do."""

from __future__ import annotations

import http.client

from tests.fixtures.modes import open_folder
from wizard.install.cost import download_size


def test_the_size_queries_ask_nothing_under_a_certificate_another_user_could_swap(tmp_path, monkeypatch):
    ww = open_folder(tmp_path / "ww")
    (ww / "ca.pem").write_text("not a CA\n")
    monkeypatch.setenv("GC_WIZARD_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("UV_DEFAULT_INDEX", "https://example.invalid/simple/")
    monkeypatch.setenv("SSL_CERT_FILE", str(ww / "ca.pem"))

    def never(*args, **kwargs):
        raise AssertionError("a connection was made")

    monkeypatch.setattr(http.client, "HTTPSConnection", never)
    size = download_size({"gc-none-such": "1.0"}, budget=None)
    assert size.unknown == ("gc-none-such",)
    assert "SSL_CERT_FILE" in size.error and "every user can write" in size.error
