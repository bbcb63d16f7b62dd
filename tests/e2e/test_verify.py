"""`verify_env` and `gc-wizard verify`, with the real probe in real jax 0.4.23 CPU environments."""

from __future__ import annotations

import json
import os
import signal
import stat
import threading
import time
import venv
from pathlib import Path

import pytest

from tests.fixtures.cli import run_inproc
from tests.fixtures.jaxenv import require_graphcast_src
from tests.fixtures.state import TESTS, last_json
from wizard import paths
from wizard.errors import UserError
from wizard.install import process_table
from wizard.verify.check import probe_environment, verify_env

TIERS = ["jax_import", "backend", "cudnn_op", "graphcast_jit_init"]
slow_network = [pytest.mark.network, pytest.mark.slow]


def _cuda_lib_dir(root: Path) -> Path:
    """A folder shaped like a stray cuDNN install (file names are all libpath reads)."""
    folder = root / "opt-cudnn-8.2" / "lib64"
    folder.mkdir(parents=True)
    (folder / "libcudnn.so.8.2.1").write_bytes(b"")
    (folder / "libcudnn.so.8").symlink_to("libcudnn.so.8.2.1")
    return folder


def _cuda_bin_dir(root: Path) -> Path:
    folder = root / "cuda-11.4" / "bin"
    folder.mkdir(parents=True)
    ptxas = folder / "ptxas"
    ptxas.write_text("#!/bin/sh\nexit 0\n")
    ptxas.chmod(ptxas.stat().st_mode | stat.S_IXUSR)
    return folder


# --------------------------------------------------------------------------------------------------
# The child's environment (pure: real libpath over real folders)


def test_probe_environment_is_the_activated_one(tmp_path):
    env = tmp_path / "env"
    cudnn, cuda_bin, plain = _cuda_lib_dir(tmp_path), _cuda_bin_dir(tmp_path), tmp_path / "plain"
    plain.mkdir()
    base = {"PATH": f"{cuda_bin}:/usr/bin", "LD_LIBRARY_PATH": f"{cudnn}:{plain}", "PYTHONHOME": "/x",
            "XLA_PYTHON_CLIENT_PREALLOCATE": "true"}
    child, removed = probe_environment(env, "gpu", None, base=base)
    assert child["LD_LIBRARY_PATH"] == str(plain)
    assert child["PATH"].split(":") == [str(env / "bin"), "/usr/bin"]
    assert {(r["variable"], r["dir"]) for r in removed} == {("LD_LIBRARY_PATH", str(cudnn)), ("PATH", str(cuda_bin))}
    assert all(r["reason"] for r in removed)
    assert child["XLA_PYTHON_CLIENT_PREALLOCATE"] == "false" and "PYTHONHOME" not in child
    assert child["VIRTUAL_ENV"] == str(env)

    child, _ = probe_environment(env, "gpu", {"XLA_PYTHON_CLIENT_PREALLOCATE": "true",
                                               "XLA_PYTHON_CLIENT_MEM_FRACTION": ".4"}, base=base)
    assert child["XLA_PYTHON_CLIENT_PREALLOCATE"] == "true" and child["XLA_PYTHON_CLIENT_MEM_FRACTION"] == ".4"
    child, _ = probe_environment(env, "cpu", {"JAX_PLATFORMS": "cpu"}, base={"PATH": "/usr/bin",
                                                                             "LD_LIBRARY_PATH": str(cudnn)})
    assert "XLA_PYTHON_CLIENT_PREALLOCATE" not in child and "LD_LIBRARY_PATH" not in child
    assert child["JAX_PLATFORMS"] == "cpu"


def test_bad_input_is_a_user_error(tmp_path):
    with pytest.raises(UserError, match="not a Python environment"):
        verify_env(tmp_path, backend="cpu")
    with pytest.raises(UserError, match="unknown backend"):
        verify_env(tmp_path, backend="tpu")
    with pytest.raises(UserError, match="unknown verify level"):
        verify_env(tmp_path, backend="cpu", level="full")


# --------------------------------------------------------------------------------------------------
# verify_env, real runs


def test_a_stopped_check_ends_the_probes_whole_process_tree(tmp_path):
    """The check stops its probe with the runner's process-tree stopper: a process the probe started in a
    session of its own (out of reach of a process-group kill) goes too, and the tiers say cancelled."""
    env = tmp_path / "env"
    venv.EnvBuilder(with_pip=False, symlinks=True).create(env)
    site = next((env / "lib").glob("python3*/site-packages"))
    pidfile = tmp_path / "grandchild.pid"
    # Runs as the probe's interpreter starts: a child in a new session, then the probe hangs.
    (site / "sitecustomize.py").write_text(
        "import os, subprocess, time\n"
        "child = subprocess.Popen(['sleep', '300'], start_new_session=True)\n"
        f"open({str(pidfile)!r} + '.tmp', 'w').write(str(child.pid))\n"
        f"os.rename({str(pidfile)!r} + '.tmp', {str(pidfile)!r})\n"
        "time.sleep(300)\n")
    cancel = threading.Event()

    def stop_once_the_child_runs() -> None:
        deadline = time.monotonic() + 60
        while not pidfile.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        cancel.set()

    threading.Thread(target=stop_once_the_child_runs, daemon=True).start()
    result = verify_env(env, backend="cpu", level="quick", cancel=cancel, timeout=120, log_path=tmp_path / "v.log")
    grandchild = int(pidfile.read_text())
    deadline = time.monotonic() + 5  # reaped by init once its parent is gone
    while process_table.is_alive(grandchild) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not process_table.is_alive(grandchild)
    assert result.cancelled and not result.ok and result.findings == []
    assert result.tiers[0].status == "cancelled" and [t.status for t in result.tiers[1:]] == ["not_run"] * 3


@pytest.mark.network
@pytest.mark.slow
def test_quick_verify_streams_tiers_logs_and_cleans_ld_path(jax_cpu_env, tmp_path, monkeypatch):
    require_graphcast_src()
    stray = _cuda_lib_dir(tmp_path)
    monkeypatch.setenv("LD_LIBRARY_PATH", str(stray))
    seen, started = [], []
    result = verify_env(jax_cpu_env, backend="cpu", level="quick", runtime_env={"JAX_PLATFORMS": "cpu"},
                        on_tier=seen.append, on_tier_start=started.append)
    assert result.ok, json.dumps(result.to_dict(), indent=1)[-3000:]
    assert started == TIERS and [t.name for t in seen] == TIERS and seen == result.tiers
    init = result.tier("graphcast_jit_init")
    assert init.details["param_count"] == 55891 and init.details["grid"] == {"lat": 31, "lon": 60, "levels": 13}
    assert result.findings == []
    data = result.to_dict()
    assert {"ok", "env", "backend", "tiers", "findings", "log", "level"} <= set(data)
    assert data["backend"] == "cpu" and data["level"] == "quick" and data["env"] == str(jax_cpu_env)
    assert [r["dir"] for r in data["removed_paths"]] == [str(stray)]
    log = Path(result.log)
    assert log.parent == paths.logs_dir() and log.name.startswith("verify-")
    text = log.read_text()
    assert f"removed from LD_LIBRARY_PATH for this run: {stray}" in text
    assert "runtime_env: JAX_PLATFORMS=cpu" in text
    assert "Skipping gradient checkpointing" in text and '"param_count": 55891' in text


@pytest.mark.network
@pytest.mark.slow
def test_gpu_expected_on_cpu_fails_with_a_finding(jax_cpu_env_without_graphcast, tmp_path):
    log = tmp_path / "install.log"
    log.write_text("earlier install output\n")
    result = verify_env(jax_cpu_env_without_graphcast, backend="gpu", level="quick", log_path=log)
    assert not result.ok and result.backend == "gpu"
    assert result.failed_tier.name == "backend"
    assert [t.status for t in result.tiers] == ["passed", "failed", "not_run", "not_run"]
    assert [f.id for f in result.findings] == ["cpu_only_jaxlib"]
    assert log.read_text().startswith("earlier install output\n")  # appended, not replaced
    assert result.log == str(log)


@pytest.mark.network
@pytest.mark.slow
def test_missing_graphcast_is_diagnosed(jax_cpu_env_without_graphcast):
    result = verify_env(jax_cpu_env_without_graphcast, backend="auto", level="quick")
    assert not result.ok and result.backend == "cpu"
    assert result.failed_tier.name == "graphcast_jit_init"
    assert [f.id for f in result.findings] == ["graphcast_missing"]
    assert any("No module named 'graphcast'" in line for line in result.failed_tier.details["stderr_tail"])


@pytest.mark.network
@pytest.mark.slow
def test_cancel_stops_the_probe(jax_cpu_env_without_graphcast):
    cancel = threading.Event()
    result = verify_env(jax_cpu_env_without_graphcast, backend="cpu", level="quick", cancel=cancel,
                        on_tier_start=lambda name: cancel.set())
    assert result.cancelled and not result.ok and result.findings == []
    assert result.exit_status in (-signal.SIGTERM, -signal.SIGKILL)
    assert result.tiers[0].status == "cancelled" and result.tiers[0].error["type"] == "Cancelled"
    assert [t.status for t in result.tiers[1:]] == ["not_run"] * 3


@pytest.mark.network
@pytest.mark.slow
def test_timeout_is_reported(jax_cpu_env_without_graphcast):
    result = verify_env(jax_cpu_env_without_graphcast, backend="cpu", level="quick", timeout=0.5)
    assert result.timed_out and not result.ok
    assert [f.id for f in result.findings] == ["verify_timeout"]
    assert result.failed_tier.error["type"] == "Timeout"


@pytest.mark.network
@pytest.mark.slow
def test_a_probe_that_dies_is_still_diagnosed(jax_cpu_env_without_graphcast, tmp_path):
    # A GraphCast whose import dies the way cuDNN 8 aborts the process when a sub-library is missing.
    package = tmp_path / "src" / "graphcast"
    package.mkdir(parents=True)
    (package / "graphcast.py").write_text(
        "import os, sys\n"
        "sys.stderr.write('Could not load library libcudnn_cnn_infer.so.8. Error: libnvrtc.so: cannot open shared "
        "object file: No such file or directory\\n')\n"
        "sys.stderr.write('Please make sure libcudnn_cnn_infer.so.8 is in your library path!\\n')\n"
        "sys.stderr.flush()\n"
        "os.abort()\n")
    for name in ("casting", "autoregressive", "xarray_jax", "normalization"):  # DeepMind's layout
        (package / f"{name}.py").write_text("")
    result = verify_env(jax_cpu_env_without_graphcast, backend="cpu", level="quick", graphcast_src=tmp_path / "src")
    assert not result.ok and result.exit_status == -signal.SIGABRT
    failed = result.failed_tier
    assert failed.name == "graphcast_jit_init" and failed.error["type"] == "ProbeDied"
    assert "Please make sure libcudnn_cnn_infer.so.8 is in your library path!" in failed.details["stderr_tail"]
    assert [t.status for t in result.tiers[:3]] == ["passed", "passed", "skipped"]
    assert [f.id for f in result.findings] == ["cudnn_sublibrary_missing"]


# --------------------------------------------------------------------------------------------------
# The CLI


@pytest.mark.network
@pytest.mark.slow
def test_cli_verify_env_json_notebook_end_to_end(jax_cpu_env):
    require_graphcast_src()
    proc = run_inproc("verify", "--env", str(jax_cpu_env), "--json")
    assert proc.returncode == 0, proc.stderr[-3000:]
    data = last_json(proc)
    assert data["ok"] is True and data["backend"] == "cpu" and data["level"] == "notebook"
    assert [t["name"] for t in data["tiers"]] == TIERS
    init = data["tiers"][-1]
    assert init["param_count"] == 70739 and init["params_finite"] is True
    assert init["init_seconds"] > 0 and init["peak_rss_mib"] > 0
    assert data["findings"] == [] and Path(data["log"]).is_file()
    history = last_json(run_inproc("history", "--json"))
    assert any(e.get("env") == str(jax_cpu_env) and e.get("status") == "verified" for e in history)


@pytest.mark.network
@pytest.mark.slow
def test_cli_verify_reads_the_marker_and_fails_a_gpu_env_on_cpu(jax_cpu_env_without_graphcast):
    env = jax_cpu_env_without_graphcast
    marker = env / "gc-wizard-env.json"
    marker.write_text(json.dumps({"recipe": "jax0.4.23-cuda12-cudnn89", "backend": "gpu",
                                  "runtime_env": {"XLA_PYTHON_CLIENT_PREALLOCATE": "false"}}))
    try:
        proc = run_inproc("verify", "--env", str(env), "--level", "quick", env={"JAX_PLATFORMS": ""})
    finally:
        marker.unlink()
    assert proc.returncode == 1, proc.stderr
    assert "failed    backend" in proc.stdout or "failed   backend" in proc.stdout
    assert "Verification failed at JAX backend and devices" in proc.stdout
    assert "[cpu_only_jaxlib]" in proc.stdout and "Fix: " in proc.stdout
    assert "Traceback" not in proc.stderr


@pytest.mark.network
@pytest.mark.slow
def test_cli_verify_uses_the_current_env_and_its_marker(jax_cpu_env_without_graphcast):
    from wizard.history.store import Entry, load_history

    env = jax_cpu_env_without_graphcast
    history = load_history()
    entry = history.add(Entry(id=history.new_entry_id(), kind="install", recipe="jax0.4.23-cuda12-cudnn89",
                              env=str(env), status="verified"))
    history.make_current(entry)
    history.save()
    marker = env / "gc-wizard-env.json"
    marker.write_text(json.dumps({"recipe": "jax0.4.23-cuda12-cudnn89", "backend": "gpu", "runtime_env": {}}))
    try:
        proc = run_inproc("verify", "--level", "quick", "--json", env={"JAX_PLATFORMS": ""})
    finally:
        marker.unlink()
    assert proc.returncode == 1, proc.stderr
    data = last_json(proc)
    assert data["env"] == str(env) and data["backend"] == "gpu"
    assert [f["id"] for f in data["findings"]] == ["cpu_only_jaxlib"]
    recorded = [e for e in load_history().entries if e.kind == "verify"]
    assert recorded and recorded[-1].status == "failed" and recorded[-1].verify.failed_tier == "backend"


def test_cli_tier_lines_fit_80_columns_with_every_detail():
    """The live tier lines of `gc-wizard verify` (a real run's tiers) stay within 80 columns: a detail that
    does not fit beside the name goes below it, whole."""
    from wizard.commands.verify import _tier_line
    from wizard.flows.describe_check import tier_detail
    from wizard.verify.check import VerifyResult

    result = VerifyResult.from_dict(json.loads((TESTS / "data" / "verify-cpu-notebook.json").read_text()))
    for tier in result.tiers:
        text = _tier_line(tier, 80)
        assert all(len(line) <= 80 for line in text.splitlines()), text
        assert text.split()[:2] == [tier.status, tier.name]
        assert " ".join(text.split()[4:]) == " ".join(tier_detail(tier).split())
    assert _tier_line(result.tiers[1], 80).count("\n") == 0  # short enough for one line


def test_cli_verify_without_a_current_env_exits_2():
    proc = run_inproc("verify", "--json")
    assert proc.returncode == 2
    assert "no current environment" in proc.stderr and "--env" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_cli_verify_missing_env_folder_exits_2(tmp_path):
    proc = run_inproc("verify", "--env", str(tmp_path / "nope"))
    assert proc.returncode == 2 and str(tmp_path / "nope") in proc.stderr


def test_cli_verify_env_that_is_no_python_exits_2(tmp_path):
    proc = run_inproc("verify", "--env", str(tmp_path))
    assert proc.returncode == 2 and "not a Python environment" in proc.stderr


def test_log_names_do_not_collide(tmp_path, monkeypatch):
    from wizard.paths import new_log

    monkeypatch.setenv("GC_WIZARD_HOME", str(tmp_path))
    first = new_log("verify")
    first.parent.mkdir(parents=True)
    first.write_text("")
    assert new_log("verify") != first and os.path.dirname(new_log("verify")) == str(tmp_path / "logs")
    assert new_log("install", "20261122-181600-1") == tmp_path / "logs" / "install-20261122-181600-1.log"
