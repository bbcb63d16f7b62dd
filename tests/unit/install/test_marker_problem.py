"""An env marker that is there but cannot be used is named as such, never as "not built by gc-wizard" (fifth hostile
pass 3c: a 500 MB gc-wizard-env.json read as missing, and the recipe's runtime variables were dropped without a
word). New cases of the class: a marker just over the cap, one that is not UTF-8, one that is a JSON list."""

from __future__ import annotations

import json

import pytest

from wizard.after.activate import activation_script
from wizard.after.module import module_text
from wizard.install.activation import compute_activation
from wizard.install.envs import MARKER, marker_problem


@pytest.mark.parametrize("content, words", [
    (json.dumps({"recipe": "tiny-a", "runtime_env": {"JAX_GC_TINY": "x"}, "pad": "p" * (1024 * 1024)}).encode(),
     "larger than 1 MiB"),
    (b'{"recipe": "tiny-\xff"}', "not UTF-8"),
    (b'["tiny-a"]', "not a JSON object"),
])
def test_a_marker_that_cannot_be_used_is_named_by_every_reader(tmp_path, content, words):
    env = tmp_path / "env"
    (env / "bin").mkdir(parents=True)
    (env / MARKER).write_bytes(content)
    problem = marker_problem(env)
    assert problem is not None and str(env / MARKER) in problem and words in problem
    note = compute_activation(env, {"PATH": "/usr/bin"}).notes[0]
    assert words in note and "not built by gc-wizard" not in note and "runtime variables are not set" in note
    assert words in activation_script(compute_activation(env, {"PATH": "/usr/bin"}))
    assert words in module_text(env, environ={"PATH": "/usr/bin"})


def test_a_missing_or_good_marker_is_no_problem(tmp_path):
    env = tmp_path / "env"
    (env / "bin").mkdir(parents=True)
    assert marker_problem(env) is None
    assert "not built by gc-wizard" in compute_activation(env, {"PATH": "/usr/bin"}).notes[0]
    (env / MARKER).write_text(json.dumps({"recipe": "tiny-a"}))
    assert marker_problem(env) is None
