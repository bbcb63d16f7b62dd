"""The target env's Python is read from its files when they can say, with the same facts the interpreter
itself would give — and the interpreter is still asked where the files cannot answer for it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from wizard.detect import deadline, environment


def _interpreter_says(python: str) -> dict:
    out = subprocess.run([python, "-E", "-c", environment._INTERPRETER_QUERY], capture_output=True, text=True,
                         check=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def _described(prefix: Path) -> tuple[environment.Target, object]:
    target = environment.choose_target(prefix, {})
    running = environment.start_interpreter_query(target, timeout=20)
    environment.finish_interpreter_query(target, running)
    return target, running


def _described_by_asking(prefix: Path) -> environment.Target:
    """The same env described the old way: its interpreter asked, whatever its files say."""
    target = environment.choose_target(prefix, {})
    running = deadline.start([target.executable, "-E", "-c", environment._INTERPRETER_QUERY], timeout=20)
    environment.finish_interpreter_query(target, running)
    return target


def test_a_real_venv_is_described_from_its_files_with_the_interpreters_own_facts(tmp_path):
    env = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(env)], check=True)
    site = next((env / "lib").glob("python3*/site-packages"))
    (site / "jax-0.4.23.dist-info").mkdir()
    target, running = _described(env)
    asked = _described_by_asking(env)
    assert running is None, "no second Python for a venv whose pyvenv.cfg names its version"
    assert target.python_version == asked.python_version == _interpreter_says(str(env / "bin" / "python3"))["version"]
    assert target.site_dirs == asked.site_dirs and target.executable == asked.executable
    assert environment.describe(target) == environment.describe(asked)
    assert environment.describe(target)[1].packages == {"jax": "0.4.23"}


def test_uv_style_version_info_and_conda_meta_records_are_read(tmp_path):
    venv = tmp_path / "uvenv"
    (venv / "bin").mkdir(parents=True)
    (venv / "bin" / "python3").symlink_to(sys.executable)
    (venv / "pyvenv.cfg").write_text("home = /opt/py/bin\nimplementation = CPython\nuv = 0.9.2\n"
                                     "version_info = 3.12.1\ninclude-system-site-packages = false\n")
    assert environment.version_from_files(environment.choose_target(venv, {})) == "3.12.1"
    conda = tmp_path / "conda"
    (conda / "bin").mkdir(parents=True)
    (conda / "bin" / "python3").symlink_to(sys.executable)
    (conda / "conda-meta").mkdir()
    (conda / "conda-meta" / "python-3.13.0-h9ebbce0_100_cp313.json").write_text("{}")
    (conda / "conda-meta" / "python_abi-3.13-5_cp313.json").write_text("{}")
    assert environment.version_from_files(environment.choose_target(conda, {})) == "3.13.0"


def test_the_interpreter_is_still_asked_where_the_files_cannot_answer(tmp_path):
    # a venv that also sees the system site-packages: only the interpreter knows which those are
    shared = tmp_path / "shared"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", "--system-site-packages", str(shared)], check=True)
    target, running = _described(shared)
    assert running is not None
    assert target.python_version == "%d.%d.%d" % sys.version_info[:3]
    # a venv whose interpreter link leads nowhere: the query runs and reports it broken, as before
    broken = tmp_path / "broken"
    (broken / "bin").mkdir(parents=True)
    (broken / "bin" / "python3").symlink_to(tmp_path / "gone" / "python3")
    (broken / "pyvenv.cfg").write_text("version = 3.11.7\n")
    os.chmod(broken / "bin", 0o755)
    assert environment.version_from_files(environment.choose_target(broken, {})) is None
