"""A wheelhouse entry named like a package that is no file to read (a FIFO, a device through a link) is refused
before anything runs (eighteenth hostile pass P6: uv opened the FIFO and the install waited half an hour)."""

from __future__ import annotations

import os
import shutil

from tests.fixtures.state import last_json


def test_a_fifo_or_device_named_like_a_package_is_refused_by_name(tiny, tmp_path):
    for make in ("fifo", "device"):
        house = tmp_path / f"house-{make}"
        shutil.copytree(tiny.house.path, house)
        odd = house / "pkg_a-1.0-cp311-cp311-manylinux_2_17_x86_64.whl"
        if make == "fifo":
            os.mkfifo(odd)
        else:
            odd.symlink_to("/dev/zero")
        proc, _ = tiny.install("tiny-a", find_links=house, timeout=120)
        assert proc.returncode == 2, proc.stdout + proc.stderr
        error = last_json(proc)["error"]
        assert f"--find-links {house}: {odd.name} is named like a package but is no file" in error
        assert "Nothing was installed" in error and "Traceback" not in proc.stderr
    assert tiny.history() == []
