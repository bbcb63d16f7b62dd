"""The driver chain NVML → nvidia-smi → procfs → libcuda, at the hardware boundary.

Every case runs the real probes: the probe child loading the compiled stand-in `libnvidia-ml.so.1`
(NVML through the real pynvml, in the probe child: test_probe_child.py), ctypes loading the stand-in `libcuda.so.1`, and the stand-in `nvidia-smi`
printing the real tool's formats.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from tests.fixtures.cli import run_inproc
from tests.fixtures.state import last_json
from tests.standins import read_profile
from wizard.detect import smi
from wizard.detect.chain import OVERRIDE_VAR, detect, driver_library_findable
from wizard.errors import UserError


def _ids(facts) -> list[str]:
    return [w.id for w in facts.warnings]


def _warning(facts, wid: str) -> str:
    return next(w.message for w in facts.warnings if w.id == wid)


def test_two_a100s_through_nvidia_smi_when_nvml_cannot_be_loaded(gpu_server):
    gpu_server("a100x2-535-smi")
    profile = read_profile("a100x2-535-smi")
    facts = detect()
    assert (facts.driver.version, facts.driver.cuda_driver_version, facts.driver.source) == (
        "535.104.05", "12.2", "nvidia-smi")
    assert [(g.index, g.name, g.memory_total_mib, g.compute_capability, g.uuid) for g in facts.gpus] == [
        (i, "NVIDIA A100-SXM4-80GB", 81920, "8.0", profile[f"gpu{i}.uuid"]) for i in (0, 1)]
    assert {g.source for g in facts.gpus} == {"nvidia-smi"}
    assert not {"no_nvidia_driver", "probe_failed", "probe_timeout"} & set(_ids(facts))


def test_only_libcuda_answers_the_cuda_version(gpu_server):
    gpu_server("libcuda-only-550")
    facts = detect()
    assert facts.driver.source == "libcuda"
    assert facts.driver.cuda_driver_version == "12.4"
    assert facts.driver.version is None  # cuDriverGetVersion knows no driver version
    assert facts.gpus == ()
    assert "no_nvidia_driver" not in _ids(facts)


def test_not_loaded_quotes_nvml_and_nvidia_smi(gpu_server):
    gpu_server("driver-not-loaded")
    facts = detect()
    assert facts.driver is None
    message = _warning(facts, "driver_not_loaded")
    assert 'nvml says "Driver Not Loaded"' in message
    assert "couldn't communicate with the NVIDIA driver" in message
    assert "CUDA 12.2" in message  # libcuda.so.1 is installed and still answers


def test_driver_upgraded_without_reboot_is_a_version_mismatch(gpu_server):
    gpu_server("version-mismatch")
    facts = detect()
    assert facts.driver is None
    message = _warning(facts, "driver_library_mismatch")
    assert "RM has detected an NVML/RM version mismatch." in message
    assert "Driver/library version mismatch" in message
    assert "reboot" in message
    assert "no_nvidia_driver" not in _ids(facts)


@pytest.mark.timeout(60)
@pytest.mark.timeout(60)
def test_a_hanging_nvml_is_a_timeout_warning_and_nvidia_smi_still_answers(gpu_server):
    env = gpu_server("nvml-hang")
    facts = detect(timeout=1.5)
    assert "probe_timeout" in _ids(facts)
    assert "nvml" in _warning(facts, "probe_timeout")
    assert facts.driver.source == "nvidia-smi" and facts.driver.version == "535.104.05"
    assert [g.name for g in facts.gpus] == ["NVIDIA A100-SXM4-40GB"]
    # The hung child was killed with its process group: no process still has this test's stand-in loaded.
    assert _processes_with(env["LD_LIBRARY_PATH"]) == []


def _logged_nvidia_smi(env: dict[str, str], folder, monkeypatch) -> Path:
    """Put an nvidia-smi in front of the stand-in's that notes each run in a log, then runs the stand-in."""
    standin = next(Path(d) / "nvidia-smi" for d in env["PATH"].split(os.pathsep) if (Path(d) / "nvidia-smi").exists())
    log = folder / "nvidia-smi.log"
    log.write_text("")
    wrapper = folder / "bin" / "nvidia-smi"
    wrapper.parent.mkdir()
    wrapper.write_text(f'#!/bin/sh\necho "$*" >> {log}\nexec {standin} "$@"\n')
    wrapper.chmod(0o755)
    monkeypatch.setenv("PATH", f"{wrapper.parent}{os.pathsep}{env['PATH']}")
    return log


def test_nvidia_smi_runs_only_when_nvml_left_something_to_read(gpu_server, tmp_path, monkeypatch):
    log = _logged_nvidia_smi(gpu_server("a100x2-535"), tmp_path, monkeypatch)
    facts = detect()
    assert facts.driver.source == "nvml" and len(facts.gpus) == 2
    assert log.read_text() == ""  # NVML gave the driver, its CUDA and the GPUs: nvidia-smi would say the same

    second = tmp_path / "second"
    second.mkdir()
    log = _logged_nvidia_smi(gpu_server("driver-not-loaded"), second, monkeypatch)
    facts = detect()
    assert "-q -x" in log.read_text()  # NVML failed: nvidia-smi is asked, and its words are quoted
    assert "couldn't communicate with the NVIDIA driver" in _warning(facts, "driver_not_loaded")


def _processes_with(marker: str) -> list[str]:
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/environ", "rb") as handle:
                if marker.encode() in handle.read() and int(pid) != os.getpid():
                    found.append(pid)
        except OSError:
            continue
    return found


def test_cuda_visible_devices_values(gpu_server, monkeypatch):
    profile = read_profile("a100x2-535")
    gpu_server("a100x2-535")
    for value, expected in (("-1", "cuda_visible_devices_empty"), ("", "cuda_visible_devices_empty"),
                            ("GPU-deadbeef", "cuda_visible_devices_invalid"), ("0,cuda1", "cuda_visible_devices_invalid"),
                            ("2", "cuda_visible_devices_invalid")):
        monkeypatch.setenv("CUDA_VISIBLE_DEVICES", value)
        facts = detect()
        assert expected in _ids(facts), value
        assert len(facts.gpus) == 2, "CUDA_VISIBLE_DEVICES must not hide the driver from the probes"
    for value in ("1", "0,1", profile["gpu1.uuid"][:12]):
        monkeypatch.setenv("CUDA_VISIBLE_DEVICES", value)
        ids = _ids(detect())
        assert "cuda_visible_devices_invalid" not in ids and "cuda_visible_devices_empty" not in ids, value


def test_admin_override_is_reported_as_profile(gpu_server, monkeypatch):
    gpu_server("no-nvidia")
    monkeypatch.setenv(OVERRIDE_VAR, "12.2")
    facts = detect()
    assert (facts.driver.cuda_driver_version, facts.driver.source) == ("12.2", "profile")
    assert "driver_override" in _ids(facts)
    monkeypatch.setenv(OVERRIDE_VAR, "twelve")
    with pytest.raises(UserError, match="twelve"):
        detect()


def test_malformed_override_is_exit_2_with_one_sentence(gpu_server):
    env = gpu_server("no-nvidia")
    proc = run_inproc("detect", "--json", env={**env, OVERRIDE_VAR: "12"})
    assert proc.returncode == 2
    assert OVERRIDE_VAR in proc.stderr and "Traceback" not in proc.stderr


def test_probe_child_is_started_only_when_a_driver_library_can_be_found(gpu_server, tmp_path):
    env = gpu_server("a100x2-535")
    empty = tmp_path / "empty"
    empty.mkdir()
    assert driver_library_findable({"LD_LIBRARY_PATH": env["LD_LIBRARY_PATH"]}, "")
    assert driver_library_findable({}, "\tlibcuda.so.1 (libc6,x86-64) => /usr/lib/x86_64-linux-gnu/libcuda.so.1\n")
    assert driver_library_findable({"LD_LIBRARY_PATH": str(empty)}, None)  # cache unreadable: ask the child
    if not any(os.path.exists(os.path.join(d, "libnvidia-ml.so.1")) for d in ("/usr/lib/x86_64-linux-gnu", "/usr/lib64")):
        assert not driver_library_findable({"LD_LIBRARY_PATH": str(empty)}, "")


def test_standin_nvidia_smi_formats_parse_back(gpu_server):
    env = gpu_server("a100x2-535")
    full = {**os.environ, **env}

    def smi_out(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run(["nvidia-smi", *args], capture_output=True, text=True, env=full)

    listing = smi_out("-L").stdout.splitlines()
    assert listing[0].startswith("GPU 0: NVIDIA A100-SXM4-80GB (UUID: GPU-")
    csv = smi_out("--query-gpu=index,name,memory.total,compute_cap", "--format=csv").stdout.splitlines()
    assert csv == ["index, name, memory.total [MiB], compute_cap",
                   "0, NVIDIA A100-SXM4-80GB, 81920 MiB, 8.0", "1, NVIDIA A100-SXM4-80GB, 81920 MiB, 8.0"]
    driver, cuda, gpus = smi.parse_xml(smi_out("-q", "-x").stdout)
    assert (driver, cuda, len(gpus)) == ("535.104.05", "12.2", 2)
    driver, cuda, gpus = smi.parse_table(smi_out().stdout)
    assert (driver, cuda) == ("535.104.05", "12.2")
    assert [(g["index"], g["name"], g["memory_total_mib"]) for g in gpus] == [
        (0, "NVIDIA A100-SXM4-80GB", 81920), (1, "NVIDIA A100-SXM4-80GB", 81920)]


def test_old_driver_refuses_compute_cap_like_the_real_one(gpu_server):
    env = gpu_server("v100-470-smi")
    proc = subprocess.run(["nvidia-smi", "--query-gpu=index,uuid,compute_cap", "--format=csv,noheader,nounits"],
                          capture_output=True, text=True, env={**os.environ, **env})
    assert proc.returncode == 2
    assert proc.stdout.strip() == 'Field "compute_cap" is not a valid field to query.'
    table = subprocess.run(["nvidia-smi"], capture_output=True, text=True, env={**os.environ, **env}).stdout
    assert "Tesla V100-SXM2..." in table  # the 79-column layout cuts names at 18 characters
    assert smi.parse_table(table)[:2] == ("470.57.02", "11.4")


def test_cli_json_for_the_v100_fallback(gpu_server):
    env = gpu_server("v100-470-smi")
    proc = run_inproc("detect", "--json", env=env)
    assert proc.returncode == 0, proc.stderr
    data = last_json(proc)
    assert data["driver"] == {"version": "470.57.02", "cuda_driver_version": "11.4", "source": "nvidia-smi"}
    assert data["gpus"][0]["compute_capability"] == "7.0"
    assert data["gpus"][0]["memory_total_mib"] == 16160
