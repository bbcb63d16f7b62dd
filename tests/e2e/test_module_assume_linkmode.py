"""Lmod module files (loaded by the real Lmod), assumed drivers, and uv's link mode on shared storage."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from tests.fixtures.cli import run_inproc
from tests.fixtures.state import last_json
from wizard.detect.assume import cuda_for_driver
from wizard.errors import UserError

LMOD_INIT = Path("/usr/share/lmod/lmod/init/bash")


def _verified(env: Path) -> None:
    marker = json.loads((env / "gc-wizard-env.json").read_text())
    marker["verified"] = "2026-11-22T10:00:00+00:00"
    (env / "gc-wizard-env.json").write_text(json.dumps(marker))


# --------------------------------------------------------------------------- module files


def test_module_load_gives_the_environment_with_cuda_folders_dropped(tiny, tmp_path):
    if not LMOD_INIT.exists():
        pytest.skip(f"needs Lmod ({LMOD_INIT} not found; apt-get install lmod)")
    proc, result = tiny.install("tiny-a")
    assert proc.returncode == 0, proc.stderr
    env = Path(result["env"])
    _verified(env)
    cudnn = tmp_path / "cudnn-8.2.1" / "lib64"
    cudnn.mkdir(parents=True)
    (cudnn / "libcudnn.so.8").write_bytes(b"\x7fELF stand-in")
    later = tmp_path / "cuda-12" / "lib64"  # a CUDA module loaded after the file was written
    later.mkdir(parents=True)
    (later / "libcudart.so.12").write_bytes(b"\x7fELF stand-in")
    ordinary = tmp_path / "ordinary"
    ordinary.mkdir()

    mods = tmp_path / "modules"
    written = run_inproc("module", "install", "--dir", str(mods), "--json",
                      env={"LD_LIBRARY_PATH": f"{cudnn}:{ordinary}"})
    assert written.returncode == 0, written.stderr
    info = last_json(written)
    assert info["module"] == "graphcast/tiny-a" and info["env"] == str(env)
    text = Path(info["path"]).read_text()
    assert f'remove_path("LD_LIBRARY_PATH", "{cudnn}")' in text and 'family("graphcast")' in text

    script = (f"source {LMOD_INIT}\n"
              f"export LD_LIBRARY_PATH={cudnn}:{ordinary}:{later}\n"
              f"module use {mods}\nmodule load graphcast/tiny-a || exit 9\n"
              "python -c 'import os, sys, pkg_a; print(sys.prefix); print(pkg_a.__version__); "
              "print(os.environ[\"JAX_GC_TINY\"]); print(os.environ.get(\"LD_LIBRARY_PATH\"))'\n"
              "module unload graphcast/tiny-a\necho after=${JAX_GC_TINY-unset}\n")
    shell = subprocess.run(["bash", "--noprofile", "--norc", "-c", script], capture_output=True, text=True,
                           timeout=120, env={k: v for k, v in os.environ.items() if not k.startswith("LMOD")})
    assert shell.returncode == 0, shell.stdout + shell.stderr
    prefix, version, tiny_var, ld, after = shell.stdout.strip().splitlines()[-5:]
    assert prefix == str(env) and version == "1.0" and tiny_var == "tiny-a"
    assert ld == str(ordinary) and after == "after=unset"


def test_module_install_without_an_environment_is_a_sentence(tmp_path):
    proc = run_inproc("module", "install", "--dir", str(tmp_path))
    assert proc.returncode == 2 and "no current environment" in proc.stderr


def test_module_file_strings_cannot_break_out(tmp_path):
    from wizard.after.module import lua_string

    assert lua_string('a"b\\c\nd') == '"a\\"b\\\\c\\010d"'


# --------------------------------------------------------------------------- --assume-driver


@pytest.mark.parametrize(("driver", "cuda"), [("535.104.05", "12.2"), ("535", "12.2"), ("470.82.01", "11.4"),
                                              ("550.54.15", "12.4"), ("580.65.06", "13.0"), ("525.60.13", "12.0")])
def test_driver_to_cuda(driver, cuda):
    assert cuda_for_driver(driver) == cuda


@pytest.mark.parametrize("bad", ["12.2", "five", "440.33", ""])
def test_bad_assumed_driver(bad):
    with pytest.raises(UserError):
        cuda_for_driver(bad)


def test_assumed_driver_is_marked_everywhere_and_plans_a_gpu_recipe():
    proc = run_inproc("detect", "--assume-driver", "535.104.05", "--assume-cc", "8.0", "--json")
    assert proc.returncode == 0, proc.stderr
    facts = last_json(proc)
    assert facts["driver"] == {"version": "535.104.05", "cuda_driver_version": "12.2", "source": "assumed"}
    assert [(g["source"], g["compute_capability"]) for g in facts["gpus"]] == [("assumed", "8.0")]
    assert facts["warnings"][0]["id"] == "assumed_driver"
    assert not any(w["id"] == "no_nvidia_driver" for w in facts["warnings"])
    text = run_inproc("detect", "--assume-driver", "535.104.05").stdout
    assert "ASSUMED" in text and "not detected" in text

    recipes = last_json(run_inproc("recipes", "--assume-driver", "535.104.05", "--assume-cc", "8.0", "--json"))
    assert next(r["id"] for r in recipes if r["recommended"]) == "jax0.4.23-cuda12-cudnn89"
    old = last_json(run_inproc("recipes", "--assume-driver", "470.82.01", "--assume-cc", "7.0", "--json"))
    cuda12 = next(r for r in old if r["id"] == "jax0.4.23-cuda12-cudnn89")
    assert not cuda12["compatible"] and any("11.4" in reason for reason in cuda12["reasons"])


def test_assume_option_mistakes_exit_2():
    assert run_inproc("detect", "--assume-cc", "8.0").returncode == 2
    proc = run_inproc("detect", "--assume-driver", "535", "--assume-cc", "eight")
    assert proc.returncode == 2 and "--assume-cc 'eight'" in proc.stderr
    proc = run_inproc("detect", "--assume-driver", "535", "--slurm")
    assert proc.returncode == 2 and "give one of them" in proc.stderr.lower()


# --------------------------------------------------------------------------- shared storage


def test_cache_on_another_filesystem_copies_without_a_warning_per_package(tiny, tmp_path, monkeypatch):
    shm = Path("/dev/shm")
    if not shm.is_dir() or os.stat(shm).st_dev == os.stat(tmp_path).st_dev:
        pytest.skip("needs /dev/shm on a filesystem other than the test folder's")
    cache = shm / f"gc-wizard-test-cache-{os.getpid()}"
    monkeypatch.setenv("UV_CACHE_DIR", str(cache))
    monkeypatch.delenv("UV_LINK_MODE", raising=False)
    try:
        plan = last_json(run_inproc("plan", "tiny-a", "--json", *tiny.args()[:-1]))
        install_steps = [s for s in plan["steps"] if s["kind"] == "install"]
        assert all(s["env"].get("UV_LINK_MODE") == "copy" for s in install_steps)
        assert any("different filesystems" in note for note in plan["notes"])
        proc, result = tiny.install("tiny-a")
        assert proc.returncode == 0, proc.stderr
        log = Path(result["log"]).read_text()
        assert "UV_LINK_MODE=copy" in log and "Failed to hardlink" not in log
    finally:
        subprocess.run(["rm", "-rf", str(cache)], check=False)

    monkeypatch.setenv("UV_CACHE_DIR", str(tmp_path / "cache-here"))
    plan = last_json(run_inproc("plan", "tiny-a", "--json", *tiny.args()[:-1]))
    assert not any("UV_LINK_MODE" in s["env"] for s in plan["steps"])


def test_a_read_only_group_wheelhouse_works_as_find_links(tiny, tmp_path):
    group = tmp_path / "group-wheels"
    group.mkdir()
    for wheel in tiny.house.path.glob("*.whl"):
        (group / wheel.name).write_bytes(wheel.read_bytes())
        (group / wheel.name).chmod(0o444)
    group.chmod(0o555)
    before = sorted((p.name, p.stat().st_mtime_ns) for p in group.iterdir())
    try:
        proc, result = tiny.install("tiny-b", find_links=group)
        assert proc.returncode == 0, proc.stderr
        assert sorted((p.name, p.stat().st_mtime_ns) for p in group.iterdir()) == before
    finally:
        group.chmod(0o755)
