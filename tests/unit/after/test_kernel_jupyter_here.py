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
    assert "No Jupyter was found on this machine" in said and "graphcast_demo.ipynb" in said
    assert "github.com/google-deepmind/graphcast" in said and "JupyterHub" in said


def test_a_jupyter_on_path_or_in_the_environment_needs_no_word(tmp_path):
    env, tools = tmp_path / "env", tmp_path / "tools"
    (env / "bin").mkdir(parents=True)
    tools.mkdir()
    program = tools / "jupyter"
    program.write_text("#!/bin/sh\n")
    program.chmod(0o755)
    assert jupyter_cautions(env, _marker(), {"PATH": str(tools)}) == []
    (env / "bin" / "jupyter").write_text("#!/bin/sh\n")
    assert jupyter_cautions(env, _marker(), {"PATH": ""}) == []
