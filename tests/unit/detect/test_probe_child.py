"""The probe child reads NVML through NVIDIA's pynvml in a bare, isolated interpreter (`python -I -S`).

Each case starts the real child against the compiled stand-in `libnvidia-ml.so.1` (found through the
LD_LIBRARY_PATH the process starts with), as `gpu_probe.start` does: the user's Python variables cannot
break it, a missing pynvml is an answer rather than a dead child, and a crash is a failed reading.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

from wizard.detect import deadline, gpu_probe

CHILD = Path(gpu_probe.__file__).resolve().parent / "gpu_child.py"
PYNVML_DIR = str(Path(importlib.util.find_spec("pynvml").origin).parent)


def _answer(argv: list[str], env: dict[str, str]) -> dict:
    proc = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])


def test_the_child_reads_every_gpu_through_pynvml(gpu_server):
    env = {**os.environ, **gpu_server("a100x2-535")}
    nvml = _answer([sys.executable, "-I", "-S", str(CHILD), "--path", PYNVML_DIR, "nvml"], env)["nvml"]
    assert nvml["status"] == "ok" and len(nvml["gpus"]) == 2
    assert nvml["driver_version"].startswith("535.") and nvml["cuda_version"] == 12020
    assert all(g["name"].startswith("NVIDIA A100") and g["compute_capability"] == "8.0" for g in nvml["gpus"])


def test_the_child_ignores_the_users_python_variables(tmp_path, gpu_server):
    """-I: a PYTHONPATH with a broken module of the standard library's or pynvml's name cannot break detection."""
    env = gpu_server("a100x2-535")
    shadow = tmp_path / "shadow"
    shadow.mkdir()
    for name in ("json", "ctypes", "pynvml"):
        (shadow / f"{name}.py").write_text(f"raise ImportError('a broken {name} on PYTHONPATH')\n")
    answer = _answer([sys.executable, "-I", "-S", str(CHILD), "--path", PYNVML_DIR],
                     {**os.environ, **env, "PYTHONPATH": str(shadow)})
    assert answer["nvml"]["status"] == "ok" and len(answer["nvml"]["gpus"]) == 2


def test_without_pynvml_the_child_says_so_and_libcuda_is_asked(gpu_server):
    env = {**os.environ, **gpu_server("a100x2-535")}
    answer = _answer([sys.executable, "-I", "-S", str(CHILD)], env)
    assert answer["nvml"]["status"] == "failed"
    assert "pynvml module (nvidia-ml-py) is not importable" in answer["nvml"]["error"]
    assert "libcuda" in answer


def test_a_child_that_crashes_is_a_failed_reading_not_a_crash_here():
    done = deadline.run([sys.executable, "-c", "import os, signal; print('loading'); os.kill(os.getpid(), signal.SIGSEGV)"],
                        timeout=30)
    nvml_r, cuda_r = gpu_probe.read(done, 30)
    assert (nvml_r.source, nvml_r.status) == ("nvml", "failed")
    assert nvml_r.detail.startswith("the NVML probe failed")
    assert cuda_r.status == "skipped"


def test_the_childs_answer_is_ascii_json_whatever_the_gpu_names_hold():
    """The child writes JSON without the `json` module (`gpu_child.json_text`): a GPU name or an error with quotes,
    backslashes, newlines, accents, characters beyond the basic plane or an undecodable byte reads back unchanged."""
    import importlib.util as iu

    spec = iu.spec_from_file_location("gpu_child", CHILD)
    child = iu.module_from_spec(spec)
    spec.loader.exec_module(child)
    answer = {"nvml": {"status": "ok", "gpus": [{"name": 'A "100"\\\n é \U0001F600 \udcff', "index": 0,
                                                  "memory_total_mib": 81920, "ratio": 0.5, "uuid": None}],
                       "ecc": True, "bad": float("nan")}, 7: ("x",)}
    text = child.json_text(answer)
    assert text.isascii()
    back = json.loads(text)
    assert back["nvml"]["gpus"][0]["name"] == answer["nvml"]["gpus"][0]["name"]
    assert back["nvml"]["ecc"] is True and back["nvml"]["bad"] is None and back["7"] == ["x"]
