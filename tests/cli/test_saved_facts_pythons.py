"""Saved facts give the verdicts live detection gives on the machine they were read on (walk 21 #8: `recipes --facts
f.json` said "the facts name no other Python" where live `recipes` named Python 3.13.0), and say they cannot know
another machine's Pythons."""

from __future__ import annotations

import json

from tests.fixtures.cli import run_inproc
from tests.fixtures.state import last_json


def _stand_in_python(root, version: str):
    """An interpreter in pyenv's layout that answers the wizard's probe as `version` would."""
    python = root / "versions" / version / "bin" / "python3"
    python.parent.mkdir(parents=True)
    python.write_text(f'#!/bin/sh\nprintf "{version}\\n1\\n"\n')
    python.chmod(0o755)
    return python


def _python_verdicts(*args: str) -> list[str]:
    text = " ".join(run_inproc("recipes", *args).stdout.split())
    return [part for part in text.split(" ! ") if "Python" in part]


def test_facts_saved_on_this_machine_give_the_verdicts_live_recipes_gives(
        tmp_path, monkeypatch, only_the_wizards_python, isolated_state):
    python = _stand_in_python(tmp_path / "pyenv", "3.13.0")
    monkeypatch.setenv("PYENV_ROOT", str(tmp_path / "pyenv"))
    saved = tmp_path / "facts.json"
    saved.write_text(json.dumps(last_json(run_inproc("detect", "--json"))))
    live, from_file = _python_verdicts(), _python_verdicts("--facts", str(saved))
    assert any(f"will use Python 3.13.0 ({python})" in line for line in live), live
    assert from_file == live
    assert not any("the facts name no other Python" in line for line in from_file)


def test_facts_saved_on_another_machine_say_its_pythons_are_not_known(
        tmp_path, monkeypatch, only_the_wizards_python, isolated_state):
    _stand_in_python(tmp_path / "pyenv", "3.13.0")
    monkeypatch.setenv("PYENV_ROOT", str(tmp_path / "pyenv"))
    data = last_json(run_inproc("detect", "--json"))
    data["host"] = "gpu-node-017"
    saved = tmp_path / "facts.json"
    saved.write_text(json.dumps(data))
    from_file = _python_verdicts("--facts", str(saved))
    assert not any("3.13.0" in line for line in from_file), from_file

