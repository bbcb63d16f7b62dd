"""Saved facts give the verdicts live detection gives: `detect --json` carries the Pythons it found (walk 21 #8:
`recipes --facts f.json` said "the facts name no other Python" where live `recipes` named Python 3.13.0)."""

from __future__ import annotations

import json

from tests.fixtures.cli import run_inproc
from tests.fixtures.state import last_json
from wizard.detect.facts import Facts


def _stand_in_python(root, version: str):
    """An interpreter in pyenv's layout that answers the wizard's probe as `version` would."""
    python = root / "versions" / version / "bin" / "python3"
    python.parent.mkdir(parents=True)
    python.write_text(f'#!/bin/sh\nprintf "{version}\\n1\\n"\n')
    python.chmod(0o755)
    return python


def test_detect_json_carries_the_pythons_and_saved_facts_give_the_same_verdicts(
        tmp_path, monkeypatch, only_the_wizards_python, isolated_state):
    python = _stand_in_python(tmp_path / "pyenv", "3.13.0")
    monkeypatch.setenv("PYENV_ROOT", str(tmp_path / "pyenv"))
    data = last_json(run_inproc("detect", "--json"))
    assert {"version": "3.13.0", "executable": str(python)} in data["pythons"]
    saved = tmp_path / "facts.json"
    saved.write_text(json.dumps(data))
    assert Facts.from_dict(json.loads(saved.read_text())).pythons is not None

    def verdicts(*args: str) -> list[str]:
        text = " ".join(run_inproc("recipes", *args).stdout.split())
        return [part for part in text.split(" ! ") if "Python" in part]

    live, from_file = verdicts(), verdicts("--facts", str(saved))
    assert any(f"will use Python 3.13.0 ({python})" in line for line in live), live
    assert from_file == live
    assert not any("the facts name no other Python" in line for line in from_file)


def test_facts_saved_by_an_older_wizard_say_their_pythons_are_not_known():
    data = Facts.from_dict(json.loads(json.dumps(_minimal()))).to_dict()
    assert data["pythons"] is None


def _minimal() -> dict:
    return {"driver": None, "gpus": [], "cuda_libraries": [], "python": {"version": "3.11.7", "executable": "/p"},
            "environment": {"kind": "system", "path": "/usr"}, "disk": {"state_free_gib": 1.0}}
