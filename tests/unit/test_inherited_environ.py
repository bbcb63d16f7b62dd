"""What a child of the wizard looks up or reads on its own is judged where it gets it, its environment.

Pass 26's early look: root's pyenv `python3` shim (root's own, so `children.which` ran it) starts with
`#!/usr/bin/env bash`, and env found `bash` in a folder every user could write, first on PATH (P3); `BASH_ENV` and
`PYENV_HOOK_PATH` naming another user's files were sourced by root's shell (P4); `$VIRTUAL_ENV`/`$CONDA_PREFIX`
naming another user's environment had its `bin/python3` run by detect (P5)."""

from __future__ import annotations

import os

from tests.fixtures.modes import open_folder
from wizard import children
from wizard.detect.environment import choose_target


def test_unsafe_path_folders_start_up_files_and_hook_paths_are_left_out_and_named(tmp_path):
    children.SKIPPED_PROGRAMS.clear()
    ww = open_folder(tmp_path / "ww")
    own = tmp_path / "own"
    own.mkdir()
    (ww / "env.sh").write_text("touch /tmp/pwned\n")
    (own / "env.sh").write_text(": mine\n")
    environ = {"PATH": f"{ww}{os.pathsep}{own}{os.pathsep}relative", "BASH_ENV": str(ww / "env.sh"),
               "ENV": str(own / "env.sh"), "PYENV_HOOK_PATH": f"{ww}{os.pathsep}{own}"}
    children.guard_inherited_environ(environ)
    assert environ["PATH"] == f"{own}{os.pathsep}relative"
    assert "BASH_ENV" not in environ and environ["ENV"] == str(own / "env.sh")
    assert environ["PYENV_HOOK_PATH"] == str(own)
    said = " ".join(children.SKIPPED_PROGRAMS)
    assert f"PATH: {ww} was left out" in said and f"{ww} is a folder every user can write" in said
    assert f"BASH_ENV: {ww / 'env.sh'} was left out" in said and "PYENV_HOOK_PATH" in said
    children.SKIPPED_PROGRAMS.clear()


def test_a_safe_environment_is_left_as_it_is(tmp_path):
    children.SKIPPED_PROGRAMS.clear()
    own = tmp_path / "own"
    own.mkdir()
    environ = {"PATH": f"{own}{os.pathsep}/usr/bin", "BASH_ENV": str(own / "missing.sh")}
    before = dict(environ)
    children.guard_inherited_environ(environ)
    assert environ == before and children.SKIPPED_PROGRAMS == []


def test_an_active_venv_another_user_could_change_is_not_described_by_running_its_python(tmp_path):
    children.SKIPPED_PROGRAMS.clear()
    venv = open_folder(tmp_path / "venv")
    (venv / "bin").mkdir()
    python = venv / "bin" / "python3"
    python.write_text("#!/bin/sh\ntouch /tmp/pwned\n")
    python.chmod(0o755)
    target = choose_target(None, {"VIRTUAL_ENV": str(venv), "PATH": "/usr/bin:/bin"})
    assert target.chosen_by == "PATH" and str(venv) not in str(target.executable)
    assert any(note.startswith(f"$VIRTUAL_ENV: {python} was not run") for note in children.SKIPPED_PROGRAMS)
    children.SKIPPED_PROGRAMS.clear()


def test_activation_and_the_kernel_leave_out_search_path_folders_another_user_could_fill(tmp_path):
    """Pass 26's early look P2: `kernel install` copied a LD_LIBRARY_PATH folder tuser owned into kernel.json, and
    every later start of the kernel as root loaded tuser's libz.so.1. The activation (shell, kernel, check) decides
    the search paths once, by the swap rule sources go through."""
    from wizard.install.activation import compute_activation

    env = tmp_path / "env"
    (env / "bin").mkdir(parents=True)
    ww, own = open_folder(tmp_path / "ww"), tmp_path / "own"
    own.mkdir()
    act = compute_activation(env, {"LD_LIBRARY_PATH": f"{ww}:{own}", "PATH": f"{ww}:{own}:/usr/bin"},
                             marker={"recipe": "jax0.4.23-cpu", "backend": "cpu", "python": "3.11"})
    kernel = act.kernel_env()
    assert kernel["LD_LIBRARY_PATH"] == str(own)
    assert str(ww) not in kernel.get("PATH", "") and str(own) in kernel.get("PATH", "")
    assert {(r.variable, r.folder) for r in act.removals} >= {("LD_LIBRARY_PATH", str(ww)), ("PATH", str(ww))}
