"""The `keyring` program uv or pip would run on its own for an index's password is held to the rule every program
found on PATH passes, before anything runs: `plan` included (`installer_keyring.keyring_problem`, asked by
`installer_files.trust_problem` at every installer start).

Before (leftovers of the 30th hostile pass, item 1): with `UV_KEYRING_PROVIDER=subprocess` uv ran the first `keyring`
on PATH — another user's, in a folder that passed the PATH check — as root when an index answered 401, and neither
the plan nor the install said a word. A file every user can write stands for another user's (the same rule), so no
root is needed."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.fixtures.cli import run_inproc
from tests.fixtures.state import last_json


def _keyring(folder: Path, marker: Path, mode: int) -> Path:
    """A `keyring` program in `folder` (made 0755, which the PATH check keeps) that notes each run in `marker`."""
    folder.mkdir(mode=0o755)
    program = folder / "keyring"
    program.write_text(f"#!/bin/sh\necho ran >> {marker}\n")
    program.chmod(mode)
    return program


@pytest.fixture
def swappable_keyring(tmp_path, monkeypatch) -> tuple[Path, Path]:
    """(a `keyring` every user can write, first on PATH; the file each run of it writes)."""
    marker = tmp_path / "ran"
    program = _keyring(tmp_path / "kbin", marker, 0o777)
    monkeypatch.setenv("PATH", f"{program.parent}:{os.environ['PATH']}")
    return program, marker


@pytest.mark.parametrize("installer", ["uv", "pip"])
def test_a_keyring_provider_that_runs_a_keyring_another_user_could_change_is_refused_by_plan_and_install(
        tiny, swappable_keyring, monkeypatch, installer):
    program, marker = swappable_keyring
    variable = f"{installer.upper()}_KEYRING_PROVIDER"
    monkeypatch.setenv(variable, "subprocess")
    for argv in (["plan", "tiny-a"], ["install", "tiny-a", "--yes", "--no-verify"]):
        proc = run_inproc(*argv, *tiny.args()[:-1], "--installer", installer, "--json")
        error = last_json(proc).get("error") or proc.stderr
        assert proc.returncode == 2, (proc.stdout, proc.stderr)
        assert f"{variable}=subprocess makes {installer} run the `keyring` program PATH finds first, {program}" in error
        assert "every user can write" in error and f"{variable}=disabled gc-wizard" in error, error
        assert "Traceback" not in proc.stderr
    assert not marker.exists()
    assert not tiny.history()


def test_a_uv_settings_files_keyring_provider_is_named_by_its_file(tiny, swappable_keyring, tmp_path, monkeypatch):
    program, _ = swappable_keyring
    settings = tmp_path / "uv.toml"
    settings.write_text('[pip]\nkeyring-provider = "subprocess"\n')
    monkeypatch.setenv("UV_CONFIG_FILE", str(settings))
    proc = run_inproc("plan", "tiny-a", *tiny.args()[:-1], "--json")
    error = last_json(proc).get("error") or proc.stderr
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    assert f'`[pip] keyring-provider = "subprocess"` in {settings} makes uv run' in error and str(program) in error


def test_a_keyring_only_you_can_change_and_no_provider_are_no_reason_to_refuse(tiny, tmp_path, monkeypatch):
    program = _keyring(tmp_path / "kbin", tmp_path / "ran", 0o755)
    monkeypatch.setenv("PATH", f"{program.parent}:{os.environ['PATH']}")
    monkeypatch.setenv("UV_KEYRING_PROVIDER", "subprocess")
    proc = run_inproc("plan", "tiny-a", *tiny.args()[:-1], "--json")
    assert proc.returncode == 0, (proc.stdout, proc.stderr)
    assert last_json(proc)["settings_refused"] is None

