"""Each shipped recipe's pins still resolve against the real PyPI, and they are the whole closure.

One `pip install --dry-run --report` per recipe and Python (3.10 and 3.11, the recipes' range), binary
wheels only (what a GPU server would install). Every package the resolver would install must be one
the recipe pins, at the pinned version: a recipe that leaves a dependency open lets pip backtrack
through dozens of candidates (it downloaded 41 tensorstore wheels, ~870 MB, for the CPU recipe). The CUDA jaxlib (`0.4.23+cuda12.cudnn89` / `+cuda11.cudnn86`) lives on JAX's own
release page, which CI cannot reach, so it is stood in by PyPI's CPU `jaxlib==0.4.23`: same version, same
dependencies. The machine's pip.conf (find-links to a local folder) is neutralised.
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
import subprocess
import sys

import pytest
from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet
from packaging.utils import canonicalize_name
from uv import find_uv_bin

from tests.fixtures.wheels import build_wheel
from wizard.install.plan import build_plan
from wizard.recipes.loader import load_recipes
from wizard.recipes.pythons import own_python

pytestmark = [pytest.mark.network, pytest.mark.resolve]


def pypi_requirements(recipe) -> list[str]:
    """The recipe's requirements as PyPI can resolve them: its CUDA jaxlib stood in by `jaxlib==0.4.23` (same
    version, same dependencies; the CUDA build lives on JAX's own page, which CI cannot reach)."""
    return ["jaxlib==0.4.23" if canonicalize_name(Requirement(t).name) == "jaxlib" and "0.4.23" in t else t
            for t in recipe.requirements]


def _pip_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PIP_")}
    env.update({"PIP_CONFIG_FILE": os.devnull, "PIP_DISABLE_PIP_VERSION_CHECK": "1", "PIP_NO_INPUT": "1"})
    return env


@pytest.mark.parametrize("python", ["3.10", "3.11"])
@pytest.mark.parametrize("recipe_id", ["jax0.4.23-cuda12-cudnn89", "jax0.4.23-cuda11-cudnn86", "jax0.4.23-cpu"])
def test_recipe_pins_resolve_on_pypi_and_are_the_whole_closure(tmp_path, recipe_id, python):
    recipe = load_recipes()[recipe_id]
    resolved = _resolve(tmp_path, pypi_requirements(recipe), python)
    expected = dict(recipe.pins)
    expected["jaxlib"] = "0.4.23"
    mismatched = {name: (want, resolved.get(name)) for name, want in expected.items() if resolved.get(name) != want}
    assert not mismatched, f"pinned -> resolved: {mismatched}"
    unpinned = {name: version for name, version in resolved.items() if name not in expected}
    assert not unpinned, f"{recipe_id} leaves these to the resolver (pin them): {unpinned}"
    # The guards the fact sheet asks for: cuDNN 8, numpy 1, no plugin pulled in behind our back.
    assert resolved["numpy"].startswith("1.")
    assert not any(name.startswith("jax-cuda") for name in resolved)
    if recipe.backend == "gpu":
        cudnn = next(v for n, v in resolved.items() if n.startswith("nvidia-cudnn-cu"))
        assert cudnn.startswith("8."), cudnn
    else:
        assert not any(name.startswith("nvidia-") for name in resolved)


@pytest.mark.parametrize("recipe_id, local", [
    ("jax0.4.23-cuda12-cudnn89", "0.4.23+cuda12.cudnn89"),
    ("jax0.4.23-cuda11-cudnn86", "0.4.23+cuda11.cudnn86"),
])
def test_uv_plan_takes_the_cuda_jaxlib_from_find_links(tmp_path, recipe_id, local):
    """The plan's own uv command picks the `+cuda` jaxlib from find-links although PyPI has jaxlib 0.4.23.

    JAX's release page is unreachable here, so a local folder holding a stand-in wheel with the same
    name, version and dependencies plays it; everything else comes from the real PyPI.
    """
    recipe = dataclasses.replace(load_recipes()[recipe_id], find_links=())
    house = tmp_path / "jax-releases"
    build_wheel(house, "jaxlib", local, requires=["numpy>=1.22", "scipy>=1.9", "ml_dtypes>=0.2.0"])
    env = tmp_path / "env"
    subprocess.run([find_uv_bin(), "venv", "-q", "--python", own_python().executable, str(env)], check=True)
    plan = build_plan(recipe, env_dir=env, python=own_python(), find_links=[str(house)], mode="in-place")
    step = plan.steps[0]
    argv = list(step.argv)
    argv.insert(argv.index("install") + 1, "--dry-run")
    proc = subprocess.run(argv, env={**_pip_env(), **step.env, "UV_INDEX_URL": "https://pypi.org/simple"},
                          capture_output=True, text=True, timeout=600, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr[-3000:]
    would = set(re.findall(r"^ \+ (\S+)$", proc.stdout + proc.stderr, re.M))
    assert f"jaxlib=={local}" in would
    assert {f"{name}=={version}" for name, version in recipe.pins.items() if name != "jaxlib"} <= {
        w.replace("_", "-").lower() for w in would}


# --------------------------------------------------------------------------------------------------
# The JAX 0.10.2 recipes (GraphCast v0.2): everything is on PyPI, so nothing is stood in. Each pin set
# must resolve to exactly itself — every package of the closure pinned, nothing added by the resolver —
# for both Pythons the recipes accept, on the oldest glibc they claim (manylinux_2_27).

MODERN = ["jax0.10.2-cpu", "jax0.10.2-cuda12", "jax0.10.2-cuda13",
          "jax0.12.0.1-cpu", "jax0.12.0.1-cuda12", "jax0.12.0.1-cuda13",
          "weathernext0.3.0-cpu", "weathernext0.3.0-cuda12", "weathernext0.3.0-cuda13"]
#: The two Pythons each modern recipe claims: its range's ends.
MODERN_PYTHONS = {"0.10.2": ("3.11", "3.12"), "0.12.0.1": ("3.12", "3.13")}
MODERN_CASES = [(rid, py) for rid in MODERN for py in MODERN_PYTHONS[load_recipes()[rid].pins["jax"]]]
#: What gdm-xarray-jax (GitHub only, so stood in here) requires, from its pyproject.toml.
XARRAY_JAX_REQUIRES = ["jax", "xarray", "numpy", "absl-py", "chex"]


def _outside_index_house(tmp_path, recipe) -> str | None:
    """A folder with a stand-in wheel (same name, version and requirements) for each pin no index has."""
    if not recipe.outside_index:
        return None
    house = tmp_path / "github-only"
    for pin in recipe.outside_index:
        assert pin.name == "gdm-xarray-jax", "a new GitHub-only pin needs its requirements here"
        build_wheel(house, pin.name, recipe.pins[pin.name], requires=XARRAY_JAX_REQUIRES)
    return str(house)
#: pip's --platform takes exact tags: every manylinux tag a glibc 2.27 x86_64 machine accepts.
GLIBC_2_27 = [f"manylinux_2_{minor}_x86_64" for minor in range(27, 4, -1)] + [
    "manylinux2014_x86_64", "manylinux2010_x86_64", "manylinux1_x86_64", "linux_x86_64"]


def _resolve(tmp_path, requirements: list[str], python: str, platforms: list[str] = (),
             find_links: str | None = None) -> dict[str, str]:
    report = tmp_path / f"report-{python}.json"
    proc = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--dry-run", "--quiet", "--report", str(report),
         "--ignore-installed", "--python-version", python, "--only-binary=:all:",
         *(a for p in platforms for a in ("--platform", p)), *(("--find-links", find_links) if find_links else ()),
         "--index-url", "https://pypi.org/simple", *requirements],
        capture_output=True, text=True, env=_pip_env(), timeout=600, cwd=tmp_path,
    )
    assert proc.returncode == 0, f"does not resolve for Python {python}:\n{proc.stderr[-3000:]}"
    return {canonicalize_name(item["metadata"]["name"]): item["metadata"]["version"]
            for item in json.loads(report.read_text())["install"]}


@pytest.mark.parametrize("recipe_id, python", MODERN_CASES)
def test_modern_recipe_is_its_own_closure_on_pypi(tmp_path, recipe_id, python):
    recipe = load_recipes()[recipe_id]
    assert recipe.graphcast.version in ("0.2", "0.3")
    assert SpecifierSet(recipe.machine.python).contains(python + ".0")
    resolved = _resolve(tmp_path, list(recipe.requirements), python, GLIBC_2_27,
                        find_links=_outside_index_house(tmp_path, recipe))
    pins = dict(recipe.pins)
    assert len(pins) == len(recipe.requirements), "every requirement is an exact pin"
    unpinned = {name: version for name, version in resolved.items() if name not in pins}
    assert not unpinned, f"the resolver added packages the recipe does not pin: {unpinned}"
    mismatched = {name: (want, resolved.get(name)) for name, want in pins.items() if resolved.get(name) != want}
    assert not mismatched, f"pinned -> resolved: {mismatched}"
    jax = recipe.pins["jax"]
    assert resolved["jax"] == resolved["jaxlib"] == jax and resolved["numpy"].startswith("2.")
    if jax != "0.10.2":  # JAX 0.11 removed jax.core.DropVar, which dm-haiku 0.0.16 reads (a real H100 run)
        assert resolved["dm-haiku"] == "0.0.17"
    assert resolved["xarray"] <= "2026.2.0"  # GraphCast's window (upstream caps it; 2026.4.0 breaks it)
    for needed in ("dm-haiku", "chex", "optax", "jraph", "dinosaur-dycore", "xarray-tensorstore", "tensorstore"):
        assert needed in resolved
    if recipe_id.endswith("cuda12"):
        assert resolved["jax-cuda12-plugin"] == resolved["jax-cuda12-pjrt"] == jax
        assert resolved["nvidia-cudnn-cu12"] == "9.10.2.21" and resolved["nvidia-cuda-runtime-cu12"].startswith("12.9")
        assert not any(n.startswith("jax-cuda13") for n in resolved)
    elif recipe_id.endswith("cuda13"):
        assert resolved["jax-cuda13-plugin"] == resolved["jax-cuda13-pjrt"] == jax
        assert resolved["nvidia-cudnn-cu13"].startswith("9.") and resolved["nvidia-cuda-runtime"].startswith("13.")
        assert not any(n.startswith("jax-cuda12") or n.endswith("-cu12") for n in resolved)
    else:
        assert not any(n.startswith(("nvidia-", "jax-cuda")) for n in resolved)


def test_the_pypi_plugin_alternative_resolves_from_pypi_alone(tmp_path):
    """The 0.4.23 CUDA 12 stack without JAX's wheel page: PyPI's jaxlib plus the 0.4.23 plugin and PJRT."""
    from wizard.recipes.alternatives import apply_alternative

    recipe = apply_alternative(load_recipes()["jax0.4.23-cuda12-cudnn89"], "pypi-plugin")
    assert recipe.find_links == ()
    resolved = _resolve(tmp_path, list(recipe.requirements), "3.11")  # this host's platform, as the test above
    assert resolved["jaxlib"] == resolved["jax-cuda12-plugin"] == resolved["jax-cuda12-pjrt"] == "0.4.23"
    assert resolved["nvidia-cudnn-cu12"] == "8.9.7.29" and resolved["numpy"].startswith("1.")
    mismatched = {name: (want, resolved.get(name)) for name, want in recipe.pins.items()
                  if resolved.get(name) != want}
    assert not mismatched, f"pinned -> resolved: {mismatched}"


GLIBC_2_17 = [f"manylinux_2_{minor}_x86_64" for minor in range(17, 4, -1)] + [
    "manylinux2014_x86_64", "manylinux2010_x86_64", "manylinux1_x86_64", "linux_x86_64"]


@pytest.mark.network
@pytest.mark.parametrize("notebook", [False, True], ids=["stack", "with-notebook"])
def test_the_cpu_0_4_23_recipe_installs_on_the_oldest_glibc_it_claims(tmp_path, notebook):
    """`glibc_min: "2.17"` (CentOS 7-era servers): every pin must have a manylinux2014 wheel."""
    recipe = load_recipes()["jax0.4.23-cpu"]
    recipe = recipe.with_notebook() if notebook else recipe
    assert recipe.machine.glibc_min == "2.17"
    resolved = _resolve(tmp_path, list(recipe.requirements), "3.11", GLIBC_2_17)
    mismatched = {name: (want, resolved.get(name)) for name, want in recipe.pins.items()
                  if resolved.get(name) != want}
    assert not mismatched, f"pinned -> resolved at glibc 2.17: {mismatched}"


@pytest.mark.parametrize("recipe_id, python", [("jax0.4.23-cpu", "3.11"), ("jax0.4.23-cuda12-cudnn89", "3.10"),
                                               ("jax0.4.23-cuda11-cudnn86", "3.11"), ("jax0.10.2-cpu", "3.12"),
                                               ("jax0.10.2-cuda12", "3.11"), ("jax0.10.2-cuda13", "3.12"),
                                               ("jax0.12.0.1-cpu", "3.13"), ("jax0.12.0.1-cuda12", "3.12"),
                                               ("jax0.12.0.1-cuda13", "3.13"), ("weathernext0.3.0-cpu", "3.12")])
def test_the_notebook_packages_resolve_with_the_stack_and_add_nothing_unpinned(tmp_path, recipe_id, python):
    """`--with-notebook`: the recipe's pins plus its notebook pins are still one whole closure on PyPI."""
    recipe = load_recipes()[recipe_id].with_notebook()
    platforms = GLIBC_2_27 if recipe_id in MODERN else []
    resolved = _resolve(tmp_path, pypi_requirements(recipe), python, platforms,
                        find_links=_outside_index_house(tmp_path, recipe))
    expected = dict(recipe.pins)
    if "jaxlib" in expected:
        expected["jaxlib"] = expected["jaxlib"].split("+")[0]
    assert resolved == expected, {k: (resolved.get(k), expected.get(k)) for k in set(resolved) ^ set(expected)
                                  | {k for k in resolved if resolved.get(k) != expected.get(k)}}
