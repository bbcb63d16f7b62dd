"""35th hostile pass (part B) P4: `forecast` fetched its files trusting an SSL_CERT_FILE another user could swap,
which plan, install and lock refuse by name. Every request of the forecast's downloads asks the installers' rule
first (`installer_files.certificate_problem`), and nothing is fetched."""

from __future__ import annotations

import urllib.request

import pytest

from tests.fixtures.modes import open_folder
from wizard.after import assets
from wizard.installer_files import certificate_problem


def _never(*args, **kwargs):
    raise AssertionError("a request was made")


@pytest.mark.parametrize("variable", ["SSL_CERT_FILE", "SSL_CERT_DIR"])
def test_a_certificate_another_user_could_swap_is_refused_before_any_request(tmp_path, monkeypatch, variable):
    ww = open_folder(tmp_path / "ww")
    (ww / "ca.pem").write_text("not a CA\n")
    own = tmp_path / "own"
    own.mkdir()
    monkeypatch.setenv(variable, str(ww / "ca.pem") if variable == "SSL_CERT_FILE" else f"{own}:{ww}")
    monkeypatch.setattr(urllib.request, "urlopen", _never)
    with pytest.raises(assets.AssetError) as caught:
        assets._get_text("https://example.invalid/SHA256SUMS", missing_ok=False)
    said = str(caught.value)
    assert f"(from {variable}, which the forecast's downloads read on their own)" in said
    assert str(ww) in said and "every user can write" in said and "nothing was downloaded" in said


def test_the_users_own_certificate_is_trusted(tmp_path):
    own = tmp_path / "own"
    own.mkdir()
    (own / "ca.pem").write_text("mine\n")
    assert certificate_problem({"SSL_CERT_FILE": str(own / "ca.pem"), "SSL_CERT_DIR": str(own)}, "x", "y", "z") is None
    assert certificate_problem({}, "x", "y", "z") is None
