"""nvidia-smi's three ways of not answering — absent, hung past the deadline, failed with an exit status — told apart.

Hostile pass P5: on a server whose driver was wedged, nvidia-smi was on PATH but never answered, and `detect` said
"No NVIDIA driver was found (… no nvidia-smi …)". The stand-in nvidia-smi here is a real executable on PATH that
sleeps until it is killed (`smi=hang`) or exits 15 like a GPU lost from the bus (`smi=gpu_lost`); nothing in the
product is replaced.
"""

from __future__ import annotations

import time

import pytest

from tests.fixtures.state import last_json, run_cli
from wizard.detect.chain import detect
from wizard.detect.deadline import PROBE_TIMEOUT
from wizard.detect.facts import Facts
from wizard.flows.describe_machine import machine_lines, machine_summary
from wizard.recipes.loader import load_recipes
from wizard.recipes.match import match_recipes

#: What a deadline may overrun by on a loaded CI machine: Python start-ups, the kill and the reap.
SLACK = 6.0


def _probe(facts: Facts, source: str):
    return next(p for p in facts.driver_probes if p.source == source)


def _ids(facts: Facts) -> list[str]:
    return [w.id for w in facts.warnings]


@pytest.mark.timeout(60)
def test_a_hung_nvidia_smi_is_named_as_present_but_not_answering_within_the_deadline(gpu_server):
    env = gpu_server("smi-hang")
    started = time.monotonic()
    facts = detect(timeout=1.5)
    took = time.monotonic() - started
    assert took < 1.5 + SLACK, f"detect took {took:.1f} s with a 1.5 s deadline"

    smi = _probe(facts, "nvidia-smi")
    assert smi.status == "timeout"
    assert smi.path and smi.path.startswith(env["PATH"].split(":")[0])
    assert smi.exit_code is None and smi.seconds is not None and smi.seconds >= 1.0
    assert "no_nvidia_driver" not in _ids(facts)
    assert {"driver_not_answering", "probe_timeout"} <= set(_ids(facts))

    text = "\n".join(machine_lines(facts))
    assert "no nvidia-smi" not in text and "No NVIDIA driver was found" not in text
    assert f"{smi.path} is there but gave no answer within" in text
    assert "hung driver or GPU" in text and "ask the admins" in text and "`nvidia-smi` by hand" in text
    assert text.count("gave no answer within") == 1  # the probe_timeout it quotes is not shown twice
    assert "does not answer" in machine_summary(facts)

    # The saved facts (`detect --json`, a report) keep the probe's outcome; the GPU recipes say why they cannot run.
    again = Facts.from_dict(facts.to_dict())
    assert _probe(again, "nvidia-smi") == smi
    gpu_reasons = [m.reasons[0] for m in match_recipes(load_recipes(), facts) if m.recipe.backend == "gpu"]
    assert gpu_reasons and all("does not answer" in r for r in gpu_reasons)


@pytest.mark.timeout(90)
def test_the_cli_says_so_and_ends_within_its_own_deadline(gpu_server):
    env = gpu_server("smi-hang")
    started = time.monotonic()
    proc = run_cli("detect", env=env, timeout=PROBE_TIMEOUT + 60)
    took = time.monotonic() - started
    assert proc.returncode == 0, proc.stderr
    assert took < PROBE_TIMEOUT + SLACK, f"detect took {took:.1f} s; its deadline is {PROBE_TIMEOUT:g} s"
    assert "[driver_not_answering]" in proc.stdout
    assert f"no answer within {PROBE_TIMEOUT:.0f} s" in proc.stdout
    assert "no nvidia-smi" not in proc.stdout
    assert "Traceback" not in proc.stderr


def test_a_failing_nvidia_smi_keeps_its_exit_status_and_is_not_called_missing(gpu_server):
    gpu_server("smi-gpu-lost")
    facts = detect(timeout=5)
    smi = _probe(facts, "nvidia-smi")
    assert (smi.status, smi.exit_code) == ("failed", 15)
    assert "Unable to determine the device handle" in smi.detail
    no_driver = next(w.message for w in facts.warnings if w.id == "no_nvidia_driver")
    assert "nvidia-smi is there but failed with exit status 15" in no_driver
    assert "no nvidia-smi" not in no_driver
    assert "probe_timeout" not in _ids(facts)


def test_an_absent_nvidia_smi_is_still_absent_in_the_json(gpu_server):
    env = gpu_server("no-nvidia")
    proc = run_cli("detect", "--json", env=env)
    data = last_json(proc)
    smi = next(p for p in data["driver_probes"] if p["source"] == "nvidia-smi")
    assert smi["status"] == "absent" and smi["exit_code"] is None
    warning = next(w["message"] for w in data["warnings"] if w["id"] == "no_nvidia_driver")
    assert "no NVML library, no nvidia-smi, no /proc/driver/nvidia/version, no libcuda.so.1" in warning
    assert {"driver", "gpus", "warnings", "cuda_libraries"} <= set(data)  # the keys scripts already read
