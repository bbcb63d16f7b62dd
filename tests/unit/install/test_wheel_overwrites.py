"""A GraphCast wheel holding another pinned package's files is refused, naming the overwrite.

31st hostile pass (part B) P8: a "GraphCast" wheel holding `pkg_a.py` (in real life `jax/__init__.py`) was described
as "2 new (graphcast.py, pkg_a.py); its code runs whenever GraphCast is imported"; GraphCast's step, run after the
pins, replaced pkg-a's module silently, and nothing afterwards said so."""

from __future__ import annotations

from tests.fixtures.cli import run_inproc
from tests.fixtures.wheels import build_wheel
from wizard.install.wheel_overwrites import overwrite_words, overwritten_packages


def test_a_member_named_as_another_pin_is_that_packages_file(tmp_path):
    wheel = build_wheel(tmp_path / "gc", "graphcast", "0.1.1", files={
        "jax/__init__.py": b"print('not jax')\n", "jax-0.4.23.dist-info/METADATA": b"Name: jax\n"})
    found = overwritten_packages(wheel, "graphcast", ["jax==0.4.23", "numpy==1.26.4"])
    assert found == [("jax/__init__.py", "jax==0.4.23"), ("jax-0.4.23.dist-info/METADATA", "jax==0.4.23")]


def test_a_local_wheels_own_members_tell_an_import_name_unlike_its_distribution(tmp_path):
    """pillow installs `PIL/`: its wheel in the wheelhouse says so; a member under `.data/purelib/` lands there too."""
    house = tmp_path / "house"
    build_wheel(house, "pillow", "10.0", files={"PIL/__init__.py": b"", "PIL/Image.py": b""})
    wheel = build_wheel(tmp_path / "gc", "graphcast", "0.1.1",
                        files={"graphcast-0.1.1.data/purelib/PIL/Image.py": b"print('not pillow')\n"})
    assert overwritten_packages(wheel, "graphcast", ["pillow==10.0"], [str(house)]) == [
        ("PIL/Image.py", "pillow==10.0")]


def test_graphcasts_own_wheel_overwrites_nothing(tmp_path):
    house = tmp_path / "house"
    build_wheel(house, "pkg-a", "1.0")
    wheel = build_wheel(tmp_path / "gc", "graphcast", "0.1.1", files={"graphcast/model.py": b"x = 1\n"})
    assert overwritten_packages(wheel, "graphcast", ["pkg-a==1.0", "graphcast==0.1.1"], [str(house)]) == []


def test_plan_and_install_refuse_a_wheel_that_overwrites_a_pinned_package(tiny, isolated_state, tmp_path):
    wheel = build_wheel(tmp_path / "gcx", "graphcast", "0.1.1", files={"pkg_a.py": b"print('REPLACED')\n"})
    args = ["--recipes-dir", str(tiny.recipes), "--find-links", str(tiny.house.path), "--offline",
            "--graphcast-src", str(wheel)]
    planned = run_inproc("plan", "tiny-a", *args)
    said = " ".join(planned.stdout.split())
    assert "✗ Refused: the wheel" in said and "would overwrite files of another package: pkg_a.py of pkg-a " \
        "(pinned pkg-a==1.0)" in said
    installed = run_inproc("install", "tiny-a", "--yes", "--no-verify", *args)
    assert installed.returncode == 2
    assert "pkg_a.py of pkg-a (pinned pkg-a==1.0)" in " ".join(installed.stderr.split())


def test_every_data_scheme_is_mapped_to_where_it_lands(tmp_path):
    """32nd hostile pass (part B) P1: `.data/data/lib/pythonX.Y/site-packages/pkg_a.py` is site-packages' `pkg_a.py`,
    and `.data/data/bin/activate` or `.data/scripts/python` the environment's own; both were let through."""
    house = tmp_path / "house"
    build_wheel(house, "pkg-a", "1.0", files={"pkg_a.py": b""})
    wheel = build_wheel(tmp_path / "gc", "graphcast", "0.1.1", files={
        "graphcast-0.1.1.data/data/lib/python3.11/site-packages/pkg_a.py": b"X = 'replaced'\n",
        "graphcast-0.1.1.data/data/bin/activate": b"echo pwned\n",
        "graphcast-0.1.1.data/scripts/python3": b"#!/bin/sh\n",
        "graphcast-0.1.1.data/data/share/graphcast/notes.txt": b"fine\n"})
    found = overwritten_packages(wheel, "graphcast", ["pkg-a==1.0"], [str(house)])
    assert sorted(found) == sorted([("<env>/bin/activate", "the environment itself"),
                                    ("<env>/bin/python3", "the environment itself"), ("pkg_a.py", "pkg-a==1.0")])
    words = overwrite_words(str(wheel), found)
    assert "bin/activate, bin/python3 of the environment itself" in words and "pkg_a.py of pkg-a" in words


def test_another_packages_script_under_data_is_its_file(tmp_path):
    house = tmp_path / "house"
    build_wheel(house, "pkg-a", "1.0", files={"pkg_a-1.0.data/scripts/pkg-a-tool": b"#!/bin/sh\n"})
    wheel = build_wheel(tmp_path / "gc", "graphcast", "0.1.1",
                        files={"graphcast-0.1.1.data/data/bin/pkg-a-tool": b"#!/bin/sh\necho x\n"})
    assert overwritten_packages(wheel, "graphcast", ["pkg-a==1.0"], [str(house)]) == [
        ("<env>/bin/pkg-a-tool", "pkg-a==1.0")]
