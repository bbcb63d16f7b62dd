"""The user's uv variables that would change WHAT an install puts in the environment without a word, each set back
to uv's default for every uv step, with a note that names it.

Why: 31st hostile pass (part B) P10 — every `UV_*` is passed to the steps (`runner.PASSED_PREFIXES`: a mirror, a
cache folder are the user's to choose), so `UV_VENV_SEED=1` had `uv venv` add pip, setuptools and wheel, which no
recipe pins; offline it failed "No solution found when resolving: pip, setuptools, wheel", which `diagnose` took for
a conflict between the recipe's pins, and nothing named the variable. Decided per variable from `uv venv --help`
and `uv pip install --help` (uv 0.13), as `UV_LINK_MODE=symlink` is (`linkmode`): the ones that add or replace
packages are refused (`installer_files.requirement_problem`); `UV_VENV_CLEAR` never reaches a folder the wizard did
not make; `UV_SYSTEM_PYTHON` / `UV_BREAK_SYSTEM_PACKAGES` are moot beside the `--python` every step gives; the rest
change how, not what. This module imports nothing beyond the standard library: the runner and the plan read it.
"""

from __future__ import annotations

from collections.abc import Mapping

#: (variable, the value every uv step gets instead, what the user's value would have done)
OVERRIDES: tuple[tuple[str, str, str], ...] = (
    ("UV_VENV_SEED", "0", "would have `uv venv` add pip, setuptools and wheel, which the recipe does not pin, to the "
                          "new environment (and fail offline, where they are not in the wheelhouse)"),
)
#: The values uv reads as "off" for a switch.
_OFF = ("", "0", "false", "no", "off")


def uv_overrides(environ: Mapping[str, str]) -> tuple[dict[str, str], list[str]]:
    """(variables for every uv step, one note each) for the `OVERRIDES` the user's environment sets on."""
    env: dict[str, str] = {}
    notes: list[str] = []
    for name, value, why in OVERRIDES:
        given = (environ.get(name) or "").strip()
        if given.lower() in _OFF:
            continue
        env[name] = value
        notes.append(f"{name}={given} in your environment {why}: gc-wizard sets {name}={value} for uv, so the "
                     "environment holds the recipe's packages only.")
    return env, notes
