"""The advice for a gc-wizard missing pip or uv reinstalls from the source it came from, never `gc-wizard`
from the package index (gc-wizard is not on it: whoever registers the name would have their code run)."""

from __future__ import annotations

import json
import re
import sys

import pytest

from wizard import self_install as si
from wizard.errors import OperationFailed, UserError
from wizard.install import bundle
from wizard.uv_tool import uv_bin


class _Dist:
    def __init__(self, files: dict[str, str]):
        self.files = files

    def read_text(self, name: str):
        return self.files.get(name)


def _fake(monkeypatch, tmp_path, *, marker: str | None, direct_url: dict | None, installer: str = "pip"):
    prefix = tmp_path / "prefix"
    prefix.mkdir()
    if marker:
        (prefix / marker).write_text("{}")
    files = {"INSTALLER": installer + "\n"}
    if direct_url is not None:
        files["direct_url.json"] = json.dumps(direct_url)
    monkeypatch.setattr(si, "_dist_info", lambda: _Dist(files))
    monkeypatch.setattr(sys, "prefix", str(prefix))
    monkeypatch.setattr(sys, "executable", str(prefix / "bin" / "python"))
    return prefix


#: the commands that would ask the index for a distribution named gc-wizard
_BARE = re.compile(r"(tool install|pipx install|pip install)( --reinstall)? gc-wizard\b")


@pytest.mark.parametrize("marker, direct_url, installer, expect", [
    ("uv-receipt.toml", {"url": "file:///src/gc%20wizard", "dir_info": {}}, "uv",
     "`uv tool install --reinstall '/src/gc wizard'`"),
    ("uv-receipt.toml", {"url": "file:///src/gcw", "dir_info": {"editable": True}}, "uv",
     "`uv tool install --reinstall --editable /src/gcw`"),
    ("uv-receipt.toml", None, "uv", "`uv tool upgrade --reinstall gc-wizard`"),  # the receipt keeps the source
    ("pipx_metadata.json", {"url": "file:///src/gcw", "dir_info": {}}, "pip", "`pipx reinstall gc-wizard`"),
    (None, {"url": "file:///src/gcw", "dir_info": {"editable": True}}, "uv", "pip install --python"),
    (None, {"url": "file:///src/gcw", "dir_info": {"editable": True}}, "pip", "-m ensurepip`"),
    (None, {"url": "https://tok:secret@git.example/gcw.git", "vcs_info": {"vcs": "git", "commit_id": "abc"}}, "pip",
     "git+https://***@git.example/gcw.git@abc"),
])
def test_missing_pip_is_fixed_from_the_recorded_source(monkeypatch, tmp_path, marker, direct_url, installer, expect):
    _fake(monkeypatch, tmp_path, marker=marker, direct_url=direct_url, installer=installer)
    advice = si.repair_advice("pip", uv="/opt/uv/bin/uv" if installer == "uv" else None)
    assert expect in advice, advice
    assert not _BARE.search(advice), advice
    assert "pipx install" not in advice and "secret" not in advice


def test_a_plain_uv_venv_install_is_not_told_about_pipx_or_uv_tool(monkeypatch, tmp_path):
    prefix = _fake(monkeypatch, tmp_path, marker=None, direct_url={"url": "file:///src/gcw", "dir_info": {}},
                   installer="uv")
    advice = si.repair_advice("pip", uv="/opt/uv/bin/uv")
    assert "pipx" not in advice and "uv tool" not in advice
    assert f"`/opt/uv/bin/uv pip install --python {prefix}/bin/python pip`" in advice
    assert "reinstall gc-wizard from /src/gcw (`/opt/uv/bin/uv pip install --python" in advice


def test_bundle_without_pip_names_the_source(monkeypatch, tmp_path):
    _fake(monkeypatch, tmp_path, marker="uv-receipt.toml", direct_url={"url": "file:///src/gcw", "dir_info": {}},
          installer="uv")
    monkeypatch.setitem(sys.modules, "pip", None)
    with pytest.raises(UserError) as err:
        bundle._pip()
    said = str(err.value)
    assert "`uv tool install --reinstall /src/gcw`" in said and "pip install --python" in said
    assert "--reinstall gc-wizard`" not in said and "pipx" not in said


def test_missing_uv_names_the_source(monkeypatch, tmp_path):
    _fake(monkeypatch, tmp_path, marker=None, direct_url={"url": "file:///src/gcw", "dir_info": {"editable": True}},
          installer="pip")
    monkeypatch.setitem(sys.modules, "uv", None)
    monkeypatch.setenv("PATH", str(tmp_path / "nothing-here"))
    with pytest.raises(OperationFailed) as err:
        uv_bin()
    said = str(err.value)
    assert "-m pip install -e /src/gcw`" in said, said
    assert "pipx install gc-wizard" not in said


def test_an_index_install_is_told_to_reinstall_the_way_it_was_installed(monkeypatch, tmp_path):
    _fake(monkeypatch, tmp_path, marker=None, direct_url=None, installer="pip")
    advice = si.repair_advice("pip", uv=None)
    assert advice.startswith("add pip there (`") and "-m ensurepip`" in advice
    assert "the way it was installed" in advice and "gc-wizard`" not in advice
