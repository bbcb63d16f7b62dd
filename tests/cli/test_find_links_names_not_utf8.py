"""A `--find-links` folder holding a file whose name is not UTF-8 is named up front, as what pip cannot read.

27th hostile pass (part A) P5: with `pkg_c-1.0-py3-none-any\\xff.whl` beside the wheels, `install --installer pip`
made the environment, then pip crashed and gc-wizard quoted its Python traceback (`UnicodeEncodeError … position 36`)
on stderr, in `--json` and in history; `bundle` did the same. The file was never named. uv passes such a file by, so
the plan only says so. The real CLI, real pip and uv, a real file so named.
"""

from __future__ import annotations

import os
import shutil

import pytest

from tests.fixtures.state import run_cli


@pytest.fixture
def odd_house(tmp_path, tiny):
    house = tmp_path / "wh2"
    shutil.copytree(tiny.house.path, house)
    odd = os.fsencode(house) + b"/pkg_c-1.0-py3-none-any\xff.whl"
    shutil.copyfile(next(house.glob("pkg_a-*.whl")), odd)
    return house


def _clean(proc) -> None:
    shown = proc.stdout + proc.stderr
    assert "Traceback" not in shown and 'File "' not in shown and "position 36" not in shown, shown


@pytest.mark.parametrize("command", ["install-pip", "bundle"])
def test_pip_is_not_handed_a_folder_it_cannot_read(tmp_path, isolated_state, tiny, odd_house, command):
    if command == "bundle":
        proc = run_cli("bundle", "tiny-a", "--recipes-dir", str(tiny.recipes), "--find-links", str(odd_house),
                       "--out", str(tmp_path / "bundle"))
        assert not (tmp_path / "bundle").exists()
    else:
        proc, data = tiny.install("tiny-a", "--installer", "pip", find_links=odd_house)
        assert data is not None and "pkg_c-1.0-py3-none-any\\xff.whl" in data["error"]
        assert not (isolated_state / "envs").exists() or not any((isolated_state / "envs").iterdir())
        assert "Create the environment" not in proc.stdout + proc.stderr, "the install began before saying so"
    assert proc.returncode == 2, proc.stderr
    assert f"--find-links {odd_house}: the name of pkg_c-1.0-py3-none-any\\xff.whl is not UTF-8, which pip cannot " \
           "read" in proc.stderr and "rename or move it" in proc.stderr, proc.stderr
    _clean(proc)


def test_the_uv_plan_names_the_file_pip_could_not_read_and_uv_installs(isolated_state, tiny, odd_house):
    proc = run_cli("plan", "tiny-a", "--json", *tiny.args(find_links=odd_house)[:-1])  # no --no-verify
    assert proc.returncode == 0, proc.stderr
    assert "pkg_c-1.0-py3-none-any\\\\xff.whl is not UTF-8; uv passes it by" in proc.stdout, proc.stdout
    proc, data = tiny.install("tiny-a", find_links=odd_house)
    assert proc.returncode == 0 and data["ok"], proc.stderr
    _clean(proc)
