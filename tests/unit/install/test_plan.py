"""Plans: the exact argv lists for uv and pip, offline/find-links/graphcast_src, and real runs of them."""

from __future__ import annotations

import json
import os
import re
import subprocess
from datetime import datetime

import pytest
from uv import find_uv_bin

from tests.fixtures.envs import python_link_env
from tests.fixtures.wheels import build_wheel
from wizard import paths
from wizard.errors import UserError
from wizard.install.plan import build_plan, default_env_dir, resolve_target
from wizard.recipes.loader import get_recipe, parse_recipe
from wizard.recipes.pythons import PythonChoice, own_python

CU12 = "jax0.4.23-cuda12-cudnn89"
JAX_PAGE = "https://storage.googleapis.com/jax-releases/jax_cuda_releases.html"
PY = PythonChoice(executable="/usr/bin/python3.11", version="3.11.7", source="path")


def _names(plan):
    return [s.name for s in plan.steps]


def test_uv_plan_for_the_cuda12_recipe(tmp_path):
    recipe = get_recipe(CU12)
    env = tmp_path / "envs" / "e1"
    plan = build_plan(recipe, env_dir=env, python=PY)
    uv = find_uv_bin()
    assert _names(plan) == ["create-env", "install-requirements", "install-graphcast"]
    create, reqs, gc = plan.steps
    assert create.argv == (uv, "venv", "--python", "/usr/bin/python3.11", str(env))
    assert create.kind == "create_env"
    assert reqs.argv[:5] == (uv, "pip", "install", "--python", str(env / "bin" / "python"))
    assert reqs.argv[5:7] == ("--find-links", JAX_PAGE)
    assert reqs.argv[7:] == recipe.requirements
    assert gc.argv[-1] == recipe.graphcast.source and "--no-deps" in gc.argv
    for step in plan.steps:
        assert all(isinstance(a, str) for a in step.argv)
        assert step.env["UV_NO_PROGRESS"] == "1"
        assert step.cwd == str(env.parent)
    assert plan.disk_gib == recipe.disk_gib
    assert not env.exists() and not env.parent.exists(), "building a plan creates nothing"


def test_pip_plan_upgrades_pip_for_raw_progress(tmp_path):
    recipe = get_recipe("jax0.4.23-cpu")
    env = tmp_path / "e"
    plan = build_plan(recipe, env_dir=env, python=PY, installer="pip")
    py = str(env / "bin" / "python")
    assert _names(plan) == ["create-env", "upgrade-pip", "install-requirements", "install-graphcast"]
    assert plan.steps[0].argv == ("/usr/bin/python3.11", "-m", "venv", str(env))
    assert plan.steps[1].argv == (py, "-m", "pip", "install", "--progress-bar", "off", "--upgrade", "pip>=24.1")
    assert plan.steps[2].argv[:6] == (py, "-m", "pip", "install", "--progress-bar", "raw")
    assert plan.steps[2].argv[6:] == recipe.requirements
    assert plan.steps[3].argv == (py, "-m", "pip", "install", "--progress-bar", "raw", "--no-deps",
                                  recipe.graphcast.source)
    assert all(s.env["PIP_DISABLE_PIP_VERSION_CHECK"] == "1" for s in plan.steps)


def test_offline_drops_remote_links_and_adds_the_users(tmp_path):
    house = tmp_path / "house"
    build_wheel(house, "graphcast", "0.1.1")
    gc_wheel = house / "graphcast-0.1.1-py3-none-any.whl"
    recipe = get_recipe(CU12)
    plan = build_plan(recipe, env_dir=tmp_path / "e", python=PY, find_links=[str(house)], offline=True,
                      graphcast_src=str(gc_wheel))
    reqs = plan.steps[1].argv
    assert JAX_PAGE not in reqs
    assert ("--find-links", str(house)) == reqs[reqs.index("--find-links"):reqs.index("--find-links") + 2]
    assert "--offline" in reqs and "--offline" in plan.steps[0].argv
    assert plan.steps[2].argv[-1] == str(gc_wheel)
    assert any(JAX_PAGE in n and "offline" in n for n in plan.notes)

    pip_plan = build_plan(recipe, env_dir=tmp_path / "e", python=PY, installer="pip", find_links=[str(house)],
                          offline=True, graphcast_src=str(gc_wheel))
    assert "upgrade-pip" not in _names(pip_plan), "no pip wheel in the wheelhouse: no upgrade offline"
    assert "--no-index" in pip_plan.steps[1].argv
    assert pip_plan.steps[1].argv[4:6] == ("--progress-bar", "off")

    build_wheel(house, "pip", "24.2")
    pip_plan = build_plan(recipe, env_dir=tmp_path / "e", python=PY, installer="pip", find_links=[str(house)],
                          offline=True, graphcast_src=str(gc_wheel))
    assert "upgrade-pip" in _names(pip_plan)
    assert pip_plan.steps[2].argv[4:6] == ("--progress-bar", "raw")


def test_offline_without_a_local_graphcast_is_refused(tmp_path):
    with pytest.raises(UserError, match="--offline needs --graphcast-src"):
        build_plan(get_recipe("jax0.4.23-cpu"), env_dir=tmp_path / "e", python=PY, offline=True)


def test_graphcast_src_forms(tmp_path):
    recipe = get_recipe("jax0.4.23-cpu")
    checkout = tmp_path / "graphcast"
    checkout.mkdir()
    (checkout / "setup.py").write_text("")
    plan = build_plan(recipe, env_dir=tmp_path / "e", python=PY, graphcast_src=str(checkout))
    assert plan.steps[-1].argv[-1] == str(checkout)
    assert any("instead of the recipe's" in n for n in plan.notes)

    url = "git+https://example.org/graphcast@v0.1.1"
    assert build_plan(recipe, env_dir=tmp_path / "e", python=PY, graphcast_src=url).steps[-1].argv[-1] == url

    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(UserError, match="not a GraphCast checkout"):
        build_plan(recipe, env_dir=tmp_path / "e", python=PY, graphcast_src=str(empty))
    (tmp_path / "notes.txt").write_text("x")
    with pytest.raises(UserError, match="neither a wheel"):
        build_plan(recipe, env_dir=tmp_path / "e", python=PY, graphcast_src=str(tmp_path / "notes.txt"))
    with pytest.raises(UserError, match="no such folder or file"):
        build_plan(recipe, env_dir=tmp_path / "e", python=PY, graphcast_src=str(tmp_path / "missing"))


def test_package_folder_inside_a_checkout_names_the_checkout(tmp_path):
    """The usual slip: `graphcast/graphcast` (the package) instead of `graphcast` (the checkout)."""
    checkout = tmp_path / "graphcast"
    (checkout / "graphcast").mkdir(parents=True)
    (checkout / "setup.py").write_text("from setuptools import setup\nsetup(name='graphcast', version='0.1.1')\n")
    with pytest.raises(UserError) as caught:
        build_plan(get_recipe("jax0.4.23-cpu"), env_dir=tmp_path / "e", python=PY,
                   graphcast_src=str(checkout / "graphcast"))
    assert f"Its parent {checkout} is one: give that folder." in str(caught.value)


def test_missing_find_links_folder_is_bad_input(tmp_path):
    with pytest.raises(UserError, match="--find-links .*no such folder"):
        build_plan(get_recipe("jax0.4.23-cpu"), env_dir=tmp_path / "e", python=PY, find_links=[str(tmp_path / "x")])


def test_in_place_skips_creation_and_says_it_is_less_safe(tmp_path):
    plan = build_plan(get_recipe("jax0.4.23-cpu"), env_dir=tmp_path / "e", python=PY, mode="in-place")
    assert _names(plan) == ["install-requirements", "install-graphcast"]
    assert "slower and less safe than a new environment" in plan.notes[0]


def test_to_dict_is_json_with_every_command(tmp_path):
    plan = build_plan(get_recipe(CU12), env_dir=tmp_path / "e", python=PY)
    data = json.loads(json.dumps(plan.to_dict()))
    assert data["recipe"] == CU12 and data["env"] == str(tmp_path / "e") and data["installer"] == "uv"
    assert data["python"]["executable"] == "/usr/bin/python3.11"
    assert [s["name"] for s in data["steps"]] == _names(plan)
    assert data["steps"][1]["argv"][-len(plan.recipe.requirements):] == list(plan.recipe.requirements)
    assert "nvidia-cudnn-cu12==8.9.7.29" in data["requirements"]
    assert data["disk_gib"] > 0 and data["notes"]


def test_default_env_dir_and_resolve_target(tmp_path):
    now = datetime(2025, 3, 4, 5, 6, 7)
    assert default_env_dir("jax0.4.23-cpu", now) == paths.envs_dir() / "jax0.4.23-cpu-20250304-050607"
    env, mode = resolve_target(None, "jax0.4.23-cpu")
    assert mode == "new" and re.fullmatch(r"jax0\.4\.23-cpu-\d{8}-\d{6}", env.name)
    assert not paths.envs_dir().exists()

    assert resolve_target(str(tmp_path / "fresh"), "x") == (tmp_path / "fresh", "new")
    existing = tmp_path / "venv"
    python_link_env(existing, to=own_python().executable)
    assert resolve_target(str(existing), "x") == (existing, "in-place")
    junk = tmp_path / "junk"
    junk.mkdir()
    (junk / "file").write_text("x")
    with pytest.raises(UserError, match="neither empty nor a Python environment"):
        resolve_target(str(junk), "x")


# ------------------------------------------------------------------ the commands run, for real, offline

TINY_RECIPE = """\
schema: 1
id: tiny
title: Tiny
description: Two tiny wheels and a GraphCast stand-in, for running a plan for real.
backend: cpu
requirements: [tinya==1.0, tinyb==2.0]
graphcast: {source: "graphcast @ git+https://github.com/google-deepmind/graphcast@97d1ad50b0b7af4aaed7790167dffa769bae1f2c",
            revision: 97d1ad50b0b7af4aaed7790167dffa769bae1f2c, version: "0.1.1"}
machine: {os: [linux], arch: [x86_64, aarch64], python: ">=3.8"}
runtime_env: {JAX_TINY: "1"}
disk_gib: 0.1
"""


@pytest.mark.parametrize("installer", ["uv", "pip"])
def test_plan_commands_install_for_real(tmp_path, installer):
    house = tmp_path / "house"
    build_wheel(house, "tinya", "1.0", requires=["tinyb==2.0"])
    build_wheel(house, "tinyb", "2.0")
    build_wheel(house, "tinyb", "3.0")
    gc = build_wheel(house, "graphcast", "0.1.1", requires=["not-in-the-wheelhouse"])
    recipe = parse_recipe(TINY_RECIPE, tmp_path / "tiny.yaml")
    env = tmp_path / "envs" / "tiny-env"
    env.parent.mkdir()
    plan = build_plan(recipe, env_dir=env, python=own_python(), installer=installer,
                      find_links=[str(house)], offline=True, graphcast_src=str(gc))
    for step in plan.steps:
        proc = subprocess.run(list(step.argv), env={**os.environ, **step.env}, cwd=step.cwd,
                              capture_output=True, text=True, timeout=300)
        assert proc.returncode == 0, f"{step.display}\n{proc.stdout}\n{proc.stderr}"
    out = subprocess.run([str(env / "bin" / "python"), "-c",
                          "import tinya, tinyb, graphcast; print(tinya.__version__, tinyb.__version__, graphcast.__version__)"],
                         capture_output=True, text=True, check=True).stdout.split()
    assert out == ["1.0", "2.0", "0.1.1"]  # pinned tinyb, and GraphCast's missing dependency was not asked for


def test_a_wheel_given_as_find_links_names_the_folder_to_give_instead(tmp_path):
    """Fifth hostile pass 12d: a wheel file given as --find-links was called "no such folder"."""
    wheel = tmp_path / "jax-0.4.23-py3-none-any.whl"
    wheel.write_bytes(b"PK")
    with pytest.raises(UserError, match=f"is a file; --find-links takes the folder that holds the wheels \\({tmp_path}\\)"):
        build_plan(get_recipe("jax0.4.23-cpu"), env_dir=tmp_path / "e", python=PY, find_links=[str(wheel)])


def test_a_wheelhouse_path_is_judged_by_its_bytes_on_disk(tmp_path):
    """Twenty-second hostile pass P6: under `LC_ALL=C PYTHONUTF8=0` Python holds each byte of a UTF-8 name (`whé`) as
    a lone surrogate, and a valid wheelhouse (or a bundle made a minute earlier) was refused as "not UTF-8". Only a
    byte sequence that is not UTF-8 is refused, named with what the user gave: --find-links, or the bundle."""
    import os

    from wizard.errors import UserError
    from wizard.install.plan import _user_find_links

    good = os.fsencode(tmp_path) + b"/wh\xc3\xa9"
    os.mkdir(good)
    as_c_locale = os.fsdecode(os.fsencode(tmp_path)) + "/wh\udcc3\udca9"  # how argv arrives in the C locale
    assert _user_find_links([as_c_locale]) == [as_c_locale]
    bad = os.fsencode(tmp_path) + b"/wh\xff"
    os.mkdir(bad)
    with pytest.raises(UserError, match=r"^--find-links .*: its path .*wh\\xff has a byte that is not UTF-8"):
        _user_find_links([os.fsdecode(bad)])
    bundle = os.fsencode(tmp_path) + b"/b\xff"
    os.makedirs(bundle + b"/wheels")
    with open(bundle + b"/manifest.json", "w") as handle:
        handle.write("{}")
    with pytest.raises(UserError, match=r"^the bundle .*/b\\xff: its path .*b\\xff/wheels has a byte that is not"):
        _user_find_links([os.fsdecode(bundle + b"/wheels")])
