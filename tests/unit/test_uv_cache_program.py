"""A gc-wizard run through `uvx` / `uv tool run` lives in uv's cache (`CACHE/archive-v0/HASH`), which `uv cache clean`
deletes: the commands it prints for later name `uvx --from SOURCE gc-wizard` (and a uv outside that cache), never the
cached program.

Why: 33rd hostile pass (part B) P6 — install's Next: lines and history's Go back/Delete lines named
`$UV_CACHE_DIR/archive-v0/<hash>/bin/gc-wizard`, and the uv note `…/archive-v0/<hash>/bin/uv pip install …`."""

from __future__ import annotations

import sys

import pytest

from wizard import paths
from wizard.self_install import SelfInstall


def _program(folder, name):
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text("#!/bin/sh\n")
    path.chmod(0o755)
    return path


@pytest.fixture
def uvx_run(tmp_path, monkeypatch):
    """This run as `uv tool run` starts it: its prefix an environment in uv's cache, whose bin folder (holding the `uv`
    package's uv and uvx) uv puts first on PATH, and `UV` naming the uv that started it."""
    cache = tmp_path / "uvcache"
    env = cache / "archive-v0" / "LvWLqJT_F5AuYwiD"
    for name in ("gc-wizard", "uv", "uvx", "python"):
        _program(env / "bin", name)
    (cache / "CACHEDIR.TAG").write_text("Signature: 8a477f597d28d172789f06886806bc55\n")
    tools = tmp_path / "tools"
    started = _program(tools, "uv")
    monkeypatch.setattr(sys, "prefix", str(env))
    monkeypatch.setenv("PATH", f"{env / 'bin'}:/nonexistent")
    monkeypatch.setenv("UV", str(started))
    # no TLS setting of this machine's reaches the printed uvx line (`paths._uv_trust_prefix`)
    monkeypatch.setenv("PIP_CONFIG_FILE", "/dev/null")
    monkeypatch.setenv("UV_NO_CONFIG", "1")
    for name in ("SSL_CERT_FILE", "SSL_CERT_DIR", "UV_SYSTEM_CERTS", "UV_NATIVE_TLS", "PIP_CERT"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr("wizard.self_install.self_install",
                        lambda: SelfInstall(manager="uv", source="", editable=False, python=str(env / "bin/python")))
    return env, tools, started


def test_a_uvx_run_names_uv_tool_run_not_its_cached_program(uvx_run):
    env, _tools, started = uvx_run
    assert paths.in_uv_cache(env / "bin" / "gc-wizard")
    assert paths.program_command() == f"{started} tool run --from gc-wizard gc-wizard"


def test_uvx_on_path_outside_the_cache_is_named_and_the_installed_source_kept(uvx_run, monkeypatch):
    env, tools, _started = uvx_run
    _program(tools, "uvx")
    monkeypatch.setenv("PATH", f"{env / 'bin'}:{tools}")
    assert paths.program_command() == "uvx --from gc-wizard gc-wizard"
    monkeypatch.setattr("wizard.self_install.self_install",
                        lambda: SelfInstall(manager="uv", source="/src/gc wizard", editable=False, python=""))
    assert paths.program_command() == "uvx --from '/src/gc wizard' gc-wizard"


def test_the_add_package_note_names_a_uv_outside_the_cache(uvx_run, monkeypatch, tmp_path):
    from wizard.install import add_package

    env, tools, _started = uvx_run
    monkeypatch.setattr(add_package, "uv_bin", lambda: str(env / "bin" / "uv"))
    monkeypatch.setenv("PATH", f"{env / 'bin'}:{tools}")
    said = add_package.add_package_command(tmp_path / "e", pip=False)
    assert said == f"uv pip install --python {tmp_path / 'e' / 'bin' / 'python'} PACKAGE"


def test_a_program_outside_uv_cache_is_not_taken_for_one(tmp_path):
    _program(tmp_path / "archive-v0" / "x" / "bin", "gc-wizard")  # no CACHEDIR.TAG above: not uv's cache
    assert not paths.in_uv_cache(tmp_path / "archive-v0" / "x" / "bin" / "gc-wizard")


def test_a_pipx_run_names_pipx_run_not_its_cached_program(tmp_path, monkeypatch):
    """The same for `pipx run`: its environment, `PIPX_HOME/.cache/HASH`, goes after 14 days unused."""
    home = tmp_path / "pipx"
    (home / "shared").mkdir(parents=True)
    (home / "shared" / "pyvenv.cfg").write_text("home = /usr/bin\n")
    env = home / ".cache" / "0a1b2c3d4e5f6a7"
    _program(env / "bin", "gc-wizard")
    monkeypatch.setattr(sys, "prefix", str(env))
    monkeypatch.setattr("wizard.self_install.self_install",
                        lambda: SelfInstall(manager="", source="", editable=False, python=""))
    assert paths.program_command() == "pipx run gc-wizard"
    monkeypatch.setattr("wizard.self_install.self_install",
                        lambda: SelfInstall(manager="", source="/src/gc-wizard", editable=False, python=""))
    assert paths.program_command() == "pipx run --spec /src/gc-wizard gc-wizard"
    (home / "shared" / "pyvenv.cfg").unlink()  # a folder called .cache, not pipx's: its own program, as before
    assert not paths.program_command().startswith("pipx")  # its path may hold "pipx" (the test folder does)


def _installed(folder, source, *, editable=False):
    """A lasting environment at `folder` whose console script starts its own Python and whose gc-wizard came from
    `source` (a local folder, or "" for the index), as pip or uv leave it."""
    python = _program(folder / "bin", "python")
    script = _program(folder / "bin", "gc-wizard")
    script.write_text(f"#!{python}\nimport sys\n")
    info = folder / "lib" / "python3.11" / "site-packages" / "gc_wizard-0.1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: gc-wizard\nVersion: 0.1.0\n")
    if source:
        editable_words = ', "dir_info": {"editable": true}' if editable else ', "dir_info": {}'
        (info / "direct_url.json").write_text(f'{{"url": "file://{source}"{editable_words}}}')
    return script


def _from_source(monkeypatch, source):
    monkeypatch.setattr("wizard.self_install.self_install",
                        lambda: SelfInstall(manager="uv", source=str(source), editable=False, python=""))


def test_a_uvx_run_from_a_folder_names_that_folders_own_installed_program(uvx_run, monkeypatch, tmp_path):
    """Walk 37 #1: run as `uvx --from ~/gc-wizard gc-wizard`, the Next: lines re-ran `uv tool run --from …`, which
    resolves from the index again (and failed behind a TLS-inspecting proxy); README's `.venv/bin/gc-wizard` in that
    folder, installed from it, needs no index."""
    source = tmp_path / "checkout"
    script = _installed(source / ".venv", str(source), editable=True)
    _from_source(monkeypatch, source)
    assert paths.program_command() == str(script)
    # a .venv whose gc-wizard came from elsewhere is another program: not named
    other = tmp_path / "other"
    _installed(other / ".venv", "/somewhere/else")
    _from_source(monkeypatch, other)
    assert paths.program_command().endswith(f"--from {other} gc-wizard")


def test_a_uv_tool_installed_program_on_path_is_named_by_its_path(uvx_run, monkeypatch, tmp_path):
    env, _tools, _started = uvx_run
    source = tmp_path / "src"
    source.mkdir()
    script = _installed(tmp_path / "uv-tools" / "gc-wizard", str(source))
    links = tmp_path / "local-bin"
    links.mkdir()
    (links / "gc-wizard").symlink_to(script)
    monkeypatch.setenv("PATH", f"{env / 'bin'}:{links}")
    _from_source(monkeypatch, source)
    assert paths.program_command() == str(links / "gc-wizard")


def test_a_uvx_line_carries_the_tls_choice_uv_needs_here(uvx_run, monkeypatch, tmp_path):
    """With no lasting program, the printed `uv tool run` passes TLS as this run did: the trust variable set for this
    run, else the CA pip trusts where uv has none (the wizard's own trust rule)."""
    _env, _tools, started = uvx_run
    monkeypatch.setenv("UV_SYSTEM_CERTS", "1")
    assert paths.program_command() == f"UV_SYSTEM_CERTS=1 {started} tool run --from gc-wizard gc-wizard"
    monkeypatch.delenv("UV_SYSTEM_CERTS")
    ca = tmp_path / "site ca.pem"
    ca.write_text("-----BEGIN CERTIFICATE-----\n")
    monkeypatch.setenv("PIP_CERT", str(ca))
    assert paths.program_command() == f"SSL_CERT_FILE='{ca}' {started} tool run --from gc-wizard gc-wizard"
