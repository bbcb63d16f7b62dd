"""The advice for a gc-wizard missing pip or uv reinstalls from the source it came from, never `gc-wizard`
from the package index (gc-wizard is not on it: whoever registers the name would have their code run)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
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
     "`/opt/uv/bin/uv tool install --reinstall '/src/gc wizard'`"),
    ("uv-receipt.toml", {"url": "file:///src/gcw", "dir_info": {"editable": True}}, "uv",
     "`/opt/uv/bin/uv tool install --reinstall --editable /src/gcw`"),
    ("uv-receipt.toml", None, "uv", "`/opt/uv/bin/uv tool upgrade --reinstall gc-wizard`"),  # the receipt keeps the source
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
    assert " tool install --reinstall /src/gcw`" in said and "pip install --python" in said
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


def test_pipx_is_named_only_where_it_is_on_path(monkeypatch, tmp_path):
    _fake(monkeypatch, tmp_path, marker="pipx_metadata.json", direct_url={"url": "file:///src/gcw", "dir_info": {}})
    program = tmp_path / "bin" / "pipx"
    program.parent.mkdir()
    program.write_text("#!/bin/sh\nexit 0\n")
    program.chmod(0o755)
    monkeypatch.setenv("PATH", str(program.parent))
    assert "`pipx reinstall gc-wizard`" in si.repair_advice("pip", uv=None)
    monkeypatch.setenv("PATH", str(tmp_path / "nothing-here"))
    assert "pipx reinstall" not in si.repair_advice("pip", uv=None)


def _cannot_run(advice: str, path: str) -> list[str]:
    """The advised commands (in backticks) whose program is not there, or that run `-m pip` on an interpreter
    without it (after `-m ensurepip &&` in the same command is fine)."""
    bad = []
    for command in re.findall(r"`([^`]+)`", advice):
        pip_made = False
        for part in re.split(r"&&|\|", command):
            words = part.split()
            program = words[0]
            if not (os.access(program, os.X_OK) if "/" in program else shutil.which(program, path=path)):
                bad.append(f"{command} (no {program})")
            if words[1:2] == ["-m"]:
                module = words[2]
                if module == "pip" and not (pip_made or si.has_module("pip")):
                    bad.append(f"{command} (no pip)")
                pip_made |= module == "ensurepip" and si.has_module("ensurepip")
    return bad


@pytest.mark.parametrize("block", [("uv",), ("uv", "pip"), ("uv", "pip", "ensurepip")])
def test_every_command_advised_for_a_missing_uv_can_run(tmp_path, block):
    """Twenty-first hostile pass P5: a `uv tool` install with uv on neither path was told `uv tool install
    --reinstall …` (there is no uv) and `python -m pip install uv` (there was no pip either). A real gc-wizard run
    (`lock`) with those modules blocked and PATH without uv; each command it names must have what it needs."""
    blocked = "".join(f"sys.modules[{name!r}] = None; " for name in block)
    code = (f"import sys; {blocked}from wizard.cli import main; "
            f"sys.exit(main(['lock', 'jax0.4.23-cpu', '--out', {str(tmp_path / 'x.txt')!r}]))")
    path = "/usr/bin:/bin"
    if shutil.which("uv", path=path):
        pytest.skip(f"a uv is on {path} here, so uv cannot be made missing")
    env = {**os.environ, "PATH": path, "GC_WIZARD_HOME": str(tmp_path / "home")}
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 1 and "is not installed for" in proc.stderr, proc.stderr
    advice = proc.stderr.split(" and not on PATH: ", 1)[1]
    assert not _cannot_run(advice, path), advice
    assert "install uv on its own (`curl -LsSf https://astral.sh/uv/install.sh | sh`" in advice
    if "pip" in block and "ensurepip" not in block:
        assert f"`{sys.executable} -m ensurepip && {sys.executable} -m pip install uv`" in advice


def test_with_no_uv_no_pip_and_no_ensurepip_uvs_own_installer_leads(monkeypatch, tmp_path):
    _fake(monkeypatch, tmp_path, marker="uv-receipt.toml", direct_url={"url": "file:///src/gcw", "dir_info": {}})
    for name in ("pip", "ensurepip"):
        monkeypatch.setitem(sys.modules, name, None)
    for missing in ("uv", "pip"):
        advice = si.repair_advice(missing, uv=None)
        assert advice.startswith("install uv on its own (`curl -LsSf https://astral.sh/uv/install.sh | sh`"), advice
        assert "-m pip" not in advice and "tool install" not in advice


def _installed_from(monkeypatch, tmp_path, source, *, marker=None, installer="pip"):
    return _fake(monkeypatch, tmp_path, marker=marker, installer=installer,
                 direct_url={"url": f"file://{source}", "dir_info": {}})


@pytest.mark.parametrize("marker, installer", [(None, "pip"), ("uv-receipt.toml", "uv"), (None, "uv")])
def test_no_advice_reinstalls_from_a_folder_every_user_can_write(monkeypatch, tmp_path, marker, installer):
    """28th hostile pass (part B) P5: a reinstall from the recorded folder builds whatever is there by then: with
    that folder writable by every user it is left out, by every manager, and why is said once."""
    from tests.fixtures.modes import open_folder

    source = open_folder(tmp_path / "gcw-src")
    _installed_from(monkeypatch, tmp_path, source, marker=marker, installer=installer)
    monkeypatch.setitem(sys.modules, "uv", None)
    monkeypatch.setenv("PATH", str(tmp_path / "nothing-here"))
    with pytest.raises(OperationFailed) as err:
        uv_bin()
    said = str(err.value)
    assert f"install {source}" not in said and "--reinstall" not in said, said
    assert f"not a reinstall from the folder gc-wizard was installed from, {source}: it is a folder every user " \
           "can write" in said
    assert "-m pip install uv`" in said  # the other way stays


def test_for_root_no_advice_reinstalls_from_another_users_folder(monkeypatch, tmp_path, second_user):
    """The tester's case: root's gc-wizard installed from tuser's folder; with pip missing (bundle) and uv missing,
    and on the machine that gathers the forecast's files (`carry_words`), no line installs from it."""
    from wizard.after.next_steps import carry_words

    source = tmp_path / "src"
    source.mkdir()
    (source / "pyproject.toml").write_text("[project]\nname = 'gc-wizard'\n")
    subprocess.run(["chown", "-R", second_user, str(source)], check=True)
    _installed_from(monkeypatch, tmp_path, source, marker="uv-receipt.toml", installer="uv")
    monkeypatch.setitem(sys.modules, "pip", None)
    with pytest.raises(UserError) as err:
        bundle._pip()
    said = str(err.value)
    assert f"install --reinstall {source}" not in said and "--reinstall gc-wizard" not in said, said
    assert f"{source}: it is a folder that user {second_user} " in said and "runs as root" in said
    carry = carry_words()
    assert f"install {source}" not in carry and f"copy {source}" not in carry and "a copy of your own" in carry


def test_your_own_source_folder_is_still_offered(monkeypatch, tmp_path):
    source = tmp_path / "gcw-src"
    source.mkdir()
    _installed_from(monkeypatch, tmp_path, source)
    monkeypatch.setitem(sys.modules, "uv", None)
    monkeypatch.setenv("PATH", str(tmp_path / "nothing-here"))
    with pytest.raises(OperationFailed) as err:
        uv_bin()
    assert f"reinstall gc-wizard from {source} (`" in str(err.value)
