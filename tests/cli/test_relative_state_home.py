"""A relative `GC_WIZARD_HOME` (eighteenth hostile pass P10): the history recorded `state/logs/…` and
`state/envs/…`, which led nowhere once read from any other folder. The state folder is made absolute against
the folder gc-wizard started in, so what it records names the same files from everywhere."""

from __future__ import annotations

import json
from pathlib import Path

from tests.fixtures.state import last_json, run_cli


def test_a_relative_state_home_records_absolute_paths_that_work_from_elsewhere(tiny, tmp_path):
    work = tmp_path / "work"
    work.mkdir()
    installed = run_cli("install", "tiny-a", "--yes", "--json", "--no-verify", *tiny.args(),
                        env={"GC_WIZARD_HOME": "state"}, cwd=work)
    assert installed.returncode == 0, installed.stdout + installed.stderr
    result = last_json(installed)
    for key in ("env", "log"):
        assert Path(result[key]).is_absolute() and Path(result[key]).exists(), (key, result[key])
        assert Path(result[key]).is_relative_to(work / "state"), (key, result[key])

    listed = run_cli("history", "--json", env={"GC_WIZARD_HOME": str(work / "state")}, cwd=tmp_path)
    assert listed.returncode == 0, listed.stderr
    (entry,) = json.loads(listed.stdout)
    assert entry["log"] == result["log"] and entry["env"] == result["env"]


def test_a_relative_xdg_data_home_is_ignored_as_the_spec_says(monkeypatch, tmp_path):
    from wizard import paths

    monkeypatch.delenv("GC_WIZARD_HOME", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("XDG_DATA_HOME", "relative/data")
    assert paths.state_dir() == tmp_path / ".local" / "share" / "gc-wizard"
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert paths.state_dir() == tmp_path / "data" / "gc-wizard"
    monkeypatch.setenv("GC_WIZARD_HOME", "rel/state")
    monkeypatch.chdir(tmp_path)
    assert paths.state_dir() == tmp_path / "rel" / "state"
