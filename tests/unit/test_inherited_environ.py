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


def _missing_entries(tmp_path):
    """(entries another user could make, entries only you could): not there yet, under a 0777 folder, a 1777 one,
    a folder uid 65534 owns (as root), or through a link of yours that leads into the 0777 folder; and under
    your own folder."""
    from tests.fixtures.modes import NOBODY

    ww, sticky, own = open_folder(tmp_path / "ww"), open_folder(tmp_path / "sticky", sticky=True), tmp_path / "own"
    own.mkdir()
    (own / "link").symlink_to(ww / "gone")
    risky = [str(ww / "sub"), str(sticky / "sub" / "py"), str(own / "link" / "lib")]
    if os.geteuid() == 0:
        theirs = tmp_path / "theirs"
        theirs.mkdir()
        os.chown(theirs, NOBODY, NOBODY)
        risky.append(str(theirs / "nothere"))
    return risky, [str(own / "nothere"), str(own / "a" / "b")]


def test_search_path_entries_not_there_yet_are_judged_by_who_may_make_them(tmp_path):
    """27th hostile pass (part B) P3: `activate` and `kernel install` kept `PYTHONPATH=/home/tuser/nothere/py` (and
    PATH, LD_LIBRARY_PATH entries in a 0777 folder) because nothing was there to judge; tuser then made it with a
    `sitecustomize.py` that root's next kernel start ran."""
    from wizard.install.activation import compute_activation

    env = tmp_path / "env"
    (env / "bin").mkdir(parents=True)
    risky, safe = _missing_entries(tmp_path)
    value = os.pathsep.join([*risky, *safe])
    act = compute_activation(env, {"PATH": f"{value}:/usr/bin", "LD_LIBRARY_PATH": value, "PYTHONPATH": value},
                             marker={"recipe": "jax0.4.23-cpu", "backend": "cpu", "python": "3.11"})
    kernel = act.kernel_env()
    for variable in ("PATH", "LD_LIBRARY_PATH", "PYTHONPATH"):
        kept = kernel[variable].split(os.pathsep)
        assert not set(risky) & set(kept) and set(safe) <= set(kept), (variable, kept)
        gone = {r.folder: r.reason for r in act.removals if r.variable == variable}
        assert set(risky) <= set(gone), (variable, gone)
    reason = next(r.reason for r in act.removals if r.folder == risky[0])
    assert reason.startswith(f"{tmp_path / 'ww'} is a folder every user can write") and "not there yet" in reason


def test_the_wizards_own_path_leaves_out_folders_not_there_yet_that_another_user_could_make(tmp_path):
    children.SKIPPED_PROGRAMS.clear()
    risky, safe = _missing_entries(tmp_path)
    ww = tmp_path / "ww"
    environ = {"PATH": os.pathsep.join([*risky, *safe, f"{ww}/../ww"]), "PYENV_HOOK_PATH": risky[0]}
    children.guard_inherited_environ(environ)
    assert environ["PATH"].split(os.pathsep) == safe and environ["PYENV_HOOK_PATH"] == ""
    said = " ".join(children.SKIPPED_PROGRAMS)
    assert f"PATH: {risky[0]} was left out" in said and "not there yet, could be made in it" in said
    assert f"{ww} is a folder every user can write" in said and f"{ww} is a file" not in said  # a folder, named so
    children.SKIPPED_PROGRAMS.clear()


def test_library_files_another_user_could_swap_are_left_out_and_named(tmp_path):
    """35th hostile pass (part B) P1, P2, P6: OPENSSL_CONF naming another user's settings file had root's wizard load
    their provider library when it imported ssl; SSLKEYLOGFILE at their link had root append TLS secrets where it
    pointed; LD_DEBUG_OUTPUT had every child write into their folder. Each such variable is left out and named at
    start-up, before anything imports ssl; one naming the user's own place is kept."""
    children.SKIPPED_PROGRAMS.clear()
    ww = open_folder(tmp_path / "ww")
    own = tmp_path / "own"
    own.mkdir()
    (ww / "openssl.cnf").write_text("openssl_conf = x\n")
    (own / "victim").write_text("root's\n")
    (ww / "keys").symlink_to(own / "victim")
    environ = {"OPENSSL_CONF": str(ww / "openssl.cnf"), "SSLKEYLOGFILE": str(ww / "keys"),
               "LD_DEBUG_OUTPUT": str(ww / "dbg" / "out"), "OPENSSL_MODULES": str(own),
               "GCONV_PATH": f"{ww}:{own}", "LD_PROFILE_OUTPUT": "relative", "MALLOC_TRACE": str(own / "trace")}
    children.guard_inherited_environ(environ)
    assert "OPENSSL_CONF" not in environ and "SSLKEYLOGFILE" not in environ and "LD_DEBUG_OUTPUT" not in environ
    assert "LD_PROFILE_OUTPUT" not in environ and environ["GCONV_PATH"] == str(own)
    assert environ["OPENSSL_MODULES"] == str(own) and environ["MALLOC_TRACE"] == str(own / "trace")
    said = " ".join(children.SKIPPED_PROGRAMS)
    for name in ("OPENSSL_CONF", "SSLKEYLOGFILE", "LD_DEBUG_OUTPUT", "LD_PROFILE_OUTPUT", "GCONV_PATH"):
        assert f"{name}: " in said
    assert f"{ww} is a folder every user can write" in said and "OPENSSL_MODULES" not in said
    children.SKIPPED_PROGRAMS.clear()


def test_a_childs_own_environment_is_held_to_the_library_files_rule(tmp_path):
    """The children's guard applies the same table to an environment built from another base (a step's)."""
    children.SKIPPED_PROGRAMS.clear()
    ww = open_folder(tmp_path / "ww")
    notes: list[str] = []
    env = children.guard_child_loader({"OPENSSL_ENGINES": str(ww), "SSLKEYLOGFILE": str(ww / "k"), "A": "1"}, notes)
    assert env == {"A": "1"}
    assert any(n.startswith("OPENSSL_ENGINES: ") for n in notes) and any("SSLKEYLOGFILE" in n for n in notes)
    children.SKIPPED_PROGRAMS.clear()


def test_the_cli_loads_no_tls_library_before_the_environment_is_guarded():
    """OpenSSL reads OPENSSL_CONF when libcrypto starts: nothing imported before `cli.main` may start it."""
    import subprocess
    import sys

    code = "import sys, wizard.cli; print(sorted(m for m in ('_ssl', '_hashlib', 'ssl') if m in sys.modules))"
    tree = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=tree,
                         timeout=120)
    assert out.stdout.strip() == "[]"
