"""`gc-wizard forecast`'s arguments and refusals, in-process: exit 2 and one sentence for bad input, before
anything downloads or runs; `--list` of a folder; the failure JSON under `--json`."""

from __future__ import annotations

import json

import pytest

from tests.fixtures.cli import run_inproc
from tests.fixtures.envs import python_link_env
from tests.fixtures.state import last_json
from wizard.after import assets
from wizard.install.envs import Env

SMALL = assets.DEFAULT_MODEL


def _source(tmp_path):
    root = tmp_path / "source"
    for rel in (f"params/{SMALL}", "dataset/source-era5_date-2022-01-01_res-1.0_levels-13_steps-01.nc",
                *(f"stats/{s}" for s in assets.STATS_FILES)):
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_bytes(b"CDF\x01")
    return root


@pytest.mark.parametrize("argv, words", [
    (["--steps", "0"], "give 1 to 40"),
    (["--steps", "two"], "not a whole number"),
    (["--assets", "/no/such/folder"], "--assets /no/such/folder: no such folder."),
    (["--assets", "ftp://mirror/x"], "only a folder or an http(s):// URL"),
    (["--env", "/no/such/env"], "does not exist"),
])
def test_bad_input_is_exit_2_and_one_sentence(tmp_path, argv, words):
    proc = run_inproc("forecast", *argv, "--json")
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert words in proc.stderr and "Traceback" not in proc.stderr
    assert last_json(proc)["ok"] is False and last_json(proc)["exit"] == 2


def test_a_model_that_matches_nothing_is_refused_before_anything_runs(tmp_path):
    # a venv's: its python is this env's (paths.guard_env_python)
    env = python_link_env(tmp_path / "env", to="/bin/false", cfg="home = /bin\n")
    proc = run_inproc("forecast", "--env", str(env), "--assets", str(_source(tmp_path)), "--model", "GenCast")
    assert proc.returncode == 2 and "--model 'GenCast': no file under params/ matches" in proc.stderr
    assert "forecast --list" in proc.stderr


def test_list_prints_the_folder_by_kind(tmp_path):
    proc = run_inproc("forecast", "--list", "--assets", str(_source(tmp_path)))
    assert proc.returncode == 0
    assert "  params/" in proc.stdout and SMALL in proc.stdout and "stats/mean_by_level.nc" in proc.stdout
    listed = json.loads(run_inproc("forecast", "--list", "--assets", str(_source(tmp_path)), "--json").stdout)
    assert len(listed["files"]) == 5 and listed["ok"]


def test_list_of_a_mirror_that_refuses_every_request_fails_and_names_the_refusal(tmp_path, assets_server):
    # nineteenth hostile pass P7: `--list` said {"ok": true, "files": []} (exit 0) for a server answering 403
    server = assets_server(_source(tmp_path))
    server.refuse = 403
    proc = run_inproc("forecast", "--list", "--assets", f"{server.url}gc/", "--json")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert f"{server.url}gc/SHA256SUMS answered HTTP 403 (Forbidden)" in proc.stderr
    assert last_json(proc)["ok"] is False and "Traceback" not in proc.stderr


def test_the_assets_variable_is_the_default_source(tmp_path):
    proc = run_inproc("forecast", "--list", env={"GC_WIZARD_ASSETS": str(_source(tmp_path))})
    assert proc.returncode == 0 and SMALL in proc.stdout


def test_bundle_chooses_the_forecast_files_before_downloading_anything(tmp_path):
    out = tmp_path / "bundle"
    proc = run_inproc("bundle", "jax0.4.23-cpu", "--out", str(out), "--with-assets", "--assets",
                      str(_source(tmp_path)), "--model", "nope")
    assert proc.returncode == 2 and "--model 'nope': no file under params/ matches" in proc.stderr
    assert not out.exists()
    alone = run_inproc("bundle", "jax0.4.23-cpu", "--out", str(out), "--model", "small")
    assert alone.returncode == 2 and "add --with-assets" in alone.stderr and not out.exists()


def test_assets_typed_before_the_command_counts_too(tmp_path):
    proc = run_inproc("--assets", str(_source(tmp_path)), "forecast", "--list")
    assert proc.returncode == 0 and SMALL in proc.stdout


def _env_whose_bucket_is_unreachable(tmp_path, monkeypatch, closed_indexes):
    """An environment of recipe jax0.4.23-cpu (its python never runs: the files are not had first), and the bucket
    and its listing at a loopback port nobody answers."""
    from wizard.install.envs import write_marker

    dead = closed_indexes.replace("/simple/", "/")
    monkeypatch.setattr(assets, "BUCKET_URL", f"{dead}dm_graphcast/")
    monkeypatch.setattr(assets, "BUCKET_LISTING", f"{dead}storage/v1/b/dm_graphcast/o")
    # a venv's: its python is this env's (paths.guard_env_python)
    env = python_link_env(tmp_path / "env", to="/bin/false", cfg="home = /bin\n")
    write_marker(env, {"recipe": "jax0.4.23-cpu", "title": "t", "backend": "cpu"})
    return env


def test_an_unreachable_bucket_is_a_forecast_result_with_its_finding_and_a_command_that_works(tmp_path, monkeypatch,
                                                                                               closed_indexes):
    """Walk 18: `forecast --json` with no route to the bucket gave only {ok, error, exit}, and its words named
    `gc-wizard bundle RECIPE` and a bare `gc-wizard` that was not on PATH. Now it is the documented shape, with the
    cause as a finding, the env's recipe in the gathering command and this machine's command for the last step."""
    from wizard.paths import wizard_command

    env = _env_whose_bucket_is_unreachable(tmp_path, monkeypatch, closed_indexes)
    proc = run_inproc("forecast", "--env", str(env), "--json")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    data = last_json(proc)
    assert {"log", "findings", "cancelled", "assets", "error"} <= set(data) and not data["ok"]
    assert [f["id"] for f in data["findings"]][:1] == ["assets_unreachable"]
    # Walk 19 #5: the cause is the error, the fix is said once (the finding's), with the env's recipe in it.
    assert data["error"].startswith("cannot reach 127.0.0.1: ") and "bundle" not in data["error"]
    fix = data["findings"][0]["fix"]
    # the gathering command runs on the other machine: gc-wizard as installed there, never this machine's (walk 37 #4)
    assert "`.venv/bin/gc-wizard bundle jax0.4.23-cpu --out DIR --with-assets`" in fix
    assert f"`{wizard_command()} forecast --assets DIR/assets`" in fix and "RECIPE" not in json.dumps(data)
    assert data["model"].startswith("GraphCast_small") and data["dataset"].startswith("source-era5")
    assert data["findings"][0]["evidence"] == [data["error"]]  # the cause, not the fix again (walk 21 #3)
    text = run_inproc("forecast", "--env", str(env))
    assert text.returncode == 1 and "Traceback" not in text.stderr
    shown = " ".join((text.stdout + text.stderr).split())
    assert "The forecast's files could not be fetched from here" in shown
    assert shown.count("--with-assets") == 1 and "RECIPE" not in shown


def test_a_forecast_that_got_no_files_leaves_a_log_the_report_shows(tmp_path, monkeypatch, closed_indexes):
    """Walk 18: the support report had no trace of the failed forecast. It has a log now, and the report a section."""
    from wizard.after.report import build_report

    env = _env_whose_bucket_is_unreachable(tmp_path, monkeypatch, closed_indexes)
    data = last_json(run_inproc("forecast", "--env", str(env), "--json"))
    assert data["log"] and "cannot reach 127.0.0.1" in open(data["log"]).read()
    report = build_report(None, [], environ={}, redacted=False)
    assert "## Last forecast" in report and data["log"] in report and "assets_unreachable" in report


def test_forecast_help_says_what_slurm_does_for_a_forecast():
    """Walk 22 #10: `forecast --help` gave --slurm the install's words ("detect and verify …; the install runs
    here"). It says the forecast runs on the node and where its files and predictions go."""
    proc = run_inproc("forecast", "--help", env={"COLUMNS": "200"})
    slurm = " ".join(proc.stdout.split("--slurm [PARTITION]")[-1].split("--srun-arg")[0].split())
    assert slurm.startswith("run the forecast on a GPU node through srun") and "install" not in slurm, slurm
    assert "the install runs here" in run_inproc("verify", "--help", env={"COLUMNS": "200"}).stdout


def test_without_the_bucket_the_fix_and_help_say_how_gc_wizard_gets_to_the_other_machine(tmp_path, monkeypatch,
                                                                                          closed_indexes):
    """Walk 28 #17: the fix sent the user to run `gc-wizard bundle` on another machine without saying how gc-wizard gets
    there (the app's lines did: it is not on PyPI), and `forecast --help` said nothing of a server without the bucket.
    The five files, the simpler route, come first."""
    from wizard.after.next_steps import carry_words

    env = _env_whose_bucket_is_unreachable(tmp_path, monkeypatch, closed_indexes)
    fix = last_json(run_inproc("forecast", "--env", str(env), "--json"))["findings"][0]["fix"]
    assert f"({carry_words()})" in fix and "gc-wizard is not on PyPI" in fix
    assert fix.index("copy these five files") < fix.index("`.venv/bin/gc-wizard bundle jax0.4.23-cpu --out DIR")
    helped = " ".join(run_inproc("forecast", "--help", env={"COLUMNS": "80"}).stdout.split("example:")[-1].split())
    assert "Without storage.googleapis.com (the bucket) here:" in helped and "--assets DIR here" in helped
    assert "it is not on PyPI: `pip install` a copy of this checkout" in helped
    assert "`.venv/bin/gc-wizard bundle RECIPE --out DIR --with-assets`" in helped


def test_a_forecast_never_runs_an_env_python_that_leads_to_a_script(tmp_path):
    """24th hostile pass (part B) P7: the forecast runs the env's python, so it is held to the guard of every run
    of one (`paths.guard_env_python`): a bin/python leading to a script (which may start any Python) is refused
    before anything is fetched or run."""
    ran = tmp_path / "ran"
    script = tmp_path / "wrap" / "python"
    script.parent.mkdir()
    script.write_text(f"#!/bin/sh\ntouch {ran}\nexec /bin/false\n")
    script.chmod(0o755)
    env = python_link_env(tmp_path / "env", to=script, cfg="home = /bin\n")
    proc = run_inproc("forecast", "--env", str(env), "--assets", str(_source(tmp_path)), "--json")
    error = last_json(proc)["error"]
    assert proc.returncode == 1 and f"{script}, a script" in error and "nothing was run" in error, error
    assert not ran.exists() and "Traceback" not in proc.stderr


def test_the_folder_the_last_forecast_used_is_named_by_the_failure_and_the_next_lines(tmp_path, monkeypatch,
                                                                                      closed_indexes):
    """walk 23 #4: after forecasts from a lab folder, `forecast` without --assets failed on the
    unreachable bucket with no word of that folder, and the next install's "Next:" said `--assets DIR/assets`. The
    folder is kept in the state folder (`assets_memory`; a real successful forecast records it:
    tests/e2e/test_forecast.py) and named in both; a URL is never kept (it may carry a password)."""
    import shlex

    from wizard.after.assets_memory import remember_assets, remembered_assets
    from wizard.after.next_steps import assets_question, next_step_lines
    from wizard.paths import program_command

    env = _env_whose_bucket_is_unreachable(tmp_path, monkeypatch, closed_indexes)
    lab = _source(tmp_path / "lab assets")
    before = " ".join(" ".join(next_step_lines("jax0.4.23-cpu", unreachable="storage.googleapis.com")).split())
    assert "--assets DIR/assets" in before and str(lab) not in before
    remember_assets("https://me:secret@mirror.example/gc/")
    assert remembered_assets() is None  # never a URL
    remember_assets(str(lab))
    assert remembered_assets() == str(lab)
    # Without --assets, `forecast` now takes that folder itself (walk 26 #13: `assets_place`, tested below); a source
    # given that fails still names it first.
    data = last_json(run_inproc("forecast", "--env", str(env), "--assets", assets.BUCKET_URL, "--json"))
    fix = data["findings"][0]["fix"]
    assert fix.startswith(f"Your last forecast used --assets {lab}: give it again (`{program_command()} forecast "
                          f"--assets {shlex.quote(str(lab))}`).") and "--with-assets" in fix, fix
    after = next_step_lines("jax0.4.23-cpu", unreachable="storage.googleapis.com")
    shown = [word for word in " ".join(after).split() if word not in ("#", "\\")]  # as read, comments and rows joined
    assert f"--assets {shlex.quote(str(lab))}".split() == shown[shown.index("--assets"):shown.index("--assets") + 3]
    assert "the folder your last forecast used" in " ".join(shown) and "DIR/assets" not in " ".join(shown)
    assert assets_question("storage.googleapis.com", "jax0.4.23-cpu", remembered_assets()).endswith(
        f"Your last forecast used {lab}: Enter takes it.")
    import shutil

    shutil.rmtree(lab)
    assert remembered_assets() is None  # a folder gone since is not offered


TINY = "GraphCast_tiny - test - resolution 10.0 - pressure levels 13 - mesh 2to5 - precipitation input and output.npz"


def _lab_folder(root):
    """A lab folder as walk 23 had: only the 10° test model, a 10° dataset of 4 steps and the three stats files."""
    for rel in (f"params/{TINY}", "dataset/source-era5_date-2016-01-01_res-10.0_levels-13_steps-04.nc",
                *(f"stats/{s}" for s in assets.STATS_FILES)):
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_bytes(b"CDF\x01")
    return root


def test_a_forecast_says_which_model_ran_when_it_is_not_the_announced_one(tmp_path):
    """walk 23 #5: the Done screen announced GraphCast_small at 1°, and the lab folder's 10° test
    model ran without a word. The choice is `assets.select`'s, and the result carries why (`note`) whatever the run
    does after (here the env's python is /bin/false: the files are chosen first, then the child fails)."""
    from wizard.install.envs import write_marker

    # a venv, as `paths.guard_env_python` asks of every env run
    env = python_link_env(tmp_path / "env", to="/bin/false", cfg="home = /bin\n")
    write_marker(env, {"recipe": "jax0.4.23-cpu", "title": "t", "backend": "cpu"})
    lab = _lab_folder(tmp_path / "lab")
    data = last_json(run_inproc("forecast", "--env", str(env), "--assets", str(lab), "--json"))
    assert data["model"] == TINY
    assert data["note"] == ("the source has no GraphCast_small; used the only model there (GraphCast_tiny, a test "
                            "model at 10°)"), data
    asked = last_json(run_inproc("forecast", "--env", str(env), "--assets", str(lab), "--model", "tiny", "--json"))
    assert asked["model"] == TINY and asked["note"] is None  # asked for: nothing to explain


def test_the_folder_above_the_assets_is_told_the_folder_inside_it(tmp_path):
    """Walk 25 #8: `--assets /lab` (the folder above `assets/`) said "the source has no params/ files" and repeated
    the five-file recipe, never naming `/lab/assets` right there. Both `--list` and a forecast say it, exit 2."""
    lab = tmp_path / "lab"
    source = _source(lab)
    (lab / "bin").mkdir()
    listed = run_inproc("forecast", "--list", "--assets", str(lab))
    assert listed.returncode == 2, listed.stdout + listed.stderr
    assert (f"--assets {lab} holds no params/, dataset/ or stats/, but {source} inside it does: give --assets "
            f"{source}.") in " ".join(listed.stderr.split())
    env = python_link_env(tmp_path / "env", to="/bin/false", cfg="home = /bin\n")
    run = run_inproc("forecast", "--env", str(env), "--assets", str(lab), "--json")
    assert run.returncode == 2 and f"give --assets {source}." in last_json(run)["error"]
    # A folder laid out like the bucket under graphcast/ is a source itself, not the folder above one.
    bucket = tmp_path / "bucket"
    bucket.mkdir()
    _source(tmp_path / "b0").rename(bucket / "graphcast")
    assert run_inproc("forecast", "--list", "--assets", str(bucket)).returncode == 0


def test_list_without_assets_lists_the_place_forecast_takes_and_says_which(tmp_path, monkeypatch, closed_indexes):
    """walk 26 #13: `forecast --list` without --assets failed with "cannot reach storage.googleapis.com" while
    `forecast` and the app's f used the lab folder remembered from the last forecast. One resolver of that place
    (`after.forecast.assets_place`) for all three: --list lists it and says which folder it is, and why."""
    from wizard.after.assets_memory import remember_assets
    from wizard.after.forecast import ForecastRequest, prepare

    env = _env_whose_bucket_is_unreachable(tmp_path, monkeypatch, closed_indexes)
    lab = _source(tmp_path / "lab assets")
    remember_assets(str(lab))
    proc = run_inproc("forecast", "--list", "--env", str(env))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines()[0] == f"In {lab}/ (the folder your last forecast used):", proc.stdout
    assert f"params/{SMALL}" in proc.stdout and "Traceback" not in proc.stderr
    assert last_json(run_inproc("forecast", "--list", "--json"))["source"].rstrip("/") == str(lab)  # no --env
    source, _ = prepare(ForecastRequest(env=Env.at(str(env)), assets=None))  # what `forecast` and f read
    assert source.location.rstrip("/") == str(lab)
    monkeypatch.setenv("GC_WIZARD_ASSETS", str(lab))  # the variable still comes first
    assert "(from GC_WIZARD_ASSETS):" in run_inproc("forecast", "--list").stdout.splitlines()[0]
