"""30th hostile pass (part B) P10: run from a checkout on PYTHONPATH (`PYTHONPATH=CHECKOUT VENV/bin/python -m wizard`)
with another gc-wizard installed in that venv, the printed "Go back:"/"Next:" lines named `VENV/bin/gc-wizard`, which in
a new shell (no PYTHONPATH) is the *other* gc-wizard; with no console script there, a bare `gc-wizard` was printed
for whatever PATH finds. `paths.program_command` now prints a console script only when, started so, it would import
the running package (its module's file), else `PYTHON -m wizard` with `PYTHONPATH` naming the running package's folder.

Real venvs made by the real `venv` module; each printed command is run as a new shell would, without PYTHONPATH."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import site
import subprocess
import venv
from pathlib import Path

from tests.fixtures.state import REPO

_ASK = "from wizard import paths; print(paths.program_command())"


def _venv(folder: Path, *, other: Path | None) -> Path:
    """A real venv with this interpreter's dependencies; `other`: a folder holding another gc-wizard (0.0.1), put on
    the venv's path as its install would be, with the `bin/gc-wizard` console script pip writes for it."""
    venv.EnvBuilder(with_pip=False, symlinks=True).create(folder)
    purelib = next((folder / "lib").glob("python3*/site-packages"))
    (purelib / "deps.pth").write_text("\n".join([*([str(other)] if other else []), *site.getsitepackages()]) + "\n")
    if other is not None:
        shutil.copytree(REPO / "wizard", other / "wizard", ignore=shutil.ignore_patterns("__pycache__"))
        init = other / "wizard" / "__init__.py"
        init.write_text(re.sub(r'(?m)^__version__ = .*$', '__version__ = "0.0.1"', init.read_text()))
        (folder / "bin" / "gc-wizard").write_text(
            f"#!{folder}/bin/python\nimport sys\nfrom wizard.__main__ import main\nsys.exit(main())\n")
        (folder / "bin" / "gc-wizard").chmod(0o755)
    return folder


def _fresh_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONSAFEPATH")}
    return {**env, **extra}


def _runs(printed: str, tmp_path: Path) -> str:
    """What `printed --version` says in a new shell: its leading `NAME=value` words set, no PYTHONPATH else."""
    words = shlex.split(printed)
    assigned = {}
    while words and re.match(r"^[A-Za-z_][A-Za-z0-9_]*=", words[0]):
        name, _, value = words.pop(0).partition("=")
        assigned[name] = value
    if words[0] == "gc-wizard":
        words[0] = shutil.which("gc-wizard", path=_fresh_env(**assigned)["PATH"]) or "gc-wizard"
    done = subprocess.run([*words, "--version"], env=_fresh_env(**assigned), cwd=tmp_path, capture_output=True,
                          text=True, timeout=120)
    return (done.stdout + done.stderr).strip()


def _running(python: Path, tmp_path: Path, **extra: str) -> tuple[str, str]:
    """(the version the checkout on PYTHONPATH runs as, the program it prints)."""
    env = _fresh_env(PYTHONPATH=str(REPO), **extra)
    version = subprocess.run([str(python), "-m", "wizard", "--version"], env=env, cwd=tmp_path, capture_output=True,
                             text=True, timeout=120)
    printed = subprocess.run([str(python), "-c", _ASK], env=env, cwd=tmp_path, capture_output=True, text=True,
                             timeout=120)
    assert version.returncode == 0 and printed.returncode == 0, (version.stderr[-2000:], printed.stderr[-2000:])
    return version.stdout.strip(), printed.stdout.strip().splitlines()[-1]


def test_a_checkout_on_pythonpath_prints_itself_not_the_venvs_other_gc_wizard(tmp_path):
    folder = _venv(tmp_path / "venv", other=tmp_path / "other")
    version, printed = _running(folder / "bin" / "python", tmp_path)
    assert version != "gc-wizard 0.0.1"
    assert str(folder / "bin" / "gc-wizard") not in printed, printed
    assert _runs(printed, tmp_path) == version, printed


def test_no_console_script_here_never_prints_the_one_path_finds(tmp_path):
    folder = _venv(tmp_path / "venv", other=None)
    elsewhere = _venv(tmp_path / "elsewhere", other=tmp_path / "other")  # its gc-wizard is first on PATH
    path = f"{elsewhere / 'bin'}{os.pathsep}{os.environ.get('PATH', '')}"
    version, printed = _running(folder / "bin" / "python", tmp_path, PATH=path)
    assert not printed.startswith("gc-wizard"), printed
    assert _runs(printed, tmp_path) == version, printed
