"""Kernel registration: a kernelspec written to a test JUPYTER_DATA_DIR, then started by jupyter_client.

The kernel must run the environment's own Python with the recipe's runtime variables and without the
stale CUDA folders the Jupyter server itself was started with.
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import venv
from pathlib import Path

import pytest

from tests.fixtures.cli import run_inproc
from tests.fixtures.state import last_json
from wizard.after.kernel import build_kernelspec, display_name, kernel_install
from wizard.errors import UserError
from wizard.install.envs import MARKER as MARKER_NAME

MARKER = {"recipe": "jax0.4.23-cpu", "title": "JAX 0.4.23 on the CPU", "backend": "cpu",
          "runtime_env": {"JAX_PLATFORMS": "cpu", "XLA_PYTHON_CLIENT_PREALLOCATE": "false"},
          "created": "2026-11-21T09:00:00+00:00", "verified": "2026-11-21T09:30:00+00:00",
          "entry_id": "e1", "python": "3.11"}


@pytest.fixture(scope="session")
def ipykernel_env(tmp_path_factory) -> Path:
    """A tiny real venv with ipykernel, installed by uv from PyPI."""
    from uv import find_uv_bin

    root = tmp_path_factory.mktemp("kernel-env") / "env"
    uv = find_uv_bin()
    subprocess.run([uv, "venv", "--quiet", "--python", sys.executable, str(root)], check=True, timeout=300)
    proc = subprocess.run([uv, "pip", "install", "--quiet", "--python", str(root / "bin" / "python"),
                           "ipykernel==6.29.5"], capture_output=True, text=True, timeout=600)
    if proc.returncode != 0:
        pytest.fail(f"could not install ipykernel from PyPI with uv:\n{proc.stderr[-2000:]}")
    (root / MARKER_NAME).write_text(json.dumps(MARKER))
    return root


@pytest.fixture
def stale_ld(tmp_path) -> tuple[str, str, str]:
    """An LD_LIBRARY_PATH with an old cuDNN folder between two ordinary ones."""
    cudnn = tmp_path / "cudnn-8.2.1" / "lib64"
    cudnn.mkdir(parents=True)
    (cudnn / "libcudnn.so.8.2.1").write_bytes(b"\x7fELF stand-in")
    first, last = tmp_path / "ordinary one", tmp_path / "ordinary two"
    first.mkdir()
    last.mkdir()
    return str(first), str(cudnn), str(last)


def _run_in_kernel(kernel_name: str, code: str, timeout: float = 120) -> str:
    """Start the kernel the way Jupyter does (by name, through the kernelspec) and run `code`."""
    from jupyter_client.manager import KernelManager

    km = KernelManager(kernel_name=kernel_name)
    km.start_kernel()
    try:
        kc = km.client()
        kc.start_channels()
        try:
            kc.wait_for_ready(timeout=timeout)
            out: list[str] = []
            errors: list[str] = []

            def hook(msg):
                if msg["msg_type"] == "stream":
                    out.append(msg["content"]["text"])
                elif msg["msg_type"] == "error":
                    errors.append("\n".join(msg["content"]["traceback"]))

            reply = kc.execute_interactive(code, output_hook=hook, timeout=timeout)
            assert reply["content"]["status"] == "ok", "\n".join(errors)
            return "".join(out)
        finally:
            kc.stop_channels()
    finally:
        km.shutdown_kernel(now=True)


SHOW = ("import json, os, sys; print(json.dumps({'prefix': sys.prefix, 'ld': os.environ.get('LD_LIBRARY_PATH'), "
        "'path0': os.environ['PATH'].split(os.pathsep)[0], 'jax_platforms': os.environ.get('JAX_PLATFORMS'), "
        "'prealloc': os.environ.get('XLA_PYTHON_CLIENT_PREALLOCATE')}))")


@pytest.mark.network
def test_kernel_runs_in_the_environment_without_stale_cuda(ipykernel_env, stale_ld, tmp_path, monkeypatch):
    data_dir = tmp_path / "jupyter-data"
    monkeypatch.setenv("JUPYTER_DATA_DIR", str(data_dir))
    monkeypatch.setenv("LD_LIBRARY_PATH", os.pathsep.join(stale_ld))
    result = kernel_install(ipykernel_env)
    spec_path = data_dir / "kernels" / "gc-wizard-jax0.4.23-cpu" / "kernel.json"
    assert result["path"] == str(spec_path) and result["ok"] and not result["replaced"]
    spec = json.loads(spec_path.read_text())
    assert spec["argv"] == [str(ipykernel_env / "bin" / "python"), "-m", "ipykernel_launcher", "-f",
                            "{connection_file}"]
    assert spec["display_name"] == "GraphCast · JAX 0.4.23 on the CPU (verified 2026-11-21)"
    assert result["removed"] == [{"variable": "LD_LIBRARY_PATH", "folder": stale_ld[1],
                                  "reason": result["removed"][0]["reason"]}]
    assert "cuDNN 8.2.1" in result["removed"][0]["reason"]

    # The Jupyter server (this process) still has the stale folder; the kernel must not.
    seen = json.loads(_run_in_kernel(result["name"], SHOW).strip().splitlines()[-1])
    assert Path(seen["prefix"]) == ipykernel_env
    assert seen["ld"] == os.pathsep.join([stale_ld[0], stale_ld[2]])
    assert seen["path0"] == str(ipykernel_env / "bin")
    assert seen["jax_platforms"] == "cpu" and seen["prealloc"] == "false"

    # Registering again replaces the spec in place.
    again = kernel_install(ipykernel_env)
    assert again["replaced"] and again["path"] == result["path"]


@pytest.mark.network
def test_a_kernel_installed_from_a_clean_shell_still_ignores_the_servers_stale_paths(ipykernel_env, stale_ld, tmp_path,
                                                                                      monkeypatch):
    """Eighth hostile pass E9: `kernel install` ran with LD_LIBRARY_PATH and PYTHONPATH unset, so the spec left
    them out; a Jupyter server started later with an old cuDNN folder and a stray `jax` passed both to the kernel,
    which imported that jax. The spec now pins them ("") whatever the shell that wrote it had."""
    monkeypatch.setenv("JUPYTER_DATA_DIR", str(tmp_path / "jupyter-data"))
    for name in ("LD_LIBRARY_PATH", "PYTHONPATH", "PYTHONHOME"):
        monkeypatch.delenv(name, raising=False)
    result = kernel_install(ipykernel_env, "gc-clean-shell")
    spec = json.loads(Path(result["path"]).read_text())
    assert {name: spec["env"][name] for name in ("LD_LIBRARY_PATH", "PYTHONPATH", "PYTHONHOME")} == \
        {"LD_LIBRARY_PATH": "", "PYTHONPATH": "", "PYTHONHOME": ""}
    stray = tmp_path / "stray"
    (stray / "jax").mkdir(parents=True)
    (stray / "jax" / "__init__.py").write_text("raise ImportError('the stray jax')\n")
    monkeypatch.setenv("LD_LIBRARY_PATH", os.pathsep.join(stale_ld))  # the server, started later
    monkeypatch.setenv("PYTHONPATH", str(stray))
    code = ("import importlib.util, json, os; spec = importlib.util.find_spec('jax'); print(json.dumps({'ld': "
            "os.environ.get('LD_LIBRARY_PATH'), 'pp': os.environ.get('PYTHONPATH'), 'jax': spec.origin if spec "
            "else None}))")
    seen = json.loads(_run_in_kernel(result["name"], code).strip().splitlines()[-1])
    assert not seen["ld"] and not seen["pp"] and seen["jax"] is None  # the env has no jax; the stray one is unseen


@pytest.mark.network
@pytest.mark.slow
def test_kernel_imports_jax_in_the_recipe_environment(request, tmp_path, monkeypatch):
    """With the real jax0.4.23-cpu environment (helper VERIFY's session fixture): `import jax` in the kernel."""
    try:
        jax_env = Path(request.getfixturevalue("jax_cpu_env"))
    except pytest.FixtureLookupError:
        pytest.skip("the jax_cpu_env fixture (tests/fixtures/jaxenv.py) is not registered")
    monkeypatch.setenv("JUPYTER_DATA_DIR", str(tmp_path / "jupyter-data"))
    result = kernel_install(jax_env, "gc-jax-test")
    code = "import sys, jax, jaxlib; print(sys.prefix, jax.__version__, jaxlib.__version__, jax.default_backend())"
    prefix, jax_version, jaxlib_version, backend = _run_in_kernel(result["name"], code, timeout=300).split()
    assert Path(prefix) == jax_env
    assert jax_version == "0.4.23" and jaxlib_version == "0.4.23"
    assert backend == "cpu"


def test_env_without_ipykernel_is_refused(tmp_path, monkeypatch):
    bare = tmp_path / "bare"
    venv.EnvBuilder(with_pip=False, symlinks=True).create(bare)
    monkeypatch.setenv("JUPYTER_DATA_DIR", str(tmp_path / "jd"))
    with pytest.raises(UserError, match=r"has no ipykernel.*uv pip install --python \S+ ipykernel"):  # no pip there
        kernel_install(bare)
    assert not (tmp_path / "jd").exists()
    proc = run_inproc("kernel", "install", "--env", str(bare), env={"JUPYTER_DATA_DIR": str(tmp_path / "jd")})
    assert proc.returncode == 2
    assert "has no ipykernel" in proc.stderr and "Traceback" not in proc.stderr


def test_bad_kernel_name_is_refused(tmp_path):
    bare = tmp_path / "bare"
    venv.EnvBuilder(with_pip=False, symlinks=True).create(bare)
    with pytest.raises(UserError, match="kernel name 'my kernel/x' is not allowed"):
        kernel_install(bare, "my kernel/x")
    for dots in ("..", ".", "..."):  # seventh hostile pass 5a: `..` wrote kernel.json beside kernels/
        with pytest.raises(UserError, match="not dots alone"):
            kernel_install(bare, dots)


def test_spec_without_jupyter_in_our_env_and_default_data_dir(tmp_path):
    """The spec is plain JSON built from the marker; the data folder follows jupyter_core's rules."""
    from wizard.after.kernel import jupyter_data_dir

    env = tmp_path / "env"
    (env / "bin").mkdir(parents=True)
    python = env / "bin" / "python"
    python.write_text("#!/bin/sh\n")
    python.chmod(python.stat().st_mode | stat.S_IXUSR)
    (env / MARKER_NAME).write_text(json.dumps(dict(MARKER, verified=None)))
    spec = build_kernelspec(env, environ={"PATH": "/usr/bin:/bin"})
    assert spec["env"]["JAX_PLATFORMS"] == "cpu"
    assert spec["env"]["PATH"] == os.pathsep.join([str(env / "bin"), "/usr/bin", "/bin"])
    assert spec["display_name"] == "GraphCast · JAX 0.4.23 on the CPU (not verified)"
    assert jupyter_data_dir({"XDG_DATA_HOME": "/x/data"}) == Path("/x/data/jupyter")
    assert jupyter_data_dir({"JUPYTER_DATA_DIR": "/j", "XDG_DATA_HOME": "/x"}) == Path("/j")
    assert display_name(env, {"title": "JAX 0.4.23 · CUDA 12.2 · cuDNN 8.9 (GPU)", "verified": "2026-11-21T10:00"}) \
        == "GraphCast · JAX 0.4.23 · CUDA 12.2 · cuDNN 8.9 (GPU, verified 2026-11-21)"


def test_a_refused_runtime_variable_is_said_in_the_spec_not_dropped_in_silence(tmp_path):
    """A recipe's LD_PRELOAD never reaches the kernel; the spec (and `kernel install`'s result) says it left it
    out and why, so the user who set it is not left guessing why the kernel runs without it."""
    env = tmp_path / "env"
    (env / "bin").mkdir(parents=True)
    python = env / "bin" / "python"
    python.write_text("#!/bin/sh\n")
    python.chmod(python.stat().st_mode | stat.S_IXUSR)
    runtime = dict(MARKER["runtime_env"], LD_PRELOAD="/tmp/x.so")
    (env / MARKER_NAME).write_text(json.dumps(dict(MARKER, runtime_env=runtime)))
    spec = build_kernelspec(env, environ={"PATH": "/usr/bin:/bin"})
    assert "LD_PRELOAD" not in spec["env"] and spec["env"]["JAX_PLATFORMS"] == "cpu"
    notes = spec["metadata"]["gc_wizard"]["notes"]
    assert len(notes) == 1 and "LD_PRELOAD" in notes[0] and "left out" in notes[0]


def test_a_kernel_folder_that_is_a_link_is_refused_and_what_it_points_at_untouched(tmp_path):
    """Seventh hostile pass 6g: `kernels/<name>` linked to a user folder. The spec was written into that folder,
    and `kernel remove` (which lists plain folders only) could never take it back; now install refuses too."""
    env = tmp_path / "env"
    (env / "bin").mkdir(parents=True)
    (env / "bin" / "python").write_text("#!/bin/sh\n")
    victim = tmp_path / "notes"
    victim.mkdir()
    (victim / "PRECIOUS.txt").write_text("mine\n")
    kernels = tmp_path / "jd" / "kernels"
    kernels.mkdir(parents=True)
    (kernels / "lab").symlink_to(victim)
    with pytest.raises(UserError, match=r"kernels/lab is a symbolic link \(to .*notes\); .*--name"):
        kernel_install(env, "lab", environ={"JUPYTER_DATA_DIR": str(tmp_path / "jd")})
    assert sorted(p.name for p in victim.iterdir()) == ["PRECIOUS.txt"]


def test_a_kernel_name_longer_than_a_folder_name_may_be_is_a_bad_name(tmp_path):
    """Tenth hostile pass K4: 300 characters gave "the path is too long", exit 1; a bad name is exit 2."""
    env = tmp_path / "env"
    (env / "bin").mkdir(parents=True)
    (env / "bin" / "python").write_text("#!/bin/sh\n")
    with pytest.raises(UserError, match="at most 100"):
        kernel_install(env, "x" * 300, environ={"JUPYTER_DATA_DIR": str(tmp_path / "jd")})


@pytest.mark.network
def test_cli_kernel_install_json(ipykernel_env, tmp_path):
    proc = run_inproc("kernel", "install", "--env", str(ipykernel_env), "--name", "gc-test", "--json",
                   env={"JUPYTER_DATA_DIR": str(tmp_path / "jd")})
    assert proc.returncode == 0, proc.stderr
    result = last_json(proc)
    assert result["name"] == "gc-test"
    assert Path(result["path"]) == tmp_path / "jd" / "kernels" / "gc-test" / "kernel.json"
    assert json.loads(Path(result["path"]).read_text())["argv"][0] == str(ipykernel_env / "bin" / "python")


@pytest.mark.network
def test_cli_kernel_remove_removes_only_the_kernels_gc_wizard_wrote(ipykernel_env, tmp_path):
    """`kernel remove` (by environment, then by name) deletes the wizard's kernels and nothing else: a
    user's own kernel, and a file the user put in the wizard's kernel folder, stay; `kernel install`
    never overwrites the user's kernel of the same name."""
    jd = {"JUPYTER_DATA_DIR": str(tmp_path / "jd")}
    kernels = tmp_path / "jd" / "kernels"
    for name in ("gc-one", "gc-two"):
        proc = run_inproc("kernel", "install", "--env", str(ipykernel_env), "--name", name, "--json", env=jd)
        assert proc.returncode == 0, proc.stderr
    (kernels / "gc-two" / "logo-64x64.png").write_bytes(b"\x89PNG user's logo")
    own = kernels / "users-own"
    own.mkdir()
    own_spec = {"argv": ["python3", "-m", "ipykernel_launcher", "-f", "{connection_file}"],
                "display_name": "My Python", "language": "python"}
    (own / "kernel.json").write_text(json.dumps(own_spec))

    proc = run_inproc("kernel", "install", "--env", str(ipykernel_env), "--name", "users-own", env=jd)
    assert proc.returncode == 2 and "gc-wizard did not write it" in proc.stderr, proc.stderr
    assert json.loads((own / "kernel.json").read_text()) == own_spec
    proc = run_inproc("kernel", "remove", "--name", "users-own", env=jd)
    assert proc.returncode == 2 and "not written by gc-wizard" in proc.stderr and "Traceback" not in proc.stderr
    assert (own / "kernel.json").exists()
    proc = run_inproc("kernel", "remove", "--name", "gc-nope", env=jd)
    assert proc.returncode == 2 and "no Jupyter kernel named 'gc-nope'" in proc.stderr

    proc = run_inproc("kernel", "remove", "--env", str(ipykernel_env), "--json", env=jd)
    assert proc.returncode == 0, proc.stderr
    removed = last_json(proc)["removed"]
    assert sorted(k["name"] for k in removed) == ["gc-one", "gc-two"]
    assert all(k["env"] == str(ipykernel_env) for k in removed)
    assert not (kernels / "gc-one").exists()
    assert sorted(p.name for p in (kernels / "gc-two").iterdir()) == ["logo-64x64.png"]
    assert (own / "kernel.json").exists()

    proc = run_inproc("kernel", "remove", "--env", str(ipykernel_env), env=jd)  # nothing left: said, exit 0
    assert proc.returncode == 0 and "nothing was removed" in proc.stdout
    proc = run_inproc("kernel", "install", "--env", str(ipykernel_env), "--name", "gc-one", env=jd)
    assert proc.returncode == 0, proc.stderr
    proc = run_inproc("kernel", "remove", "--name", "gc-one", env=jd)
    assert proc.returncode == 0 and "Removed the Jupyter kernel gc-one." in proc.stdout
    assert not (kernels / "gc-one").exists()
