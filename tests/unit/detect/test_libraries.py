"""CUDA/cuDNN libraries on the machine, which copy loads first, and the target environment.

The seed help request is the model: cuDNN 8.2.1 on `LD_LIBRARY_PATH` in a conda env whose jaxlib was
built for cuDNN 8.6 (`jaxlib 0.4.23+cuda11.cudnn86`).
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

from tests.fixtures.cli import run_inproc
from tests.fixtures.envs import python_link_env
from tests.fixtures.gpu import make_library_dir
from tests.fixtures.state import last_json
from wizard.detect.chain import detect
from wizard.flows.describe_machine import machine_lines as render

CUDNN_821 = {"libcudnn.so.8.2.1": None, "libcudnn.so.8": "libcudnn.so.8.2.1", "libcudnn.so": "libcudnn.so.8"}


def _warnings(facts, wid: str) -> list[str]:
    return [w.message for w in facts.warnings if w.id == wid]


def _ld_path(*folders) -> str:
    return os.pathsep.join(str(f) for f in folders)


def test_first_cudnn_on_ld_library_path_loads_first_and_each_folder_is_warned(gpu_server, monkeypatch, tmp_path):
    env = gpu_server("a100x2-535")
    old = make_library_dir(tmp_path / "opt" / "cudnn-8.2.1" / "lib64", CUDNN_821)
    new = make_library_dir(tmp_path / "opt" / "cudnn-8.9" / "lib", {"libcudnn.so.8": None}, cudnn_header="8.9.7")
    monkeypatch.setenv("LD_LIBRARY_PATH", _ld_path(old, new, env["LD_LIBRARY_PATH"]))
    facts = detect()
    cudnn = [(lib.version, lib.found_via, lib.loads_first) for lib in facts.cuda_libraries if lib.name == "cudnn"]
    assert cudnn[:2] == [("8.2.1", "LD_LIBRARY_PATH", True), ("8.9.7", "LD_LIBRARY_PATH", False)]
    messages = _warnings(facts, "ld_library_path_cudnn")
    assert len(messages) == 2
    assert str(old) in messages[0] and "8.2.1" in messages[0]
    assert str(new) in messages[1] and "8.9.7" in messages[1]
    assert facts.driver.source == "nvml"  # the stand-in's folder, later on the same variable, still loads


def test_each_soname_major_has_its_own_first_copy(gpu_server, monkeypatch, tmp_path):
    gpu_server("no-nvidia")
    nine = make_library_dir(tmp_path / "cudnn9" / "lib", {"libcudnn.so.9.1.0": None, "libcudnn.so.9": "libcudnn.so.9.1.0"})
    eight = make_library_dir(tmp_path / "cudnn8" / "lib", CUDNN_821)
    monkeypatch.setenv("LD_LIBRARY_PATH", _ld_path(nine, eight))
    facts = detect()
    cudnn = {lib.version: lib.loads_first for lib in facts.cuda_libraries if lib.name == "cudnn"}
    # A jaxlib asking for libcudnn.so.8 gets 8.2.1 even though a cuDNN 9 comes earlier.
    assert cudnn["9.1.0"] is True and cudnn["8.2.1"] is True


def test_cuda_libraries_and_the_driver_stub_on_ld_library_path(gpu_server, monkeypatch, tmp_path):
    env = gpu_server("a100x2-535")
    cuda = make_library_dir(tmp_path / "cuda-11.2" / "lib64", {
        "libcublas.so.11.4.1.1043": None, "libcublas.so.11": "libcublas.so.11.4.1.1043",
        "libcudart.so.11.2.152": None, "libcudart.so.11.0": "libcudart.so.11.2.152"})
    stubs = make_library_dir(tmp_path / "cuda-11.2" / "lib64" / "stubs", {"libcuda.so": None})
    monkeypatch.setenv("LD_LIBRARY_PATH", _ld_path(cuda, stubs, env["LD_LIBRARY_PATH"]))
    facts = detect()
    messages = _warnings(facts, "ld_library_path_cuda")
    assert len(messages) == 2
    assert "cuBLAS 11.4.1.1043" in messages[0] and "CUDA runtime 11.2.152" in messages[0]
    assert "stub" in messages[1]
    assert not _warnings(facts, "ld_library_path_cudnn")


def test_old_toolkit_on_path_is_warned(gpu_server, monkeypatch, tmp_path):
    env = gpu_server("a100x2-535")
    bin_dir = tmp_path / "cuda-11.2" / "bin"
    bin_dir.mkdir(parents=True)
    (bin_dir / "ptxas").write_text("#!/bin/sh\n")
    monkeypatch.setenv("PATH", _ld_path(bin_dir, env["PATH"]))
    facts = detect()
    (message,) = _warnings(facts, "path_cuda_toolkit")
    assert str(bin_dir) in message and "ptxas" in message and "11.2" in message


def test_nvidia_wheels_in_the_target_venv_are_listed_with_their_wheel_versions(gpu_server, tmp_path):
    gpu_server("no-nvidia")
    env = tmp_path / "venv"
    site = env / "lib" / "python3.11" / "site-packages"
    make_library_dir(site / "nvidia" / "cudnn" / "lib", {"libcudnn.so.8": None})
    for dist in ("nvidia_cudnn_cu12-8.9.7.29.dist-info", "jax-0.4.23.dist-info",
                 "jaxlib-0.4.23+cuda12.cudnn89.dist-info"):
        (site / dist).mkdir(exist_ok=True)
    (env / "pyvenv.cfg").write_text("home = /usr/bin\nversion = 3.11.7\n")
    facts = detect(target_env=env)
    (wheel,) = [lib for lib in facts.cuda_libraries if lib.found_via == "wheel"]
    assert (wheel.name, wheel.version) == ("cudnn", "8.9.7.29")
    assert wheel.path == str(site / "nvidia" / "cudnn" / "lib" / "libcudnn.so.8")
    assert facts.environment.packages["nvidia-cudnn-cu12"] == "8.9.7.29"
    assert facts.environment.jaxlib_cuda_tag == "cuda12.cudnn89"
    # Off the search path: the human summary counts it instead of listing it.
    summary = "\n".join(render(facts))
    assert str(wheel.path) not in summary
    assert "off the search path" in summary


def _fake_conda_env(root: Path, *, jaxlib: str, conda_build: str | None = None) -> Path:
    """A conda prefix: conda-meta/, bin/python (this interpreter), site-packages with jax/jaxlib."""
    python_link_env(root, names=("python3",))
    (root / "conda-meta").mkdir()
    site = root / "lib" / "python3.11" / "site-packages"
    site.mkdir(parents=True)
    (site / "jax-0.4.23.dist-info").mkdir()
    (site / f"jaxlib-{jaxlib}.dist-info").mkdir()
    if conda_build:
        (root / "conda-meta" / f"jaxlib-0.4.23-{conda_build}.json").write_text(json.dumps({"name": "jaxlib"}))
    return root


def test_conda_env_lib_folder_and_conda_build_tag(gpu_server, monkeypatch, tmp_path):
    gpu_server("no-nvidia")
    prefix = _fake_conda_env(tmp_path / "envs" / "graphcast", jaxlib="0.4.23", conda_build="cuda120py311h1a2b3c4_200")
    make_library_dir(prefix / "lib", CUDNN_821)
    monkeypatch.setenv("CONDA_PREFIX", str(prefix))
    facts = detect()
    assert facts.environment.kind == "conda"
    assert facts.environment.path == str(prefix)
    assert facts.environment.jaxlib_cuda_tag == "cuda120"
    assert facts.python.version == "%d.%d.%d" % sys.version_info[:3]
    (conda_lib,) = [lib for lib in facts.cuda_libraries if lib.found_via == "conda"]
    assert (conda_lib.name, conda_lib.version) == ("cudnn", "8.2.1")


def test_the_seed_case_through_the_cli(gpu_server, tmp_path):
    """cuDNN 8.2.1 on LD_LIBRARY_PATH, a conda env with jaxlib built for cuDNN 8.6, two A100s."""
    env = gpu_server("a100x2-535")
    prefix = _fake_conda_env(tmp_path / "hiskim1_graphcast", jaxlib="0.4.23+cuda11.cudnn86")
    cudnn = make_library_dir(tmp_path / "opt" / "cudnn" / "lib64", CUDNN_821)
    env = {**env, "CONDA_PREFIX": str(prefix), "LD_LIBRARY_PATH": _ld_path(cudnn, env["LD_LIBRARY_PATH"])}

    data = last_json(run_inproc("detect", "--json", env=env))
    assert data["driver"]["cuda_driver_version"] == "12.2"
    assert data["environment"]["kind"] == "conda"
    assert data["environment"]["jaxlib_cuda_tag"] == "cuda11.cudnn86"
    assert {"name": "cudnn", "version": "8.2.1", "path": str(cudnn / "libcudnn.so.8.2.1"),
            "found_via": "LD_LIBRARY_PATH", "loads_first": True} in data["cuda_libraries"]
    assert "ld_library_path_cudnn" in [w["id"] for w in data["warnings"]]

    human = run_inproc("detect", env=env)
    assert human.returncode == 0 and "Traceback" not in human.stderr
    lines = human.stdout.splitlines()
    assert lines[0] == "Problems:"
    first = " ".join(line.strip() for line in lines[1:lines.index("")])  # wrapped to 80 columns under its indent
    assert first.startswith("! [ld_library_path_cudnn]") and "8.2.1" in first
    summary = lines[lines.index("") + 1:]
    summary = summary[:summary.index("")] if "" in summary else summary  # the facts block, before the memory one
    # Aligned: every value starts in the same column (a value's wrapped rest, indented, is under it too). A value that
    # cannot follow its label on its row (this test's path, longer than the row) goes whole on a row of its own.
    labelled = [line for line in summary if not line.startswith(" ") and "  " in line]
    columns = {len(line) - len(line[len(line.split("  ")[0]):].lstrip()) for line in labelled}
    assert len(columns) == 1, summary
    assert all(len(line) <= 80 or max(map(len, line.split())) > 40 for line in summary)  # a path stays whole
    assert any(line.startswith("Driver") and "535.104.05" in line for line in summary)
    assert "cudnn 8.2.1" in " ".join(summary) and "loads first" in " ".join(summary)


def test_folder_entries_are_what_glob_gives_for_the_same_pattern(tmp_path):
    """`libraries._entries` stands for `glob.glob` (not imported on every `detect`, issue 23): same paths, same order."""
    import glob

    from wizard.detect.libraries import _entries

    nvidia = tmp_path / "nvidia"
    for name in ("cudnn", "cublas", ".hidden", "nolib", "cuda_runtime"):
        (nvidia / name).mkdir(parents=True)
    for name in ("cudnn", "cublas", ".hidden", "cuda_runtime"):
        (nvidia / name / "lib").mkdir()
    (nvidia / "dangling").mkdir()
    (nvidia / "dangling" / "lib").symlink_to(tmp_path / "gone")
    (nvidia / "afile").write_text("")
    for name in ("cuda", "cuda-12.2", "cudax", ".cuda", "other"):
        (tmp_path / name).mkdir()
    assert _entries(str(nvidia), then="lib") == sorted(glob.glob(str(nvidia / "*" / "lib")))
    assert _entries(str(tmp_path), "cuda") == sorted(glob.glob(str(tmp_path / "cuda*")))
    assert _entries(str(tmp_path / "missing"), "cuda") == [] == sorted(glob.glob(str(tmp_path / "missing" / "cuda*")))


def test_on_a_machine_without_an_nvidia_driver_cuda_folders_are_no_problem(gpu_server, monkeypatch, tmp_path):
    """Walk 25 #8: `LD_LIBRARY_PATH=/usr/local/cuda/lib64` on a server with no NVIDIA driver was a "!" problem
    ("it would shadow the recipe's own CUDA libraries") beside "No NVIDIA driver", though only CPU recipes run
    there and a CPU jaxlib loads no CUDA library. On such a machine neither the library folder nor a toolkit's
    `bin/` on PATH is a problem; a preloaded CUDA library still is (it is loaded into every program)."""
    env = gpu_server("no-nvidia")
    cuda = make_library_dir(tmp_path / "cuda-13.0" / "lib64", {
        "libcudart.so.13.0.48": None, "libcudart.so.13": "libcudart.so.13.0.48"})
    bin_dir = tmp_path / "cuda-13.0" / "bin"
    bin_dir.mkdir(parents=True)
    (bin_dir / "ptxas").write_text("#!/bin/sh\n")
    monkeypatch.setenv("LD_LIBRARY_PATH", str(cuda))
    monkeypatch.setenv("PATH", _ld_path(bin_dir, env["PATH"]))
    facts = detect()
    ids = [w.id for w in facts.warnings]
    assert "no_nvidia_driver" in ids
    assert not {"ld_library_path_cuda", "ld_library_path_cudnn", "path_cuda_toolkit"} & set(ids), ids
    assert "shadow" not in " ".join(render(facts))
    assert any(lib.found_via == "LD_LIBRARY_PATH" for lib in facts.cuda_libraries)  # still listed as a fact
