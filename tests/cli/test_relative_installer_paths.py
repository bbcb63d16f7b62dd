"""Relative paths in the installer's variables mean the user's folder, not the folder the steps run in.

24th hostile pass (part A) P7: the install steps run in `<state>/envs`, and the user's variables were handed on as
they were: `UV_CONFIG_FILE=cfg/uv.toml` failed ("failed to open file"), `UV_FIND_LINKS=../fx/wheelhouse` named a
folder under the state, and `UV_CACHE_DIR=relcache` made uv's cache inside the managed envs folder. The real uv
runs here, from a folder the test makes, with each variable relative to it.
"""

from __future__ import annotations

import os

from tests.fixtures.state import last_json, run_cli
from wizard.installer_files import with_absolute_paths


def test_relative_config_find_links_and_cache_are_read_from_the_users_folder(tmp_path, isolated_state, tiny):
    user = tmp_path / "work"
    (user / "cfg").mkdir(parents=True)
    (user / "cfg" / "uv.toml").write_text('[pip]\nindex-strategy = "first-index"\n')
    house = os.path.relpath(tiny.house.path, user)  # ../wheelhouse
    env = {"UV_CONFIG_FILE": "cfg/uv.toml", "UV_FIND_LINKS": house, "UV_CACHE_DIR": "relcache"}
    proc = run_cli("install", "tiny-a", "--yes", "--json", "--recipes-dir", str(tiny.recipes), "--offline",
                   "--graphcast-src", str(tiny.graphcast), "--no-verify", env=env, cwd=user)
    result = last_json(proc)
    assert proc.returncode == 0 and result["ok"], proc.stderr
    assert (user / "relcache").is_dir(), "uv's cache is not where the user named it"
    assert not list(isolated_state.rglob("relcache")), "uv's cache was made under the state folder"


def test_only_relative_paths_change(tmp_path):
    env = {"UV_CONFIG_FILE": "cfg/uv.toml", "UV_CACHE_DIR": "/abs/cache", "PIP_CACHE_DIR": "~/c",
           "UV_FIND_LINKS": "wh, https://host.example/fl/ /abs/wh,../up", "PIP_FIND_LINKS": "a  b",
           "UV_INDEX_URL": "simple", "SSL_CERT_FILE": "ca.pem", "UV_PYTHON_INSTALL_DIR": ""}
    out = with_absolute_paths(env, str(tmp_path))
    assert out == {**env, "UV_CONFIG_FILE": f"{tmp_path}/cfg/uv.toml", "SSL_CERT_FILE": f"{tmp_path}/ca.pem",
                   "UV_FIND_LINKS": f"{tmp_path}/wh, https://host.example/fl/ /abs/wh,{tmp_path}/../up",
                   "PIP_FIND_LINKS": f"{tmp_path}/a  {tmp_path}/b",
                   # an index given as a path is a place too (28th hostile pass (part B) P9)
                   "UV_INDEX_URL": f"{tmp_path}/simple"}


def test_index_variables_keep_their_urls_and_names(tmp_path):
    """28th hostile pass (part B) P9: an index named by a relative path is the user's folder's, as a find-links one;
    a URL in any spelling, and a uv index's `NAME=`, stay as they are."""
    env = {"UV_INDEX": "mirror=simple https:/host/simple evil=file:/abs", "UV_DEFAULT_INDEX": "file:rel",
           "PIP_EXTRA_INDEX_URL": "idx https://h/s", "UV_CACHE_DIR": "a=b"}
    out = with_absolute_paths(env, str(tmp_path))
    assert out == {**env, "UV_INDEX": f"mirror={tmp_path}/simple https:/host/simple evil=file:/abs",
                   "PIP_EXTRA_INDEX_URL": f"{tmp_path}/idx https://h/s", "UV_CACHE_DIR": f"{tmp_path}/a=b"}


def test_a_relative_source_into_a_swappable_folder_is_refused_up_front_from_the_users_folder(tmp_path, tiny,
                                                                                            isolated_state):
    """28th hostile pass (part B) P9: `UV_FIND_LINKS=ww/wh` (relative, from the user's folder) into a folder every
    user can write was let through the check before the install and refused only inside the first step: exit 1,
    "The installer said: Step create-env: …", after an environment was made. Now: exit 2, the wizard's refusal,
    nothing made."""
    user = tmp_path / "work"
    (user / "ww" / "wh").mkdir(parents=True)
    os.chmod(user / "ww", 0o777)
    for variable in ("UV_FIND_LINKS", "UV_INDEX"):
        proc = run_cli("install", "tiny-a", "--yes", "--recipes-dir", str(tiny.recipes), "--offline",
                       "--find-links", str(tiny.house.path), "--graphcast-src", str(tiny.graphcast), "--no-verify",
                       env={variable: "ww/wh"}, cwd=user)
        assert proc.returncode == 2, (proc.stdout, proc.stderr)
        assert proc.stderr.startswith(f"gc-wizard: the package source {user}/ww/wh (from {variable}): "), proc.stderr
        assert "The installer said" not in proc.stderr and "Traceback" not in proc.stderr
        assert not (isolated_state / "envs").exists() or not any((isolated_state / "envs").iterdir())
