"""Every recipe pins everything its GraphCast version declares (`install_requires` in its `setup.py`), less
what exists only on Colab, which the recipe says it leaves out.

GraphCast is installed with `--no-deps` over the recipe's closure, so a requirement the closure misses is
missing from the environment: v0.1.1's `rollout` imports dask, and the notebook's `from graphcast import
rollout` failed in an environment the check had passed. `setup.py` is read, never run.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from packaging.utils import canonicalize_name

from tests.fixtures.jaxenv import graphcast_src, graphcast_v02_src
from wizard.recipes.loader import load_recipes

#: Declared by GraphCast, installable only on Google Colab.
COLAB_ONLY = {"colabtools"}


def declared_requirements(checkout: Path) -> set[str]:
    """The names in `setup(install_requires=[...])` of a checkout's setup.py (parsed, not run)."""
    tree = ast.parse((checkout / "setup.py").read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.keyword) and node.arg == "install_requires":
            return {canonicalize_name(ast.literal_eval(item).split(";")[0].split("[")[0].split("=")[0]
                                      .split(">")[0].split("<")[0].strip())
                    for item in node.value.elts}
    raise AssertionError(f"{checkout / 'setup.py'} has no install_requires")


@pytest.mark.parametrize("version, source", [("0.1.1", graphcast_src), ("0.2", graphcast_v02_src)])
def test_recipes_pin_what_their_graphcast_declares(version, source):
    checkout = source()
    if checkout is None:
        pytest.skip(f"needs GraphCast v{version}'s source: set GC_WIZARD_GRAPHCAST_SRC (v0.1.1) or "
                    "GC_WIZARD_GRAPHCAST_V02_SRC (v0.2) to a checkout")
    declared = declared_requirements(Path(checkout)) - {canonicalize_name("graphcast")}
    recipes = [r for r in load_recipes().values() if r.graphcast.version == version]
    assert recipes, f"no recipe installs GraphCast {version}"
    for recipe in recipes:
        pinned = {canonicalize_name(name) for name in recipe.pins}
        missing = declared - COLAB_ONLY - pinned
        assert not missing, f"{recipe.id} does not pin what GraphCast {version} declares: {sorted(missing)}"
        assert "colabtools" in recipe.path.read_text(encoding="utf-8"), f"{recipe.id} should say it leaves colabtools out"


def test_the_declared_names_are_read_from_setup_py_without_running_it(tmp_path):
    (tmp_path / "setup.py").write_text('import sys; sys.exit("never run")\nfrom setuptools import setup\n'
                                       'setup(name="graphcast", install_requires=["dask", "jax>=0.4", '
                                       '"typing_extensions", "xarray[parallel]"])\n')
    assert declared_requirements(tmp_path) == {"dask", "jax", "typing-extensions", "xarray"}
