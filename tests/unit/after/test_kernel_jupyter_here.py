"""A kernel registered on a machine without Jupyter says where it can be used from (walk 22 #3: "restart Jupyter if it
is not listed yet" on a server with no `jupyter` anywhere)."""

from __future__ import annotations

from wizard.after.kernel import jupyter_cautions
from wizard.install.envs import EnvMarker


def _marker() -> EnvMarker:
    return EnvMarker(recipe="jax0.4.23-cpu", extra={"graphcast_version": "0.1.1"})


def test_no_jupyter_here_says_where_to_open_the_notebook(tmp_path):
    env = tmp_path / "env"
    (env / "bin").mkdir(parents=True)
    said = " ".join(jupyter_cautions(env, _marker(), {"PATH": str(tmp_path / "empty")}))
    assert "No Jupyter server was found on this machine" in said and "graphcast_demo.ipynb" in said
    assert "github.com/google-deepmind/graphcast" in said and "JupyterHub" in said


def test_a_jupyter_server_on_path_or_in_the_environment_needs_no_word(tmp_path):
    """walk 23 #6: `jupyter` alone (jupyter_core's, in every environment with ipykernel) counted as
    a Jupyter, so a server without one was never told; only a program that serves notebooks counts."""
    env, tools = tmp_path / "env", tmp_path / "tools"
    (env / "bin").mkdir(parents=True)
    tools.mkdir()
    for folder in (tools, env / "bin"):
        (folder / "jupyter").write_text("#!/bin/sh\n")
        (folder / "jupyter").chmod(0o755)
    assert "No Jupyter server was found" in " ".join(jupyter_cautions(env, _marker(), {"PATH": str(tools)}))
    program = tools / "jupyter-lab"
    program.write_text("#!/bin/sh\n")
    program.chmod(0o755)
    assert jupyter_cautions(env, _marker(), {"PATH": str(tools)}) == []
    (env / "bin" / "jupyter-notebook").write_text("#!/bin/sh\n")
    assert jupyter_cautions(env, _marker(), {"PATH": ""}) == []
