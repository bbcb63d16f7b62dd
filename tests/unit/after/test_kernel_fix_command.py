"""`kernel install` in an environment without ipykernel tells the command that works there (fifth hostile pass 2f):
a uv-built environment has no pip, so `python -m pip install ipykernel` failed with "No module named pip". The
command comes from `install.add_package`, which the install's own note uses too."""

from __future__ import annotations

import shlex
import subprocess
import sys
import venv

import pytest
from uv import find_uv_bin

from wizard.after.kernel import kernel_install
from wizard.errors import UserError


def _fix_in(message: str) -> list[str]:
    return shlex.split(message.split("`")[1])


def test_a_uv_built_env_is_told_the_uv_command_and_it_works(tmp_path):
    env = tmp_path / "uv-env"
    subprocess.run([find_uv_bin(), "venv", "--quiet", "--python", sys.executable, str(env)], check=True, timeout=120)
    with pytest.raises(UserError) as caught:
        kernel_install(env, environ={"JUPYTER_DATA_DIR": str(tmp_path / "jupyter")})
    fix = _fix_in(str(caught.value))
    assert fix[1:5] == ["pip", "install", "--python", str(env / "bin" / "python")] and fix[-1] == "ipykernel"
    # the told command really reaches that env (a tiny package from no index: it fails on the index, not on pip)
    proc = subprocess.run([*fix[:-1], "--offline", "--no-index", "no-such-package-xyz"], capture_output=True,
                          text=True, timeout=120)
    assert "No module named pip" not in proc.stderr and str(env) in proc.stderr + proc.stdout, proc.stderr


def test_an_env_with_pip_is_told_its_own_pip(tmp_path):
    env = tmp_path / "venv-env"
    venv.create(env, with_pip=False, symlinks=True)
    site = next(env.glob("lib/python3*/site-packages"))
    (site / "pip").mkdir()
    (site / "pip" / "__init__.py").write_text("")
    with pytest.raises(UserError) as caught:
        kernel_install(env, environ={"JUPYTER_DATA_DIR": str(tmp_path / "jupyter")})
    assert _fix_in(str(caught.value)) == [str(env / "bin" / "python"), "-m", "pip", "install", "ipykernel"]
