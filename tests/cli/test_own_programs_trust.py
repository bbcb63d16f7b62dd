"""gc-wizard's own programs pass the rule PATH's programs pass (27th hostile pass (part B) P6): with `chmod o+w` on
its venv's `bin/uv` (or a 0777 `bin/`), another user swapped uv for a wrapper and every install ran it as root
without a word, while the same file found on PATH was refused; a 0777 site-packages passed too. A real venv of
gc-wizard's (this checkout and the test run's packages, through a `.pth`) with a copy of the real uv, the real CLI
and uv on the tiny recipes."""

from __future__ import annotations

import os
import shutil
import site
import subprocess
import sys
from pathlib import Path

import pytest

from tests.fixtures.state import REPO


@pytest.fixture
def own_venv(tmp_path) -> Path:
    """A venv holding gc-wizard (through a `.pth`) and its own copy of uv in `bin/`, as `pip install` leaves one."""
    from uv import find_uv_bin

    venv = tmp_path / "gcw-venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    packages = next((venv / "lib").glob("python*/site-packages"))
    (packages / "gcw.pth").write_text("\n".join([str(REPO), *site.getsitepackages()]) + "\n")
    shutil.copy2(find_uv_bin(), venv / "bin" / "uv")
    return venv


def _install(venv: Path, tiny) -> subprocess.CompletedProcess:
    return subprocess.run([str(venv / "bin" / "python"), "-m", "wizard", "install", "tiny-a", "--yes", *tiny.args()],
                          capture_output=True, text=True, timeout=600, cwd=str(REPO),
                          env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"})


@pytest.mark.parametrize("opened", ["bin/uv", "bin"])
def test_its_own_uv_that_every_user_can_write_is_not_run(own_venv, tiny, tmp_path, opened):
    uv = own_venv / "bin" / "uv"
    assert _install(own_venv, tiny).returncode == 0  # the same venv, closed: installs
    ran = tmp_path / "ran"
    real = tmp_path / "real-uv"
    shutil.move(uv, real)
    uv.write_text(f"#!/bin/sh\necho ran >> {ran}\nexec {real} \"$@\"\n")  # what another user would put there
    uv.chmod(0o755)
    place = own_venv / opened
    place.chmod(place.stat().st_mode | 0o002)
    proc = _install(own_venv, tiny)
    error = proc.stderr.strip().removeprefix("gc-wizard: ")
    assert proc.returncode == 2, proc.stderr
    assert error.startswith(f"gc-wizard's own uv {uv} was not run, because {place} is a ") and "every user can write" \
        in error, error
    assert f"`chmod go-w {place}`" in error and "Traceback" not in proc.stderr
    assert not ran.exists()


def test_its_own_python_is_not_run_for_pip_when_every_user_can_write_its_site_packages(own_venv, tiny, monkeypatch):
    packages = next((own_venv / "lib").glob("python*/site-packages"))
    packages.chmod(0o777)
    proc = subprocess.run([str(own_venv / "bin" / "python"), "-m", "wizard", "bundle", "tiny-a", "--recipes-dir",
                           str(tiny.recipes), "--find-links", str(tiny.house.path), "--graphcast-src",
                           str(tiny.graphcast), "--out", str(tiny.recipes.parent / "bun")],
                          capture_output=True, text=True, timeout=600, cwd=str(REPO),
                          env={**{k: v for k, v in os.environ.items() if k != "PYTHONPATH"}, "UV_OFFLINE": "1",
                               "PIP_NO_INDEX": "1"})
    assert proc.returncode == 2, proc.stderr
    assert f"gc-wizard's own Python {own_venv / 'bin' / 'python'} was not run, because {packages} is a folder every " \
           "user can write" in proc.stderr, proc.stderr


def test_a_run_says_at_its_end_when_others_could_change_its_own_installation(tmp_path):
    """The wizard copied into a venv's site-packages, as `pip install` puts it; that folder made 0777: the run goes
    on (it has started already) and says once, at its end, which place and the chmod."""
    venv = tmp_path / "gcw-copy"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    packages = next((venv / "lib").glob("python*/site-packages"))
    (packages / "deps.pth").write_text("\n".join(site.getsitepackages()) + "\n")
    shutil.copytree(REPO / "wizard", packages / "wizard", ignore=shutil.ignore_patterns("__pycache__"))
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    closed = subprocess.run([str(venv / "bin" / "python"), "-m", "wizard", "history"], capture_output=True, text=True,
                            timeout=120, cwd=str(tmp_path), env=env)
    assert "gc-wizard's own installation" not in closed.stderr, closed.stderr
    packages.chmod(0o777)
    opened = subprocess.run([str(venv / "bin" / "python"), "-m", "wizard", "history"], capture_output=True, text=True,
                            timeout=120, cwd=str(tmp_path), env=env)
    assert opened.returncode == closed.returncode, opened.stderr
    assert f"gc-wizard's own installation: {packages} is a folder every user can write" in opened.stderr
    assert f"`chmod go-w {packages}`" in opened.stderr and "Traceback" not in opened.stderr
