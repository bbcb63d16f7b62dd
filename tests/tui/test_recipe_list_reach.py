"""Walk 37 #10: the app's list said `! jax0.12.0.1-cuda12  needs Python 3.13: github.com does not answer`, which read
as if github.com were why Python 3.13 is missing, and the details then said "Compatible with this machine." above the
"!" row about the download. The core words both once (`flows.recipe_list`): the row names the download as what is
unreachable, and the details' headline says the same as the row's "!"."""

from __future__ import annotations

from types import SimpleNamespace

from wizard.flows.recipe_list import unreachable_headline, unreachable_verdict
from wizard.recipes.loader import get_recipe
from wizard.tui.screens.recipe import describe_match, option_label


def _match(**kw) -> SimpleNamespace:
    recipe = get_recipe("jax0.12.0.1-cuda12", [])
    fields = dict(recipe=recipe, compatible=True, recommended=False, cautioned=False, machine="this machine",
                  python_download="3.13", unreachable=("github.com",), reasons=[], summary="compatible",
                  warnings=("No fitting Python is on this machine (the recipe needs Python 3.12–3.13), and uv downloads "
                            "Python 3.13 from github.com (its python-build-standalone builds), which does not answer "
                            "from here.",))
    return SimpleNamespace(**{**fields, **kw})


def test_the_row_says_the_download_is_unreachable_and_fits_its_row():
    match = _match()
    # Walk 38 #5: the recipe's range, as the "!" says it; the host goes where the row has no room for it.
    assert unreachable_verdict(match) == "Python 3.12–3.13 download unreachable"
    label = option_label(match)
    assert label == "! jax0.12.0.1-cuda12         Python 3.12–3.13 download unreachable", label  # not cut
    assert unreachable_verdict(_match(unreachable=())) is None and unreachable_verdict(_match(compatible=False)) is None


def test_the_details_headline_says_what_the_row_s_mark_says():
    match = _match()
    headline = unreachable_headline(match)
    assert headline == ("Fits this machine, but needs Python 3.12–3.13, which uv would download from github.com "
                        "(not reachable here).")  # walk 38 #5: the range the "!" says, not the one version
    text = describe_match(match)
    assert "Compatible with" not in text and headline in text, text
    assert text.index(headline) < text.index("! No fitting Python"), text
    assert "Compatible with this machine." in describe_match(_match(unreachable=()))  # reachable: as it was


def test_every_face_words_the_recipes_python_range_once():
    """Walk 38 #5: the list and headline said "needs Python 3.13" where the "!" said "the recipe needs 3.12–3.13"."""
    from wizard.recipes.match import python_range_words

    recipe = get_recipe("jax0.12.0.1-cpu", [])
    words = python_range_words(recipe.machine.python)
    assert words == "Python 3.12–3.13"
    match = _match(recipe=recipe)
    assert words in unreachable_verdict(match) and words in unreachable_headline(match)
    assert "Python 3.13 download" not in unreachable_verdict(match)
