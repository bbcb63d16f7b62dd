"""The kernel says which demo notebook it serves, and both faces warn, in one wording, about the notebook's
cells that would undo the verified stack (`%pip install …master.zip`) or rebuild shapely from source."""

from __future__ import annotations

from pathlib import Path

from wizard.after.kernel import display_name, notebook_cautions
from wizard.install.envs import EnvMarker
from wizard.recipes.loader import load_recipes


def _marker(version: str | None, notebook: bool = False) -> EnvMarker:
    extra = {"graphcast_version": version, "notebook": notebook} if version else {}
    return EnvMarker(recipe="jax0.4.23-cpu", title="JAX 0.4.23 on the CPU", verified="2026-11-21T10:00", extra=extra)


def test_the_kernel_name_says_the_graphcast_and_its_notebooks():
    assert display_name(Path("/e"), _marker("0.1.1")) == \
        "GraphCast v0.1.1 (graphcast_demo.ipynb) · JAX 0.4.23 on the CPU (verified 2026-11-21)"
    assert "graphcast_demo.ipynb, gencast_mini_demo.ipynb" in display_name(Path("/e"), _marker("0.2"))
    assert display_name(Path("/e"), _marker(None)) == "GraphCast · JAX 0.4.23 on the CPU (verified 2026-11-21)"


def test_the_cautions_name_the_cells_to_skip_and_the_missing_imports():
    cautions = notebook_cautions(_marker("0.1.1"))
    assert "master.zip" in cautions[0] and "GraphCast v0.1.1" in cautions[0] and "WeatherNext" in cautions[0]
    assert "--no-binary shapely" in cautions[1]
    assert "Google Cloud Storage" in cautions[2] and "--assets DIR" in cautions[2]
    assert "--with-notebook" in cautions[3]
    assert len(notebook_cautions(_marker("0.1.1", notebook=True))) == 3
    assert notebook_cautions(_marker(None)) == []


def test_every_recipe_offers_its_notebooks_imports_apart_from_the_stack():
    for recipe in load_recipes().values():
        names = {r.split("==")[0] for r in recipe.notebook}
        assert {"google-cloud-storage", "ipywidgets"} <= names, recipe.id
        with_nb = recipe.with_notebook()
        assert len(with_nb.pins) == len(recipe.pins) + len(recipe.notebook)  # none is pinned twice
