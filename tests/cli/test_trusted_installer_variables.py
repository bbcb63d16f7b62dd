"""The installer variables that name a place whose content uv or pip runs or trusts — the folder of uv's managed
Pythons, a Python download list, a CA file — are held to the swap rule `--find-links` is held to, by name, before
anything runs: `plan` included (`installer_files.TRUSTED_VARIABLES`).

Before (30th hostile pass, part B): `UV_PYTHON_INSTALL_DIR` in another user's folder made `plan` run their "managed
Python" as root (P5). The real CLI in this process, on the tiny recipes' real wheels; a folder every user can write
stands for another user's (the same rule), so no root is needed."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tests.fixtures.cli import run_inproc
from tests.fixtures.modes import open_folder
from tests.fixtures.state import last_json
from tests.fixtures.tiny import RECIPE
from wizard.installer_files import TRUSTED_VARIABLES


def _recipe_needing_a_python_not_here(tiny) -> Path:
    """A recipe folder whose one recipe, tiny-14, needs Python 3.14 (not on this machine: uv must find or fetch it)."""
    folder = tiny.recipes.parent / "rec14"
    folder.mkdir()
    (folder / "tiny-14.yaml").write_text(RECIPE.format(id="tiny-14", requirements="  - pkg-a==1.0").replace(
        'python: ">=3.10,<3.13"', 'python: ">=3.14,<3.15"'))
    return folder


def _managed_python(folder: Path, marker: Path) -> None:
    """A "managed Python 3.14" as uv lays them out, which notes each run in `marker`."""
    bin_dir = folder / "cpython-3.14.99-linux-x86_64-gnu" / "bin"
    bin_dir.mkdir(parents=True)
    script = bin_dir / "python3.14"
    script.write_text(f"#!/bin/sh\necho ran >> {marker}\nexec {sys.executable} \"$@\"\n")
    script.chmod(0o755)
    for name in ("python3", "python"):
        (bin_dir / name).symlink_to("python3.14")


@pytest.mark.parametrize("variable", ["UV_PYTHON_INSTALL_DIR", "UV_PYTHON_SEARCH_PATH"])
def test_a_managed_python_folder_another_user_could_change_is_refused_by_plan_before_uv_runs(
        tiny, tmp_path, monkeypatch, variable):
    marker = tmp_path / "ran"
    pythons = open_folder(tmp_path / "ww") / "pythons"
    _managed_python(pythons, marker)
    given = pythons if variable == "UV_PYTHON_INSTALL_DIR" else pythons / "cpython-3.14.99-linux-x86_64-gnu" / "bin"
    monkeypatch.setenv(variable, str(given))
    recipes = _recipe_needing_a_python_not_here(tiny)
    args = ["--recipes-dir", str(recipes), "--find-links", str(tiny.house.path), "--offline",
            "--graphcast-src", str(tiny.graphcast), "--json"]
    for argv in (["plan", "tiny-14"], ["install", "tiny-14", "--yes", "--no-verify"]):
        proc = run_inproc(*argv, *args)
        error = last_json(proc).get("error") or proc.stderr
        assert proc.returncode == 2, (proc.stdout, proc.stderr)
        assert f"(from {variable}, which uv reads on its own)" in error and "every user can write" in error, error
        assert f"env -u {variable} gc-wizard" in error and "Traceback" not in proc.stderr
    assert not marker.exists()


def test_a_managed_python_folder_of_your_own_with_uvs_own_lock_file_is_used(tiny, tmp_path, monkeypatch):
    """uv makes `.lock` 0666 in the folders it keeps, whatever the umask: that empty file is no reason to refuse."""
    pythons = tmp_path / "pythons"
    pythons.mkdir()
    (pythons / ".lock").touch()
    (pythons / ".lock").chmod(0o666)
    monkeypatch.setenv("UV_PYTHON_INSTALL_DIR", str(pythons))
    proc = run_inproc("plan", "tiny-a", *tiny.args()[:-1], "--json")
    assert proc.returncode == 0, (proc.stdout, proc.stderr)


# P6: `UV_PYTHON_DOWNLOADS_JSON_URL` naming another user's list had uv download the build it listed (checked only
# against the sha256 that same list gave) and run it as root, while the plan said the Python came from github.com.

@pytest.mark.parametrize("form", ["{}", "file://{}"])
@pytest.mark.parametrize("variable", ["UV_PYTHON_DOWNLOADS_JSON_URL", "UV_PYTHON_INSTALL_MIRROR"])
def test_a_python_download_list_or_mirror_another_user_could_change_is_refused_before_uv_runs(
        tiny, tmp_path, monkeypatch, variable, form):
    theirs = open_folder(tmp_path / "ww")
    listed = theirs / "downloads.json" if variable == "UV_PYTHON_DOWNLOADS_JSON_URL" else theirs
    if variable == "UV_PYTHON_DOWNLOADS_JSON_URL":
        listed.write_text("{}")
    monkeypatch.setenv(variable, form.format(listed))
    monkeypatch.setenv("UV_PYTHON_INSTALL_DIR", str(tmp_path / "pythons"))
    recipes = _recipe_needing_a_python_not_here(tiny)
    args = ["--python", "3.14", "--recipes-dir", str(recipes), "--find-links", str(tiny.house.path), "--offline",
            "--graphcast-src", str(tiny.graphcast), "--json"]
    for argv in (["plan", "tiny-14"], ["install", "tiny-14", "--yes", "--force", "--no-verify"]):
        proc = run_inproc(*argv, *args)
        error = last_json(proc).get("error") or proc.stderr
        assert proc.returncode == 2, (proc.stdout, proc.stderr)
        assert f"{listed} (from {variable}, which uv reads on its own)" in error, error
        assert "install (and run) their Python" in error and "Traceback" not in proc.stderr
    assert not (tmp_path / "pythons").exists()


def test_the_python_download_is_named_as_coming_from_the_list_the_variable_names(monkeypatch):
    from wizard.recipes.alternatives import python_download_source, python_download_words

    monkeypatch.setenv("UV_PYTHON_INSTALL_MIRROR", "https://mirror.invalid/pbs")
    monkeypatch.setenv("UV_PYTHON_DOWNLOADS_JSON_URL", "https://lists.invalid/downloads.json")
    assert python_download_source() == "https://lists.invalid/downloads.json"
    words = python_download_words("lists.invalid", "3.14")
    assert "from lists.invalid (the builds your UV_PYTHON_DOWNLOADS_JSON_URL names)" in words, words
    monkeypatch.delenv("UV_PYTHON_DOWNLOADS_JSON_URL")
    assert "(the builds your UV_PYTHON_INSTALL_MIRROR names)" in python_download_words("mirror.invalid", "3.14")
    monkeypatch.delenv("UV_PYTHON_INSTALL_MIRROR")
    assert "from github.com (its python-build-standalone builds)" in python_download_words("github.com", "3.14")


# P8: a CA file another user owns (`SSL_CERT_FILE=…`) was trusted without a word — whoever can change it can have
# the installer trust their server (a proxy they run) and install what it serves — while their index was refused.

@pytest.mark.parametrize("variable, installer", [
    ("SSL_CERT_FILE", "uv"), ("SSL_CERT_FILE", "pip"), ("SSL_CERT_DIR", "uv"), ("PIP_CERT", "pip"),
    ("REQUESTS_CA_BUNDLE", "pip"), ("CURL_CA_BUNDLE", "pip"), ("pip.conf cert", "pip")])
def test_a_certificate_file_another_user_could_change_is_refused_by_name(tiny, tmp_path, monkeypatch, variable,
                                                                         installer):
    theirs = open_folder(tmp_path / "ww")
    ca = theirs / "ca.pem"
    ca.write_text(Path("/etc/ssl/certs/ca-certificates.crt").read_text() if Path(
        "/etc/ssl/certs/ca-certificates.crt").is_file() else "")
    for name in ("SSL_CERT_FILE", "SSL_CERT_DIR", "PIP_CERT", "REQUESTS_CA_BUNDLE", "CURL_CA_BUNDLE"):
        monkeypatch.delenv(name, raising=False)
    if variable == "pip.conf cert":
        conf = tmp_path / "pip.conf"
        conf.write_text(f"[global]\ncert = {ca}\n")
        monkeypatch.setenv("PIP_CONFIG_FILE", str(conf))
        named = f"(from `cert` in {conf}, which pip reads on its own)"
    else:
        monkeypatch.setenv(variable, str(theirs if variable == "SSL_CERT_DIR" else ca))
        # the SSL_ ones are uv's too, and a pip plan still makes the environment with uv: either may name it first
        named = f"(from {variable}, which {'' if variable.startswith('SSL_') else installer}"
    for argv in (["plan", "tiny-a"], ["install", "tiny-a", "--yes", "--no-verify"]):
        proc = run_inproc(*argv, *tiny.args()[:-1], "--installer", installer, "--json")
        error = last_json(proc).get("error") or proc.stderr
        assert proc.returncode == 2, (proc.stdout, proc.stderr)
        assert named in error and "every user can write" in error, error
        assert "trust a server of their choosing" in error and "Traceback" not in proc.stderr


def test_the_systems_certificates_named_by_every_variable_are_used(tiny, monkeypatch):
    """The usual setting on a managed machine (this project's own build machine sets them all so) passes."""
    if not Path("/etc/ssl/certs/ca-certificates.crt").is_file():
        pytest.skip("no system certificate bundle here")
    for name in ("SSL_CERT_FILE", "PIP_CERT", "REQUESTS_CA_BUNDLE", "CURL_CA_BUNDLE"):
        monkeypatch.setenv(name, "/etc/ssl/certs/ca-certificates.crt")
    monkeypatch.setenv("SSL_CERT_DIR", "/etc/ssl/certs")
    for installer in ("uv", "pip"):
        proc = run_inproc("plan", "tiny-a", *tiny.args()[:-1], "--installer", installer, "--json")
        assert proc.returncode == 0, (proc.stdout, proc.stderr)


# 31st hostile pass (part B) P1: the folder uv falls back to when UV_PYTHON_INSTALL_DIR is unset —
# `$XDG_DATA_HOME/uv/python`, else `$HOME/.local/share/uv/python` — was never judged, so `XDG_DATA_HOME` (or a
# sudo -E `HOME`) at another user's folder had `plan` run their "managed Python" as root.

@pytest.mark.parametrize("base", ["XDG_DATA_HOME", "HOME"])
def test_uvs_default_folder_of_managed_pythons_another_user_could_change_is_refused_before_uv_runs(
        tiny, tmp_path, monkeypatch, base):
    marker = tmp_path / "ran"
    theirs = open_folder(tmp_path / "ww")
    data = theirs if base == "XDG_DATA_HOME" else open_folder(theirs / ".local" / "share")
    _managed_python(data / "uv" / "python", marker)
    for name in ("UV_PYTHON_INSTALL_DIR", "XDG_DATA_HOME", "UV_CACHE_DIR"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv(base, str(theirs))
    monkeypatch.setenv("UV_CACHE_DIR", str(tmp_path / "cache"))  # the cache's own rule is not this test's
    recipes = _recipe_needing_a_python_not_here(tiny)
    args = ["--recipes-dir", str(recipes), "--find-links", str(tiny.house.path), "--offline",
            "--graphcast-src", str(tiny.graphcast), "--json"]
    for argv in (["plan", "tiny-14"], ["install", "tiny-14", "--yes", "--no-verify"]):
        proc = run_inproc(*argv, *args)
        error = last_json(proc).get("error") or proc.stderr
        assert proc.returncode == 2, (proc.stdout, proc.stderr)
        assert f"{data / 'uv' / 'python'} (from {base}={theirs}, uv's default while UV_PYTHON_INSTALL_DIR is not " \
               "set, which uv reads on its own)" in error, error
        assert "set UV_PYTHON_INSTALL_DIR to a place only you can write" in error and "Traceback" not in proc.stderr
    assert not marker.exists()


def test_uvs_default_settings_file_that_another_user_could_make_is_refused(tiny, tmp_path, monkeypatch):
    """Not there now is not safe: whoever can make `$XDG_CONFIG_HOME/uv/uv.toml` chooses uv's settings later."""
    config = open_folder(tmp_path / "ww")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(config))
    monkeypatch.delenv("UV_CONFIG_FILE", raising=False)
    monkeypatch.delenv("UV_NO_CONFIG", raising=False)
    proc = run_inproc("plan", "tiny-a", *tiny.args()[:-1], "--json")
    error = last_json(proc).get("error") or proc.stderr
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    assert f"uv's settings file {config / 'uv' / 'uv.toml'} (which uv reads on its own once it is there)" in error
    assert "could be made in it" in error and "UV_NO_CONFIG=1" in error, error


def test_uvs_own_folders_are_found_as_uv_finds_them(tmp_path):
    """A relative XDG_* is ignored by uv (the XDG rule): it reads under HOME, so the checks read there too."""
    from wizard.installer_files import trusted_places
    from wizard.installer_settings import uv_default_files

    environ = {"HOME": str(tmp_path), "XDG_CONFIG_HOME": "rel", "XDG_DATA_HOME": "rel", "UV_NO_CONFIG": "1"}
    assert uv_default_files(environ)[0] == tmp_path / ".config" / "uv" / "uv.toml"
    defaults = {p.what: p.value for p in trusted_places("uv", environ) if "uv's default" in p.where}
    assert defaults == {"the folder of uv's managed Pythons": str(tmp_path / ".local/share/uv/python"),
                        "the folder of uv's tools": str(tmp_path / ".local/share/uv/tools")}
    environ["UV_PYTHON_INSTALL_DIR"] = str(tmp_path / "mine")
    assert [p.value for p in trusted_places("uv", environ) if p.what == "the folder of uv's managed Pythons"] == \
        [str(tmp_path / "mine")]


# 31st hostile pass (part B) P2: the same list of Python builds (or mirror) named by a uv settings file's key, not
# the variable, escaped the rule — root's own uv.toml naming another user's downloads.json had uv download their
# build and run it as root, while the plan said "from github.com".

@pytest.mark.parametrize("key", ["python-downloads-json-url", "python-install-mirror", "pypy-install-mirror",
                                 "graalpy-install-mirror", "pyodide-install-mirror"])
def test_a_settings_files_python_download_list_or_mirror_another_user_could_change_is_refused(
        tiny, tmp_path, monkeypatch, key):
    theirs = open_folder(tmp_path / "ww")
    listed = theirs / "downloads.json" if key == "python-downloads-json-url" else theirs
    if key == "python-downloads-json-url":
        listed.write_text("{}")
    config = tmp_path / "cfg" / "uv.toml"
    config.parent.mkdir()
    config.write_text(f'{key} = "{listed}"\n')
    for name in [t.variable for t in TRUSTED_VARIABLES["uv"]]:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("UV_CONFIG_FILE", str(config))
    monkeypatch.setenv("UV_PYTHON_INSTALL_DIR", str(tmp_path / "pythons"))
    recipes = _recipe_needing_a_python_not_here(tiny)
    args = ["--python", "3.14", "--recipes-dir", str(recipes), "--find-links", str(tiny.house.path), "--offline",
            "--graphcast-src", str(tiny.graphcast), "--json"]
    for argv in (["plan", "tiny-14"], ["install", "tiny-14", "--yes", "--force", "--no-verify"]):
        proc = run_inproc(*argv, *args)
        error = last_json(proc).get("error") or proc.stderr
        assert proc.returncode == 2, (proc.stdout, proc.stderr)
        assert f"{listed} (from `{key}` in {config}, which uv reads on its own)" in error, error
        assert f"take it out of {config}" in error and "Traceback" not in proc.stderr
    assert not (tmp_path / "pythons").exists()


def test_the_python_download_is_named_as_coming_from_the_list_a_settings_file_names(tmp_path, monkeypatch):
    from wizard.recipes.alternatives import python_download_source, python_download_words

    config = tmp_path / "uv.toml"
    config.write_text('python-downloads-json-url = "https://lists.invalid/downloads.json"\n')
    for name in ("UV_PYTHON_DOWNLOADS_JSON_URL", "UV_PYTHON_INSTALL_MIRROR"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("UV_CONFIG_FILE", str(config))
    assert python_download_source() == "https://lists.invalid/downloads.json"
    words = python_download_words("lists.invalid", "3.14")
    assert f"(the builds your `python-downloads-json-url` in {config} names)" in words, words
    monkeypatch.setenv("UV_PYTHON_DOWNLOADS_JSON_URL", "https://other.invalid/d.json")  # the variable wins, as in uv
    assert python_download_source() == "https://other.invalid/d.json"
