"""Detection calls NVML with ctypes in its probe child; NVIDIA's own bindings (pynvml) are the reference.

Every stand-in profile is read both ways, each in a fresh process whose loader sees the compiled stand-in
`libnvidia-ml.so.1` (the library is found through the LD_LIBRARY_PATH a process starts with): the probe
child's answer must be the one pynvml gives, field for field and error word for error word.
"""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.standins import PROFILE_NAMES, read_profile
from wizard.detect import deadline, gpu_probe

REFERENCE = Path(__file__).resolve().parents[2] / "standins" / "pynvml_query.py"
CHILD = Path(gpu_probe.__file__).resolve().parent / "gpu_child.py"


def _answer(argv: list[str], env: dict[str, str]) -> dict:
    """The last line a probe printed: the reference's JSON, or the child's Python literal."""
    proc = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    line = proc.stdout.strip().splitlines()[-1]
    return json.loads(line) if line.startswith('{"') else ast.literal_eval(line)


@pytest.mark.parametrize("profile", [p for p in PROFILE_NAMES if read_profile(p).get("nvml") != "hang"])
def test_the_probe_child_reads_nvml_as_pynvml_does(profile, gpu_server):
    env = {**os.environ, **gpu_server(profile)}
    reference = _answer([sys.executable, str(REFERENCE)], env)
    child = _answer([sys.executable, "-I", "-S", str(CHILD), "nvml"], env)
    assert child["nvml"] == reference


def test_the_child_ignores_the_users_python_variables(tmp_path, gpu_server):
    """-I: a PYTHONPATH with a broken module of the standard library's name cannot break detection."""
    env = gpu_server("a100x2-535")
    shadow = tmp_path / "shadow"
    shadow.mkdir()
    (shadow / "json.py").write_text("raise ImportError('a broken json on PYTHONPATH')\n")
    (shadow / "ctypes.py").write_text("raise ImportError('a broken ctypes on PYTHONPATH')\n")
    answer = _answer([sys.executable, "-I", "-S", str(CHILD)], {**os.environ, **env, "PYTHONPATH": str(shadow)})
    assert answer["nvml"]["status"] == "ok" and len(answer["nvml"]["gpus"]) == 2


def test_a_child_that_crashes_is_a_failed_reading_not_a_crash_here():
    done = deadline.run([sys.executable, "-c", "import os, signal; print('loading'); os.kill(os.getpid(), signal.SIGSEGV)"],
                        timeout=30)
    nvml_r, cuda_r = gpu_probe.read(done, 30)
    assert (nvml_r.source, nvml_r.status) == ("nvml", "failed")
    assert nvml_r.detail.startswith("the NVML probe failed")
    assert cuda_r.status == "skipped"
