"""What building a GraphCast source runs is read from its pyproject.toml's `[build-system]` as data
(`install.build_backend`), and the checkout's caution names it (`sources.checkout_caution`).

Before (32nd hostile pass, part B, P6): a v0.1.1 checkout with a new pyproject.toml naming an in-tree backend
(`build-backend = "be"`, `backend-path = ["_be"]`) was said to run "its setup.py", which was unchanged; the install
ran `_be/be.py`."""

from __future__ import annotations

import io
import shutil
import tarfile
from pathlib import Path

import pytest

from wizard.install.build_backend import build_runs
from wizard.install.sources import checkout_caution, read_identity

IN_TREE = '[build-system]\nrequires = []\nbuild-backend = "be"\nbackend-path = ["_be"]\n'


def test_setuptools_or_no_backend_runs_the_setup_py():
    for text in (None, "", "[project]\nname = 'x'\n", "not toml [", '[build-system]\nrequires = ["setuptools"]\n',
                 '[build-system]\nbuild-backend = "setuptools.build_meta"\n',
                 '[build-system]\nbuild-backend = "setuptools.build_meta:__legacy__"\n'):
        assert build_runs(text).startswith("its setup.py"), text


def test_an_in_tree_backend_is_named_with_its_file(tmp_path):
    (tmp_path / "_be" / "pkg").mkdir(parents=True)
    (tmp_path / "_be" / "be.py").write_text("")
    (tmp_path / "_be" / "pkg" / "__init__.py").write_text("")
    assert build_runs(IN_TREE, tmp_path).startswith("the build backend `be` its pyproject.toml names, from its own "
                                                    "_be/be.py (its own code")
    assert "from its own _be/pkg/__init__.py" in build_runs(IN_TREE.replace('"be"', '"pkg:api"'), tmp_path)
    assert "from its own _be/ (" in build_runs(IN_TREE)  # an archive's, not unpacked


def test_a_backend_from_the_packages_it_requires_is_named_with_them():
    words = build_runs('[build-system]\nrequires = ["hatchling"]\nbuild-backend = "hatchling.build"\n')
    assert words.startswith("the build backend `hatchling.build` its pyproject.toml names ([build-system] requires "
                            "hatchling)") and "setup.py" not in words


@pytest.fixture
def checkout(tmp_path) -> Path:
    source = Path("/work/gc/v011")
    if not (source / "setup.py").is_file():
        pytest.skip("needs the GraphCast v0.1.1 checkout")
    copy = tmp_path / "co"
    shutil.copytree(source, copy, ignore=shutil.ignore_patterns("build", "*.egg-info"))
    return copy


def test_the_checkout_caution_names_the_backend_its_new_pyproject_names(checkout):
    (checkout / "_be").mkdir()
    (checkout / "_be" / "be.py").write_text("from setuptools.build_meta import *\n")
    (checkout / "pyproject.toml").write_text(IN_TREE)
    words = checkout_caution(read_identity(str(checkout)), None)
    assert "building it runs the build backend `be` its pyproject.toml names, from its own _be/be.py" in words, words
    assert "runs its setup.py" not in words


def test_a_source_archive_caution_names_the_backend_too(tmp_path):
    archive = tmp_path / "graphcast-0.1.1.tar.gz"
    with tarfile.open(archive, "w:gz") as tar:
        for name, text in (("PKG-INFO", "Name: graphcast\nVersion: 0.1.1\n"), ("pyproject.toml", IN_TREE),
                           ("setup.py", "from setuptools import setup\nsetup(name='graphcast', version='0.1.1')\n")):
            data = text.encode()
            info = tarfile.TarInfo(f"graphcast-0.1.1/{name}")
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    words = checkout_caution(read_identity(str(archive)), None)
    assert "building it runs the build backend `be` its pyproject.toml names, from its own _be/" in words, words
