"""The bundle's `wizard/` wheels are packed only from installed files that are still what their installer wrote: each
is held to the sha256 its RECORD gives, and one changed since (or, in gc-wizard's own install, added to it) is refused
by package and file, with no wheel left behind.

Why: 36th hostile pass (part B) P2 — a line appended to the installed `mdurl/__init__.py` was packed, re-hashed, as
mdurl 0.1.2, and a changed `wizard/paths.py` (an added `wizard/zz_extra.py`) as gc-wizard 0.1.0; the offline machine
installed that code as the release, with nothing said."""

from __future__ import annotations

import base64
import hashlib
import zipfile
from importlib import metadata
from pathlib import Path

import pytest

from wizard import __version__
from wizard.errors import OperationFailed
from wizard.install import self_wheels


def _hash(data: bytes) -> str:
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def _install(site: Path, name: str, version: str, files: dict[str, bytes]) -> Path:
    """`files` written into `site` with a dist-info whose RECORD hashes them, as an installer leaves it."""
    info = site / f"{name}-{version}.dist-info"
    info.mkdir(parents=True)
    own = {f"{info.name}/METADATA": f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n".encode(),
           f"{info.name}/WHEEL": b"Wheel-Version: 1.0\nRoot-Is-Purelib: true\nTag: py3-none-any\n"}
    for rel, data in {**files, **own}.items():
        (site / rel).parent.mkdir(parents=True, exist_ok=True)
        (site / rel).write_bytes(data)
    lines = [f"{rel},{_hash(data)},{len(data)}" for rel, data in {**files, **own}.items()]
    (info / "RECORD").write_text("\n".join([*lines, f"{info.name}/RECORD,,"]) + "\n")
    return info


def test_a_dependency_file_changed_after_install_is_refused_by_package_and_file(tmp_path):
    info = _install(tmp_path / "site", "dep", "1.0", {"dep/__init__.py": b"X = 1\n", "dep/util.py": b"Y = 2\n"})
    out = tmp_path / "wheels"
    out.mkdir()
    name = self_wheels._repack(metadata.PathDistribution(info), out)  # as installed: packed
    assert "dep/util.py" in zipfile.ZipFile(out / name).namelist()
    (out / name).unlink()
    with (tmp_path / "site" / "dep" / "util.py").open("a") as handle:
        handle.write("# changed after install\n")
    with pytest.raises(OperationFailed) as raised:
        self_wheels._repack(metadata.PathDistribution(info), out)
    message = str(raised.value)
    assert "dep 1.0" in message and "dep/util.py (changed)" in message and "dep/__init__.py" not in message
    assert "RECORD" in message and "--force-reinstall --no-deps dep==1.0" in message
    assert not list(out.iterdir())  # no wheel left to be taken for the release


def _own_install(site: Path, monkeypatch) -> Path:
    """A gc-wizard installed into `site` with its RECORD, made the running package (`self_wheels.__file__`)."""
    package = {f"wizard/{rel}": data for rel, data in (
        ("__init__.py", b"__version__ = '0'\n"), ("cli.py", b"def run():\n    return 0\n"),
        ("paths.py", b"HOME = 1\n"), ("install/__init__.py", b""), ("install/self_wheels.py", b"# packer\n"))}
    _install(site, "gc_wizard", __version__, package)
    monkeypatch.syspath_prepend(str(site))
    monkeypatch.setattr(self_wheels, "__file__", str(site / "wizard" / "install" / "self_wheels.py"))
    return site / "wizard"


@pytest.mark.parametrize("change, named", [
    (lambda wizard: (wizard / "paths.py").write_bytes(b"HOME = 2\n"), "wizard/paths.py (changed)"),
    (lambda wizard: (wizard / "zz_extra.py").write_bytes(b"import os\n"), "wizard/zz_extra.py (not in its RECORD)"),
    (lambda wizard: (wizard / "paths.py").unlink(), "wizard/paths.py (gone)"),
])
def test_gc_wizards_own_installed_files_are_held_to_its_record(tmp_path, monkeypatch, change, named):
    wizard = _own_install(tmp_path / "site", monkeypatch)
    out = tmp_path / "wheels"
    out.mkdir()
    packed = self_wheels._own_wheel(out, [])  # as installed: packed
    assert "wizard/paths.py" in zipfile.ZipFile(out / packed).namelist()
    (out / packed).unlink()
    (wizard / "__pycache__").mkdir()
    (wizard / "__pycache__" / "paths.cpython-311.pyc").write_bytes(b"compiled")  # Python's own: never compared
    change(wizard)
    with pytest.raises(OperationFailed) as raised:
        self_wheels._own_wheel(out, [])
    message = str(raised.value)
    assert f"gc-wizard {__version__}" in message and named in message and "pyc" not in message
    assert not list(out.iterdir())
