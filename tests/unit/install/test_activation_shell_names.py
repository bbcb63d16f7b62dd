"""Every variable name written into shell code is a shell variable's name (`security.is_shell_name`): a name from the
environment that is not (`env` and launchers make any) is never set, unset or restored — not in `activate`, its
`deactivate`, the module file or the kernel's env — and where it is met it is named in a comment, escaped.

Before (38th hostile pass, part B, P7): `NCCL_NET_PLUGIN;touch x;X=<another user's .so>` matched the loaded-library
families, and `activate` printed `unset NCCL_NET_PLUGIN;touch x;X` (and deactivate `export NAME=…`): `eval` ran it."""

from __future__ import annotations

import itertools
import shutil
import subprocess

import pytest

from tests.fixtures.modes import open_folder
from wizard.after.activate import _assign, activation_script
from wizard.after.module import module_text
from wizard.install.activation import compute_activation
from wizard.security import is_shell_name

#: Names that match the loaded-library families (…_PLUGIN, …_LIBRARY_PATH, MOSAIC_GPU_…_PATH) with shell code in them.
_FAMILIES = ("NCCL_NET_PLUGIN{}X", "FOO_LIBRARY_PATH{}", "MOSAIC_GPU_X{}_PATH", "{}TPU_LIBRARY_PATH")
_INSERTS = (";touch {mark};", "$(touch {mark})", "`touch {mark}`", " {mark} ", "|tee {mark}|", "\ntouch {mark}\n")


def _hostile_names(mark: str) -> list[str]:
    return [family.format(insert.format(mark=mark)) for family, insert in itertools.product(_FAMILIES, _INSERTS)]


@pytest.mark.parametrize("name", ["A", "_x", "NCCL_NET_PLUGIN", "a1_B2"])
def test_a_shell_name_is_one(name):
    assert is_shell_name(name)


@pytest.mark.parametrize("name", ["", "1A", "A-B", "A B", "A;B", "$(x)", "A=B", "Ä", "A\n", "A\u2028", None])
def test_anything_else_is_not(name):
    assert not is_shell_name(name)


@pytest.mark.parametrize("name", _hostile_names("/tmp/never"))
def test_assign_never_writes_a_bad_name_as_code(name):
    for value in (None, "x"):
        line = _assign(name, value)
        assert line.startswith("# ") and "\n" not in line, line
        assert "not a shell variable name" in line


def test_live_names_with_code_are_never_code_in_the_script_module_or_kernel(tmp_path):
    env = tmp_path / "env"
    (env / "bin").mkdir(parents=True)
    place = str(open_folder(tmp_path / "ww") / "x.so")  # a place another user could swap: the family's rule unsets it
    names = _hostile_names(str(tmp_path / "RAN"))
    base = {"PATH": "/usr/bin:/bin", **{name: place for name in names}}
    act = compute_activation(env, base, marker={})
    for name in names:
        assert name not in act.set and name not in act.unset and name not in act.original
    script = activation_script(act)
    code = [line for line in script.splitlines() if not line.lstrip().startswith("#")]
    assert "RAN" not in "\n".join(code)  # every name holds the mark's path
    assert not any(name in act.kernel_env() for name in names)
    assert "RAN" not in module_text(env, environ=base)


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
def test_eval_then_deactivate_runs_nothing_from_a_name(tmp_path):
    env = tmp_path / "env"
    (env / "bin").mkdir(parents=True)
    place = str(open_folder(tmp_path / "ww") / "x.so")
    mark = tmp_path / "RAN"
    names = [name for name in _hostile_names(str(mark)) if "\n" not in name]
    base = {"PATH": "/usr/bin:/bin", **{name: place for name in names}}
    script = activation_script(compute_activation(env, base, marker={}))
    proc = subprocess.run(["bash", "--norc", "--noprofile", "-c", script + "\ndeactivate\necho done"],
                          capture_output=True, text=True, env=base, timeout=60)
    assert proc.returncode == 0 and "done" in proc.stdout, proc.stderr
    assert not mark.exists()
