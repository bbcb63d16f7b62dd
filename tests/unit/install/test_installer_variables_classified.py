"""Every `UV_*` variable the installed uv documents for the commands the wizard runs, and every `PIP_*` option the
installed pip's `install` has, is either named in the product's code (a table row: trusted, path, resolution,
placement, a value set back or refused) or listed here with the reason it may pass on unnamed.

Why: `runner.PASSED_PREFIXES` hands every `UV_`/`PIP_` variable to each install step. 35th hostile pass (part B) P8 —
`UV_INDEX_STRATEGY=unsafe-best-match`, `UV_NO_SOURCES`, `PIP_CONFIG_SETTINGS` reached every step unnamed, a second set
past 34th pass B P5's table; a new uv or pip option now fails here until someone decides where it belongs."""

from __future__ import annotations

import ast
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import wizard

#: The uv commands the wizard runs (their `--help` names each option's `[env: UV_…=]`).
UV_COMMANDS = ([], ["pip", "install"], ["pip", "compile"], ["pip", "list"], ["pip", "freeze"], ["venv"],
               ["python", "find"])

#: Passed on unnamed, each for its reason: they change neither which packages are installed, nor where from, nor
#: where to (output, progress, retries, caches' and compile's own switches, project commands `uv pip` does not run).
PASSED_ON = {
    "UV_COMPILE_BYTECODE": "writes .pyc files for what is installed",
    "UV_CUSTOM_COMPILE_COMMAND": "the header comment of a compiled requirements file",
    "UV_MANAGED_PYTHON": "the wizard names the interpreter of every env by its path",
    "UV_NO_MANAGED_PYTHON": "the wizard names the interpreter of every env by its path",
    "UV_NO_EDITABLE": "the wizard installs nothing editable",
    "UV_NO_PROJECT": "`uv pip` reads no project",
    "UV_WORKING_DIR": "`uv pip` reads no project (UV_WORKING_DIRECTORY's short name)",
    "UV_OFFLINE": "fewer places, never other ones: a missing file fails the step by name",
    "UV_VENV_RELOCATABLE": "the env's own scripts, not what is in it",
    "UV_PYTHON": "moot: every step gives --python (uv_overrides)",
    "UV_SYSTEM_PYTHON": "moot: every step gives --python (uv_overrides)",
    "UV_BREAK_SYSTEM_PACKAGES": "moot: every step gives --python, an env the wizard made",
    "PIP_NO_USER": "the default", "PIP_USE_PEP517": "the build route, with the same backend",
    "PIP_BREAK_SYSTEM_PACKAGES": "the wizard installs into its own env, never an externally managed one",
    "PIP_CHECK_BUILD_DEPENDENCIES": "a check, installs nothing",
    "PIP_DEBUG": "output", "PIP_VERBOSE": "output", "PIP_QUIET": "output", "PIP_PROGRESS_BAR": "output",
    "PIP_NO_COLOR": "output", "PIP_LOG": "output", "PIP_HELP": "output",
    "PIP_NO_WARN_CONFLICTS": "output", "PIP_NO_WARN_SCRIPT_LOCATION": "output",
    "PIP_EXISTS_ACTION": "what pip does with a file it downloads twice",
    "PIP_FORCE_REINSTALL": "the same packages again", "PIP_IGNORE_INSTALLED": "the same packages again",
    "PIP_UPGRADE": "the pins fix the recipe's packages", "PIP_UPGRADE_STRATEGY": "the pins fix the recipe's packages",
    "PIP_ISOLATED": "pip reads fewer settings", "PIP_NO_CLEAN": "pip's temporary files",
    "PIP_NO_COMPILE": "no .pyc files", "PIP_NO_INDEX": "fewer places, never other ones",
    "PIP_NO_PROXY_ENV": "fewer settings", "PIP_NO_REQUIRE_HASHES": "the default",
    "PIP_ONLY_FINAL": "fewer versions, a missing one fails by name", "PIP_PREFER_BINARY": "wheels over builds",
    "PIP_REFRESH_PACKAGE": "fresh metadata", "PIP_REQUIREMENTS_FROM_SCRIPT": "a file the wizard never gives",
    "PIP_REQUIRE_VIRTUALENV": "every env the wizard installs into is one",
    "PIP_RESUME_RETRIES": "network retries", "PIP_RETRIES": "network retries", "PIP_TIMEOUT": "network retries",
    "PIP_ROOT_USER_ACTION": "a warning", "PIP_USE_DEPRECATED": "pip's own switches",
    "PIP_USE_FEATURE": "pip's own switches", "PIP_NO_INPUT": "set by the wizard itself",
    "PIP_DISABLE_PIP_VERSION_CHECK": "a warning", "PIP_NO_PYTHON_VERSION_WARNING": "a warning",
    "PIP_HASH": "a requirements-file option", "PIP_NO_DEPS": "named by installer_files",
    # 35th hostile pass (part A) P3–P5 hold these (refused or named where a pip step is built).
    "PIP_DRY_RUN": "part A P5", "PIP_PYTHON": "part A P3", "PIP_REPORT": "part A P4",
}


def _named_in_code() -> set[str]:
    """Every string the product's code holds outside docstrings, and the UV_/PIP_ names inside them."""
    names: set[str] = set()
    for path in Path(wizard.__file__).parent.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docs = {id(node.body[0].value) for node in ast.walk(tree)
                if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body
                and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)}
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
                names.add(node.value)
                names.update(re.findall(r"\b((?:UV|PIP)_[A-Z0-9_]+)", node.value))
    return names


def _uv_variables() -> set[str]:
    uv = shutil.which("uv", path=str(Path(sys.executable).parent)) or shutil.which("uv")
    if uv is None:
        pytest.skip("no uv here")
    found: set[str] = set()
    for command in UV_COMMANDS:
        text = subprocess.run([uv, *command, "--help"], capture_output=True, text=True, timeout=60).stdout
        found.update(re.findall(r"env:\s*`?(UV_[A-Z0-9_]+)", text))
    return found


def _pip_variables() -> set[str]:
    commands = pytest.importorskip("pip._internal.commands")
    parser = commands.create_command("install").parser
    options = [option for group in [parser, *parser.option_groups] for option in group.option_list]
    return {"PIP_" + option.get_opt_string()[2:].upper().replace("-", "_") for option in options
            if option.get_opt_string().startswith("--")}


def test_every_uv_variable_is_classified():
    named = _named_in_code()
    loose = sorted(v for v in _uv_variables() if v not in named and v not in PASSED_ON)
    assert not loose, f"uv variables neither in a table nor in PASSED_ON: {loose}"


def test_every_pip_option_is_classified():
    named = _named_in_code()
    loose = sorted(v for v in _pip_variables()
                   if v not in named and v[4:].lower().replace("_", "-") not in named and v not in PASSED_ON)
    assert not loose, f"pip options neither in a table nor in PASSED_ON: {loose}"
