"""Walk 26 #2: the offline machine could not install gc-wizard itself — not on PyPI, a clone needs its build backend
and its dependencies from an index, and the bundle carried only the recipe's wheels. `bundle` now packs gc-wizard and
its run-time closure as wheels into DIR/wizard and prints the one command that installs it with no index. Here that
printed command runs for real, as printed, after the bundle is moved: a fresh venv of this interpreter's Python, the
real pip, every index closed (PIP_NO_INDEX, no pip config, no find-links but the bundle's), then the installed
gc-wizard runs from that venv alone."""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys

from wizard import __version__


def test_the_bundle_installs_gc_wizard_itself_with_no_index(tiny, tmp_path, monkeypatch, isolated_state):
    built = tmp_path / "bundle"
    proc = tiny.bundle(built, monkeypatch)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    line = lines[lines.index(next(row for row in lines if row.startswith("gc-wizard there"))) + 1].strip()
    assert line.startswith("python3 -m venv ") and f"--no-index --find-links DIR/wizard gc-wizard=={__version__}" in line, line
    manifest = json.loads((built / "manifest.json").read_text())
    carried = {f["name"] for f in manifest["files"] if f["name"].startswith("wizard/")}  # hashed like the rest
    assert any(name.startswith("wizard/gc_wizard-") for name in carried) and len(carried) > 5, carried

    moved = tmp_path / "offline machine" / "gc-bundle"
    shutil.copytree(built, moved)
    shutil.move(built, tmp_path / "renamed")
    home = tmp_path / "home"
    home.mkdir()
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "python3").symlink_to(getattr(sys, "_base_executable", sys.executable))  # the wheels' Python
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("PIP_", "UV_", "PYTHON", "VIRTUAL_ENV"))}
    env.update(HOME=str(home), PATH=f"{bin_dir}:/usr/bin:/bin", PIP_NO_INDEX="1", PIP_CONFIG_FILE="/dev/null",
               PIP_DISABLE_PIP_VERSION_CHECK="1", PIP_INDEX_URL="http://127.0.0.1:9/simple")
    for part in line.split(" && "):  # as printed, DIR where the bundle now is; no shell
        words = [str(moved) + w[3:] if w.startswith("DIR/") else str(home) + w[1:] if w.startswith("~/") else w
                 for w in shlex.split(part)]
        if words[0] == "python3":
            words[0] = str(bin_dir / "python3")
        done = subprocess.run(words, env=env, cwd=tmp_path, capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, (words, done.stdout[-3000:], done.stderr[-3000:])
    venv = home / "gc-wizard-venv"
    done = subprocess.run([str(venv / "bin" / "gc-wizard"), "recipes", "--json"], env=env, cwd=tmp_path,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    shipped = json.loads(done.stdout.splitlines()[-1])  # the shipped recipes came too
    assert len(shipped) > 3 and "jax0.4.23-cpu" in done.stdout, done.stdout[-2000:]
    where = subprocess.run([str(venv / "bin" / "python"), "-c", "import wizard, textual, yaml; print(wizard.__file__)"],
                           env=env, cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert where.stdout.startswith(str(venv)), (where.stdout, where.stderr)


def test_without_wizard_leaves_it_out(tiny, tmp_path, monkeypatch, isolated_state):
    out = tmp_path / "bundle"
    proc = tiny.bundle(out, monkeypatch, "--without-wizard")
    assert proc.returncode == 0 and "gc-wizard there" not in proc.stdout and not (out / "wizard").exists()
