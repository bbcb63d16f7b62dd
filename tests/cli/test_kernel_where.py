"""`kernel install` says plainly where the kernel can be used (walk 23 #6): with no Jupyter server
here it said "Pick it in Jupyter's kernel list …; restart Jupyter", because the environment's own `jupyter`
(jupyter_core's, which ipykernel brings) counted as one. A real environment built by uv from a local wheelhouse."""

from __future__ import annotations

import json
from pathlib import Path

from tests.fixtures.state import last_json, run_cli


def _program(path: Path) -> None:
    path.write_text("#!/bin/sh\nexit 0\n")
    path.chmod(0o755)


def test_kernel_install_says_there_is_no_jupyter_server_here_and_not_to_pick_it_here(tiny, tmp_path):
    env = tiny.env_with_ipykernel()
    _program(env / "bin" / "jupyter")  # what jupyter_core puts in every environment with ipykernel: no server
    variables = {"JUPYTER_DATA_DIR": str(tmp_path / "jupyter"), "PATH": "/usr/bin:/bin"}
    plain = run_cli("kernel", "install", "--env", str(env), env=variables)
    shown = " ".join((plain.stdout + plain.stderr).split())
    assert plain.returncode == 0, plain.stderr
    assert "No Jupyter server was found on this machine" in shown and "Pick it in Jupyter's kernel list" not in shown
    data = last_json(run_cli("kernel", "install", "--env", str(env), "--json", env=variables))
    assert data["jupyter_server"] is False and "No Jupyter server" in json.dumps(data["cautions"])
    _program(env / "bin" / "jupyter-lab")
    served = run_cli("kernel", "install", "--env", str(env), env=variables)
    shown = " ".join((served.stdout + served.stderr).split())
    assert "Pick it in Jupyter's kernel list" in shown and "No Jupyter server" not in shown
