"""pip's target settings (`--platform`, `--abi`, `--implementation`, `--python-version`, as `PIP_*` variables and
pip.conf keys) and uv's `[pip] python-platform`/`python-version` pick packages for another platform or Python than
the new environment's: refused for the wizard's install steps, named with their fix, and so named on the plan.

Why: 38th hostile pass (part B) P1 — none of them was named: `install --installer pip` failed on pip's own option
error ("only with --target"), and the plan said nothing."""

from __future__ import annotations

import os

import pytest

from wizard.installer_files import pip_target_file_problem, placement_problem


@pytest.mark.parametrize("name, value", [("PIP_PLATFORM", "win_amd64"), ("PIP_ABI", "cp39"),
                                         ("PIP_IMPLEMENTATION", "pp"), ("PIP_PYTHON_VERSION", "3.9")])
def test_each_pip_target_variable_is_refused_naming_it(tmp_path, name, value):
    said = placement_problem("pip", {"PIP_CONFIG_FILE": os.devnull, name: value}, tmp_path)
    assert said and said.startswith(f"{name}={value} in the environment would make pip pick the recipe's packages "
                                    "for another platform or Python"), said
    assert f"`env -u {name} gc-wizard …`" in said
    assert placement_problem("uv", {"PIP_CONFIG_FILE": os.devnull, name: value}, tmp_path) is None


@pytest.mark.parametrize("key", ["platform", "abi", "implementation", "python_version"])
def test_each_pip_target_key_of_a_pip_conf_is_refused_naming_the_file(tmp_path, key):
    conf = tmp_path / "pip.conf"
    conf.write_text(f"[install]\n{key} = x\n")
    said = placement_problem("pip", {"PIP_CONFIG_FILE": str(conf)}, tmp_path)
    assert said and f"`{key.replace('_', '-')} = …` in {conf}" in said and "another platform" in said, said
    # bundle's `pip download` gives its own target; pip adds a file's platform/abi lists to it: refused there
    assert (pip_target_file_problem({"PIP_CONFIG_FILE": str(conf)}) is not None) == (key in ("platform", "abi"))


@pytest.mark.parametrize("key", ["python-platform", "python-version"])
def test_uvs_pip_target_keys_are_refused(tmp_path, key):
    toml = tmp_path / "uv.toml"
    toml.write_text(f'[pip]\n{key} = "x"\n')
    said = placement_problem("uv", {"UV_CONFIG_FILE": str(toml)}, tmp_path)
    assert said and f"`[pip] {key} = …` in {toml}" in said and "another platform" in said, said
