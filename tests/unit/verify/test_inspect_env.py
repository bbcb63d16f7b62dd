"""`gc-wizard diagnose --env DIR` on environments built for real (uv venvs, real wheel installs).

The jaxlib/graphcast/nvidia-* packages here are tiny real wheels (tests/fixtures/wheels.py) carrying the
metadata and file layout that matter (a jaxlib's `+cuda11.cudnn86` build tag, a cuDNN library in
`nvidia/cudnn/lib`, PyPI's unrelated graphcast's summary); the one marked `network` installs the real
jaxlib 0.4.23 and NumPy 2 from PyPI. Library "stubs" are files named like the real ones: detection reads
names and headers, it never loads them.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.fixtures.cli import run_inproc
from tests.fixtures.state import last_json
from tests.fixtures.wheels import build_wheel
from wizard.errors import UserError
from wizard.verify.inspect_env import _finder_folders, inspect_env, package_folder


def _uv(*args: str) -> subprocess.CompletedProcess:
    from uv import find_uv_bin

    proc = subprocess.run([find_uv_bin(), *args], capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, f"uv {' '.join(args[:2])} failed:\n{proc.stdout}\n{proc.stderr}"
    return proc


def make_env(root: Path, wheels: list[Path], *, extra: tuple[str, ...] = ()) -> Path:
    """A real venv with `wheels` installed by uv from local files only (plus `extra` from the index)."""
    env = root / "env"
    _uv("venv", "--quiet", "--python", sys.executable, str(env))
    if wheels:
        _uv("pip", "install", "--quiet", "--no-index", "--no-deps", "--python", str(env / "bin" / "python"),
            *map(str, wheels))
    if extra:
        _uv("pip", "install", "--quiet", "--no-deps", "--python", str(env / "bin" / "python"), *extra)
    return env


def old_cudnn_folder(root: Path, version: str = "8.2.1") -> Path:
    """A folder laid out like the seed's old cuDNN install: libcudnn.so.8 -> libcudnn.so.8.2.1."""
    folder = root / f"cudnn-{version}" / "lib64"
    folder.mkdir(parents=True)
    (folder / f"libcudnn.so.{version}").write_bytes(b"\x7fELF stub")
    (folder / "libcudnn.so.8").symlink_to(f"libcudnn.so.{version}")
    return folder


def _cudnn_wheel(house: Path, version: str) -> Path:
    return build_wheel(house, "nvidia-cudnn-cu11", version,
                       files={"nvidia/cudnn/lib/libcudnn.so.8": b"\x7fELF stub", "nvidia/__init__.py": b""})


@pytest.fixture(scope="module")
def seed_env(tmp_path_factory) -> Path:
    """The seed help request's environment: jaxlib 0.4.23 built for CUDA 11 / cuDNN 8.6 + pip cuDNN 8.9."""
    root = tmp_path_factory.mktemp("seed")
    house = root / "house"
    wheels = [build_wheel(house, "jaxlib", "0.4.23+cuda11.cudnn86"), build_wheel(house, "jax", "0.4.23"),
              build_wheel(house, "numpy", "1.26.4"), _cudnn_wheel(house, "8.9.6.50")]
    return make_env(root, wheels)


def test_seed_case_old_cudnn_first_on_ld_library_path_is_named(seed_env, tmp_path):
    folder = old_cudnn_folder(tmp_path)
    proc = run_inproc("diagnose", "--env", str(seed_env), "--json", env={"LD_LIBRARY_PATH": str(folder)})
    assert proc.returncode == 1, proc.stderr
    data = last_json(proc)
    assert data["jaxlib_build"]["cudnn"] == "8.6" and data["jaxlib_build"]["cuda"] == "11"
    assert data["cudnn_loads_first"]["version"] == "8.2.1"
    assert data["cudnn_loads_first"]["via"] == "LD_LIBRARY_PATH"
    first = data["findings"][0]
    assert first["id"] == "cudnn_version_mismatch"
    assert "8.6" in first["explanation"] and "8.2.1" in first["explanation"]
    assert f"Remove {folder} from LD_LIBRARY_PATH" in first["fix"]
    assert data["nvidia_wheels"] == {"nvidia-cudnn-cu11": "8.9.6.50"}


def test_seed_env_without_the_old_folder_is_clean(seed_env):
    # The pip cuDNN 8.9 (jaxlib's RUNPATH) is what loads: new enough for a cuDNN 8.6 build.
    report = inspect_env(seed_env, {"PATH": "/usr/bin:/bin"}, read_driver=False, ldconfig=[])
    assert report.cudnn_loads_first["version"].startswith("8.9")
    assert "wheel" in report.cudnn_loads_first["via"]
    assert report.findings == []
    human = run_inproc("diagnose", "--env", str(seed_env), env={"LD_LIBRARY_PATH": ""})
    assert "built for CUDA 11, cuDNN 8.6" in human.stdout


def test_symptom_log_ranked_by_the_inspected_environment(seed_env, tmp_path):
    """A log with only "DNN library initialization failed" + the env: the old cuDNN is ranked first."""
    folder = old_cudnn_folder(tmp_path)
    log = tmp_path / "cell.log"
    log.write_text("jaxlib.xla_extension.XlaRuntimeError: FAILED_PRECONDITION: DNN library initialization "
                   "failed. Look at the errors above for more details.\n", encoding="utf-8")
    proc = run_inproc("diagnose", str(log), "--env", str(seed_env), "--json", env={"LD_LIBRARY_PATH": str(folder)})
    data = last_json(proc)
    finding = data["findings"][0]
    assert finding["id"] == "dnn_library_init_failed"
    assert finding["causes"][0]["id"] == "cudnn_version_mismatch" and "8.2.1" in finding["causes"][0]["why"]
    assert data["environment"]["findings"][0]["id"] == "cudnn_version_mismatch"


def test_wrong_pypi_graphcast_is_named(tmp_path):
    house = tmp_path / "house"
    wrong = build_wheel(house, "graphcast", "0.14.2", summary="A framework for transforming tabular (CSV, SQL) "
                        "and hierarchical data (JSON, XML) into property graphs")
    env = make_env(tmp_path, [wrong, build_wheel(house, "jax", "0.4.23"), build_wheel(house, "jaxlib", "0.4.23")])
    proc = run_inproc("diagnose", "--env", str(env), "--json")
    assert proc.returncode == 1, proc.stderr
    data = last_json(proc)
    assert data["graphcast"]["which"] == "unrelated"
    assert [f["id"] for f in data["findings"]] == ["wrong_graphcast_package"]
    assert "pip uninstall graphcast" in data["findings"][0]["fix"]


def test_old_ptxas_on_path_and_old_driver(tmp_path):
    house = tmp_path / "house"
    env = make_env(tmp_path, [build_wheel(house, "jaxlib", "0.4.23+cuda12.cudnn89"),
                              build_wheel(house, "jax", "0.4.23")])
    toolkit = tmp_path / "cuda-11.2"
    (toolkit / "bin").mkdir(parents=True)
    (toolkit / "bin" / "ptxas").write_text("#!/bin/sh\nexit 0\n")
    (toolkit / "bin" / "ptxas").chmod(0o755)
    (toolkit / "version.json").write_text(json.dumps({"cuda": {"version": "11.2.2"}}))
    report = inspect_env(env, {"PATH": f"{toolkit / 'bin'}:/usr/bin:/bin"}, driver="470.82.01", ldconfig=[])
    ids = [f.id for f in report.findings]
    assert "ptxas_problem" in ids and "driver_too_old" in ids
    ptxas = next(f for f in report.findings if f.id == "ptxas_problem")
    assert "CUDA 11.2" in ptxas.explanation and str(toolkit / "bin" / "ptxas") in ptxas.explanation
    # No cuDNN anywhere the loader looks, for a jaxlib that needs 8.9.
    assert "cuda_library_missing" in ids


def test_jax_older_than_jaxlib_and_plugin_mismatch(tmp_path):
    house = tmp_path / "house"
    env = make_env(tmp_path, [build_wheel(house, "jaxlib", "0.4.30"), build_wheel(house, "jax", "0.4.26"),
                              build_wheel(house, "jax-cuda12-plugin", "0.4.28",
                                          requires=["nvidia-cudnn-cu12>=9.1,<10.0; extra == 'with_cuda'"])])
    report = inspect_env(env, {"PATH": "/usr/bin:/bin"}, read_driver=False, ldconfig=[])
    assert report.jaxlib_build == {"cuda": "12", "cudnn": "9.1", "from": "jax-cuda12-plugin 0.4.28"}
    ids = [f.id for f in report.findings]
    assert ids[:2] == ["jaxlib_mismatch", "pjrt_api_mismatch"]


def test_not_an_environment_is_a_sentence(tmp_path):
    with pytest.raises(UserError, match="not a Python environment"):
        inspect_env(tmp_path, {}, read_driver=False, ldconfig=[])
    proc = run_inproc("diagnose", "--env", str(tmp_path / "nope"))
    assert proc.returncode == 2 and "does not exist" in proc.stderr and "Traceback" not in proc.stderr


def test_nothing_is_imported_from_the_environment(seed_env):
    before = set(sys.modules)
    inspect_env(seed_env, {"PATH": os.environ.get("PATH", "")}, read_driver=False, ldconfig=[])
    assert not {"jax", "jaxlib"} & (set(sys.modules) - before)


@pytest.mark.network
def test_real_jaxlib_0423_with_numpy_2(tmp_path):
    """jaxlib 0.4.23 (built for NumPy 1) and NumPy 2 from PyPI: the combination is named before any run."""
    env = make_env(tmp_path, [], extra=("jaxlib==0.4.23", "jax==0.4.23", "numpy==2.0.2"))
    proc = run_inproc("diagnose", "--env", str(env), "--json")
    data = last_json(proc)
    assert data["packages"]["jaxlib"] == "0.4.23" and data["packages"]["numpy"] == "2.0.2"
    assert data["jaxlib_build"] is None
    assert [f["id"] for f in data["findings"]] == ["numpy2_incompatible"]
    assert proc.returncode == 1


def test_conda_layout_old_cudnn_in_the_env_lib(tmp_path):
    """A conda environment as conda lays it out (conda-meta/, lib/), with the seed's problem inside it:
    conda's cudnn 8.2.1 package in lib/ and a pip jaxlib built for cuDNN 8.6, no pip cuDNN."""
    env = tmp_path / "hiskim1_graphcast"
    (env / "conda-meta").mkdir(parents=True)
    (env / "conda-meta" / "cudnn-8.2.1.32-h86fa8c9_0.json").write_text(json.dumps(
        {"name": "cudnn", "version": "8.2.1.32", "depends": ["cudatoolkit 11.*"]}))
    (env / "conda-meta" / "python-3.10.13-h955ad1f_0.json").write_text(json.dumps({"name": "python"}))
    site = env / "lib" / "python3.10" / "site-packages"
    site.mkdir(parents=True)
    for name, version in (("jaxlib", "0.4.13+cuda11.cudnn86"), ("jax", "0.4.13"), ("numpy", "1.26.4")):
        info = site / f"{name}-{version}.dist-info"
        info.mkdir()
        (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n")
    lib = env / "lib"
    (lib / "libcudnn.so.8.2.1").write_bytes(b"\x7fELF stub")
    (lib / "libcudnn.so.8").symlink_to("libcudnn.so.8.2.1")
    report = inspect_env(env, {"PATH": "/usr/bin:/bin"}, read_driver=False, ldconfig=[])
    assert report.kind == "conda" and report.python == "3.10"
    assert report.cudnn_loads_first["via"] == "the conda environment's lib/"
    (finding,) = report.findings
    assert finding.id == "cudnn_version_mismatch"
    assert "8.2.1" in finding.explanation and "8.6" in finding.explanation
    assert "jax0.4.23-cuda11-cudnn86" in finding.fix  # the jaxlib is a CUDA 11 build; no driver known


def test_conda_jaxlib_build_read_from_conda_meta(tmp_path):
    env = tmp_path / "cf"
    (env / "conda-meta").mkdir(parents=True)
    (env / "conda-meta" / "jaxlib-0.4.31-cuda120py312h4008524_200.json").write_text(json.dumps(
        {"name": "jaxlib", "depends": ["cuda-version >=12.0,<13", "cudnn >=9.1.1.17,<10.0a0"]}))
    site = env / "lib" / "python3.12" / "site-packages"
    site.mkdir(parents=True)
    (site / "jaxlib-0.4.31.dist-info").mkdir()
    (env / "lib" / "libcudnn.so.9.1.1").write_bytes(b"stub")
    (env / "lib" / "libcudnn.so.9").symlink_to("libcudnn.so.9.1.1")
    report = inspect_env(env, {}, read_driver=False, ldconfig=[])
    assert report.jaxlib_build["cuda"] == "12" and report.jaxlib_build["cudnn"] == "9.1"
    assert report.findings == []


def test_verify_ranks_symptoms_with_the_environment_it_ran(seed_env, tmp_path):
    """verify hands diagnosis what the environment's files say, under the probe's own variables."""
    from wizard.verify.check import _env_context
    from wizard.verify.diagnose import diagnose_text

    folder = old_cudnn_folder(tmp_path)
    ctx = _env_context(seed_env, {"PATH": "/usr/bin:/bin", "LD_LIBRARY_PATH": str(folder)})
    assert (ctx.cudnn_loaded, ctx.cudnn_built) == ("8.2.1", "8.6")
    (finding,) = diagnose_text("XlaRuntimeError: FAILED_PRECONDITION: DNN library initialization failed.\n",
                               context=ctx)
    assert finding.causes[0]["id"] == "cudnn_version_mismatch"
    assert _env_context(tmp_path / "missing", {}) is None


def test_pypi_gencast_is_named_a_lookalike(tmp_path):
    """PyPI's `gencast` is a podcast generator; DeepMind's GenCast is `graphcast.gencast`."""
    house = tmp_path / "house"
    wrong = build_wheel(house, "gencast", "0.1.3", summary="Generate podcasts from text")
    env = make_env(tmp_path, [wrong, build_wheel(house, "jax", "0.12.0.1"), build_wheel(house, "jaxlib", "0.12.0.1")])
    proc = run_inproc("diagnose", "--env", str(env), "--json")
    assert proc.returncode == 1, proc.stderr
    (finding,) = last_json(proc)["findings"]
    assert finding["id"] == "wrong_graphcast_package" and "`gencast`" in finding["title"]
    assert "pip uninstall gencast" in finding["fix"] and "graphcast.gencast" in finding["explanation"]


def test_the_plugins_cudnn_floor_is_read_in_the_order_real_wheels_write_it(tmp_path):
    """On a real H100 `diagnose --env` said "cuDNN ?": JAX's plugin wheel puts the upper bound first."""
    house = tmp_path / "house"
    plugin = build_wheel(house, "jax-cuda13-plugin", "0.11.2", requires=[
        'nvidia-cudnn-cu13<10.0,>=9.12.0.46; sys_platform == "linux" and extra == "with-cuda"'])
    env = make_env(tmp_path, [plugin, build_wheel(house, "jax", "0.11.2"), build_wheel(house, "jaxlib", "0.11.2")])
    report = inspect_env(env, {"PATH": "/usr/bin:/bin"}, read_driver=False, ldconfig=[])
    assert report.jaxlib_build == {"cuda": "13", "cudnn": "9.12", "from": "jax-cuda13-plugin 0.11.2"}



def test_a_stale_nvjitlink_wheel_is_the_root_cause_not_a_missing_library(tmp_path):
    """jax#18027: pip upgraded the CUDA 12.2 wheels but kept nvJitLink 12.1, and JAX said "Unable to load
    cuSOLVER". The environment's versions name the cause; the log's symptom is then ranked under it."""
    house = tmp_path / "house"
    env = make_env(tmp_path, [build_wheel(house, "jaxlib", "0.4.18+cuda12.cudnn89"), build_wheel(house, "jax", "0.4.18"),
                              build_wheel(house, "nvidia-cuda-runtime-cu12", "12.2.140"),
                              build_wheel(house, "nvidia-cusolver-cu12", "11.5.2.141"),
                              build_wheel(house, "nvidia-nvjitlink-cu12", "12.1.105")])
    report = inspect_env(env, {"PATH": "/usr/bin:/bin"}, read_driver=False, ldconfig=[])
    (stale,) = [f for f in report.findings if f.id == "nvjitlink_outdated"]
    assert "12.1.105" in stale.explanation and "pip install -U nvidia-nvjitlink-cu12" in stale.fix
    fresh = make_env(tmp_path / "fresh", [build_wheel(house, "nvidia-cuda-runtime-cu12", "12.2.140"),
                                          build_wheel(house, "nvidia-nvjitlink-cu12", "12.2.140")])
    assert "nvjitlink_outdated" not in [f.id for f in inspect_env(fresh, {"PATH": "/usr/bin:/bin"},
                                                                  read_driver=False, ldconfig=[]).findings]


def test_xarray_2026_4_under_graphcast_is_named_before_a_forecast_fails(tmp_path):
    house = tmp_path / "house"
    graphcast = build_wheel(house, "graphcast", "0.2", files={"graphcast/__init__.py": b"", "graphcast/rollout.py": b"",
                                                            "graphcast/autoregressive.py": b""})
    env = make_env(tmp_path, [graphcast, build_wheel(house, "xarray", "2026.4.0")])
    report = inspect_env(env, {"PATH": "/usr/bin:/bin"}, read_driver=False, ldconfig=[])
    assert "xarray_incompatible" in [f.id for f in report.findings], report.findings
    older = make_env(tmp_path / "older", [graphcast, build_wheel(house, "xarray", "2026.2.0")])
    assert "xarray_incompatible" not in [f.id for f in inspect_env(older, {"PATH": "/usr/bin:/bin"},
                                                                   read_driver=False, ldconfig=[]).findings]


@pytest.mark.parametrize("where", ["bin/ptxas", "lib/python3.11/site-packages/nvidia/cuda_nvcc/bin/ptxas"])
def test_diagnose_env_runs_nothing_of_the_environment_it_inspects(tmp_path, where):
    """Eleventh hostile pass #151: with the env activated (its `bin/` first on PATH), `diagnose --env` asked the
    env's own `ptxas` its version by running it. A tool outside the env may still be asked; none inside it."""
    env = tmp_path / "env"
    (env / "lib" / "python3.11" / "site-packages").mkdir(parents=True)
    (env / "pyvenv.cfg").write_text("home = /usr/bin\n")
    ran = tmp_path / "RAN"
    ptxas = env / where
    ptxas.parent.mkdir(parents=True, exist_ok=True)
    ptxas.write_text(f"#!/bin/sh\ntouch {ran}\necho 'Cuda compilation tools, release 12.3, V12.3.107'\n")
    ptxas.chmod(0o755)
    report = inspect_env(env, {"PATH": f"{ptxas.parent}:/usr/bin:/bin"}, read_driver=False)
    assert not ran.exists()
    assert report.ptxas == {"path": str(ptxas), "version": "unknown"}
    outside = tmp_path / "toolkit-bin"
    outside.mkdir()
    (outside / "ptxas").write_text(ptxas.read_text())
    (outside / "ptxas").chmod(0o755)
    assert inspect_env(env, {"PATH": f"{outside}:/usr/bin:/bin"}, read_driver=False).ptxas["version"] == "12.3"


def _editable_graphcast(root: Path, *, src_layout: bool) -> tuple[Path, Path]:
    """A venv with a GraphCast-shaped checkout installed editable by uv and setuptools themselves (PEP 660:
    nothing of graphcast in site-packages, only a finder or a .pth pointing at the checkout); setuptools comes
    from the index, as for a user."""
    project = root / "graphcast-checkout"
    package = project / ("src/graphcast" if src_layout else "graphcast")
    package.mkdir(parents=True)
    for name in ("__init__.py", "autoregressive.py", "graphcast.py"):
        (package / name).write_text("")
    layout = ", package_dir={'': 'src'}" if src_layout else ""
    (project / "setup.py").write_text(
        f"from setuptools import setup\nsetup(name='graphcast', version='0.1.1', packages=['graphcast']{layout})\n")
    env = make_env(root, [])
    _uv("pip", "install", "--quiet", "--no-deps", "--python", str(env / "bin" / "python"), "-e", str(project))
    return env, package


@pytest.mark.network
@pytest.mark.parametrize("src_layout", [False, True], ids=["flat-finder", "src-pth"])
def test_an_editable_deepmind_checkout_is_deepmind_s_graphcast(tmp_path, src_layout):
    """Eighteenth hostile pass P14: `pip install -e ~/graphcast` leaves no `graphcast/` in site-packages, and
    `diagnose --env` called DeepMind's own checkout PyPI's unrelated package, with "pip uninstall graphcast" as the
    fix. The checkout is found from the install's own files (direct_url.json, the editable finder's MAPPING read as
    data, a .pth folder line) and its source read from there."""
    env, package = _editable_graphcast(tmp_path, src_layout=src_layout)
    site = next(env.glob("lib/python3*/site-packages"))
    assert not (site / "graphcast").exists()
    (package / "graphcast.py").write_text("import jax\nx = jax.tree.map\n")  # what the report reads from the source
    data = last_json(run_inproc("diagnose", "--env", str(env), "--json"))
    assert data["graphcast"]["which"] == "deepmind", data["graphcast"]
    assert data["graphcast"]["version"] == "0.1.1" and data["graphcast"]["uses_jax_tree"] == "yes"
    assert "wrong_graphcast_package" not in [f["id"] for f in data["findings"]]
    # Each of the install's own files leads there by itself (a direct_url.json is not always written):
    for finder in site.glob("__editable___graphcast*finder.py"):
        assert _finder_folders(finder, "graphcast") == [package]
    (next(site.glob("graphcast-*.dist-info")) / "direct_url.json").unlink()
    assert package_folder([site], None, "graphcast") == package


# 30th hostile pass (part B) P7: an environment uv made with UV_LINK_MODE=symlink holds only links into uv's cache;
# after `uv cache clean` every import failed and `diagnose --env` said nothing of it.

def test_diagnose_names_an_environment_made_of_links_into_a_cache_and_the_links_that_lead_to_nothing(
        tmp_path, monkeypatch):
    cache = tmp_path / "uvcache"
    monkeypatch.setenv("UV_CACHE_DIR", str(cache))
    monkeypatch.setenv("UV_LINK_MODE", "symlink")
    env = make_env(tmp_path, [build_wheel(tmp_path / "house", "pkg-a", "1.0")])
    monkeypatch.delenv("UV_LINK_MODE")
    found = {f.id: f for f in inspect_env(env, read_driver=False, ldconfig=[]).findings}
    assert "files_link_into_cache" in found and "files_link_into_missing_cache" not in found, found
    _uv("cache", "clean", "--cache-dir", str(cache))
    finding = inspect_env(env, read_driver=False, ldconfig=[]).findings[0]
    assert finding.id == "files_link_into_missing_cache", finding
    assert "UV_LINK_MODE=symlink" in finding.explanation and "uv cache clean" in finding.explanation


def test_an_environment_holding_its_own_files_has_no_link_finding(tmp_path, monkeypatch):
    monkeypatch.setenv("UV_CACHE_DIR", str(tmp_path / "uvcache"))
    env = make_env(tmp_path, [build_wheel(tmp_path / "house", "pkg-a", "1.0")])
    ids = [f.id for f in inspect_env(env, read_driver=False, ldconfig=[]).findings]
    assert not [i for i in ids if i.startswith("files_link")], ids
