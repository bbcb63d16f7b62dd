"""gc-wizard's own wheels for a bundle's `wizard/` folder (`install.self_wheels`), where they cannot be packed as
installed: 30th hostile pass (part B) P1 — run as a zipapp, the package folder is a path inside the archive, and the
wheel shipped with no code ("No module named 'wizard.cli'" on the offline machine) while the bundle said it was
ready; P2 — a dependency installed in editable mode was repacked as its `.pth` pointer to this machine's folder."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from importlib import metadata
from pathlib import Path

import pytest

from tests.fixtures.state import REPO
from wizard.errors import OperationFailed
from wizard.install import self_wheels


def _zipapp(path: Path) -> Path:
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("__main__.py", "import sys\nimport wizard.cli\nsys.exit(wizard.cli.run())\n")
        for file in sorted((REPO / "wizard").rglob("*")):
            if file.is_file() and "__pycache__" not in file.parts:
                archive.write(file, file.relative_to(REPO).as_posix())
        for file in sorted((REPO / "recipes").glob("*.yaml")):
            archive.write(file, f"wizard/data/recipes/{file.name}")
    return path


def test_a_zipapps_own_wheel_holds_the_code_it_runs(tmp_path):
    pyz = _zipapp(tmp_path / "gcw.pyz")
    out = tmp_path / "wheels"
    out.mkdir()
    code = ("import sys\nsys.path.insert(0, sys.argv[1])\nfrom pathlib import Path\n"
            "from wizard.install import self_wheels\nfrom wizard import paths\n"
            "assert paths.zip_archive() is not None\n"
            "print(self_wheels._own_wheel(Path(sys.argv[2]), ['pyyaml']))\n")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    proc = subprocess.run([sys.executable, "-c", code, str(pyz), str(out)], capture_output=True, text=True,
                          timeout=120, cwd="/", env={**env, "GC_WIZARD_HOME": str(tmp_path / "state")})
    assert proc.returncode == 0, proc.stderr[-2000:]
    names = zipfile.ZipFile(out / proc.stdout.split()[-1]).namelist()
    assert {"wizard/__init__.py", "wizard/cli.py", "wizard/install/self_wheels.py"} <= set(names), names[:20]
    assert len([n for n in names if n.startswith("wizard/data/recipes/")]) == len(list((REPO / "recipes").glob("*.yaml")))
    assert len(names) == len(set(names))  # each file once: the zip's recipes, not a second copy too


def _installed(site: Path, name: str, *, direct_url: dict | None, files: dict[str, str]) -> metadata.Distribution:
    info = site / f"{name}-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n")
    (info / "WHEEL").write_text("Wheel-Version: 1.0\nRoot-Is-Purelib: true\nTag: py3-none-any\n")
    for rel, text in files.items():
        (site / rel).parent.mkdir(parents=True, exist_ok=True)
        (site / rel).write_text(text)
    if direct_url is not None:
        (info / "direct_url.json").write_text(json.dumps(direct_url))
    listed = [*files, f"{info.name}/METADATA", f"{info.name}/WHEEL", f"{info.name}/RECORD"]
    (info / "RECORD").write_text("".join(f"{rel},,\n" for rel in listed))
    return metadata.PathDistribution(info)


def test_an_editable_dependency_is_refused_by_name_not_packed_as_its_pointer(tmp_path):
    src = tmp_path / "edsrc"
    dist = _installed(tmp_path / "site", "edpkg", direct_url={"url": src.as_uri(), "dir_info": {"editable": True}},
                      files={"__editable__.edpkg-1.0.pth": "import __editable___edpkg_1_0_finder\n",
                             "__editable___edpkg_1_0_finder.py": f"MAPPING = {{'edpkg': {str(src)!r}}}\n"})
    out = tmp_path / "wheels"
    out.mkdir()
    with pytest.raises(OperationFailed) as raised:
        self_wheels._repack(dist, out)
    assert "edpkg 1.0" in str(raised.value) and "editable" in str(raised.value) and str(src) in str(raised.value)
    assert not list(out.iterdir())  # no wheel left to be taken for the package


def test_a_legacy_pth_editable_without_direct_url_is_refused_too(tmp_path):
    dist = _installed(tmp_path / "site", "oldpkg", direct_url=None,
                      files={"__editable__.oldpkg-1.0.pth": "/somewhere/src\n"})
    with pytest.raises(OperationFailed, match="oldpkg 1.0"):
        self_wheels._repack(dist, tmp_path)


def test_a_normal_install_is_still_packed(tmp_path):
    dist = _installed(tmp_path / "site", "plain", direct_url={"url": "file:///x/plain-1.0-py3-none-any.whl",
                                                              "archive_info": {}},
                      files={"plain/__init__.py": "X = 1\n"})
    name = self_wheels._repack(dist, tmp_path)
    assert "plain/__init__.py" in zipfile.ZipFile(tmp_path / name).namelist()


def test_the_copy_the_wizard_imports_is_packed_not_the_first_on_the_path(tmp_path, monkeypatch):
    """33rd hostile pass (part B) P2: gc-wizard installed with `pip install --target DIR` beside Debian's
    python3-yaml: `metadata.distribution` gave the system's copy first, and the bundle packed PyYAML 6.0, not the
    6.0.4 the wizard was installed (and runs) with. The copy whose module is imported is the one packed."""
    import importlib.util

    first = tmp_path / "system"
    _installed(first, "twocopies", direct_url=None, files={"twocopies/__init__.py": "WHICH = 'system'\n"})
    mine = _installed(tmp_path / "target", "twocopies", direct_url=None,
                      files={"twocopies/__init__.py": "WHICH = 'target'\n"})
    (first / "twocopies-1.0.dist-info" / "METADATA").write_text("Metadata-Version: 2.1\nName: twocopies\n"
                                                                 "Version: 0.9\n")
    monkeypatch.syspath_prepend(str(tmp_path / "target"))
    monkeypatch.syspath_prepend(str(first))
    spec = importlib.util.spec_from_file_location("twocopies", tmp_path / "target" / "twocopies" / "__init__.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    monkeypatch.setitem(sys.modules, "twocopies", module)
    assert metadata.distribution("twocopies").version == "0.9"  # the first on the path: the system's
    assert self_wheels.installed("twocopies").version == mine.version == "1.0"


def test_a_copy_without_its_file_list_is_not_advised_a_pip_reinstall(tmp_path):
    """A system package (Debian's python3-pygments, an egg-info) lists no RECORD: the advice is a gc-wizard in a venv,
    never `pip install` over the distribution's package (as root it changes the system's Python)."""
    site = tmp_path / "site"
    info = site / "Pygments-2.14.0.egg-info"
    info.mkdir(parents=True)
    (info / "PKG-INFO").write_text("Metadata-Version: 2.1\nName: Pygments\nVersion: 2.14.0\n")
    with pytest.raises(OperationFailed) as raised:
        self_wheels._repack(metadata.PathDistribution(info), tmp_path)
    said = str(raised.value)
    assert "Pygments 2.14.0" in said and "venv" in said and "install it again with pip" not in said


def test_pythonpath_folders_go_last_but_the_one_the_wizard_is_installed_in(tmp_path):
    """`pip install --target DIR` + `PYTHONPATH=DIR`: DIR holds gc-wizard and its dependencies, so it keeps its place
    (moved behind dist-packages, the system's copies were imported); another PYTHONPATH folder still goes last."""
    target, other = tmp_path / "target", tmp_path / "other"
    target.mkdir()
    other.mkdir()
    (target / "wizard").symlink_to(REPO / "wizard")
    code = "import sys, wizard; print(sys.path.index(sys.argv[1]), sys.path.index(sys.argv[2]), len(sys.path))"
    proc = subprocess.run([sys.executable, "-P", "-c", code, str(target), str(other)], capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": f"{target}{os.pathsep}{other}"}, timeout=60)
    at_target, at_other, length = map(int, proc.stdout.split())
    assert at_target == 0 and at_other == length - 1, proc.stdout
