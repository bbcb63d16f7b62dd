"""Only regular files in a wheelhouse count as package files (sixth hostile pass 12h: a FOLDER named
`pkg_a-1.0-py3-none-any.whl` was counted, the plan promised the pin, and uv failed after the env was made)."""

from __future__ import annotations

import os
from types import SimpleNamespace

from wizard.install import cost
from wizard.install.package_files import package_files, wheels_in
from wizard.install.sources import look_at_wheelhouse

WHEEL = "pkg_a-1.0-py3-none-any.whl"


def _lookalikes(folder):
    """A wheelhouse whose every `pkg_a` entry looks like a wheel by name and none is a file."""
    folder.mkdir()
    (folder / WHEEL).mkdir()
    os.mkfifo(folder / "pkg_a-1.0-py2.py3-none-any.whl")
    (folder / "pkg_a-1.0-py3-none-linux_x86_64.whl").symlink_to(folder / "gone.whl")
    (folder / "pip-25.0-py3-none-any.whl").mkdir()
    (folder / "graphcast-0.1.1-py3-none-any.whl").write_bytes(b"PK\x03\x04")
    return folder


def test_a_folder_fifo_or_broken_link_named_like_a_wheel_is_no_wheel(tmp_path):
    folder = _lookalikes(tmp_path / "house")
    assert package_files(folder) == ["graphcast-0.1.1-py3-none-any.whl"]
    assert [p.name for p in wheels_in(folder)] == ["graphcast-0.1.1-py3-none-any.whl"]
    assert wheels_in(folder, "pip-*.whl") == [] and wheels_in(tmp_path / "missing") == []


def test_the_plans_wheelhouse_count_and_the_download_size_skip_them(tmp_path):
    folder = _lookalikes(tmp_path / "house")
    house = look_at_wheelhouse(folder, SimpleNamespace(pins={"pkg-a": "1.0"}))
    assert house.wheels == 1 and house.missing == ("pkg-a",) and house.covered == ()
    assert cost._local("pkg-a", "1.0", [folder], "cp311", "x86_64") is None


def test_a_link_to_a_real_wheel_still_counts(tmp_path):
    real = tmp_path / "elsewhere" / WHEEL
    real.parent.mkdir()
    real.write_bytes(b"PK\x03\x04")
    folder = tmp_path / "house"
    folder.mkdir()
    (folder / WHEEL).symlink_to(real)
    assert look_at_wheelhouse(folder, SimpleNamespace(pins={"pkg-a": "1.0"})).covered == ("pkg-a",)


def test_a_pin_the_wheelhouse_has_only_as_source_is_named_with_the_setup_py_caution(tmp_path):
    """Seventh hostile pass 12a: a wheelhouse's `pkg_a-1.0.tar.gz` was built (its setup.py ran) during an offline
    install while the plan said "1 of 1 pins". A pin with a wheel of its version is not named, whatever else is
    there; another version's sdist does not count."""
    for name in ("pkg_a-1.0.tar.gz", "pkg_b-2.0-py3-none-any.whl", "pkg_b-2.0.tar.gz", "pkg_c-0.9.zip",
                 "pkg_c-1.1.tar.gz"):
        (tmp_path / name).write_bytes(b"x")
    house = look_at_wheelhouse(tmp_path, SimpleNamespace(pins={"pkg-a": "1.0", "pkg-b": "2.0", "pkg-c": "1.1"}))
    assert house.built == ("pkg-a", "pkg-c") and set(house.covered) == {"pkg-a", "pkg-b", "pkg-c"}
    assert "pkg-a, pkg-c are here only as source" in house.caution() and "setup.py" in house.caution()
    assert look_at_wheelhouse(tmp_path, SimpleNamespace(pins={"pkg-b": "2.0"})).caution() is None
