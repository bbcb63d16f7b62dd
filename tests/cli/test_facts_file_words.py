"""A facts file that is not what `detect --json` writes is named in words (walk 22 #9: `('python')`,
`Driver() missing required argument: 'cuda_driver_version'`, `Expecting value: line 1 column 7 (char 6)`)."""

from __future__ import annotations

import json

import pytest

from tests.fixtures.cli import bare_program, run_inproc
from tests.fixtures.state import last_json


@pytest.fixture
def saved(tmp_path, isolated_state):
    return last_json(run_inproc("detect", "--json")), tmp_path / "facts.json"


def _said(path) -> str:
    proc = run_inproc("recipes", "--facts", str(path))
    assert proc.returncode == 2, proc.stdout + proc.stderr
    return " ".join(proc.stderr.split())


def test_a_missing_key_is_named(saved):
    data, path = saved
    del data["python"]
    path.write_text(json.dumps(data))
    assert "the key 'python' is missing" in _said(path)


def test_a_missing_or_unknown_field_of_an_entry_is_named(saved):
    data, path = saved
    data["driver"] = {"version": "535.104.05", "source": "nvml"}
    path.write_text(json.dumps(data))
    assert "a Driver entry has no 'cuda_driver_version'" in _said(path)
    data["driver"] = None
    data["disk"] = {**data["disk"], "colour": "red"}
    path.write_text(json.dumps(data))
    assert "a DiskInfo entry has a key 'colour' detect does not write" in _said(path)


def test_detect_s_text_saved_instead_of_its_json_says_so(tmp_path, isolated_state):
    path = tmp_path / "facts.txt"
    path.write_text(run_inproc("detect").stdout)
    said = bare_program(_said(path))
    assert "save `gc-wizard detect --json > FILE` instead" in said and "Expecting value" not in said
