"""Detection at the hardware boundary: stand-in NVML library and nvidia-smi, the real probe child, real CLI."""

from __future__ import annotations

import json
import os

import pytest

from tests.fixtures.cli import run_inproc
from tests.fixtures.state import last_json
from wizard.detect import kernel_module
from wizard.detect.chain import detect
from wizard.detect.smi import compute_cap_from_name, parse_table
from wizard.errors import UserError


def _ids(facts) -> list[str]:
    return [w.id for w in facts.warnings]


def test_two_a100s_on_535_through_nvml(gpu_server):
    gpu_server("a100x2-535")
    facts = detect()
    assert facts.driver.version == "535.104.05"
    assert facts.driver.cuda_driver_version == "12.2"
    assert facts.driver.source == "nvml"
    assert [g.name for g in facts.gpus] == ["NVIDIA A100-SXM4-80GB"] * 2
    assert {g.compute_capability for g in facts.gpus} == {"8.0"}
    assert facts.gpus[0].memory_total_mib == 81920
    assert all(g.source == "nvml" for g in facts.gpus)
    assert "no_nvidia_driver" not in _ids(facts)


def test_v100_on_470_falls_back_to_nvidia_smi(gpu_server):
    gpu_server("v100-470-smi")
    facts = detect()
    assert facts.driver.source == "nvidia-smi"
    assert facts.driver.version == "470.57.02"
    assert facts.driver.cuda_driver_version == "11.4"
    (gpu,) = facts.gpus
    assert gpu.name == "Tesla V100-SXM2-16GB"
    # Drivers older than 510 refuse `compute_cap`; the capability then comes from the product name.
    assert gpu.compute_capability == "7.0"
    assert gpu.source == "nvidia-smi"


def test_driver_installed_but_not_loaded_says_exactly_that(gpu_server):
    gpu_server("driver-not-loaded")
    facts = detect()
    assert facts.driver is None
    warning = next(w for w in facts.warnings if w.id == "driver_not_loaded")
    assert "not loaded" in warning.message
    assert "no_nvidia_driver" not in _ids(facts)


def test_no_nvidia_stack_at_all(gpu_server):
    gpu_server("no-nvidia")
    facts = detect()
    assert facts.driver is None
    assert facts.gpus == ()
    assert "no_nvidia_driver" in _ids(facts)


def test_cuda_visible_devices_cannot_hide_the_driver_but_is_warned_about(gpu_server, monkeypatch):
    gpu_server("a100x2-535")
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "")
    facts = detect()
    assert facts.driver.source == "nvml" and len(facts.gpus) == 2
    assert "cuda_visible_devices_empty" in _ids(facts)
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "0,7")
    facts = detect()
    warning = next(w for w in facts.warnings if w.id == "cuda_visible_devices_invalid")
    assert "7" in warning.message


def test_old_cudnn_on_ld_library_path_is_found_loads_first_and_warned(gpu_server, monkeypatch, tmp_path):
    env = gpu_server("a100x2-535")
    old = tmp_path / "opt" / "cudnn-8.2" / "lib64"
    old.mkdir(parents=True)
    (old / "libcudnn.so.8.2.1").write_bytes(b"\x7fELF")
    (old / "libcudnn.so.8").symlink_to("libcudnn.so.8.2.1")
    plain = tmp_path / "mylibs"
    plain.mkdir()
    monkeypatch.setenv("LD_LIBRARY_PATH", os.pathsep.join([str(old), str(plain), env["LD_LIBRARY_PATH"]]))
    facts = detect()
    assert facts.driver.source == "nvml"  # the stand-in still loads: the order of folders is kept
    cudnn = [lib for lib in facts.cuda_libraries if lib.name == "cudnn"]
    assert cudnn[0].version == "8.2.1"
    assert cudnn[0].found_via == "LD_LIBRARY_PATH"
    assert cudnn[0].loads_first
    warning = next(w for w in facts.warnings if w.id == "ld_library_path_cudnn")
    assert str(old) in warning.message and "8.2.1" in warning.message
    assert str(plain) not in " ".join(w.message for w in facts.warnings)


def test_cuda_environment_modules_are_reported(gpu_server, monkeypatch):
    gpu_server("no-nvidia")
    monkeypatch.setenv("LOADEDMODULES", "gcc/12.2:cuda/11.2:cudnn/8.2.1")
    facts = detect()
    warning = next(w for w in facts.warnings if w.id == "cuda_modules_loaded")
    assert "cuda/11.2" in warning.message and "cudnn/8.2.1" in warning.message


def test_target_environment_packages_and_jaxlib_build_tag(gpu_server, tmp_path):
    gpu_server("no-nvidia")
    env = tmp_path / "env"
    site = env / "lib" / "python3.11" / "site-packages"
    site.mkdir(parents=True)
    (env / "pyvenv.cfg").write_text("home = /usr/bin\n")
    for dist in ("jax-0.4.23.dist-info", "jaxlib-0.4.23+cuda12.cudnn89.dist-info", "numpy-1.26.4.dist-info"):
        (site / dist).mkdir()
    facts = detect(target_env=env)
    assert facts.environment.kind == "venv"
    assert facts.environment.packages["jax"] == "0.4.23"
    assert facts.environment.jaxlib_cuda_tag == "cuda12.cudnn89"


def test_procfs_parser_reads_both_module_flavours(tmp_path):
    closed = tmp_path / "closed"
    closed.write_text("NVRM version: NVIDIA UNIX x86_64 Kernel Module  535.104.05  Sat Aug 19 01:15:15 UTC 2023\n")
    opened = tmp_path / "open"
    opened.write_text("NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  550.54.14  Release Build\n")
    assert kernel_module.probe(str(closed)).version == "535.104.05"
    assert kernel_module.probe(str(opened)).version == "550.54.14"
    assert kernel_module.probe(str(tmp_path / "missing")).status == "absent"


def test_smi_table_parser_and_name_capabilities():
    table = (
        "+-----------------------------------------------------------------------------+\n"
        "| NVIDIA-SMI 470.57.02    Driver Version: 470.57.02    CUDA Version: 11.4     |\n"
        "|-------------------------------+----------------------+----------------------+\n"
        "|   0  Tesla V100-SXM2...  On   | 00000000:00:1E.0 Off |                    0 |\n"
        "| N/A   34C    P0    24W / 300W |      0MiB / 16160MiB |      0%      Default |\n"
    )
    driver, cuda, gpus = parse_table(table)
    assert (driver, cuda) == ("470.57.02", "11.4")
    assert gpus[0]["memory_total_mib"] == 16160
    assert compute_cap_from_name("Tesla K80") == "3.7"


def test_cli_detect_json_shape_with_standins(gpu_server):
    env = gpu_server("a100x2-535")
    proc = run_inproc("detect", "--json", env=env)
    assert proc.returncode == 0, proc.stderr
    data = last_json(proc)
    for key in ("driver", "gpus", "cuda_libraries", "python", "environment", "disk", "warnings"):
        assert key in data
    assert data["driver"] == {"version": "535.104.05", "cuda_driver_version": "12.2", "source": "nvml"}
    assert data["gpus"][0]["compute_capability"] == "8.0"
    assert "Traceback" not in proc.stderr


def test_cli_detect_human_output_puts_problems_first(gpu_server):
    env = gpu_server("driver-not-loaded")
    proc = run_inproc("detect", env=env)
    assert proc.returncode == 0
    lines = proc.stdout.splitlines()
    assert lines[0] == "Problems:"
    assert "driver_not_loaded" in lines[1]
    assert any(line.startswith("Driver") and "none usable" in line for line in lines)


def test_machine_without_any_nvidia_stack_via_the_cli(tmp_path):
    proc = run_inproc("detect", "--json", env={"PATH": "/usr/bin:/bin", "LD_LIBRARY_PATH": str(tmp_path)})
    assert proc.returncode == 0
    data = json.loads(proc.stdout.splitlines()[-1])
    assert data["driver"] is None
    assert "no_nvidia_driver" in [w["id"] for w in data["warnings"]]
    assert "Traceback" not in proc.stderr


def test_a_target_env_that_does_not_exist_is_a_user_error(tmp_path):
    with pytest.raises(UserError, match="does not exist"):
        detect(target_env=tmp_path / "nope")
