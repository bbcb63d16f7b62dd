"""The core and the CLI must never import Textual; only the TUI path may.

Proved in a fresh subprocess: the only way to show that a deferred import really is deferred.
"""

import subprocess
import sys

import pytest

CORE_AND_CLI = [
    "wizard",
    "wizard.cli",
    "wizard.facts",
    "wizard.paths",
    "wizard.lock",
    "wizard.errors",
]


def _loaded_after(import_line: str) -> set[str]:
    code = f"import sys; {import_line}; print(' '.join(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return set(out.stdout.split())


@pytest.mark.parametrize("module", CORE_AND_CLI)
def test_core_module_does_not_import_textual(module):
    loaded = _loaded_after(f"import {module}")
    assert "textual" not in loaded, f"{module} imported textual"


def test_version_is_fast_and_light():
    out = subprocess.run([sys.executable, "-X", "importtime", "-m", "wizard", "--version"],
                         capture_output=True, text=True, check=True)
    assert out.stdout.startswith("gc-wizard ")
    imported = {line.split("|")[-1].strip() for line in out.stderr.splitlines() if "|" in line}
    for heavy in ("textual", "rich", "pexpect", "yaml"):
        assert heavy not in imported, f"--version imported {heavy}"
