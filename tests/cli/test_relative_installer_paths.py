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
                   "PIP_FIND_LINKS": f"{tmp_path}/a  {tmp_path}/b"}
