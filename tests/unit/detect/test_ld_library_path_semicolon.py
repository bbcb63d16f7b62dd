"""glibc's ld.so splits `LD_LIBRARY_PATH` on `;` as well as `:` (`_dl_init_paths` hands `fillin_rpath` ":;"), but
the wizard split on `:` only: `activate` and kernel.json kept the relative `..` of `/usr/lib;..`, and detect missed a
cuDNN reached after `;` (24th hostile pass (part B) P1). One split, `libpath.ld_library_path_entries`, is read by
detect, the driver look-up, activate/kernel, the check's loader order, the report and the module file."""

from __future__ import annotations

import ctypes.util
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.fixtures.envs import python_link_env
from tests.fixtures.gpu import make_library_dir
from wizard.after.activate import activation_script
from wizard.after.kernel import build_kernelspec
from wizard.after.module import module_text
from wizard.detect import libpath
from wizard.detect.chain import library_warnings
from wizard.detect.gpu_probe import driver_library_in_folders
from wizard.detect.libraries import inventory
from wizard.install.activation import EMPTY_ENTRY, RELATIVE_REASON, compute_activation
from wizard.verify.inspect_env import loader_order


@pytest.fixture
def env(tmp_path) -> Path:
    return python_link_env(tmp_path / "env")


def test_the_split_is_the_loaders():
    assert libpath.ld_library_path_entries("/a;/b:/c") == ["/a", "/b", "/c"]
    assert libpath.ld_library_path_entries("/a;;/b;") == ["/a", "", "/b", ""]
    assert libpath.ld_library_path_entries("") == [] and libpath.ld_library_path_entries(None) == []
    assert [f for f, _ in libpath.library_path_folders("/a;/b")] == ["/a", "/b"]


def test_the_real_loader_reads_a_folder_after_a_semicolon(tmp_path):
    """The premise, on this machine's own ld.so: a library found only through the piece after `;` loads."""
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None or ctypes.util.find_library("c") is None:
        pytest.skip("no C compiler to build a library for the loader")
    (tmp_path / "s.c").write_text("int gcw_probe(void){ return 7; }\n")
    subprocess.run([cc, "-shared", "-fPIC", "-o", str(tmp_path / "libgcwprobe.so"), str(tmp_path / "s.c")], check=True)
    code = "import ctypes; ctypes.CDLL('libgcwprobe.so')"
    run = subprocess.run([sys.executable, "-c", code], env={**os.environ, "LD_LIBRARY_PATH": f"/nonexist;{tmp_path}"},
                         capture_output=True, check=False)
    assert run.returncode == 0, run.stderr


def test_detect_finds_a_cudnn_after_a_semicolon(tmp_path):
    old = make_library_dir(tmp_path / "old", {"libcudnn.so.8.2.1": None, "libcudnn.so.8": "libcudnn.so.8.2.1"})
    environ = {"LD_LIBRARY_PATH": f"/nonexist;{old}"}
    found = [lib for lib in inventory(environ, [], []) if lib.found_via == "LD_LIBRARY_PATH"]
    assert [lib.name for lib in found] == ["cudnn"], found
    assert [w.id for w in library_warnings(found, environ)].count("ld_library_path_cudnn") == 1
    order = loader_order(tmp_path / "env", [], environ, "venv", [])
    assert ("/nonexist", "LD_LIBRARY_PATH") in order and (str(old), "LD_LIBRARY_PATH") in order


def test_the_driver_look_up_reads_a_folder_after_a_semicolon(tmp_path):
    make_library_dir(tmp_path / "drv", {"libcuda.so.1": None})
    assert driver_library_in_folders({"LD_LIBRARY_PATH": f"/nonexist;{tmp_path / 'drv'}"})


def test_activate_and_the_kernel_drop_a_relative_piece_after_a_semicolon(env, tmp_path, monkeypatch):
    cuda = make_library_dir(tmp_path / "cuda", {"libcudnn.so.8": None})
    monkeypatch.chdir(tmp_path)
    environ = {"PATH": "/usr/bin:/bin", "LD_LIBRARY_PATH": f"/usr/lib;..;;{cuda}:/opt/x"}
    act = compute_activation(env, environ, marker={})
    assert act.kernel_env()["LD_LIBRARY_PATH"].split(os.pathsep) == ["/usr/lib", "/opt/x"]
    gone = [r.folder for r in act.removals if r.variable == "LD_LIBRARY_PATH"]
    assert gone[:2] == ["..", EMPTY_ENTRY] and str(cuda) in gone
    script = activation_script(act)
    assert f"# removed from LD_LIBRARY_PATH: .. — {RELATIVE_REASON.split(',')[0]}" in script
    assert "\nexport LD_LIBRARY_PATH=/usr/lib:/opt/x\n" in script

    monkeypatch.setenv("LD_LIBRARY_PATH", "/usr/lib;..")
    spec = build_kernelspec(env)
    assert spec["env"]["LD_LIBRARY_PATH"] == "/usr/lib"
    assert ("LD_LIBRARY_PATH", "..") in {(r["variable"], r["folder"]) for r in spec["metadata"]["gc_wizard"]["removed"]}


def test_the_module_files_load_time_scan_splits_as_the_loader(env, tmp_path):
    text = module_text(env, environ={"PATH": "/usr/bin", "LD_LIBRARY_PATH": "/usr/lib"})
    line = next(ln for ln in text.splitlines() if "string.gmatch" in ln and "LD_LIBRARY_PATH" in ln)
    assert '"[^:;]+"' in line
    lua = shutil.which("lua")
    if lua:  # the pattern itself, run by Lua: every piece, whichever separator
        pieces = subprocess.run([lua, "-e", 'for d in string.gmatch("/a;/b:/c", "[^:;]+") do print(d) end'],
                                capture_output=True, text=True, check=True).stdout.split()
        assert pieces == ["/a", "/b", "/c"]


def test_lmod_loading_the_module_takes_a_cuda_folder_after_a_semicolon_off(env, tmp_path):
    """Known limit after pass 24: Lmod `remove_path` with `;` — Lmod splits a path variable on `:` only, so its
    `remove_path` never found a cuDNN folder the loader reaches after `;` (`/usr/lib;CUDNN:/opt/x`), neither the one
    named when the file was written nor one the load-time scan found. Loaded here by the real Lmod."""
    init = Path("/usr/share/lmod/lmod/init/bash")
    if not init.exists():
        pytest.skip(f"needs Lmod ({init} not found; apt-get install lmod)")
    written = make_library_dir(tmp_path / "written", {"libcudnn.so.8": None})
    later = make_library_dir(tmp_path / "later", {"libcudart.so.12": None})
    ordinary = tmp_path / "ordinary"
    ordinary.mkdir()
    mods = tmp_path / "modules"
    (mods / "graphcast").mkdir(parents=True)
    text = module_text(env, environ={"PATH": "/usr/bin:/bin", "LD_LIBRARY_PATH": f"{ordinary};{written}"})
    assert f'remove_path("LD_LIBRARY_PATH", "{written}")' in text
    (mods / "graphcast" / "k.lua").write_text(text)
    script = (f"source {init}\nexport LD_LIBRARY_PATH='{ordinary};{written}:/opt/x;{later}'\n"
              f"module use {mods}\nmodule load graphcast/k || exit 9\necho \"ld=$LD_LIBRARY_PATH\"\n"
              "module unload graphcast/k || exit 8\necho \"after=$LD_LIBRARY_PATH\"\n")
    shell = subprocess.run(["bash", "--noprofile", "--norc", "-c", script], capture_output=True, text=True,
                           timeout=120, env={k: v for k, v in os.environ.items() if not k.startswith("LMOD")})
    assert shell.returncode == 0, shell.stdout + shell.stderr
    ld = next(line for line in shell.stdout.splitlines() if line.startswith("ld="))[3:]
    assert libpath.ld_library_path_entries(ld) == [str(ordinary), "/opt/x"], shell.stdout
    after = next(line for line in shell.stdout.splitlines() if line.startswith("after="))[6:]
    assert after == f"{ordinary};{written}:/opt/x;{later}", shell.stdout  # unloading puts the user's value back
