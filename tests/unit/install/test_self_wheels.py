"""gc-wizard's own wheels for a bundle's `wizard/` folder (`install.self_wheels`), where they cannot be packed as
installed: 30th hostile pass (part B) P1 — run as a zipapp, the package folder is a path inside the archive, and the
wheel shipped with no code ("No module named 'wizard.cli'" on the offline machine) while the bundle said it was
ready; P2 — a dependency installed in editable mode was repacked as its `.pth` pointer to this machine's folder."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

from tests.fixtures.state import REPO


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
