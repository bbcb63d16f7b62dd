"""The target env's Python is read from its files when they can say, with the same facts the interpreter
itself would give — and the interpreter is still asked where the files cannot answer for it."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.fixtures.envs import python_link_env
from wizard.detect import deadline, environment


def _interpreter_says(python: str) -> dict:
    out = subprocess.run([python, "-E", "-c", environment._INTERPRETER_QUERY], capture_output=True, text=True,
                         check=True).stdout
    return environment.interpreter_answer(out)


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
    venv = python_link_env(tmp_path / "uvenv", names=("python3",),
                           cfg="home = /opt/py/bin\nimplementation = CPython\nuv = 0.9.2\n"
                               "version_info = 3.12.1\ninclude-system-site-packages = false\n")
    assert environment.version_from_files(environment.choose_target(venv, {})) == "3.12.1"
    conda = python_link_env(tmp_path / "conda", names=("python3",))
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
    broken = python_link_env(tmp_path / "broken", to=tmp_path / "gone" / "python3", names=("python3",),
                             cfg="version = 3.11.7\n")
    os.chmod(broken / "bin", 0o755)
    assert environment.version_from_files(environment.choose_target(broken, {})) is None


#: The patterns `reported` and `distribution_folder` replaced (compiled on every `detect`, issue 23): the string
#: tests must answer as they did, for every shape a site-packages folder holds — with digits 0-9 only, as every
#: digit test in the package since 31st hostile pass (part A) P4/P5 (`patterns.ascii_digits`).
_OLD_REPORTED = re.compile(
    r"^(jax|jaxlib|jax-cuda[0-9]+-(plugin|pjrt)|numpy|scipy|ml-dtypes|dm-haiku|flax|chex|optax|jraph|dm-tree"
    r"|xarray|pandas|graphcast|gencast|torch|tensorflow|tensorflow-gpu|cupy-cuda\w+|nvidia-[\w-]+)\Z")
_OLD_DIST = re.compile(r"^(?P<name>.+?)-(?P<version>[0-9][^-]*?)\.(dist-info|egg-info)\Z")

_NAMES = ["jax", "jaxlib", "jax-cuda12-plugin", "jax-cuda12-pjrt", "jax-cuda-plugin", "jax-cuda12-plugins",
          "jax-cuda１２-pjrt", "jax-cudax-plugin", "cupy-cuda12x", "cupy-cuda", "cupy-cuda-12", "nvidia-cudnn-cu12",
          "nvidia-", "nvidia--", "nvidia-nccl_cu12", "nvidia-nvjitlink-cu12", "nvidia-é", "nvidia-a b", "numpyx",
          "xnumpy", "dm-haiku", "dm-tree", "tensorflow-gpu", "tensorflow-cpu", "graphcast", "gencast", "torch",
          "ml-dtypes", "pandas", "", "jax-cuda12-plugin-x", "cupy-cuda12x.y"]
_FOLDERS = ["jax-0.4.23.dist-info", "jaxlib-0.4.23+cuda12.cudnn89.dist-info", "nvidia_cudnn_cu12-8.9.2.26.dist-info",
            "dm_haiku-0.0.12.egg-info", "graphcast-0.1.1.dist-info", "a-b-1.0.dist-info", "x-v1.dist-info",
            "-1.0.dist-info", "noversion.dist-info", "jax-0.4.23", "jax-0.4.23.dist-info.bak", "a\nb-1.dist-info",
            "a-1\n2.dist-info", "a-١.dist-info", "a-²1.dist-info", "jax-0.4-23.dist-info", "x.egg-info",
            "tiny_a-1.0.egg-info", "__pycache__", "jax"]


@pytest.mark.parametrize("name", _NAMES)
def test_reported_names_are_the_patterns_names(name):
    assert environment.reported(name) == bool(_OLD_REPORTED.match(name))


@pytest.mark.parametrize("folder", _FOLDERS)
def test_a_metadata_folder_is_read_as_the_pattern_read_it(folder):
    match = _OLD_DIST.match(folder)
    assert environment.distribution_folder(folder) == ((match["name"], match["version"]) if match else None)


def test_the_interpreter_query_loads_no_json_or_re_and_keeps_every_byte_of_a_path(tmp_path):
    """The child that describes an env's Python answers without `json` (which brings `re`: a third of its start,
    paid on every `detect --json`), and a path with a newline and a byte that is not UTF-8 comes back whole."""
    odd = Path(os.fsdecode(os.fsencode(str(tmp_path)) + b"/env\nwith \xff"))
    python = str(python_link_env(odd, names=("python3",)) / "bin" / "python3")

    def run(code: str) -> tuple[subprocess.CompletedProcess, set[str]]:
        proc = subprocess.run([python, "-E", "-X", "importtime", "-c", code], capture_output=True, text=True,
                              check=True, errors="surrogateescape")
        return proc, {line.rsplit("|", 1)[-1].strip() for line in proc.stderr.splitlines() if "|" in line}

    proc, loaded = run(environment._INTERPRETER_QUERY)
    added = loaded - run("pass")[1]  # what the query itself loads, beyond this Python's own start
    assert not added & {"json", "re"}, sorted(added)
    said = environment.interpreter_answer(proc.stdout)
    assert said["executable"] == python and said["version"] == "%d.%d.%d" % sys.version_info[:3]
    assert said["site"] and all(p.endswith(("site-packages", "dist-packages")) for p in said["site"])
