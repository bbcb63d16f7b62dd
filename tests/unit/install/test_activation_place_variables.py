"""A place-valued variable of JAX, XLA, the CUDA driver, NCCL, TensorFlow's logging, Triton or libtpu
(`runtime_env.PLACE_VARIABLES`: JAX_DUMP_IR_TO, JAX_COMPILATION_CACHE_DIR, CUDA_CACHE_PATH, NCCL_DEBUG_FILE …) from
the user's shell is held to the rule XLA_FLAGS' places are: one another user could swap (or a relative one) is left
out of what activation gives a shell, the kernel and verify's probe, and named with `unset NAME`; a safe one stays.

Before (34th hostile pass, part A, P5): `JAX_DUMP_IR_TO=<another user's folder>` reached verify's probe, which wrote
its IR there as root, through that user's link over a root file; only XLA_FLAGS' flags were held to the rule."""

from __future__ import annotations

import pytest

from tests.fixtures.modes import open_folder
from wizard.after.activate import activation_script
from wizard.install.activation import compute_activation
from wizard.recipes.runtime_env import PLACE_VARIABLES, name_problem
from wizard.verify.check import probe_environment


@pytest.mark.parametrize("variable", sorted(PLACE_VARIABLES))
def test_a_swappable_place_is_left_out_and_named(tmp_path, variable):
    env = tmp_path / "env"
    env.mkdir()
    place = str(open_folder(tmp_path / "ww") / "x")
    base = {"PATH": "/usr/bin:/bin", variable: place}
    act = compute_activation(env, base, marker={})
    assert variable in act.unset and variable not in act.set
    removal = next(r for r in act.removals if r.variable == variable)
    assert removal.folder == place and f"unset {variable}" in removal.reason, removal.reason
    assert PLACE_VARIABLES[variable] in removal.reason
    assert f"unset {variable}" in activation_script(act)
    child, removed = probe_environment(env, "cpu", base=base)
    assert variable not in child
    assert any(r["variable"] == variable and r["dir"] == place for r in removed), removed


@pytest.mark.parametrize("value", ["dumps", "./cache"])
def test_a_relative_place_is_left_out(tmp_path, value):
    env = tmp_path / "env"
    env.mkdir()
    act = compute_activation(env, {"PATH": "/usr/bin", "JAX_DUMP_IR_TO": value}, marker={})
    assert "JAX_DUMP_IR_TO" in act.unset


@pytest.mark.parametrize("value", ["{own}/dumps", "gs://bucket/cache"])
def test_a_safe_place_stays(tmp_path, value):
    env = tmp_path / "env"
    env.mkdir()
    own = tmp_path / "own"
    own.mkdir(mode=0o700)
    value = value.format(own=own)
    base = {"PATH": "/usr/bin", "JAX_COMPILATION_CACHE_DIR": value}
    act = compute_activation(env, base, marker={})
    assert "JAX_COMPILATION_CACHE_DIR" not in act.unset
    assert not [r for r in act.removals if r.variable == "JAX_COMPILATION_CACHE_DIR"]
    child, _removed = probe_environment(env, "cpu", base=base)
    assert child["JAX_COMPILATION_CACHE_DIR"] == value


@pytest.mark.parametrize("variable", sorted(PLACE_VARIABLES))
def test_a_recipe_may_set_none_of_them(variable):
    assert name_problem(variable) is not None
