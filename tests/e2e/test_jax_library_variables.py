"""Every variable a real JAX install reads that names a library, a plugin or a path (its sources grepped: `getenv`,
`os.environ` names holding LIBRARY, PLUGIN or PATH) is classified by the one rule (`runtime_env.loaded_from`), so the
recipe side refuses it and the user-shell side holds it to the swap rule.

Before (36th hostile pass, part B, P1): jax 0.4.23 read `TPU_LIBRARY_PATH` and `PJRT_NAMES_AND_LIBRARY_PATHS`, and the
user-shell side's fixed table had neither: another user's library named there ran as root in verify's probe."""

from __future__ import annotations

from pathlib import Path

from tests.fixtures.jax_sources import JAX_0_4_23, JAX_0_10_2, library_names_read
from wizard.recipes.runtime_env import OWN_RULE_VARIABLES, loaded_from, name_problem


def _site(env: Path) -> Path:
    return next(env.glob("lib/python3*/site-packages"))


def _check(env: Path) -> set[str]:
    names = library_names_read(_site(env))
    # each with a value that names no `.so`: the name alone must say it (a bitcode file, a folder)
    unclassified = sorted(name for name in names if loaded_from(name, "/x/y") is None and name not in OWN_RULE_VARIABLES)
    assert not unclassified, f"JAX in {env} reads {unclassified}, which runtime_env.loaded_from does not classify"
    assert all(name_problem(name) is not None for name in names)
    return names


def test_jax_0_4_23_names_are_classified(jax_cpu_env_without_graphcast):
    assert _check(jax_cpu_env_without_graphcast) >= JAX_0_4_23  # the grep finds what it must


def test_modern_jax_names_are_classified(jax_modern_cpu_env):
    assert _check(jax_modern_cpu_env) >= JAX_0_10_2
