"""The core and the CLI must never import Textual; only the TUI path may.

Proved in a fresh subprocess: the only way to show that a deferred import really is deferred.
"""

import pkgutil
import subprocess
import sys

import pytest


def _core_and_cli() -> list[str]:
    """Every wizard module outside the TUI, found by walking the package (no hand-kept list to go stale).

    The probe is left out: it is a standalone script run by the *target* environment's Python.
    """
    import wizard

    names = ["wizard"]
    for info in pkgutil.walk_packages(wizard.__path__, prefix="wizard."):
        if info.name.startswith(("wizard.tui", "wizard.verify.probe.graphcast_probe")) or info.name.endswith(
                "__main__"):
            continue
        names.append(info.name)
    return sorted(names)


CORE_AND_CLI = _core_and_cli()


def test_the_walk_finds_every_stage():
    for stage in ("wizard.detect.chain", "wizard.recipes.match", "wizard.flows.transaction",
                  "wizard.verify.check", "wizard.flows.rollback", "wizard.after.report", "wizard.commands.install"):
        assert stage in CORE_AND_CLI


def _loaded_after(import_line: str) -> set[str]:
    code = f"import sys; {import_line}; print(' '.join(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return set(out.stdout.split())


@pytest.mark.parametrize("module", CORE_AND_CLI)
def test_core_module_does_not_import_textual_or_rich(module):
    loaded = _loaded_after(f"import {module}")
    assert "textual" not in loaded, f"{module} imported textual"
    assert "rich" not in loaded, f"{module} imported rich"


def test_no_tty_run_never_imports_textual():
    """Bare `gc-wizard` with no terminal runs the plain flow, without Textual."""
    code = ("import sys, runpy; sys.argv = ['gc-wizard', '--no-tui']\n"
            "try:\n    runpy.run_module('wizard', run_name='__main__')\nexcept SystemExit:\n    pass\n"
            "print('TEXTUAL' if 'textual' in sys.modules else 'CLEAN')")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                         stdin=subprocess.DEVNULL)
    assert out.stdout.strip().splitlines()[-1] == "CLEAN", out.stderr[-2000:]


def test_tui_package_import_is_deferred():
    """`wizard.tui` itself loads no Textual until run_tui() is called."""
    assert "textual" not in _loaded_after("import wizard.tui")


def test_version_is_fast_and_light():
    out = subprocess.run([sys.executable, "-X", "importtime", "-m", "wizard", "--version"],
                         capture_output=True, text=True, check=True)
    assert out.stdout.startswith("gc-wizard ")
    imported = {line.split("|")[-1].strip() for line in out.stderr.splitlines() if "|" in line}
    for heavy in ("textual", "rich", "pexpect", "yaml"):
        assert heavy not in imported, f"--version imported {heavy}"
