"""Every variable CPython reads at start that moves where it loads its standard library or code from is in one table
(`children.PYTHON_START_VARS`, and of those `PYTHON_PREFIX_VARS`): dropped from every probe's environment, unset (with
a note) by `activate` — so by verify's probe, which runs under the activation — and pinned to "" in the kernelspec and
unset in the module file. 29th hostile pass (part B) P2: PYTHONPLATLIBDIR naming another user's folder reached
verify's probe, so the env's python loaded their standard library as root, and `activate` kept it without a word.
A real venv, the real activation, verify's real child environment."""

from __future__ import annotations

import venv
from pathlib import Path

import pytest

from wizard.after.activate import activation_script
from wizard.after.kernel import build_kernelspec
from wizard.after.module import module_text
from wizard.children import PYTHON_PREFIX_VARS, PYTHON_START_VARS, python_child_env
from wizard.install.activation import compute_activation
from wizard.verify.check import probe_environment


@pytest.fixture(scope="module")
def env(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("envs") / "e"
    venv.EnvBuilder(with_pip=False, symlinks=True).create(root)
    return root


#: Named here, not taken from the table under test: a variable left out of it must fail these.
PREFIX = ("PYTHONHOME", "PYTHONPLATLIBDIR", "PYTHONEXECUTABLE", "PYTHONPYCACHEPREFIX")
START = (*PREFIX, "PYTHONPATH", "PYTHONSTARTUP", "PYTHONUSERBASE")


def _environ(name: str, value: str = "/home/someone/pl") -> dict[str, str]:
    return {"PATH": "/usr/bin:/bin", "HOME": "/root", name: value}


def test_the_table_holds_every_variable_that_moves_the_standard_library():
    assert set(PREFIX) <= set(PYTHON_PREFIX_VARS) <= set(PYTHON_START_VARS) and set(START) <= set(PYTHON_START_VARS)


@pytest.mark.parametrize("name", START)
def test_a_probe_of_an_interpreter_never_sees_it(name):
    assert name not in python_child_env(_environ(name))


@pytest.mark.parametrize("name", PREFIX)
def test_activate_unsets_and_names_it(env, name):
    act = compute_activation(env, _environ(name), None)
    assert name in act.unset
    script = activation_script(act, "bash")
    assert f"unset {name}" in script and f"unsets {name} (was '/home/someone/pl')" in script, script


@pytest.mark.parametrize("name", PREFIX)
def test_verify_s_probe_runs_without_it(env, name):
    child, _ = probe_environment(env, "cpu", base=_environ(name))
    assert name not in child


@pytest.mark.parametrize("name", PREFIX)
def test_the_kernelspec_pins_it_and_the_module_file_unsets_it(env, name):
    assert build_kernelspec(env, environ=_environ("PATH", "/usr/bin"))["env"][name] == ""
    assert f'unsetenv("{name}")' in module_text(env, environ=_environ(name))


@pytest.mark.parametrize("name", PREFIX)
def test_one_another_user_could_fill_is_named_once_at_start(tmp_path, name):
    from wizard import children

    children.SKIPPED_PROGRAMS.clear()
    folder = tmp_path / "pl"
    folder.mkdir()
    folder.chmod(0o777)  # every user can write it: judged so for root and for anyone else
    environ = {"PATH": "/usr/bin", "HOME": str(tmp_path), name: str(folder)}
    children.guard_inherited_environ(environ)
    said = " ".join(children.SKIPPED_PROGRAMS)
    assert f"{name}: {folder} is left out of every Python gc-wizard starts, and `activate` unsets it" in said, said
    assert environ[name] == str(folder) and f"`unset {name}`" in said  # kept here, for `activate` to unset
    children.SKIPPED_PROGRAMS.clear()
    relative = {"PATH": "/usr/bin", "HOME": str(tmp_path), name: "lib64"}  # inside the installation: not judged
    children.guard_inherited_environ(relative)
    assert relative[name] == "lib64" and not children.SKIPPED_PROGRAMS


def test_the_activate_command_unsets_one_it_also_names_at_start(env, tmp_path):
    # The start-up note must not take it out of what `activate` reads: the shell it prints for still has it. (The
    # wizard's own Python survives PYTHONPYCACHEPREFIX, which only moves its compiled modules, so it stands for all.)
    from tests.fixtures.modes import open_folder
    from tests.fixtures.state import run_cli

    cache = open_folder(tmp_path / "pyc")
    proc = run_cli("activate", "--env", str(env), "--shell", "bash", env={"PYTHONPYCACHEPREFIX": str(cache)})
    assert proc.returncode == 0, proc.stderr
    assert "unset PYTHONPYCACHEPREFIX" in proc.stdout and "unsets PYTHONPYCACHEPREFIX" in proc.stdout, proc.stdout
    assert f"PYTHONPYCACHEPREFIX: {cache} is left out of every Python gc-wizard starts" in proc.stderr, proc.stderr
