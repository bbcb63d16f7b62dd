"""The recipes of one family: the same GraphCast and the same JAX, differing only in GPU or CPU.

Why: a fix that names a recipe must stay in the stack the user installed. An environment built from
`jax0.10.2-cuda12` (GraphCast v0.2) that fell back to the CPU is helped by `jax0.10.2-cpu` or another
CUDA build of JAX 0.10.2 — not by the 0.4.23 recipes, which run another GraphCast. The family is read
from the recipe files (`graphcast.version` and the `jax` pin), never from the ids' spelling.
"""

from __future__ import annotations

from wizard.recipes.loader import Recipe, load_recipes
from wizard.recipes.match import DEFAULT_GRAPHCAST_VERSION


def _family_key(recipe: Recipe) -> tuple[str, str | None]:
    return recipe.graphcast.version, recipe.pins.get("jax")


def family_of(recipe_id: str, recipes: dict[str, Recipe] | None = None) -> list[Recipe]:
    """Every recipe of `recipe_id`'s family (itself included); [] for an unknown id."""
    try:
        recipes = load_recipes() if recipes is None else recipes
    except Exception:  # a broken user recipe file must not break a diagnosis: then there is no family
        return []
    own = recipes.get(recipe_id)
    if own is None:
        return []
    return [r for r in recipes.values() if _family_key(r) == _family_key(own)]


def family_recipes(recipe_id: str | None, cuda_major: int | None = None,
                   recipes: dict[str, Recipe] | None = None) -> tuple[str | None, str | None]:
    """(the GPU recipe, the CPU recipe) of `recipe_id`'s family, either None when it has none.

    The GPU one fits a driver of CUDA major `cuda_major` (the newest CUDA build it runs) when that is
    known; otherwise it is `recipe_id` itself when that is a GPU recipe (install it again), else the
    family's first GPU recipe.
    """
    family = family_of(recipe_id, recipes) if recipe_id else []
    gpus = sorted((r for r in family if r.backend == "gpu"), key=lambda r: (r.machine.cuda_major or 0, r.id))
    cpu = next((r.id for r in sorted(family, key=lambda r: r.id) if r.backend == "cpu"), None)
    gpu = None
    if cuda_major is not None:
        fitting = [r for r in gpus if (r.machine.cuda_major or 0) <= cuda_major]
        gpu = fitting[-1].id if fitting else None
    if gpu is None and cuda_major is None:
        gpu = recipe_id if any(r.id == recipe_id for r in gpus) else (gpus[0].id if gpus else None)
    return gpu, cpu


#: What a fix names when no recipe can be read (a broken recipe folder): a placeholder alone, as fix sentences put it
#: inside a command's backticks (a "RECIPE (`gc-wizard recipes` lists them)" there came out garbled, 23rd hostile
#: pass P8).
NO_RECIPE = "RECIPE"


def default_recipes(cuda_major: int | None = None, recipes: dict[str, Recipe] | None = None,
                    graphcast_version: str = DEFAULT_GRAPHCAST_VERSION) -> tuple[str, str]:
    """(the GPU recipe, the CPU recipe) a fix names when the environment's own recipe is not known: of the
    default GraphCast's family (the demo notebook's), the GPU one the newest CUDA build a driver of CUDA major
    `cuda_major` runs (any, when unknown). Read from the recipe files, so a new or renamed recipe is named
    without touching diagnosis."""
    try:
        recipes = load_recipes() if recipes is None else recipes
    except Exception:  # a broken user recipe file must not break a diagnosis
        return NO_RECIPE, NO_RECIPE
    family = sorted((r for r in recipes.values() if r.graphcast.version == graphcast_version and not r.outside_index),
                    key=lambda r: (r.machine.cuda_major or 0, r.id))
    gpus = [r for r in family if r.backend == "gpu"]
    fitting = [r for r in gpus if cuda_major is None or (r.machine.cuda_major or 0) <= cuda_major]
    gpu = (fitting or gpus)[-1].id if gpus else NO_RECIPE
    cpu = next((r.id for r in family if r.backend == "cpu"), NO_RECIPE)
    return gpu, cpu

