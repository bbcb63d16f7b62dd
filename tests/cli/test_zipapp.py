"""gc-wizard run as a zipapp (`python3 gcw.pyz`, 22nd hostile pass P12): its data files were read by a path inside
the zip ("known_failures.yaml: Not a directory", so verify and diagnose never worked and a verified install failed at
its end), its probe scripts were run by such a path, and every command it printed or launched through srun was
`python3 -m wizard`, which cannot run. Every package file now goes through `paths.package_file` and every self-command
through `paths.program_argv`. The zip holds the wizard's own package; its dependencies come from this interpreter's
site-packages, as a zipapp built with them would carry them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tests.fixtures.state import REPO


@pytest.fixture(scope="module")
def pyz(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("zipapp") / "gcw.pyz"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("__main__.py", "import sys\nimport wizard.cli\nsys.exit(wizard.cli.run())\n")
        for file in sorted((REPO / "wizard").rglob("*")):
            if file.is_file() and "__pycache__" not in file.parts:
                archive.write(file, file.relative_to(REPO).as_posix())
        for file in sorted((REPO / "recipes").glob("*.yaml")):  # where the wheel puts them (pyproject force-include)
            archive.write(file, f"wizard/data/recipes/{file.name}")
    return path


def _run(pyz: Path, *args: str, home: Path, code: str | None = None) -> subprocess.CompletedProcess:
    argv = [sys.executable, "-c", code, str(pyz)] if code else [sys.executable, str(pyz), *args]
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    return subprocess.run(argv, capture_output=True, text=True, timeout=120, cwd="/",
                          env={**env, "GC_WIZARD_HOME": str(home)})


def test_diagnose_reads_its_known_failures_from_the_zip(pyz, tmp_path):
    log = tmp_path / "install.log"
    log.write_text("RuntimeError: jaxlib is version 0.4.23, but this version of jax requires version >= 0.4.25.\n")
    proc = _run(pyz, "diagnose", str(log), "--json", home=tmp_path / "state")
    assert "Not a directory" not in proc.stderr and "Traceback" not in proc.stderr, proc.stderr
    data = json.loads(proc.stdout.splitlines()[-1])
    assert data["findings"], data


def test_package_files_and_the_self_command_work_from_the_zip(pyz, tmp_path):
    code = ("import json, sys\nsys.path.insert(0, sys.argv[1])\n"
            "from wizard import paths\nfrom wizard.verify.probe import PROBE_PATH, FORECAST_PROBE_PATH\n"
            "from wizard.detect import gpu_probe\nfrom wizard.verify.diagnose import KNOWN_FAILURES_PATH\n"
            "files = [paths.package_file(p) for p in (PROBE_PATH, FORECAST_PROBE_PATH, gpu_probe._CHILD,"
            " KNOWN_FAILURES_PATH)]\n"
            "print(json.dumps({'zip': str(paths.zip_archive()), 'argv': paths.program_argv(),"
            " 'command': paths.program_command(), 'files': [str(f) for f in files],"
            " 'same': [f.is_file() for f in files]}))\n")
    proc = _run(pyz, home=tmp_path / "state", code=code)
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["zip"] == str(pyz) and data["argv"] == [sys.executable, str(pyz)]
    assert data["command"].endswith(str(pyz)) and "-m wizard" not in data["command"]
    assert all(data["same"]) and all(f.startswith(str(tmp_path / "state")) for f in data["files"])
    with zipfile.ZipFile(pyz) as archive:
        assert Path(data["files"][0]).read_bytes() == archive.read("wizard/verify/probe/graphcast_probe.py")
    # run from disk, nothing is copied and the self-command is the usual one
    from wizard import paths
    from wizard.verify.probe import PROBE_PATH

    assert paths.zip_archive() is None and paths.package_file(PROBE_PATH) == PROBE_PATH
    assert paths.program_argv() == [sys.executable, "-m", "wizard"]


def test_a_changed_copy_is_written_again(pyz, tmp_path):
    code = ("import sys\nsys.path.insert(0, sys.argv[1])\nfrom wizard import paths\n"
            "from wizard.verify.probe import PROBE_PATH\nprint(paths.package_file(PROBE_PATH))\n")
    first = Path(_run(pyz, home=tmp_path / "state", code=code).stdout.strip())
    first.write_text("import os; os.system('id')\n")
    again = Path(_run(pyz, home=tmp_path / "state", code=code).stdout.strip())
    assert again == first and "os.system" not in again.read_text()
    # a link in its place (to a file with the same bytes, which another user could change later) is replaced too
    elsewhere = tmp_path / "elsewhere.py"
    elsewhere.write_bytes(again.read_bytes())
    again.unlink()
    again.symlink_to(elsewhere)
    third = Path(_run(pyz, home=tmp_path / "state", code=code).stdout.strip())
    assert third == first and not third.is_symlink() and third.read_bytes() == elsewhere.read_bytes()


@pytest.mark.skipif(not Path("/usr/bin/python3").exists(), reason="needs a system Python")
def test_no_pip_command_is_advised_for_a_python_its_distribution_manages(monkeypatch):
    from wizard import self_install

    monkeypatch.setattr(self_install, "externally_managed", lambda: True)
    monkeypatch.setattr(self_install, "has_module", lambda name: True)
    found = self_install.SelfInstall(manager="pip", source="/src/gc-wizard", editable=False, python="/usr/bin/python3")
    said = self_install.repair_advice("uv", uv=None, found=found)
    assert "-m pip" not in said and "ensurepip" not in said and "install uv on its own" in said, said
    monkeypatch.setattr(self_install, "externally_managed", lambda: False)
    assert "-m pip install uv" in self_install.repair_advice("uv", uv=None, found=found)


def test_externally_managed_reads_the_marker_of_a_system_python():
    marker = Path("/usr/lib/python3.11/EXTERNALLY-MANAGED")
    if not marker.is_file() or not Path("/usr/bin/python3.11").exists():
        pytest.skip("needs a Debian-style Python 3.11 with its EXTERNALLY-MANAGED marker")
    code = ("import sys; sys.path.insert(0, sys.argv[1]); from wizard.self_install import externally_managed; "
            "print(externally_managed())")
    proc = subprocess.run(["/usr/bin/python3.11", "-c", code, str(REPO)], capture_output=True, text=True, timeout=60)
    assert proc.stdout.strip() == "True", proc.stderr
    assert not __import__("wizard.self_install", fromlist=["x"]).externally_managed()  # this venv: pip may install


def test_a_node_that_cannot_start_it_is_told_how_it_was_run(pyz, tmp_path):
    code = ("import sys\nsys.path.insert(0, sys.argv[1])\nfrom wizard.detect.srun_errors import explain\n"
            "print(explain('/usr/bin/python3: can\\'t open file: No such file or directory', partition=None,"
            " what='run detection').sentence)\n")
    said = " ".join(_run(pyz, home=tmp_path / "state", code=code).stdout.split())
    assert f"(as `{sys.executable} {pyz}`)" in said and f"its zip archive {pyz}" in said, said


def test_the_built_in_recipes_are_found_in_the_zip(pyz, tmp_path):
    """23rd hostile pass P8: the built-in recipes were looked for in "<gcw.pyz>/recipes": `recipes` exited 2 "no
    recipes were found", and with --recipes-dir only that folder's recipes existed."""
    shipped = sorted(p.stem for p in (REPO / "recipes").glob("*.yaml"))
    proc = _run(pyz, "recipes", "--json", home=tmp_path / "state")
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
    assert sorted(r["id"] for r in json.loads(proc.stdout.splitlines()[-1])) == shipped
    extra = tmp_path / "mine"
    extra.mkdir()
    (extra / "mine-cpu.yaml").write_text((REPO / "recipes" / "jax0.4.23-cpu.yaml").read_text().replace(
        "id: jax0.4.23-cpu", "id: mine-cpu"))
    proc = _run(pyz, "recipes", "--json", "--recipes-dir", str(extra), home=tmp_path / "state")
    assert proc.returncode == 0, proc.stderr
    ids = {r["id"] for r in json.loads(proc.stdout.splitlines()[-1])}
    assert set(shipped) <= ids and "mine-cpu" in ids
    # the copy is checked: an edited recipe is written again from the zip
    copies = list((tmp_path / "state" / "package-files").glob("*/recipes/jax0.4.23-cpu.yaml"))
    assert len(copies) == 1
    copies[0].write_text("id: evil\n")
    proc = _run(pyz, "plan", "jax0.4.23-cpu", "--json", home=tmp_path / "state")
    assert "unknown recipe" not in proc.stderr and "Traceback" not in proc.stderr, proc.stderr
    assert copies[0].read_text() == (REPO / "recipes" / "jax0.4.23-cpu.yaml").read_text()
