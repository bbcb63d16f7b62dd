"""A local asset folder (`--assets DIR`, GC_WIZARD_ASSETS) is held to the swap rule every other source is, and a file
that is not what its kind must be is named without its bytes.

Why: 36th hostile pass (part B) P3 — root's forecast, `forecast --list` and `bundle --with-assets` read another user's
asset folder and followed their links; one, to /etc/shadow, had its first bytes printed in the forecast's error."""

from __future__ import annotations

import os

import pytest

from tests.fixtures.modes import NOBODY
from wizard.after import assets, bundle_assets
from wizard.after.assets import Asset, AssetError
from wizard.errors import UserError
from wizard.verify.probe.forecast_probe import engine_for

SMALL = assets.DEFAULT_MODEL
SECRET = b"PRIVATE-LINE-1:$6$salt$hash"


def _folder(root):
    for rel in assets.first_forecast_files():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_bytes(b"PK\x03\x04weights" if rel.endswith(".npz") else b"CDF\x01data")
    return root


@pytest.mark.parametrize("how", ["--assets", "GC_WIZARD_ASSETS"])
def test_an_asset_folder_every_user_can_write_is_refused_before_any_file_is_read(tmp_path, monkeypatch, how):
    root = _folder(tmp_path / "assets")
    root.chmod(0o777)  # no sticky bit: anyone may put their own params file in
    if how == "GC_WIZARD_ASSETS":
        monkeypatch.setenv("GC_WIZARD_ASSETS", str(root))
    with pytest.raises(UserError) as caught:
        assets.open_source(str(root) if how == "--assets" else None)
    message = str(caught.value)
    assert message.startswith(f"{how} {root}" if how == "--assets" else f"GC_WIZARD_ASSETS={root}"), message
    assert "every user can write" in message and "could swap the asset folder" in message
    assert "no file in it was read" in message


def test_bundle_with_assets_holds_the_folder_to_the_same_rule(tmp_path):
    root = _folder(tmp_path / "assets")
    (root / "params").chmod(0o777)
    with pytest.raises(UserError, match="every user can write"):
        bundle_assets.check_bundle_assets(str(root), model=None, dataset=None)


@pytest.mark.skipif(os.geteuid() != 0, reason="a folder and a link another user owns need root (chown)")
def test_root_never_reads_another_users_asset_folder_nor_follows_their_link(tmp_path):
    secret = tmp_path / "secret"
    secret.write_bytes(SECRET)
    secret.chmod(0o600)
    theirs = tmp_path / "theirs"
    root = _folder(theirs / "assets")
    (root / f"params/{SMALL}").unlink()
    (root / f"params/{SMALL}").symlink_to(secret)
    for top, dirs, files in os.walk(theirs):
        for name in [*dirs, *files]:
            os.chown(os.path.join(top, name), NOBODY, NOBODY, follow_symlinks=False)
    os.chown(theirs, NOBODY, NOBODY)
    with pytest.raises(UserError) as caught:
        assets.open_source(str(root))
    message = str(caught.value)
    assert "owns, and gc-wizard runs as root" in message and "PRIVATE" not in message


def test_a_file_changed_after_the_folder_was_opened_is_judged_again_when_it_is_read(tmp_path):
    root = _folder(tmp_path / "assets")
    source = assets.open_source(str(root))
    (root / f"params/{SMALL}").chmod(0o666)  # after the folder passed: the read must not take it
    with pytest.raises(UserError) as caught:
        assets.fetch(source, Asset(f"params/{SMALL}"))
    assert f"params/{SMALL}" in str(caught.value) and "every user can write" in str(caught.value)


def test_a_file_that_is_not_its_kind_is_named_without_its_bytes(tmp_path):
    root = _folder(tmp_path / "assets")
    (root / f"params/{SMALL}").write_bytes(SECRET)
    source = assets.open_source(str(root))
    with pytest.raises(AssetError) as caught:
        assets.fetch(source, Asset(f"params/{SMALL}"))
    message = str(caught.value)
    assert str(root / f"params/{SMALL}") in message and "not a numpy .npz (zip) archive" in message
    assert "PRIV" not in message and "b'" not in message


def test_the_forecast_probe_names_a_file_that_is_no_netcdf_without_its_bytes(tmp_path):
    path = tmp_path / "data.nc"
    path.write_bytes(SECRET)
    with pytest.raises(ValueError) as caught:
        engine_for(str(path))
    assert str(path) in str(caught.value) and "is not a NetCDF file (it starts with" in str(caught.value)
    assert "PRIV" not in str(caught.value) and "b'" not in str(caught.value)
