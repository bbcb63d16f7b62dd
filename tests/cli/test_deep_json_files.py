"""30th hostile pass (part A) P4: a deeply nested JSON file that another tool (or a hand) put where the wizard looks —
another kernel's kernel.json, a conda env's conda-meta record — ended `kernel list`, `kernel remove` and
`diagnose --env` in "gc-wizard stopped on an error of its own (RecursionError …); this is a bug". Read by the one
bounded reader (`bounded.read_json`), such a file is passed over: another tool's kernel is left alone, the record
gives no cuDNN."""

from __future__ import annotations

import subprocess
import sys

from tests.fixtures.state import run_cli

DEEP = '{"a":' * 5000 + "1" + "}" * 5000


def test_kernel_list_and_remove_pass_over_another_tools_deep_kernel_json(tmp_path):
    folder = tmp_path / "jupyter" / "kernels" / "other"
    folder.mkdir(parents=True)
    (folder / "kernel.json").write_text(DEEP)
    variables = {"JUPYTER_DATA_DIR": str(tmp_path / "jupyter"), "PATH": "/usr/bin:/bin"}
    listed = run_cli("kernel", "list", env=variables)
    assert listed.returncode == 0, listed.stderr
    removed = run_cli("kernel", "remove", "--name", "other", env=variables)
    assert removed.returncode == 2 and "was not written by gc-wizard, so it is left alone" in removed.stderr
    for done in (listed, removed):
        assert "this is a bug" not in done.stderr and "RecursionError" not in done.stderr


def test_diagnose_env_passes_over_a_deep_conda_record(tmp_path):
    env = tmp_path / "cenv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(env)], check=True)
    (env / "conda-meta").mkdir()
    (env / "conda-meta" / "jaxlib-0.4.23-cuda120py311h.json").write_text(DEEP)
    done = run_cli("diagnose", "--env", str(env))
    assert "this is a bug" not in done.stderr and "RecursionError" not in done.stderr, done.stderr
    assert done.returncode in (0, 1), done.stderr
