"""`activate` run through `uvx` / `uv tool run` (or `pipx run`) leaves the running wizard's own cached environment out
of the PATH it exports: uv puts that environment's bin folder first on the wizard's PATH only, the user's shell never
had it, and `eval` kept `~/.cache/uv/archive-v0/HASH/bin` (with its own `python`) on the user's PATH after `uv cache
clean` deleted it (walk 37 #2). The user's other entries stay, without a word about them."""

from __future__ import annotations

import sys

from tests.fixtures.envs import python_link_env
from wizard.after.activate import activation_script
from wizard.install.activation import compute_activation


def _uv_cache_env(tmp_path):
    cache = tmp_path / "uvcache"
    (cache / "archive-v0" / "uHbN5qkyywu4-Qdx" / "bin").mkdir(parents=True)
    (cache / "CACHEDIR.TAG").write_text("Signature: 8a477f597d28d172789f06886806bc55\n")
    return cache / "archive-v0" / "uHbN5qkyywu4-Qdx"


def test_the_running_uvx_environment_is_not_exported_on_path(tmp_path, monkeypatch):
    env = python_link_env(tmp_path / "env")
    tool = _uv_cache_env(tmp_path)
    monkeypatch.setattr(sys, "prefix", str(tool))
    act = compute_activation(env, {"PATH": f"{tool / 'bin'}:/home/u/bin:/usr/bin:/bin"}, marker={})
    assert act.set["PATH"] == f"{env / 'bin'}:/home/u/bin:/usr/bin:/bin"
    assert not [r for r in act.removals if r.variable == "PATH"]  # nothing said about the user's own entries
    assert act.original["PATH"] == "/home/u/bin:/usr/bin:/bin"  # what `deactivate` puts back
    assert str(tool) not in activation_script(act)


def test_another_cached_folder_on_the_users_path_is_theirs(tmp_path, monkeypatch):
    """Only the running wizard's own environment goes: a run from a lasting environment keeps every entry."""
    env = python_link_env(tmp_path / "env")
    tool = _uv_cache_env(tmp_path)
    monkeypatch.setattr(sys, "prefix", str(tmp_path / "venv"))
    act = compute_activation(env, {"PATH": f"{tool / 'bin'}:/usr/bin"}, marker={})
    assert act.set["PATH"] == f"{env / 'bin'}:{tool / 'bin'}:/usr/bin"
