"""A flag variable XLA reads as a FILE of flags (XLA_FLAGS, TF_XLA_FLAGS … whose value does not start with `-`) is
left out of what activation gives a shell, the kernel and verify's probe, and named with `unset`: its flags are not
in the variable, so nothing could judge the places they name. TF_XLA_FLAGS's own flags are held to the rule
XLA_FLAGS's are.

Before (33rd hostile pass, part B, P1): `XLA_FLAGS=<another user's file>` holding `--xla_dump_to=<their folder>`
passed 32B P3's rule (it looked only at `--xla_…` words); verify's probe dumped there as root, through their
links, and nothing named XLA_FLAGS."""

from __future__ import annotations

import pytest

from tests.fixtures.modes import open_folder
from wizard.install.activation import compute_activation
from wizard.recipes.runtime_env import flag_file, value_problem, xla_flag_places
from wizard.verify.check import probe_environment


@pytest.mark.parametrize(("value", "file"), [
    ("--xla_dump_to=/x", None), ("  --xla_cpu_enable_fast_math=false", None), ("-xla_foo", None),
    ("/home/u/flags", "/home/u/flags"), (" /home/u/flags", " /home/u/flags"), ("flags.txt", "flags.txt"),
])
def test_a_value_not_starting_with_a_dash_is_a_flag_file(value, file):
    assert flag_file(value) == file
    if file is not None:
        assert xla_flag_places(value) == [(value, [file])]


@pytest.mark.parametrize("variable", ["XLA_FLAGS", "TF_XLA_FLAGS", "TF_JITRT_FLAGS"])
@pytest.mark.parametrize("swappable", [True, False])
def test_a_flag_file_is_left_out_and_named(tmp_path, variable, swappable):
    env = tmp_path / "env"
    env.mkdir()
    folder = open_folder(tmp_path / "ww") if swappable else tmp_path
    flags = folder / "flags"
    flags.write_text(f"--xla_dump_to={folder}/dump\n")
    base = {"PATH": "/usr/bin:/bin", variable: str(flags)}
    act = compute_activation(env, base, marker={})
    assert variable in act.unset and variable not in act.set
    removal = next(r for r in act.removals if r.variable == variable)
    assert removal.folder == str(flags) and f"unset {variable}" in removal.reason, removal.reason
    assert (str(folder) in removal.reason) == swappable, removal.reason
    child, removed = probe_environment(env, "cpu", base=base)
    assert variable not in child
    assert any(r["variable"] == variable and r["dir"] == str(flags) for r in removed), removed


def test_tf_xla_flags_places_are_held_to_the_rule(tmp_path):
    env = tmp_path / "env"
    env.mkdir()
    word = f"--tf_dump_graph_prefix={open_folder(tmp_path / 'ww')}/g"
    act = compute_activation(env, {"PATH": "/usr/bin", "TF_XLA_FLAGS": f"{word} --tf_xla_auto_jit=2"}, marker={})
    assert act.set["TF_XLA_FLAGS"] == "--tf_xla_auto_jit=2"
    assert [r.folder for r in act.removals if r.variable == "TF_XLA_FLAGS"] == [word]


def test_what_is_left_must_still_read_as_flags(tmp_path):
    """A quoted value cut at its blank leaves `b"`, which XLA would open as a flag file: the variable goes whole."""
    env = tmp_path / "env"
    env.mkdir()
    act = compute_activation(env, {"PATH": "/usr/bin", "XLA_FLAGS": '--xla_dump_to="/x/a b"'}, marker={})
    assert "XLA_FLAGS" in act.unset and "XLA_FLAGS" not in act.set


def test_a_recipe_may_not_name_a_flag_file():
    assert value_problem("XLA_FLAGS", "/etc/xla-flags") is not None
