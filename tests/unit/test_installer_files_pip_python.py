"""`PIP_PYTHON` (pip's `--python`, and a pip.conf's `python = …`) has pip run itself again under the program it
names, as whoever runs gc-wizard, and install into that program's environment: refused with the placement settings
(35th hostile pass (part A) P3). `PIP_DRY_RUN` (`--dry-run`, `dry-run = …`) has pip install nothing while the
environment is recorded as the recipe's: refused (35th hostile pass (part A) P5)."""

from __future__ import annotations

import os

from wizard.installer_files import pip_program_problem, placement_problem, requirement_problem


def test_pip_python_is_refused_as_a_variable_and_a_settings_key(tmp_path):
    env = {"PIP_CONFIG_FILE": os.devnull, "PIP_PYTHON": "/tmp/x/fakepy"}
    said = placement_problem("pip", env, tmp_path)
    assert said and said.startswith("PIP_PYTHON=/tmp/x/fakepy in the environment would make pip run itself again")
    assert pip_program_problem(env) == said
    conf = tmp_path / "pip.conf"
    conf.write_text("[global]\npython = /usr/bin/python3\n")
    said = placement_problem("pip", {"PIP_CONFIG_FILE": str(conf)}, tmp_path)
    assert said and f"`python = …` in {conf}" in said
    assert placement_problem("uv", env, tmp_path) is None  # uv reads no PIP_* setting
    assert pip_program_problem({"PIP_CONFIG_FILE": os.devnull, "PIP_TARGET": "/x"}) is None  # `pip download`


def test_pip_dry_run_is_refused_and_set_off_is_not(tmp_path):
    said = requirement_problem("pip", {"PIP_CONFIG_FILE": os.devnull, "PIP_DRY_RUN": "1"}, tmp_path)
    assert said and said.startswith("PIP_DRY_RUN=1 in the environment would make pip install nothing")
    assert requirement_problem("pip", {"PIP_CONFIG_FILE": os.devnull, "PIP_DRY_RUN": "false"}, tmp_path) is None
    conf = tmp_path / "pip.conf"
    conf.write_text("[install]\ndry_run = yes\n")
    said = requirement_problem("pip", {"PIP_CONFIG_FILE": str(conf)}, tmp_path)
    assert said and f"`dry-run = …` in {conf}" in said
