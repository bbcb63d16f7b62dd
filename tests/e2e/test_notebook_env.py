"""A notebook-ready environment: `install --with-notebook` builds one in which the demo notebook's imports cell
runs as it is written (read from GraphCast's own notebook), and `kernel install` says what to skip.

Real uv from PyPI into a real environment (network); GraphCast v0.1.1 from GC_WIZARD_GRAPHCAST_SRC."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from tests.fixtures.jaxenv import require_graphcast_src
from tests.fixtures.state import last_json, run_cli

pytestmark = [pytest.mark.network, pytest.mark.slow]


def imports_cell(checkout: Path) -> str:
    """The "Imports" cell of the checkout's graphcast_demo.ipynb, as the notebook has it."""
    notebook = json.loads((checkout / "graphcast_demo.ipynb").read_text(encoding="utf-8"))
    for cell in notebook["cells"]:
        source = "".join(cell["source"])
        if cell["cell_type"] == "code" and source.lstrip().startswith("# @title Imports"):
            return source
    raise AssertionError("the notebook has no Imports cell")


def test_with_notebook_the_imports_cell_runs_and_the_kernel_names_its_notebook(tmp_path):
    src = Path(require_graphcast_src())
    proc = run_cli("install", "jax0.4.23-cpu", "--with-notebook", "--graphcast-src", str(src), "--yes", "--no-verify",
                   "--json", timeout=1500)
    assert proc.returncode == 0, proc.stderr[-3000:]
    env = Path(last_json(proc)["env"])
    marker = json.loads((env / "gc-wizard-env.json").read_text())
    assert marker["notebook"] is True and marker["graphcast_version"] == "0.1.1"
    cell = imports_cell(src)
    assert "from google.cloud import storage" in cell and "import ipywidgets" in cell
    run = subprocess.run([str(env / "bin" / "python"), "-c", cell], capture_output=True, text=True, timeout=300,
                         env={**os.environ, "MPLBACKEND": "Agg", "JAX_PLATFORMS": "cpu"})
    assert run.returncode == 0, run.stderr[-3000:]
    kernel = run_cli("kernel", "install", "--env", str(env), "--json",
                     env={"JUPYTER_DATA_DIR": str(tmp_path / "jupyter")})
    result = last_json(kernel)
    assert result["notebooks"] == ["graphcast_demo.ipynb"] and "(graphcast_demo.ipynb)" in result["display_name"]
    cautions = [c for c in result["cautions"] if not c.startswith("No Jupyter server was found")]  # (where none is)
    assert len(cautions) == 3 and "master.zip" in cautions[0]
