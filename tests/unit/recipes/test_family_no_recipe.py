"""A fix sentence that names a recipe when none can be read puts the placeholder inside a command's backticks:
"`gc-wizard install RECIPE (`gc-wizard recipes` lists them)`" came out garbled (23rd hostile pass P8)."""

from wizard.recipes.family import default_recipes


def test_the_placeholder_fits_inside_backticks():
    gpu, cpu = default_recipes(recipes={})
    sentence = f"(`gc-wizard install {gpu}`, or `{cpu}` without a GPU)"
    assert "`" not in gpu + cpu and sentence.count("`") == 4
