"""Every program the wizard runs from its own interpreter (`sys.executable -m X`) is a declared dependency
(issue 24, P12).

Installed by uv (`uv tool install`) or pipx, the wizard's interpreter has only what the project declares:
`bundle` ran `python -m pip`, pip was only a test extra, and the Slurm/bundle/lock flow could not start.
The check reads the wizard's own source for `sys.executable, "-m", NAME` and the installed metadata for
the requirements that hold without an extra.
"""

from __future__ import annotations

import re
from importlib import metadata
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

import wizard

_RUNS = re.compile(r"sys\.executable,\s*\"-m\",\s*\"([A-Za-z0-9_.]+)\"")
#: Modules of the standard library the wizard may run that way.
_STDLIB = {"venv", "ensurepip", "json", "wizard"}


def _declared() -> set[str]:
    found = set()
    for text in metadata.requires("gc-wizard") or []:
        req = Requirement(text)
        if req.marker is None or "extra" not in str(req.marker):
            found.add(canonicalize_name(req.name))
    return found


def test_every_module_run_from_the_wizards_interpreter_is_declared():
    runs = set()
    for source in Path(wizard.__file__).parent.rglob("*.py"):
        runs |= set(_RUNS.findall(source.read_text(encoding="utf-8")))
    runs = {canonicalize_name(name.split(".")[0]) for name in runs} - _STDLIB
    assert "pip" in runs  # bundle's download: the case this test exists for
    assert runs <= _declared(), f"run with `python -m` but not declared: {sorted(runs - _declared())}"
