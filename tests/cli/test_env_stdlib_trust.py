"""What an environment's python loads at start is held to the swap rule (27th hostile pass (part B) P5): a venv made
with `--copies` from another user's Python has root-owned `bin/python*`, so the link rule passed it, but its
`pyvenv.cfg` `home` sent it to that user's standard library, whose `sitecustomize.py` `verify --env` and
`install --env` ran as root; `--python` with a root-owned copy whose `lib` led into their folder did the same. A
real venv (`python -m venv --copies`), real owners (uid 65534), the real CLI; the refusal comes before anything
runs, so their files need only be there."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.fixtures.modes import NOBODY, need_root
from tests.fixtures.state import run_cli


@pytest.fixture
def their_python(tmp_path) -> Path:
    """A Python installation's layout that uid 65534 owns: `bin/python3`, `lib/python3.N/{os,site,sitecustomize}.py`
    (the sitecustomize writes a marker if it ever runs)."""
    need_root("give a Python installation to another user")
    home = tmp_path / "theirs"
    library = home / "lib" / f"python{sys.version_info.major}.{sys.version_info.minor}"
    (home / "bin").mkdir(parents=True)
    library.mkdir(parents=True)
    shutil.copy2(os.path.realpath(sys.executable), home / "bin" / "python3")
    for name in ("os.py", "site.py"):
        shutil.copy2(Path(os.__file__).parent / name, library / name)
    (library / "sitecustomize.py").write_text(f"open({str(tmp_path / 'ran')!r}, 'a').write('ran')\n")
    for top, dirs, files in os.walk(home):
        for name in [top, *(os.path.join(top, f) for f in dirs + files)]:
            os.lchown(name, NOBODY, NOBODY)
    return home


def test_verify_of_a_venv_whose_pyvenv_cfg_home_is_another_users_python_is_refused(their_python, tmp_path):
    venv = tmp_path / "v"
    subprocess.run([sys.executable, "-m", "venv", "--copies", "--without-pip", str(venv)], check=True, timeout=120)
    config = venv / "pyvenv.cfg"
    config.write_text("".join(f"home = {their_python / 'bin'}\n" if line.startswith("home") else line
                              for line in config.read_text().splitlines(keepends=True)))
    proc = run_cli("verify", "--env", str(venv))
    error = proc.stderr.strip().removeprefix("gc-wizard: ")
    assert proc.returncode in (1, 2) and error.startswith(f"the environment {venv}: {their_python}, on the way to "
                                                          f"{their_python / 'bin'}, the home its pyvenv.cfg names, "
                                                          "is a folder that user "), error
    assert f"(uid {NOBODY}) owns, and gc-wizard runs as root" in error and "nothing was run" in error
    assert "Traceback" not in proc.stderr and not (tmp_path / "ran").exists()


def test_python_option_whose_lib_leads_into_another_users_folder_is_refused(their_python, tmp_path, tiny):
    copy = tmp_path / "opt"
    (copy / "bin").mkdir(parents=True)
    shutil.copy2(os.path.realpath(sys.executable), copy / "bin" / "python3")
    (copy / "lib").symlink_to(their_python / "lib")
    proc = run_cli("install", "tiny-a", "--yes", *tiny.args(), "--python", str(copy / "bin" / "python3"))
    error = proc.stderr.strip().removeprefix("gc-wizard: ")
    library = copy / "lib" / f"python{sys.version_info.major}.{sys.version_info.minor}"
    assert proc.returncode == 2, proc.stderr
    assert error.startswith(f"--python {copy / 'bin' / 'python3'}: ") and f"on the way to {library}, the standard " \
        "library its python loads at start, is a folder that user " in error, error
    assert "it was not run" in error and not (tmp_path / "ran").exists()


def test_a_venv_of_roots_own_python_still_verifies_past_the_rule(tmp_path):
    venv = tmp_path / "v"
    subprocess.run([sys.executable, "-m", "venv", "--copies", "--without-pip", str(venv)], check=True, timeout=120)
    proc = run_cli("verify", "--env", str(venv))
    assert "the standard library" not in proc.stderr and "pyvenv.cfg names" not in proc.stderr, proc.stderr


@pytest.mark.parametrize("landmark", ["pybuilddir.txt", "Modules/Setup.local"])
def test_a_python_laid_out_as_a_build_tree_is_held_to_the_rule_on_its_Lib(their_python, tmp_path, tiny, landmark):
    # 29th hostile pass (part B) P6: getpath takes a folder with `pybuilddir.txt` (or `Modules/Setup.local`) beside
    # the binary for a build tree and loads `Lib/` there; a root-owned `bin/Lib` link into another user's standard
    # library passed a check that looked only at `lib/python3.N`.
    copy = tmp_path / "opt"
    (copy / "bin").mkdir(parents=True)
    shutil.copy2(os.path.realpath(sys.executable), copy / "bin" / "python3")
    (copy / "bin" / landmark).parent.mkdir(parents=True, exist_ok=True)
    (copy / "bin" / landmark).write_text("build/lib.linux-x86_64-3.11\n" if landmark == "pybuilddir.txt" else "")
    library = their_python / "lib" / f"python{sys.version_info.major}.{sys.version_info.minor}"
    (copy / "bin" / "Lib").symlink_to(library)
    python = copy / "bin" / "python3"
    proc = run_cli("install", "tiny-a", "--yes", *tiny.args(), "--python", str(python))
    error = proc.stderr.strip().removeprefix("gc-wizard: ")
    assert proc.returncode == 2, proc.stderr
    assert error.startswith(f"--python {python}: {their_python}, on the way to {copy / 'bin' / 'Lib'}, the standard "
                            "library its python loads at start, is a folder that user "), error
    assert "it was not run" in error and "Traceback" not in proc.stderr and not (tmp_path / "ran").exists()


def test_the_folders_a_python_says_it_starts_from_are_held_to_the_rule(their_python, tmp_path):
    # The interpreter's own word (sys.prefix, sys.path before site, asked with -I -S) covers every layout getpath
    # knows, those the file check does not predict too (29th hostile pass (part B) P6).
    from wizard.errors import UserError
    from wizard.recipes.pythons import probe_python
    from wizard.source_trust import refuse_start_path, start_path_risk

    library = their_python / "lib" / f"python{sys.version_info.major}.{sys.version_info.minor}"
    link = tmp_path / "Lib"
    link.symlink_to(library)
    found = start_path_risk(["", "relative", str(tmp_path / "absent"), sys.prefix, str(link)])
    assert found is not None and found[0] == their_python and found[3].startswith(f"on the way to {link}, where its "), found
    with pytest.raises(UserError) as refused:
        refuse_start_path("--python /x/python3", "/x/python3", [str(link)], "the interpreter")
    assert str(refused.value).startswith(f"--python /x/python3: {their_python}, on the way to {link}, where its python "
                                         "says it loads its standard library from at start, is a folder that user ")
    assert start_path_risk([sys.prefix, *sys.path]) is None
    assert probe_python(sys.executable, "given") is not None
