"""PYTHONPATH folders that hold a module the environment provides are named and left out (issue 24, P9).

New cases of the class the issue measured (a stray `jax` on PYTHONPATH): an old `numpy` package, a
single-file `graphcast.py`, a compiled extension — each shadows the environment's own copy, so the
shell, the kernel and the GraphCast check (one activation for all three) leave it out, saying why.
A folder of the user's own tools stays.
"""

from __future__ import annotations

import os
from pathlib import Path

from wizard.install.activation import EMPTY_ENTRY, compute_activation
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


def test_a_stack_module_is_left_out_even_where_the_env_lacks_its_own(tmp_path):
    """9d/9e/9f: the env had no jax, so a stray `jax/` shadowed nothing it had and stayed on PYTHONPATH — and
    every `import jax` in the env got the stray copy. New cases: a stray `graphcast/`, `jaxlib` as a zip, a
    `sitecustomize.py` (run at every start), each beside an env that lacks that module."""
    import zipfile

    env = tmp_path / "bare-env"
    (env / "lib" / "python3.11" / "site-packages").mkdir(parents=True)
    (env / "bin").mkdir()
    stray_gc, startup, tools = tmp_path / "gc-src", tmp_path / "lab-site", tmp_path / "tools"
    (stray_gc / "graphcast").mkdir(parents=True)
    startup.mkdir()
    (startup / "sitecustomize.py").write_text("import sys\n")
    (tools / "mytools").mkdir(parents=True)
    archive = tmp_path / "jl.zip"
    with zipfile.ZipFile(archive, "w") as handle:
        handle.writestr("jaxlib/__init__.py", "")
    value = os.pathsep.join(map(str, (stray_gc, tools, archive, startup)))
    act = compute_activation(env, {"PATH": "/usr/bin", "PYTHONPATH": value}, marker={})
    named = {r.folder: r.reason for r in act.removals if r.variable == "PYTHONPATH"}
    assert set(named) == {str(stray_gc), str(archive), str(startup)}
    assert "graphcast" in named[str(stray_gc)] and "jaxlib" in named[str(archive)]
    assert "sitecustomize" in named[str(startup)]
    assert act.set["PYTHONPATH"] == str(tools)
    assert act.kernel_env()["PYTHONPATH"] == str(tools)  # what kernel.json gets: the stray folders are not in it


def test_an_empty_entry_is_judged_as_the_folder_python_starts_in(tmp_path, monkeypatch):
    """Eighth hostile pass E6: `PYTHONPATH=:/opt/x` (what `$PYTHONPATH:/opt/x` gives with it unset) in a folder
    holding `jax/`: activate kept the empty entry and diagnose --env said nothing. Now it is the current folder's
    entry: left out and named when that folder shadows the stack, kept when it does not."""
    from wizard.verify.shadow import environment_shadow

    env = _env(tmp_path)
    work, tools = tmp_path / "work", tmp_path / "tools"
    (work / "jax").mkdir(parents=True)
    tools.mkdir()
    monkeypatch.chdir(work)
    act = compute_activation(env, {"PATH": "/usr/bin", "PYTHONPATH": f":{tools}"}, marker={})
    assert act.set["PYTHONPATH"] == str(tools)
    (removal,) = [r for r in act.removals if r.variable == "PYTHONPATH"]
    assert removal.folder == f"{work} (an empty entry: the folder Python starts in)" and "jax" in removal.reason
    finding = environment_shadow(env, {"PYTHONPATH": f":{tools}"})
    assert finding is not None and any(str(work) in line for line in finding.evidence)
    monkeypatch.chdir(tools)  # a folder with nothing to shadow now: the entry still goes (eleventh pass #173), as
    # a kernel reads it against the notebook's folder, whatever is there then
    act = compute_activation(env, {"PATH": "/usr/bin", "PYTHONPATH": f":{tools}"}, marker={})
    assert act.set["PYTHONPATH"] == str(tools)
    assert [r.folder for r in act.removals] == [EMPTY_ENTRY]


def test_empty_entries_of_every_search_path_are_named(tmp_path):
    """`export LD_LIBRARY_PATH=/opt/cuda/lib64:$LD_LIBRARY_PATH` with the variable unset leaves a trailing `:`, which
    the loader reads as the current folder (so does the shell for PATH): activation leaves it out and says so, for
    each variable once, as it does for PYTHONPATH (thirteenth pass #18: PATH's and LD_LIBRARY_PATH's went silently)."""
    env = _env(tmp_path)
    lib = tmp_path / "lib"
    lib.mkdir()
    act = compute_activation(env, {"PATH": "/usr/bin::/bin:", "LD_LIBRARY_PATH": f"{lib}:", "PYTHONPATH": ":"},
                             marker={})
    named = sorted((r.variable, r.folder) for r in act.removals)
    assert named == [("LD_LIBRARY_PATH", EMPTY_ENTRY), ("PATH", EMPTY_ENTRY), ("PYTHONPATH", EMPTY_ENTRY)]
    assert act.set["PATH"] == os.pathsep.join([str(env / "bin"), "/usr/bin", "/bin"])
    assert act.set["LD_LIBRARY_PATH"] == str(lib)
    assert "PYTHONPATH" in act.unset


def test_a_folder_a_pth_import_line_names_is_read_from_its_text_never_run(tmp_path):
    """Sixteenth hostile pass P9: `import sys; sys.path.insert(0, '/x')` in a .pth put a stray jax first; verify
    named it, `diagnose --env` (which runs nothing in the env) did not. The quoted folder is read from the text."""
    from wizard.install.activation import other_path_entries

    env = tmp_path / "env"
    site = env / "lib" / "python3.11" / "site-packages"
    site.mkdir(parents=True)
    shadow = tmp_path / "shadow"
    (shadow / "jax").mkdir(parents=True)
    ran = tmp_path / "RAN"
    (site / "000-shadow.pth").write_text(
        f"import sys; sys.path.insert(0, '{shadow}'); open('{ran}', 'w')\nimport os; os.getcwd()  # '/nowhere'\n")
    assert other_path_entries(env, {}) == [(f"{site / '000-shadow.pth'} (an import line of a .pth file)", str(shadow))]
    assert not ran.exists()


def test_a_zip_archive_a_pth_file_names_is_a_shadow_as_a_folder_is(tmp_path):
    """Seventeenth hostile pass P11: `sys.path.insert(0, '/x/shadow.zip')` (zipimport) and a plain `.pth` line naming
    a zip: verify named the stray jax inside, `diagnose --env` did not, since only folders were looked into."""
    import zipfile

    from wizard.verify.shadow import environment_shadow

    env = tmp_path / "env"
    site = env / "lib" / "python3.11" / "site-packages"
    site.mkdir(parents=True)
    shadow = tmp_path / "shadow.zip"
    with zipfile.ZipFile(shadow, "w") as archive:
        archive.writestr("jax/__init__.py", "")
    (site / "000-zip.pth").write_text(f"import sys; sys.path.insert(0, '{shadow}')\n")
    finding = environment_shadow(env, {})
    assert finding is not None and finding.id == "pythonpath_shadows_env"
    assert any(str(shadow) in line and "jax" in line for line in finding.evidence), finding.evidence
    (site / "000-zip.pth").write_text(f"{shadow}\n")
    assert environment_shadow(env, {}) is not None
