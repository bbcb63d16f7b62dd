"""An installer cache that cannot be used is refused where the plan is made, naming the variable it came from and the
fix; a pip install is never thrown away because uv's cache could not be made.

27th hostile pass (part A) P1: with XDG_CACHE_HOME (or UV_CACHE_DIR, HOME) a file, `install` failed after making the
environment with uv's "Failed to initialize cache at … Not a directory", naming no variable; `--installer pip`
finished, then "cannot list the packages" removed the environment; `bundle` said "uv could not resolve". The real CLI,
real uv and pip, a real file in the cache's way.
"""

from __future__ import annotations

import pytest

from tests.fixtures.state import run_cli


@pytest.mark.parametrize("variable, value, cache", [
    ("XDG_CACHE_HOME", "afile", "afile/uv"), ("UV_CACHE_DIR", "afile/sub", "afile/sub"),
    ("HOME", "afile", "afile/.cache/uv")])
def test_a_uv_cache_in_a_files_way_is_named_with_its_variable(tmp_path, isolated_state, tiny, variable, value, cache):
    (tmp_path / "afile").write_text("x\n")
    env = {variable: str(tmp_path / value)}
    for proc in (run_cli("plan", "tiny-a", *tiny.args()[:-1], env=env), tiny.install("tiny-a", env=env)[0]):
        assert proc.returncode == 2, proc.stderr
        assert (f"uv's download cache {tmp_path / cache} (from {variable}={tmp_path / value}) cannot be used: "
                f"{tmp_path / 'afile'} is a file, not a folder. Point it at a folder you can write (UV_CACHE_DIR=DIR), "
                "or install without one (UV_NO_CACHE=1).") in proc.stderr, proc.stderr
        assert "Failed to initialize cache" not in proc.stderr + proc.stdout
    assert not (isolated_state / "envs").exists() or not any((isolated_state / "envs").iterdir())


def test_a_pip_install_is_kept_when_uvs_cache_cannot_be_made(tmp_path, isolated_state, tiny):
    (tmp_path / "afile").write_text("x\n")
    proc, data = tiny.install("tiny-a", "--installer", "pip", env={"UV_CACHE_DIR": str(tmp_path / "afile" / "sub")})
    assert proc.returncode == 0 and data["ok"], proc.stderr
    assert "cannot list the packages" not in proc.stderr


def test_bundle_names_the_cache_not_a_resolver(tmp_path, isolated_state, tiny):
    (tmp_path / "afile").write_text("x\n")
    proc = run_cli("bundle", "tiny-a", "--recipes-dir", str(tiny.recipes), "--find-links", str(tiny.house.path),
                   "--out", str(tmp_path / "bundle"), env={"XDG_CACHE_HOME": str(tmp_path / "afile")})
    assert proc.returncode == 2, proc.stderr
    assert "download cache" in proc.stderr and f"(from XDG_CACHE_HOME={tmp_path / 'afile'})" in proc.stderr
    assert "could not resolve" not in proc.stderr and not (tmp_path / "bundle").exists()
