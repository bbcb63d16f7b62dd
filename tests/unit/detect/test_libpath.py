"""What counts as a CUDA folder, and the versions read from names, headers, version.json and dist-info."""

from __future__ import annotations

import json
import os

from tests.fixtures.gpu import make_library_dir
from wizard.detect import libpath


def test_old_cudnn_folder_is_dropped_with_its_version_and_plain_folders_stay(tmp_path):
    cudnn = make_library_dir(tmp_path / "cudnn-8.2" / "lib64", {
        "libcudnn.so.8.2.1": None, "libcudnn.so.8": "libcudnn.so.8.2.1", "libcudnn.so": "libcudnn.so.8",
        "libcudnn_ops_infer.so.8.2.1": None,
    })
    plain = tmp_path / "mylibs"
    plain.mkdir()
    (plain / "libfoo.so.1").write_bytes(b"\x7fELF")
    missing = str(tmp_path / "not-there")
    value = os.pathsep.join([str(cudnn), "", str(plain), missing, str(plain)])
    kept, removed = libpath.split_cuda_dirs(value)
    assert kept == [str(plain), missing]
    assert removed == [(str(cudnn), "holds cuDNN 8.2.1")]


def test_one_entry_per_real_file_listed_by_its_soname(tmp_path):
    folder = make_library_dir(tmp_path / "lib", {
        "libcudnn.so.8.2.1": None, "libcudnn.so.8": "libcudnn.so.8.2.1", "libcudnn.so": "libcudnn.so.8",
        "libcublas.so.11.5.1.109": None, "libcublas.so.11": "libcublas.so.11.5.1.109",
        "libcudnn_cnn_infer.so.8": None,  # a cuDNN 8 sub-library, not cuDNN itself
        "libcudart.so.11.0": "libcudart.so.11.2.152", "libcudart.so.11.2.152": None,
        "libcufft.so.10": "gone.so",  # dangling: loads nothing
    })
    libs = libpath.libraries_in(folder)
    assert [(lib.name, lib.version, lib.listed_as) for lib in libs] == [
        ("cudnn", "8.2.1", "libcudnn.so.8"),
        ("cudart", "11.2.152", "libcudart.so.11.0"),
        ("cublas", "11.5.1.109", "libcublas.so.11"),
    ]
    assert libs[0].path == str(folder / "libcudnn.so.8.2.1")
    assert libpath.describe(libs) == "cuDNN 8.2.1, CUDA runtime 11.2.152, cuBLAS 11.5.1.109"


def test_major_only_cudnn_gets_its_version_from_cudnn_version_h(tmp_path):
    folder = make_library_dir(tmp_path / "cudnn" / "lib", {"libcudnn.so.8": None}, cudnn_header="8.9.7")
    (lib,) = libpath.libraries_in(folder)
    assert lib.version == "8.9.7"


def test_header_of_another_major_is_not_believed(tmp_path):
    folder = make_library_dir(tmp_path / "cudnn" / "lib", {"libcudnn.so.9": None}, cudnn_header="8.9.7")
    (lib,) = libpath.libraries_in(folder)
    assert lib.version == "9"


def test_pip_wheel_layout_reads_the_dist_info_version(tmp_path):
    site = tmp_path / "lib" / "python3.11" / "site-packages"
    folder = make_library_dir(site / "nvidia" / "cudnn" / "lib", {"libcudnn.so.8": None})
    make_library_dir(site / "nvidia" / "cuda_runtime" / "lib", {"libcudart.so.12": None})
    (site / "nvidia_cudnn_cu12-8.9.7.29.dist-info").mkdir()
    (site / "nvidia_cuda_runtime_cu12-12.2.140.dist-info").mkdir()
    assert libpath.libraries_in(folder)[0].version == "8.9.7.29"
    assert libpath.libraries_in(site / "nvidia" / "cuda_runtime" / "lib")[0].version == "12.2.140"


def test_toolkit_version_json_gives_component_versions(tmp_path):
    root = tmp_path / "cuda-12.2"
    lib = make_library_dir(root / "targets" / "x86_64-linux" / "lib", {"libcublas.so.12": None})
    (root / "version.json").write_text(json.dumps({
        "cuda": {"name": "CUDA SDK", "version": "12.2.20230823"},
        "libcublas": {"name": "CUDA cuBLAS", "version": "12.2.5.6"},
    }))
    assert libpath.libraries_in(lib)[0].version == "12.2.5.6"
    assert libpath.toolkit_version(root) == "12.2"


def test_cuda_stub_folder_counts_as_a_cuda_folder(tmp_path):
    stubs = make_library_dir(tmp_path / "cuda" / "lib64" / "stubs", {"libcuda.so": None})
    kept, removed = libpath.split_cuda_dirs(str(stubs))
    assert kept == []
    assert "stub libcuda.so" in removed[0][1]


def test_toolkit_bin_folders_are_dropped_from_path_with_their_version(tmp_path):
    new = tmp_path / "cuda-12.2" / "bin"
    old = tmp_path / "cuda-10.2" / "bin"
    for folder in (new, old):
        folder.mkdir(parents=True)
        for tool in ("nvcc", "ptxas"):
            (folder / tool).write_text("#!/bin/sh\n")
    (old.parent / "version.txt").write_text("CUDA Version 10.2.89\n")
    (new.parent / "version.json").write_text(json.dumps({"cuda": {"version": "12.2.20230823"}}))
    other = tmp_path / "tools"
    other.mkdir()
    kept, removed = libpath.split_cuda_bin_dirs(os.pathsep.join([str(old), str(other), str(new)]))
    assert kept == [str(other)]
    assert removed == [(str(old), "holds nvcc, ptxas (CUDA 10.2)"), (str(new), "holds nvcc, ptxas (CUDA 12.2)")]


def test_system_bin_folders_stay_on_path_whatever_they_hold():
    kept, removed = libpath.split_cuda_bin_dirs("/usr/bin:/bin/")
    assert kept == ["/usr/bin", "/bin/"] and removed == []
