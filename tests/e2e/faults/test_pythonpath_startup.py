"""A sitecustomize on PYTHONPATH runs before the GraphCast check, in the environment's Python: it is named as the
root cause like a stray jax there (issue 24, P9, a new case of the class). The fifth fault pass put one that sets
its own `jax` in `sys.modules`: the check said "No module named 'jaxlib'" and never named PYTHONPATH."""

from __future__ import annotations

import json
import os

from tests.fixtures.state import run_cli

SITECUSTOMIZE = ("import sys, types\n"
                 "fake = types.ModuleType('jax')\n"
                 "fake.__file__ = __file__\n"
                 "sys.modules['jax'] = fake\n")


def test_a_sitecustomize_on_pythonpath_is_named_first(tiny, tmp_path, monkeypatch):
    proc, result = tiny.install("tiny-a")
    assert result is not None and result["ok"], proc.stderr
    stray = tmp_path / "lab-tools"
    stray.mkdir()
    (stray / "sitecustomize.py").write_text(SITECUSTOMIZE)
    monkeypatch.setenv("PYTHONPATH", f"{stray}{os.pathsep}{tmp_path / 'nothing-here'}")
    proc = run_cli("verify", "--level", "quick", "--json")
    verify = json.loads(proc.stdout.splitlines()[-1])
    assert proc.returncode == 1 and not verify["ok"], proc.stderr
    first = verify["findings"][0]
    assert first["id"] == "pythonpath_shadows_env", verify["findings"]
    assert any(str(stray) in e and "sitecustomize" in e for e in first["evidence"]), first["evidence"]
    assert not any("nothing-here" in e for e in first["evidence"])  # a folder without such a module is not named
