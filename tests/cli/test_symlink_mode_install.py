"""An install never makes an environment of links into uv's cache: a `UV_LINK_MODE=symlink` (or a uv settings file's
`link-mode = "symlink"`) is replaced for the install's steps, and the plan says so.

Before (30th hostile pass, part B, P7): with `UV_LINK_MODE=symlink` every package file of the new environment was a
link into `UV_CACHE_DIR`, the install said "Installed" without a word, and after `uv cache clean` — which the wizard's
own full-disk advice names — every import failed. The real CLI on the tiny recipes' real wheels, through real uv."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from tests.fixtures.cli import run_inproc
from tests.fixtures.state import last_json


def _links_into(env: Path, folder: Path) -> list[str]:
    out = []
    for top, dirs, files in os.walk(env / "lib"):
        for name in (*dirs, *files):
            entry = os.path.join(top, name)
            if os.path.islink(entry) and os.path.realpath(entry).startswith(str(folder)):
                out.append(entry)
    return out


@pytest.mark.parametrize("how", ["variable", "settings file"])
def test_a_symlink_link_mode_is_replaced_and_the_plan_says_so(tiny, tmp_path, monkeypatch, how):
    cache = tmp_path / "uvcache"
    monkeypatch.setenv("UV_CACHE_DIR", str(cache))
    if how == "variable":
        monkeypatch.setenv("UV_LINK_MODE", "symlink")
        named = "UV_LINK_MODE=symlink"
    else:
        config = tmp_path / "uv.toml"
        config.write_text('link-mode = "symlink"\n')
        monkeypatch.setenv("UV_CONFIG_FILE", str(config))
        named = f'`link-mode = "symlink"` in {config}'
    plan = last_json(run_inproc("plan", "tiny-a", *tiny.args()[:-1], "--json"))
    assert any(named in note and "uv cache clean" in note for note in plan["notes"]), plan["notes"]
    proc, result = tiny.install("tiny-a")
    assert proc.returncode == 0 and result["ok"], (proc.stdout, proc.stderr)
    env = Path(result["env"])
    assert not _links_into(env, cache)
    from uv import find_uv_bin

    subprocess.run([find_uv_bin(), "cache", "clean", "--cache-dir", str(cache)], capture_output=True, check=True)
    check = subprocess.run([str(env / "bin" / "python"), "-c", "import pkg_a"], capture_output=True, text=True)
    assert check.returncode == 0, check.stderr
