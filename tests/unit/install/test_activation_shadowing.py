"""PYTHONPATH folders that hold a module the environment provides are named and left out (issue 24, P9).

New cases of the class the issue measured (a stray `jax` on PYTHONPATH): an old `numpy` package, a
single-file `graphcast.py`, a compiled extension — each shadows the environment's own copy, so the
shell, the kernel and the GraphCast check (one activation for all three) leave it out, saying why.
A folder of the user's own tools stays.
"""

from __future__ import annotations

import os
from pathlib import Path

from wizard.install.activation import compute_activation
from wizard.verify.check import probe_environment


def _env(tmp_path: Path) -> Path:
    env = tmp_path / "env"
    site = env / "lib" / "python3.11" / "site-packages"
    for package in ("jax", "numpy", "graphcast", "ml_dtypes"):
        (site / package).mkdir(parents=True)
        (site / package / "__init__.py").write_text("")
    (env / "bin").mkdir()
    return env


def test_folders_shadowing_the_envs_modules_are_left_out_and_named(tmp_path):
    env = _env(tmp_path)
    old_numpy, single_file, compiled, tools = (tmp_path / n for n in ("old-numpy", "single", "ext", "tools"))
    (old_numpy / "numpy").mkdir(parents=True)
    single_file.mkdir()
    (single_file / "graphcast.py").write_text("raise ImportError('stray')\n")
    compiled.mkdir()
    (compiled / "ml_dtypes.cpython-311-x86_64-linux-gnu.so").write_bytes(b"\x7fELF")
    (tools / "mytools").mkdir(parents=True)
    pythonpath = os.pathsep.join(str(p) for p in (old_numpy, tools, single_file, compiled))
    act = compute_activation(env, {"PATH": "/usr/bin", "PYTHONPATH": pythonpath}, marker={})
    assert act.set["PYTHONPATH"] == str(tools)
    named = {r.folder: r.reason for r in act.removals if r.variable == "PYTHONPATH"}
    assert set(named) == {str(old_numpy), str(single_file), str(compiled)}
    assert "numpy" in named[str(old_numpy)] and "graphcast" in named[str(single_file)]
    assert "ml_dtypes" in named[str(compiled)]


def test_the_check_runs_under_the_same_pythonpath_and_says_what_it_left_out(tmp_path):
    env = _env(tmp_path)
    stray = tmp_path / "src"
    (stray / "jax").mkdir(parents=True)
    child, removed = probe_environment(env, "cpu", {}, base={"PATH": "/usr/bin", "PYTHONPATH": str(stray)})
    assert "PYTHONPATH" not in child or str(stray) not in child["PYTHONPATH"]
    assert removed == [{"variable": "PYTHONPATH", "dir": str(stray),
                        "reason": "it holds jax, which would be imported instead of the environment's own"}]



def test_a_zip_and_a_path_through_a_missing_folder_are_read_as_python_reads_them(tmp_path):
    """Python imports from a zip on PYTHONPATH and normalises `nothere/../stray` as text: both shadowed the
    env's jax unseen (the fourth fault pass), so both are read the same way here."""
    import zipfile

    env = _env(tmp_path)
    archive = tmp_path / "stray.zip"
    with zipfile.ZipFile(archive, "w") as handle:
        handle.writestr("jax/__init__.py", "raise ImportError('stray copy loaded')\n")
    stray = tmp_path / "stray"
    (stray / "numpy").mkdir(parents=True)
    through_missing = f"{tmp_path}/nothere/../stray"
    act = compute_activation(env, {"PATH": "/usr/bin", "PYTHONPATH": f"{archive}{os.pathsep}{through_missing}"},
                             marker={})
    named = {r.folder: r.reason for r in act.removals if r.variable == "PYTHONPATH"}
    assert "jax" in named[str(archive)] and "numpy" in named[through_missing]
    assert "PYTHONPATH" in act.unset
