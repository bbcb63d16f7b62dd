"""`lock` on a server that cannot reach a host: one sentence naming the host and the fix (the recipe's
PyPI alternative where it has one for JAX's wheel page), never uv's chain of "Caused by" lines."""

from __future__ import annotations

from wizard.install.lockfile import unreachable_sentence
from wizard.recipes.loader import get_recipe

UV_JAX_PAGE = """\
error: Failed to read `--find-links` URL: https://storage.googleapis.com/jax-releases/jax_cuda_releases.html
  Caused by: Request failed after 3 retries
  Caused by: error sending request for url (https://storage.googleapis.com/jax-releases/jax_cuda_releases.html)
  Caused by: client error (Connect)
  Caused by: dns error: failed to lookup address information: Temporary failure in name resolution
  Caused by: failed to lookup address information: Temporary failure in name resolution
"""

UV_INDEX = """\
error: Request failed after 3 retries
  Caused by: Failed to fetch: `https://pypi.org/simple/jax/`
  Caused by: error sending request for url (https://pypi.org/simple/jax/)
  Caused by: client error (Connect)
  Caused by: tcp connect error: Connection refused (os error 111)
"""


def test_jax_wheel_page_unreachable_offers_the_pypi_alternative():
    recipe = get_recipe("jax0.4.23-cuda12-cudnn89", [])
    sentence = unreachable_sentence(recipe, UV_JAX_PAGE)
    assert sentence.startswith("this server cannot reach storage.googleapis.com (JAX's CUDA wheel page).")
    assert "gc-wizard lock jax0.4.23-cuda12-cudnn89 --alternative pypi-plugin" in sentence
    assert "Caused by" not in sentence


def test_an_unreachable_index_names_it_and_offers_a_wheelhouse():
    recipe = get_recipe("jax0.4.23-cpu", [])
    sentence = unreachable_sentence(recipe, UV_INDEX)
    assert sentence.startswith("this server cannot reach pypi.org") and "--find-links DIR --offline" in sentence


def test_a_resolve_failure_that_is_not_the_network_is_left_to_uv():
    recipe = get_recipe("jax0.4.23-cpu", [])
    assert unreachable_sentence(recipe, "error: No solution found when resolving dependencies:\n  ╰─▶ ...") is None


def test_the_no_index_advice_names_the_recipe_folder_a_recipe_came_from(tiny):
    """27th hostile pass (part B) P2: the bundle commands of the "cannot reach the index" advice dropped the
    `--recipes-dir` of a recipe read from one, so each failed with "unknown recipe"; the shipped ones need none."""
    from wizard.install.reach import Unreachable, advice_for
    from wizard.recipes.loader import get_recipe

    host = [Unreachable(host="pypi.org", role="index", evidence="x")]
    said = advice_for(host, get_recipe("tiny-a", [str(tiny.recipes)]), environ={})
    assert f"gc-wizard bundle tiny-a --recipes-dir {tiny.recipes} --out gc-bundle" in said, said
    assert "gc-wizard install tiny-a --recipes-dir gc-bundle/recipes --bundle gc-bundle" in said, said
    builtin = advice_for(host, get_recipe("jax0.4.23-cpu"), environ={})
    assert "--recipes-dir" not in builtin and "gc-wizard install jax0.4.23-cpu --bundle gc-bundle" in builtin
