"""A stray PYTHONPATH folder (a copy of jax/GraphCast, a sitecustomize) is decided once — `stray_pythonpath` — and
every door says the same (issue 24, P9; fifth hostile pass 9d/9e/9f): `activate` drops it with a comment, the
kernel spec leaves it out and says so, `diagnose --env` and `verify` name it. The fifth fault pass put a
sitecustomize that sets its own `jax` in `sys.modules` on PYTHONPATH: the check said "No module named 'jaxlib'"
and never named PYTHONPATH; later a stray jax beside an env without jax was re-exported by `activate` and baked
into kernel.json."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from tests.fixtures.state import REPO, run_cli
from wizard.after.kernel import build_kernelspec

SITECUSTOMIZE = ("import sys, types\n"
                 "fake = types.ModuleType('jax')\n"
                 "fake.__file__ = __file__\n"
                 "sys.modules['jax'] = fake\n")


def test_a_sitecustomize_on_pythonpath_is_named_by_the_check(tiny, tmp_path, monkeypatch):
    """The check runs under what `activate` gives (the folder left out), and names the folder it left out."""
    proc, result = tiny.install("tiny-a")
    assert result is not None and result["ok"], proc.stderr
    stray = tmp_path / "lab-tools"
    stray.mkdir()
    (stray / "sitecustomize.py").write_text(SITECUSTOMIZE)
    monkeypatch.setenv("PYTHONPATH", f"{stray}{os.pathsep}{tmp_path / 'nothing-here'}")
    proc = run_cli("verify", "--level", "quick", "--json")
    verify = json.loads(proc.stdout.splitlines()[-1])
    assert proc.returncode == 1 and not verify["ok"], proc.stderr
    shadow = [f for f in verify["findings"] if f["id"] == "pythonpath_shadows_env"]
    assert shadow, verify["findings"]
    assert any(str(stray) in e and "sitecustomize" in e for e in shadow[0]["evidence"]), shadow[0]["evidence"]
    assert not any("nothing-here" in e for e in shadow[0]["evidence"])  # a folder without such a module


def test_activate_the_kernel_and_diagnose_env_agree_on_a_stray_folder(tiny, tmp_path, monkeypatch):
    """New cases of 9d/9e/9f: a stray `graphcast/` and a stray `xarray.py` beside a tiny env that has neither."""
    proc, result = tiny.install("tiny-a")
    assert result is not None and result["ok"], proc.stderr
    env = result["env"]
    stray_gc, stray_xr, tools = tmp_path / "gc-checkout", tmp_path / "old-xr", tmp_path / "tools"
    (stray_gc / "graphcast").mkdir(parents=True)
    (stray_gc / "graphcast" / "__init__.py").write_text("raise ImportError('stray graphcast')\n")
    stray_xr.mkdir()
    (stray_xr / "xarray.py").write_text("")
    (tools / "mytools").mkdir(parents=True)
    pythonpath = os.pathsep.join(map(str, (stray_gc, tools, stray_xr)))
    monkeypatch.setenv("PYTHONPATH", pythonpath)

    proc = run_cli("activate")
    assert proc.returncode == 0, proc.stderr
    shell = subprocess.run(["bash", "-c", proc.stdout + '\nprintf "%s" "$PYTHONPATH"'], capture_output=True,
                           text=True, env={**os.environ, "PYTHONPATH": pythonpath}, timeout=60)
    assert shell.stdout == str(tools), shell.stderr
    comments = [line for line in proc.stdout.splitlines() if line.startswith("#") and "PYTHONPATH" in line]
    assert any(str(stray_gc) in c and "graphcast" in c for c in comments), proc.stdout
    assert any(str(stray_xr) in c and "xarray" in c for c in comments), proc.stdout

    spec = build_kernelspec(env, environ={**os.environ, "PYTHONPATH": pythonpath})
    assert spec["env"]["PYTHONPATH"] == str(tools)
    removed = {r["folder"] for r in spec["metadata"]["gc_wizard"]["removed"] if r["variable"] == "PYTHONPATH"}
    assert removed == {str(stray_gc), str(stray_xr)}  # what `kernel install` prints as "kept out of the kernel's"

    proc = run_cli("diagnose", "--env", env, "--json")
    findings = json.loads(proc.stdout.splitlines()[-1])["findings"]
    assert proc.returncode == 1 and findings[0]["id"] == "pythonpath_shadows_env", findings
    assert {str(stray_gc), str(stray_xr)} == {e.split(":")[0].removeprefix("PYTHONPATH holds ")
                                              for e in findings[0]["evidence"]}


def test_a_pythonhome_whose_standard_library_fails_to_load_is_named_not_traced(tmp_path):
    """Tenth hostile pass E5: `PYTHONHOME=/usr` with a pyenv/venv Python stopped in `import unicodedata` with a
    traceback. Whatever import meets it first, the wizard ends with a sentence naming the variable, exit 2. (The
    variable is set after the interpreter started, so this Python runs; the failing import is raised as it was.)"""
    code = ("import os; os.environ['PYTHONHOME'] = '/usr'; import wizard; "
            "raise ModuleNotFoundError(\"No module named 'unicodedata'\")")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=str(REPO), timeout=60)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr
    assert proc.stderr.startswith("gc-wizard: PYTHONHOME is set (/usr), and this Python (") and \
        "(No module named 'unicodedata'). Unset it (`unset PYTHONHOME`)" in proc.stderr
    other = subprocess.run([sys.executable, "-c", "import wizard; raise ValueError('x')"], capture_output=True,
                           text=True, cwd=str(REPO), timeout=60, env={k: v for k, v in os.environ.items()
                                                                     if k != "PYTHONHOME"})
    assert other.returncode == 1 and "ValueError: x" in other.stderr  # without it, Python's own hook as before
