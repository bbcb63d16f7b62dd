"""An environment far deeper than Python 3.11's recursion limit (seventh hostile pass 11a, 3000 deep: `history` and `remove`
stopped on a RecursionError from `os.walk` in the disk usage, then `shutil.rmtree`)."""

from __future__ import annotations

import os

from wizard.install.envs import disk_usage, remove_tree


def _deep(root, depth: int):
    folder = root
    folder.mkdir()
    for _ in range(depth):  # one by one: os.makedirs itself recurses
        folder = folder / "d"
        folder.mkdir()
    (folder / "bottom.txt").write_bytes(b"x" * 5000)
    (root / "link").symlink_to("/")  # a link is counted and removed, never followed
    return folder


def test_a_tree_1500_folders_deep_is_measured_and_removed(tmp_path):
    env = tmp_path / "env"
    _deep(env, 1500)  # past the recursion limit (1000), within PATH_MAX
    assert disk_usage(env) >= 5000
    remove_tree(env)
    assert not env.exists() and os.path.isdir("/")
