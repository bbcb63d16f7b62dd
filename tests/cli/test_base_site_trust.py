"""A base Python's site-packages runs no one else's code in the wizard (29th hostile pass (part B) P5): every probe of
an interpreter runs with `-I -S` (`children.PROBE_FLAGS`), so no `.pth` in its site-packages runs while the wizard
only asks it about itself, and the site-packages folders `site` reads at every start — each entry in them, each folder
a `.pth` line names — are held to the swap rule before the interpreter runs at all (`source_trust.site_folder_risk`,
part of `python_home_risk`), since uv's own query of a `--python` and every later start of an env made from it read
them. Real venvs (`python -m venv`), real owners (uid 65534), the real CLI."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.fixtures.modes import NOBODY, need_root
from tests.fixtures.state import last_json, run_cli

MINOR = f"python{sys.version_info.major}.{sys.version_info.minor}"


def _venv(tmp_path: Path, *, system: bool) -> Path:
    venv = tmp_path / "v"
    args = ["--system-site-packages"] if system else []
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", *args, str(venv)], check=True, timeout=120)
    return venv


def _marker_pth(site: Path, marker: Path) -> Path:
    pth = site / "zz_marker.pth"
    pth.write_text(f"import os; open({str(marker)!r}, 'a').write('ran')\n")
    return pth


def test_detect_asks_a_venv_that_sees_the_system_site_without_running_its_pth_files(tmp_path):
    # A venv that sees the system's packages is the one detect must ask its interpreter about (its files cannot say
    # which those are); a root-owned .pth in its own site-packages stands for any that the rule passes.
    venv = _venv(tmp_path, system=True)
    site = next((venv / "lib").glob("python3*/site-packages"))
    _marker_pth(site, tmp_path / "ran")
    proc = run_cli("detect", "--json", env={"VIRTUAL_ENV": str(venv), "PATH": f"{venv / 'bin'}:{os.environ['PATH']}"})
    assert proc.returncode == 0, proc.stderr
    assert not (tmp_path / "ran").exists(), "detect's interpreter query ran a .pth of the system site"
    environment = last_json(proc)["environment"]
    assert environment["kind"] == "venv" and environment["path"] == str(venv), environment


def test_the_python_probe_runs_no_pth_file(tmp_path):
    from wizard.recipes.pythons import probe_python

    venv = _venv(tmp_path, system=False)
    _marker_pth(next((venv / "lib").glob("python3*/site-packages")), tmp_path / "ran")
    choice = probe_python(str(venv / "bin" / "python"), "given")
    assert choice is not None and choice.version == "%d.%d.%d" % sys.version_info[:3]
    assert not (tmp_path / "ran").exists(), "the --python probe ran a .pth"


@pytest.fixture
def root_python(tmp_path) -> Path:
    """A root-owned Python installation's layout: `bin/python3` and `lib/python3.N/{os,site}.py`, with an empty
    root-owned `site-packages` beside them."""
    need_root("give a folder to another user")
    home = tmp_path / "opt"
    library = home / "lib" / MINOR
    (home / "bin").mkdir(parents=True)
    (library / "site-packages").mkdir(parents=True)
    shutil.copy2(os.path.realpath(sys.executable), home / "bin" / "python3")
    for name in ("os.py", "site.py"):
        shutil.copy2(Path(os.__file__).parent / name, library / name)
    return home


def _refusal(proc) -> str:
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr
    return proc.stderr.strip().removeprefix("gc-wizard: ")


def test_python_option_whose_site_packages_another_user_owns_is_refused(root_python, tmp_path, tiny):
    site = root_python / "lib" / MINOR / "site-packages"
    os.chown(_marker_pth(site, tmp_path / "ran"), NOBODY, NOBODY)
    os.chown(site, NOBODY, NOBODY)
    python = root_python / "bin" / "python3"
    error = _refusal(run_cli("install", "tiny-a", "--yes", *tiny.args(), "--python", str(python)))
    assert error.startswith(f"--python {python}: {site}, a site-packages folder its python reads at every start, "
                            f"is a folder that user "), error
    assert "it was not run" in error and not (tmp_path / "ran").exists()


def test_a_pth_line_into_another_users_folder_is_refused_naming_the_line(root_python, tmp_path, tiny):
    theirs = tmp_path / "theirs"
    theirs.mkdir()
    (theirs / "sitecustomize.py").write_text(f"open({str(tmp_path / 'ran')!r}, 'a').write('ran')\n")
    os.chown(theirs, NOBODY, NOBODY)
    pth = root_python / "lib" / MINOR / "site-packages" / "__editable__.proj.pth"
    pth.write_text(f"# pip install -e\n{theirs}\n")
    python = root_python / "bin" / "python3"
    error = _refusal(run_cli("install", "tiny-a", "--yes", *tiny.args(), "--python", str(python)))
    assert f": {theirs}, which line 2 of {pth} puts on its search path at every start, is a folder that user " \
        in error, error
    assert "it was not run" in error and not (tmp_path / "ran").exists()


@pytest.mark.parametrize("system", [True, False])
def test_install_into_a_venv_over_such_a_python_is_refused_when_it_sees_the_system_site(root_python, tmp_path, tiny,
                                                                                       system):
    # A venv (root's own) made with --system-site-packages over a Python whose site-packages holds another user's
    # .pth runs it at every start of its python: refused before anything runs. Without that switch it never reads it.
    site = root_python / "lib" / MINOR / "site-packages"
    os.chown(_marker_pth(site, tmp_path / "ran"), NOBODY, NOBODY)
    venv = tmp_path / "v"
    (venv / "bin").mkdir(parents=True)
    shutil.copy2(os.path.realpath(sys.executable), venv / "bin" / "python")
    (venv / "lib" / MINOR / "site-packages").mkdir(parents=True)
    (venv / "pyvenv.cfg").write_text(f"home = {root_python / 'bin'}\n"
                                     f"include-system-site-packages = {'true' if system else 'false'}\n")
    from wizard.source_trust import python_home_risk

    found = python_home_risk(venv / "bin" / "python")
    if not system:
        assert found is None, found
        return
    assert found is not None and found[0] == site / "zz_marker.pth", found
    error = _refusal(run_cli("install", "tiny-a", "--yes", *tiny.args(), "--env", str(venv)))
    assert error.startswith(f"the environment {venv}: {site / 'zz_marker.pth'}, in a site-packages folder its python "
                            "reads at every start, is a file that user "), error
    assert "nothing was run" in error and not (tmp_path / "ran").exists()
