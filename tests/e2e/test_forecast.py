"""`gc-wizard forecast`: the demo notebook's forecast, for real, in a real environment built from the CPU recipe.

GraphCast v0.1.1 (from GC_WIZARD_GRAPHCAST_SRC; skipped without it) rolls out a tiny real checkpoint on a
10° grid that GraphCast's own code wrote (tests/fixtures/forecast), from a folder, from a loopback HTTP
mirror with SHA256SUMS, in both NetCDF formats; a tampered file is refused by name; Ctrl-C in the slowest
step leaves nothing running and no traceback.
"""

from __future__ import annotations

import json
import shutil
import signal
import subprocess
import sys
import time

import pytest

from tests.fixtures.assets_server import write_sums
from tests.fixtures.forecast import MODEL, make_assets
from tests.fixtures.processes import no_traceback, wait_until
from tests.fixtures.state import REPO, last_json, run_cli

pytestmark = [pytest.mark.network, pytest.mark.slow]
KEYS = {"ok", "env", "graphcast_version", "model", "dataset", "steps", "backend", "devices", "finite", "seconds",
        "peak_rss_mib", "peak_device_mib", "output", "assets"}


def _netcdf_magic(path) -> bytes:
    with open(path, "rb") as handle:
        return handle.read(4)


def test_a_first_forecast_from_a_folder(forecast_env, forecast_assets, isolated_state):
    proc = run_cli("forecast", "--env", str(forecast_env), "--assets", str(forecast_assets), "--steps", "2", "--json")
    assert proc.returncode == 0, proc.stderr + proc.stdout
    result = last_json(proc)
    assert KEYS <= set(result)
    assert result["ok"] and result["finite"] and result["backend"] == "cpu" and result["steps"] == 2
    assert result["model"] == MODEL and result["graphcast_version"] == "0.1.1"
    assert set(result["seconds"]) == {"load", "compile", "rollout"} and result["peak_device_mib"] is None
    assert result["peak_rss_mib"] > 0
    output = isolated_state / "forecasts"
    assert result["output"].startswith(str(output)) and _netcdf_magic(result["output"])[:3] in (b"CDF", b"\x89HD")
    assert result["assets"] == {**result["assets"], "verified": False, "checked": "none", "downloaded": []}
    # walk 23 #4: the folder a forecast worked from is kept for the next failure and Next: lines.
    from wizard.after.assets_memory import remembered_assets

    assert remembered_assets() == str(forecast_assets.resolve())
    refused = run_cli("forecast", "--env", str(forecast_env), "--assets", str(forecast_assets), "--model", "nope")
    assert refused.returncode == 2 and "A first forecast" not in refused.stdout  # nothing said to have started
    assert f"--list --assets {forecast_assets}" in refused.stderr
    no_traceback(proc.stderr)
    text = run_cli("forecast", "--env", str(forecast_env), "--assets", str(forecast_assets))
    assert text.returncode == 0 and "GraphCast forecasts here: 1 step on the CPU, every value finite." in text.stdout
    assert f"    {isolated_state / 'forecasts'}" in text.stdout  # the output path whole, on its own line


def test_from_a_mirror_with_sums_it_downloads_once_and_verifies(forecast_env, forecast_assets, assets_server,
                                                                 tmp_path, isolated_state):
    mirror = shutil.copytree(forecast_assets, tmp_path / "mirror")
    write_sums(mirror)
    server = assets_server(mirror)
    first = last_json(run_cli("forecast", "--env", str(forecast_env), "--assets", server.url, "--json"))
    assert first["ok"] and first["assets"]["verified"] and len(first["assets"]["downloaded"]) == 5
    assert list((isolated_state / "assets").rglob("*.npz"))
    again = last_json(run_cli("forecast", "--env", str(forecast_env), "--assets", server.url, "--json"))
    assert again["ok"] and again["assets"]["downloaded"] == []


def test_netcdf4_files_are_read_with_h5netcdf(forecast_env, tmp_path):
    root = make_assets(forecast_env, tmp_path / "nc4", fmt="netcdf4")
    assert _netcdf_magic(root / "stats" / "mean_by_level.nc") == b"\x89HDF"
    result = last_json(run_cli("forecast", "--env", str(forecast_env), "--assets", str(root), "--json"))
    assert result["ok"], result


def test_a_tampered_file_is_refused_by_name_and_nothing_runs(forecast_env, forecast_assets, tmp_path,
                                                             isolated_state):
    mirror = shutil.copytree(forecast_assets, tmp_path / "mirror")
    write_sums(mirror)
    target = next((mirror / "dataset").glob("*.nc"))
    data = bytearray(target.read_bytes())
    data[len(data) // 2] ^= 0xFF
    target.write_bytes(bytes(data))
    proc = run_cli("forecast", "--env", str(forecast_env), "--assets", str(mirror), "--json")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert str(target) in proc.stderr and "fails its checksum" in proc.stderr
    assert last_json(proc)["ok"] is False
    no_traceback(proc.stderr, proc.stdout)
    assert not list((isolated_state / "forecasts").glob("*.nc")) if (isolated_state / "forecasts").exists() else True


def test_ctrl_c_in_the_slowest_step_stops_everything_quietly(forecast_env, forecast_assets, isolated_state):
    proc = subprocess.Popen([sys.executable, "-m", "wizard", "forecast", "--env", str(forecast_env), "--assets",
                             str(forecast_assets), "--steps", "4"], cwd=REPO, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    logs = isolated_state / "logs"
    wait_until(lambda: any("gc-wizard-forecast: {\"stage\": \"import\"" in p.read_text()
                           for p in logs.glob("forecast-*.log")) if logs.exists() else False,
               "the forecast to start importing JAX", timeout=120, proc=proc)
    time.sleep(0.5)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, out + err
    no_traceback(out, err)
    ps = subprocess.run(["ps", "-eo", "args"], capture_output=True, text=True).stdout
    assert "forecast_probe.py" not in ps or str(forecast_env) not in ps
    assert not list((isolated_state / "forecasts").glob("*.nc"))


def test_list_shows_the_source(forecast_assets):
    proc = run_cli("forecast", "--list", "--assets", str(forecast_assets), "--json")
    files = json.loads(proc.stdout.splitlines()[-1])["files"]
    assert {f["kind"] for f in files} == {"params", "dataset", "stats"}


def _first_finding(proc) -> str:
    findings = last_json(proc)["findings"]
    assert findings, proc.stdout + proc.stderr
    return findings[0]["id"]


@pytest.mark.parametrize("what, kind", [("params", "a numpy .npz (zip) archive"), ("stats", "a NetCDF file")])
def test_a_file_that_is_not_what_it_claims_is_refused_by_name_before_anything_loads(forecast_env, forecast_assets,
                                                                                     tmp_path, what, kind):
    mirror = shutil.copytree(forecast_assets, tmp_path / "mirror")  # no SHA256SUMS: only its first bytes tell
    target = next((mirror / what).iterdir())
    target.write_text("<html><body>403 Forbidden</body></html>\n")  # what a proxy saves under the name
    proc = run_cli("forecast", "--env", str(forecast_env), "--assets", str(mirror), "--json")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert f"{target} is not {kind}" in proc.stderr and "HTML page" in proc.stderr
    assert last_json(proc)["ok"] is False
    no_traceback(proc.stdout, proc.stderr)


def test_values_that_are_not_finite_fail_the_forecast(forecast_env, forecast_assets, tmp_path):
    mirror = shutil.copytree(forecast_assets, tmp_path / "mirror")
    broken = tmp_path / "broken.py"  # stddev 0: the inputs are divided by zero, for real
    broken.write_text("import sys, xarray\nds = xarray.load_dataset(sys.argv[1])\n(ds * 0).to_netcdf(sys.argv[1] + '.new')\n")
    stats = mirror / "stats" / "stddev_by_level.nc"
    subprocess.run([str(forecast_env / "bin" / "python"), str(broken), str(stats)], check=True)
    stats.with_name(stats.name + ".new").replace(stats)
    proc = run_cli("forecast", "--env", str(forecast_env), "--assets", str(mirror), "--json")
    result = last_json(proc)
    assert proc.returncode == 1 and not result["ok"] and not result["finite"] and result["output"] is None
    assert _first_finding(proc) == "nan_in_forecast"


def test_an_environment_without_the_netcdf4_reader_is_named(forecast_env, tmp_path):
    from uv import find_uv_bin

    root = make_assets(forecast_env, tmp_path / "nc4", fmt="netcdf4")
    env = tmp_path / "no-h5netcdf"
    shutil.copytree(forecast_env, env, symlinks=True)
    subprocess.run([find_uv_bin(), "pip", "uninstall", "-q", "--python", str(env / "bin" / "python"), "h5netcdf"],
                   check=True, capture_output=True)
    proc = run_cli("forecast", "--env", str(env), "--assets", str(root), "--json")
    assert proc.returncode == 1 and _first_finding(proc) == "netcdf_engine_missing", proc.stdout
