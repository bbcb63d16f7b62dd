"""uv is found from its package or on PATH; without either, a command that needs it says so in one sentence."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from wizard.errors import OperationFailed
from wizard.uv_tool import uv_bin


def test_without_the_uv_package_a_uv_on_path_serves(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "uv", None)  # `import uv` raises ImportError, as in an install without it
    program = tmp_path / "uv"
    program.write_text("#!/bin/sh\nexit 0\n")
    program.chmod(0o755)
    monkeypatch.setenv("PATH", str(tmp_path))
    assert uv_bin() == str(program)
    monkeypatch.setenv("PATH", str(tmp_path / "nothing-here"))
    with pytest.raises(OperationFailed, match=r"uv, which gc-wizard installs with \(and, with --installer pip too, records and checks every environment.s package set with\), is not installed for"):
        uv_bin()


def test_a_command_that_needs_uv_says_so_instead_of_stopping_on_an_import_error(tmp_path):
    code = ("import sys; sys.modules['uv'] = None; from wizard.cli import main; "
            f"sys.exit(main(['lock', 'jax0.4.23-cpu', '--out', {str(tmp_path / 'x.txt')!r}]))")
    env = {**os.environ, "PATH": str(tmp_path), "GC_WIZARD_HOME": str(tmp_path / "home")}
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 1, proc.stderr
    assert "every environment's package set with), is not installed for" in proc.stderr
    assert "Traceback" not in proc.stderr and "error of its own" not in proc.stderr
