"""A relative entry of PATH, LD_LIBRARY_PATH or PYTHONPATH (`.`, `relbin`, `~/lib`) is left out of the
activation — the shell script and the kernel spec alike — and named with why (eleventh hostile pass #173): a
kernel started in a notebook's folder read `.` against that folder, and loaded a `libcudnn.so.8` or ran a
`ptxas` that happened to be there. Empty entries (the same current folder) were already dropped."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from tests.fixtures.envs import python_link_env
from wizard.after.activate import activation_script
from wizard.after.kernel import build_kernelspec
from wizard.install.activation import EMPTY_ENTRY, RELATIVE_REASON, compute_activation


@pytest.fixture
def env(tmp_path) -> Path:
    return python_link_env(tmp_path / "env")


@pytest.mark.parametrize("variable, value, kept, gone", [
    ("PATH", ".:/usr/bin::/bin:relbin", ["/usr/bin", "/bin"], [".", EMPTY_ENTRY, "relbin"]),
    ("PATH", "/usr/bin:~/bin:./tools:../x", ["/usr/bin"], ["~/bin", "./tools", "../x"]),
    ("LD_LIBRARY_PATH", ":/opt/ldp:.", ["/opt/ldp"], [EMPTY_ENTRY, "."]),
    ("LD_LIBRARY_PATH", "lib64:/opt/ldp:build/lib", ["/opt/ldp"], ["lib64", "build/lib"]),
    ("PYTHONPATH", "src:/opt/py:.", ["/opt/py"], ["src", "."]),
])
def test_relative_entries_are_left_out_and_named(env, tmp_path, monkeypatch, variable, value, kept, gone):
    monkeypatch.chdir(tmp_path)  # nothing here shadows anything: only being relative makes them go
    environ = {"PATH": "/usr/bin:/bin", variable: value}
    act = compute_activation(env, environ, marker={})
    result = act.kernel_env()[variable].split(os.pathsep)
    if variable == "PATH":
        assert result[0] == str(env / "bin")
        result = result[1:]
    assert result == kept
    named = [r.folder for r in act.removals if r.variable == variable and r.reason == RELATIVE_REASON]
    assert named == gone
    script = activation_script(act)
    for entry in gone:
        assert f"# removed from {variable}: {entry} — a relative entry" in script


def test_a_value_of_relative_entries_only_is_unset(env, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    act = compute_activation(env, {"PATH": "/usr/bin", "LD_LIBRARY_PATH": ".:lib", "PYTHONPATH": "src"}, marker={})
    assert "LD_LIBRARY_PATH" in act.unset and "PYTHONPATH" in act.unset
    assert act.kernel_env()["LD_LIBRARY_PATH"] == "" and act.kernel_env()["PYTHONPATH"] == ""


def test_the_kernel_spec_holds_no_relative_entry_and_says_which_went(env, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PATH", f".:/usr/bin::/bin:relbin:{os.path.dirname(sys.executable)}")
    monkeypatch.setenv("LD_LIBRARY_PATH", f":{tmp_path}:.")
    spec = build_kernelspec(env)
    for name in ("PATH", "LD_LIBRARY_PATH", "PYTHONPATH"):
        assert all(os.path.isabs(p) for p in spec["env"][name].split(os.pathsep) if spec["env"][name]), spec["env"]
    removed = {(r["variable"], r["folder"]) for r in spec["metadata"]["gc_wizard"]["removed"]}
    assert {("PATH", "."), ("PATH", "relbin"), ("LD_LIBRARY_PATH", ".")} <= removed
    json.dumps(spec)  # still one JSON value
