"""A variable of the user's shell that names a library, a plugin or a place a library loads code from, reads or writes
is held to the swap rule by ONE rule (`runtime_env.loaded_from`) — the table and its families by pattern — and the
recipe side refuses by the same rule: another user's library is left out of what activation gives a shell, the kernel,
the module file and verify's (and the forecast's) probe, and named with `unset NAME`.

Before (36th hostile pass, part B, P1): `TPU_LIBRARY_PATH` / `PJRT_NAMES_AND_LIBRARY_PATHS` naming another user's
library reached verify's probe and jax loaded it as root; `activate` kept them and `NCCL_NET_PLUGIN` without a word.
The user-shell side read a fixed table (`PLACE_VARIABLES`), the recipe side a pattern."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.fixtures.jax_sources import JAX_0_4_23, JAX_0_10_2, library_names_read
from tests.fixtures.modes import open_folder
from wizard.after.activate import activation_script
from wizard.after.module import module_text
from wizard.install.activation import compute_activation
from wizard.recipes.runtime_env import (
    ALLOWED_PREFIXES,
    LIBRARY_VARIABLES,
    OWN_RULE_VARIABLES,
    PLACE_VARIABLES,
    loaded_from,
    name_problem,
)
from wizard.verify.check import probe_environment
from wizard.verify.user_variables import user_behaviour_variables

#: Names no table lists, caught by their family: a new plugin, injection or PJRT variable, a `…_PATH` naming a `.so`,
#: a program path within the libraries' families.
NEW_OF_THE_SAME_KIND = ("NCCL_NEWTHING_PLUGIN", "CUDA_INJECTION32_PATH", "PJRT_NEW_PLUGIN_SPEC", "ZZ_LOADER_PATH",
                        "TRITON_PTXAS_PATH", "XLA_PLUGIN_LIBRARY_DIRS")
LIBRARY_NAMES = (*sorted(LIBRARY_VARIABLES), *NEW_OF_THE_SAME_KIND)


def _other_library(tmp_path: Path) -> str:
    return str(open_folder(tmp_path / "ww") / "libevil.so")


@pytest.mark.parametrize("variable", LIBRARY_NAMES)
def test_another_users_library_is_left_out_everywhere(tmp_path, variable):
    env = tmp_path / "env"
    env.mkdir()
    library = _other_library(tmp_path)
    value = f"evil:{library}" if variable.startswith("PJRT_") else library
    base = {"PATH": "/usr/bin:/bin", variable: value}
    act = compute_activation(env, base, marker={})
    assert variable in act.unset and variable not in act.set
    removal = next(r for r in act.removals if r.variable == variable)
    assert removal.folder == library and f"unset {variable}" in removal.reason, removal.reason
    assert loaded_from(variable, value)[1] in removal.reason
    assert f"unset {variable}" in activation_script(act)
    assert act.kernel_env()[variable] == ""
    child, removed = probe_environment(env, "cpu", base=base)
    assert variable not in child
    assert any(r["variable"] == variable and r["dir"] == library for r in removed), removed
    assert f'unsetenv("{variable}")' in module_text(env, environ=base)


def test_one_bad_library_in_a_pjrt_list_takes_the_variable(tmp_path):
    env = tmp_path / "env"
    env.mkdir()
    own = tmp_path / "own"
    own.mkdir(mode=0o700)
    library = _other_library(tmp_path)
    value = f"good:{own}/libgood.so,evil:{library}"
    act = compute_activation(env, {"PATH": "/usr/bin", "PJRT_NAMES_AND_LIBRARY_PATHS": value}, marker={})
    assert "PJRT_NAMES_AND_LIBRARY_PATHS" in act.unset
    assert [r.folder for r in act.removals if r.variable == "PJRT_NAMES_AND_LIBRARY_PATHS"] == [library]


@pytest.mark.parametrize("variable,value", [
    ("NCCL_NET_PLUGIN", "aws"),  # a name NCCL looks up along the library path (held to its own rule)
    ("TPU_LIBRARY_PATH", "{own}/libtpu.so"),
    ("PJRT_NAMES_AND_LIBRARY_PATHS", "cuda:{own}/libpjrt.so"),
    ("CUDA_ENABLE_COREDUMP_ON_EXCEPTION", "1"),  # a switch, no path
    ("QT_PLUGIN_PATH", "/usr/lib/qt/plugins"),  # root's folder
])
def test_a_bare_name_a_safe_library_and_a_switch_stay(tmp_path, variable, value):
    env = tmp_path / "env"
    env.mkdir()
    own = tmp_path / "own"
    own.mkdir(mode=0o700)
    value = value.format(own=own)
    base = {"PATH": "/usr/bin", variable: value}
    act = compute_activation(env, base, marker={})
    assert variable not in act.unset and not [r for r in act.removals if r.variable == variable]
    child, _removed = probe_environment(env, "cpu", base=base)
    assert child[variable] == value


@pytest.mark.parametrize("variable", ["TPU_LIBRARY_PATH", "NCCL_NET_PLUGIN"])
def test_a_relative_library_path_is_left_out(tmp_path, variable):
    env = tmp_path / "env"
    env.mkdir()
    act = compute_activation(env, {"PATH": "/usr/bin", variable: "lib/libx.so"}, marker={})
    assert variable in act.unset


@pytest.mark.parametrize("variable", [*LIBRARY_NAMES, *sorted(PLACE_VARIABLES), *sorted(JAX_0_10_2 - OWN_RULE_VARIABLES)])
def test_the_recipe_side_refuses_what_the_shell_side_holds(variable):
    assert loaded_from(variable, "/x/libx.so") is not None
    assert name_problem(variable) is not None


def test_one_rule_for_both_sides_over_the_families():
    """Every name of the recipe families the recipe rule refuses for what it loads, the shell rule holds, and back."""
    words = ["PATH", "PATHS", "DIR", "FILE", "HOME", "ROOT", "PLUGIN", "INJECTION64_PATH", "LIBRARY_PATH", "DUMP_TO",
             "LEVEL", "DEBUG", "VISIBLE_DEVICES", "MEM_FRACTION"]
    for prefix in ALLOWED_PREFIXES:
        for word in words:
            name = f"{prefix}X_{word}"
            refused = name_problem(name) is not None
            assert refused == (loaded_from(name) is not None), name


def test_the_library_names_jax_reads_are_classified():
    """The names jax 0.4.23 and 0.10.2 read for plugins and libraries (recorded from their sources; tests/e2e greps
    the real environments the tests build), and those of any jax this Python has."""
    import importlib.util

    names = set(JAX_0_4_23 | JAX_0_10_2)
    spec = importlib.util.find_spec("jax")
    if spec is not None and spec.submodule_search_locations:
        names |= library_names_read(Path(next(iter(spec.submodule_search_locations))).parent)
    unclassified = sorted(name for name in names if loaded_from(name, "/x/y") is None and name not in OWN_RULE_VARIABLES)
    assert not unclassified, f"JAX reads {unclassified}, which runtime_env.loaded_from does not classify"


def test_user_variables_name_library_variables():
    child = {"TPU_LIBRARY_PATH": "/opt/libtpu.so", "PJRT_NAMES_AND_LIBRARY_PATHS": "a:/opt/a.so",
             "NCCL_NET_PLUGIN": "aws", "LD_LIBRARY_PATH": "/opt/lib", "CUDA_VISIBLE_DEVICES": "0"}
    names = [name for name, _ in user_behaviour_variables(child, dict(child))]
    assert names == ["NCCL_NET_PLUGIN", "PJRT_NAMES_AND_LIBRARY_PATHS", "TPU_LIBRARY_PATH"]
