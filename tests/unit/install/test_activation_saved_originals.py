"""`_GC_WIZARD_ORIGINAL` (the values an earlier activation saved, read back from the environment) goes through every
rule a live variable does: only names an activation itself sets or unsets are taken, each saved value is judged as a
live one (swap rule, LD_PRELOAD/LD_AUDIT guard, XLA's flags, `runtime_env.loaded_from`) before anything starts from it
or `deactivate` puts it back, a saved variable the shell lacks is never exported, and the kernel spec, the module file
and verify's probe never take saved values at all.

Before (38th hostile pass, part B, P2): `activate` exported BASH_ENV and PROMPT_COMMAND from it, `deactivate` put back
an LD_PRELOAD and a PATH folder of another user's that the activation said it removed, its keys were printed as code,
kernel.json took IPYTHONDIR/PYTHONSTARTUP from it and verify's probe a PYTHONHASHSEED."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest

from tests.fixtures.modes import open_folder
from wizard.after.activate import activation_script
from wizard.after.kernel import build_kernelspec
from wizard.after.module import module_text
from wizard.install.activation import ORIGINAL_VAR, compute_activation
from wizard.verify.check import probe_environment

#: Valid names no activation sets: taken from the saved JSON, each would run code or change what runs.
_FOREIGN = ("BASH_ENV", "ENV", "PROMPT_COMMAND", "PS4", "PYTHONSTARTUP", "IPYTHONDIR", "PYTHONHASHSEED",
            "PIP_INDEX_URL", "GIT_SSH_COMMAND", "PERL5OPT", "LD_BIND_NOW")
#: Keys that are no variable names at all, with code in them.
_CODE_KEYS = ("X;touch {mark};Y", "$(touch {mark})", "`touch {mark}`", "A B;touch {mark}", "\ntouch {mark}\n")


def _env(tmp_path):
    env = tmp_path / "env"
    (env / "bin").mkdir(parents=True)
    return env


def _saved(**values) -> str:
    return json.dumps(values)


def _code_lines(script: str) -> list[str]:
    return [line for line in script.splitlines() if not line.lstrip().startswith("#")]


@pytest.mark.parametrize("name", _FOREIGN)
def test_a_saved_name_no_activation_sets_is_never_set_unset_or_put_back(tmp_path, name):
    env = _env(tmp_path)
    for live in ({}, {name: "own"}):
        environ = {"PATH": "/usr/bin:/bin", **live, ORIGINAL_VAR: _saved(**{name: "/x/payload", "PATH": "/usr/bin"})}
        act = compute_activation(env, environ, marker={}, originals=True)
        assert name not in act.set and name not in act.unset and name not in act.original
        assert any(name in note and ORIGINAL_VAR in note for note in act.notes), act.notes
        assert "/x/payload" not in "\n".join(_code_lines(activation_script(act)))


@pytest.mark.parametrize("key", _CODE_KEYS)
def test_a_saved_key_is_never_code(tmp_path, key):
    env = _env(tmp_path)
    key = key.format(mark=tmp_path / "RAN")
    environ = {"PATH": "/usr/bin:/bin", ORIGINAL_VAR: json.dumps({key: "1", f"{key}2": None})}
    act = compute_activation(env, environ, marker={}, originals=True)
    assert not [name for name in [*act.set, *act.unset, *act.original] if "RAN" in name]
    assert "RAN" not in "\n".join(_code_lines(activation_script(act)))


def test_a_saved_value_is_judged_as_a_live_one(tmp_path):
    env = _env(tmp_path)
    ww = open_folder(tmp_path / "ww")  # every user may write here: the swap rule's case
    own = tmp_path / "own"
    own.mkdir(mode=0o700)
    saved = {
        "PATH": f"{ww}:{own}:/usr/bin",
        "LD_LIBRARY_PATH": f"{ww}/lib:{own}",
        "LD_PRELOAD": f"{ww}/evil.so",
        "LD_AUDIT": f"{ww}/audit.so",
        "PYTHONHOME": f"{ww}/py",
        "XLA_FLAGS": f"--xla_dump_to={ww}/d --xla_gpu_autotune_level=0",
        "JAX_DUMP_IR_TO": f"{ww}/ir",
        "TPU_LIBRARY_PATH": f"{ww}/libtpu.so",
    }
    live = {"PATH": "/usr/bin:/bin", "XLA_FLAGS": "--xla_gpu_autotune_level=0", "JAX_DUMP_IR_TO": str(own)}
    act = compute_activation(env, {**live, ORIGINAL_VAR: json.dumps(saved)}, marker={}, originals=True)
    assert act.set["PATH"] == f"{env}/bin:{own}:/usr/bin"
    assert act.original["PATH"] == f"{own}:/usr/bin"
    assert act.original["LD_LIBRARY_PATH"] == str(own)
    for name in ("LD_PRELOAD", "LD_AUDIT", "PYTHONHOME", "JAX_DUMP_IR_TO"):
        assert act.original[name] is None, name
    assert act.original["XLA_FLAGS"] == "--xla_gpu_autotune_level=0"
    assert "TPU_LIBRARY_PATH" not in act.original  # the shell lacks it: nothing saved of it comes back
    text = activation_script(act)
    assert str(ww) not in "\n".join(_code_lines(text))
    for name in ("PATH", "LD_PRELOAD", "PYTHONHOME", "XLA_FLAGS", "JAX_DUMP_IR_TO"):
        assert any(line.startswith(f"# gc-wizard: {name} as an earlier activation saved it") for line in
                   text.splitlines()), name


def test_a_saved_variable_the_shell_lacks_is_never_exported(tmp_path):
    env = _env(tmp_path)
    saved = {"JAX_PLATFORMS": "cpu", "XLA_PYTHON_CLIENT_MEM_FRACTION": "0.5", "PATH": "/usr/bin"}
    act = compute_activation(env, {"PATH": "/usr/bin", ORIGINAL_VAR: json.dumps(saved)}, marker={}, originals=True)
    for name in ("JAX_PLATFORMS", "XLA_PYTHON_CLIENT_MEM_FRACTION"):
        assert name not in act.set and name not in act.original
    # the shell has it (an earlier recipe set it): put back to the saved value, as before
    act = compute_activation(env, {"PATH": "/usr/bin", "JAX_PLATFORMS": "cuda", ORIGINAL_VAR: json.dumps(saved)},
                             marker={}, originals=True)
    assert act.set["JAX_PLATFORMS"] == "cpu" and act.original["JAX_PLATFORMS"] == "cpu"


def test_the_kernel_the_module_and_the_probe_never_take_saved_values(tmp_path):
    env = _env(tmp_path)
    ww = open_folder(tmp_path / "ww")
    saved = {"IPYTHONDIR": f"{ww}/ipy", "PYTHONSTARTUP": f"{ww}/s.py", "PYTHONHASHSEED": "xyz",
             "PATH": "/opt/saved/bin:/usr/bin", "JAX_PLATFORMS": "saved-value", "PYTHONPATH": "/opt/saved/py"}
    environ = {"PATH": "/usr/bin:/bin", "JAX_PLATFORMS": "cpu", "PYTHONPATH": "/opt/live/py",
               ORIGINAL_VAR: json.dumps(saved)}
    spec = json.dumps(build_kernelspec(env, environ=environ)["env"])
    assert "/opt/saved" not in spec and "saved-value" not in spec and str(ww) not in spec
    assert "/opt/saved" not in module_text(env, environ=environ) and str(ww) not in module_text(env, environ=environ)
    child, _removed = probe_environment(env, "cpu", base=environ)
    assert "PYTHONHASHSEED" not in child and "IPYTHONDIR" not in child and "PYTHONSTARTUP" not in child
    assert child["PATH"] == f"{env}/bin:/usr/bin:/bin" and child["JAX_PLATFORMS"] == "cpu"


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
def test_eval_and_deactivate_bring_back_nothing_left_out(tmp_path):
    env = _env(tmp_path)
    ww = open_folder(tmp_path / "ww")
    mark = tmp_path / "RAN"
    saved = {"PATH": f"{ww}:/usr/bin:/bin", "LD_PRELOAD": f"{ww}/evil.so", "BASH_ENV": f"{ww}/s.sh",
             "PROMPT_COMMAND": f"touch {mark}", f"X;touch {mark};Y": "1", f"$(touch {mark})": None}
    environ = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), ORIGINAL_VAR: json.dumps(saved)}
    script = activation_script(compute_activation(env, environ, marker={}, originals=True))
    show = 'printf "%s|%s|%s|%s\\n" "${BASH_ENV-U}" "${PROMPT_COMMAND-U}" "${LD_PRELOAD-U}" "$PATH"'
    proc = subprocess.run(["bash", "--norc", "--noprofile", "-c", f"{script}\n{show}\ndeactivate\n{show}"],
                          capture_output=True, text=True, env=environ, timeout=60)
    assert proc.returncode == 0, proc.stderr
    during, after = proc.stdout.splitlines()[-2:]
    assert during == f"U|U|U|{env}/bin:/usr/bin:/bin"
    assert after == "U|U|U|/usr/bin:/bin"
    assert not mark.exists()
