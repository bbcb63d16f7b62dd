"""`eval "$(gc-wizard activate)"` evaluated in real shells with stale CUDA/cuDNN folders on the search paths.

A real venv stands in for the installed environment (activation only needs its `bin/python`); the
stale folders are real folders holding files named like the libraries and tools they stand for,
which is all `wizard.detect.libpath` reads. Each shell then runs Python to show what it really got.
"""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
import venv
from pathlib import Path

import pytest

from tests.fixtures.state import REPO, run_cli
from wizard.after.activate import activation_script
from wizard.install.activation import compute_activation
from wizard.install.envs import MARKER as MARKER_NAME

SHELLS = [s for s in ("bash", "zsh", "sh") if shutil.which(s)]
RUNTIME = {"XLA_PYTHON_CLIENT_PREALLOCATE": "false", "XLA_TEST_QUOTED": "it's \"quoted\" {a,b} * ~ !x"}

SHOW = ("import json, os, sys; print(json.dumps({'prefix': sys.prefix, 'executable': sys.executable, "
        "'env': {k: os.environ.get(k) for k in ('PATH', 'LD_LIBRARY_PATH', 'XLA_PYTHON_CLIENT_PREALLOCATE', "
        "'XLA_TEST_QUOTED', 'VIRTUAL_ENV', 'PYTHONHOME', 'PYTHONPATH')}}))")


@pytest.fixture(scope="session")
def plain_env(tmp_path_factory) -> Path:
    """A real (pip-less) venv with a gc-wizard marker, standing in for an installed environment."""
    root = tmp_path_factory.mktemp("envs") / "gc env (verified)"
    venv.EnvBuilder(with_pip=False, symlinks=True).create(root)
    marker = {"recipe": "jax0.4.23-cuda12-cudnn89", "title": "JAX 0.4.23 · CUDA 12.2 · cuDNN 8.9 (GPU)",
              "backend": "gpu", "runtime_env": RUNTIME, "created": "2026-11-21T09:00:00+00:00",
              "verified": "2026-11-21T09:30:00+00:00", "entry_id": "e1", "python": "3.11.7"}
    (root / MARKER_NAME).write_text(json.dumps(marker))
    return root


def _touch(path: Path, executable: bool = False) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"\x7fELF stand-in")
    if executable:
        path.chmod(path.stat().st_mode | stat.S_IXUSR)


@pytest.fixture
def stale(tmp_path) -> dict:
    """The seed user's situation: an old cuDNN and an old toolkit on the paths, among ordinary folders."""
    cudnn = tmp_path / "opt" / "cudnn-8.2.1" / "lib64"
    _touch(cudnn / "libcudnn.so.8.2.1")
    (cudnn / "libcudnn.so.8").symlink_to("libcudnn.so.8.2.1")
    toolkit = tmp_path / "usr local" / "cuda-11.2"
    _touch(toolkit / "bin" / "nvcc", executable=True)
    _touch(toolkit / "bin" / "ptxas", executable=True)
    _touch(toolkit / "lib64" / "libcudart.so.11.2.152")
    (toolkit / "version.txt").write_text("CUDA Version 11.2.152\n")
    ordinary = [tmp_path / "ord" / name for name in ("first", "with space", "it's \"odd\"", "last")]
    for folder in ordinary:
        folder.mkdir(parents=True)
        (folder / "libsomething.so.1").write_bytes(b"x")
    system_path = os.environ["PATH"]
    ld = [str(ordinary[0]), str(cudnn), str(ordinary[1]), str(toolkit / "lib64"), str(ordinary[2])]
    path = [str(toolkit / "bin"), str(ordinary[3]), *system_path.split(os.pathsep)]
    return {"cudnn": str(cudnn), "toolkit_lib": str(toolkit / "lib64"), "toolkit_bin": str(toolkit / "bin"),
            "ordinary": [str(o) for o in ordinary], "ld": os.pathsep.join(ld), "path": os.pathsep.join(path),
            "system_path": system_path}


def _shell_argv(shell: str, script: str) -> list[str]:
    if shell == "bash":
        return ["bash", "--noprofile", "--norc", "-c", script]
    if shell == "zsh":
        # Interactive: zsh then ignores "#" comments typed at the prompt unless they come from eval.
        return ["zsh", "-f", "-i", "-c", script]
    return ["sh", "-c", script]


def _run_in_shell(shell: str, script: str, env: dict, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(_shell_argv(shell, script), capture_output=True, text=True, env=env, cwd=cwd,
                          timeout=120, stdin=subprocess.DEVNULL)


def _activate_cmd(env_dir: Path, shell: str) -> str:
    import shlex

    return (f'eval "$({shlex.quote(sys.executable)} -m wizard activate --env {shlex.quote(str(env_dir))} '
            f'--shell {shell})"')


def _base_env(stale: dict, **extra: str) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONHOME", "CONDA_PREFIX")}
    env.update(PATH=stale["path"], LD_LIBRARY_PATH=stale["ld"], PYTHONPATH=str(Path.cwd()))
    env.update(extra)
    return env


@pytest.mark.parametrize("shell", SHELLS)
def test_activation_in_a_real_shell(shell, plain_env, stale, tmp_path):
    repo = REPO
    script = f"{_activate_cmd(plain_env, shell)} && python -c {json.dumps(SHOW)}"
    env = _base_env(stale)
    # The wizard itself must be importable by the wizard's Python even without PYTHONPATH.
    env["PYTHONPATH"] = ""
    proc = _run_in_shell(shell, script, env, repo)
    assert proc.returncode == 0, proc.stderr
    seen = json.loads(proc.stdout.strip().splitlines()[-1])

    assert Path(seen["prefix"]) == plain_env
    assert seen["executable"].startswith(str(plain_env / "bin"))
    assert seen["env"]["XLA_PYTHON_CLIENT_PREALLOCATE"] == "false"
    assert seen["env"]["XLA_TEST_QUOTED"] == RUNTIME["XLA_TEST_QUOTED"]
    assert seen["env"]["VIRTUAL_ENV"] == str(plain_env)
    assert seen["env"]["PYTHONHOME"] is None
    # Only the CUDA folders left LD_LIBRARY_PATH; everything else stayed, in order.
    assert seen["env"]["LD_LIBRARY_PATH"].split(os.pathsep) == stale["ordinary"][:3]
    path = seen["env"]["PATH"].split(os.pathsep)
    assert path[0] == str(plain_env / "bin")
    assert stale["toolkit_bin"] not in path
    assert path[1:] == [stale["ordinary"][3], *stale["system_path"].split(os.pathsep)]


def test_script_says_what_it_removed_and_why(plain_env, stale):
    act = compute_activation(plain_env, _base_env(stale))
    script = activation_script(act, "bash")
    comments = [line for line in script.splitlines() if line.startswith("#")]
    cudnn_line = next(c for c in comments if stale["cudnn"] in c)
    assert "removed from LD_LIBRARY_PATH" in cudnn_line and "cuDNN 8.2.1" in cudnn_line
    assert "shadow" in cudnn_line
    toolkit_line = next(c for c in comments if stale["toolkit_bin"] in c)
    assert "removed from PATH" in toolkit_line and "ptxas" in toolkit_line and "CUDA 11.2" in toolkit_line
    assert any(stale["toolkit_lib"] in c and "CUDA runtime" in c for c in comments)
    # One comment line per removal, and no ordinary folder is named as removed.
    removed_lines = [c for c in comments if c.startswith("# removed from")]
    assert len(removed_lines) == 3
    for folder in stale["ordinary"]:
        assert not any(folder in c for c in removed_lines)
    assert "jax0.4.23-cuda12-cudnn89" in comments[0] and "verified 2026-11-21" in comments[0]


@pytest.mark.parametrize("shell", SHELLS)
def test_deactivate_restores_and_reactivation_does_not_pile_up(shell, plain_env, stale, tmp_path):
    repo = REPO
    show = 'printf "%s\\n" "$PATH" "${LD_LIBRARY_PATH-UNSET}" "${XLA_PYTHON_CLIENT_PREALLOCATE-UNSET}"'
    activate = _activate_cmd(plain_env, shell)
    script = (f"{show}; {activate}; {show}; {activate}; {show}; deactivate; {show}; "
              'case "$(type deactivate 2>/dev/null)" in *function*) echo still-defined;; *) echo gone;; esac')
    env = _base_env(stale, PYTHONPATH="")
    proc = _run_in_shell(shell, script, env, repo)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout.splitlines()
    before, once, twice, after = out[0:3], out[3:6], out[6:9], out[9:12]
    assert before == [stale["path"], stale["ld"], "UNSET"]
    assert once[2] == "false"
    assert twice == once, "activating twice must give the same variables as once"
    assert after == before, "deactivate must restore the variables exactly"
    assert out[12] == "gone"


def test_folder_names_cannot_inject_shell_code(plain_env, tmp_path):
    """A newline or quote in a folder name stays data: the comment is escaped, the value quoted. (No `;` in the
    names: ld.so splits LD_LIBRARY_PATH at `;` as at `:`, so such a folder is no entry of it at all.)"""
    evil = tmp_path / "lib\ntouch INJECTED #" / "x' && touch INJECTED2 || '"
    _touch(evil / "libcudnn.so.8.0.5")
    keep = tmp_path / "keep $(touch INJECTED3)"
    keep.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "CONDA_PREFIX")}
    env["LD_LIBRARY_PATH"] = os.pathsep.join([str(evil), str(keep)])
    env["PYTHONPATH"] = ""
    script = f'{_activate_cmd(plain_env, "bash")} && printf "%s" "$LD_LIBRARY_PATH"'
    proc = subprocess.run(["bash", "--noprofile", "--norc", "-c", script], capture_output=True, text=True,
                          env=env, cwd=tmp_path, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == str(keep)
    assert not any((tmp_path / name).exists() for name in ("INJECTED", "INJECTED2", "INJECTED3"))


def test_conda_and_pythonpath_are_handled(plain_env, stale, tmp_path):
    conda = tmp_path / "home" / "hiskim1" / ".conda" / "envs" / "hiskim1_graphcast"
    conda_lib = conda / "lib"
    _touch(conda_lib / "libcudnn.so.8.2.1")
    (conda / "bin").mkdir(parents=True)
    site = conda / "lib" / "python3.11" / "site-packages"
    site.mkdir(parents=True)
    environ = _base_env(stale, CONDA_PREFIX=str(conda), PYTHONHOME=str(conda),
                        PYTHONPATH=os.pathsep.join([str(site), str(tmp_path / "mycode")]))
    environ["PATH"] = os.pathsep.join([str(conda / "bin"), environ["PATH"]])
    environ["LD_LIBRARY_PATH"] = os.pathsep.join([str(conda_lib), environ["LD_LIBRARY_PATH"]])
    act = compute_activation(plain_env, environ)
    assert "PYTHONHOME" in act.unset
    assert act.set["PYTHONPATH"] == str(tmp_path / "mycode")
    assert act.set["PATH"].split(os.pathsep)[:2] == [str(plain_env / "bin"), str(conda / "bin")]
    assert str(conda_lib) not in act.set["LD_LIBRARY_PATH"].split(os.pathsep)
    notes = "\n".join(act.notes)
    assert str(conda) in notes and "stays active" in notes


def test_env_without_marker_still_activates(tmp_path, stale):
    bare = tmp_path / "foreign-env"
    venv.EnvBuilder(with_pip=False, symlinks=True).create(bare)
    act = compute_activation(bare, _base_env(stale))
    script = activation_script(act, "zsh")
    assert f"no {MARKER_NAME}" in script
    assert "XLA_PYTHON_CLIENT_PREALLOCATE" not in script
    assert act.set["PATH"].split(os.pathsep)[0] == str(bare / "bin")


def test_cli_without_env_and_without_history_exits_2():
    proc = run_cli("activate")
    assert proc.returncode == 2, proc.stderr
    assert "no current environment" in proc.stderr
    assert "Traceback" not in proc.stderr
    assert proc.stdout == ""


def test_cli_rejects_a_folder_that_is_not_an_environment(tmp_path):
    proc = run_cli("activate", "--env", str(tmp_path))
    assert proc.returncode == 2
    assert "has no bin/python" in proc.stderr


def test_the_graphcast_check_runs_under_exactly_the_activation(plain_env, stale):
    """Variable by variable, the probe's environment is what a shell has after `eval "$(gc-wizard
    activate)"`, plus only the probe's own additions (unbuffered output, no GPU preallocation)."""
    from wizard.verify.check import GPU_ADDITIONS, PROBE_ADDITIONS, probe_environment

    repo = REPO
    base = _base_env(stale, PYTHONPATH=f"/opt/py/site-packages:{repo}", XLA_PYTHON_CLIENT_PREALLOCATE="true")
    dump = "import json, os; print(json.dumps(dict(os.environ)))"
    proc = _run_in_shell("sh", f"{_activate_cmd(plain_env, 'sh')} && python -c {json.dumps(dump)}", base, repo)
    assert proc.returncode == 0, proc.stderr
    shell = json.loads(proc.stdout.strip().splitlines()[-1])
    marker = json.loads((plain_env / MARKER_NAME).read_text())
    probe, removed = probe_environment(plain_env, marker["backend"], marker["runtime_env"], base=base)

    only_shell = {"PWD", "SHLVL", "_", "OLDPWD", "_GC_WIZARD_ORIGINAL", "PS1", "_GC_WIZARD_OLD_PS1"}
    additions = {**PROBE_ADDITIONS, **{k: v for k, v in GPU_ADDITIONS.items() if k not in marker["runtime_env"]}}
    for name in sorted(set(shell) | set(probe)):
        if name in only_shell:
            continue
        if name in additions:
            assert probe[name] == additions[name], name
            continue
        assert probe.get(name) == shell.get(name), f"{name}: probe {probe.get(name)!r} != shell {shell.get(name)!r}"
    assert probe["PATH"].split(os.pathsep)[0] == str(plain_env / "bin")
    assert probe["PYTHONPATH"] == str(repo)  # another Python's site-packages left out, as in the shell
    assert {r["dir"] for r in removed} >= {stale["toolkit_bin"]}


@pytest.mark.parametrize("shell", [s for s in ("bash", "sh") if shutil.which(s)])
def test_a_shell_that_never_exported_path_keeps_a_usable_one(shell, plain_env, tmp_path):
    """`env -i bash --noprofile --norc` has a PATH of its own that it never exports, so gc-wizard sees
    none: the activation must keep the shell's PATH after the env's bin, and deactivate put it back
    (the walk: `ls` and `which` were 'not found', and deactivate unset PATH)."""
    import shlex

    wizard = f"{shlex.quote(sys.executable)} -m wizard activate --env {shlex.quote(str(plain_env))} --shell {shell}"
    # The shell's PATH is set inside the script and not exported; the wizard is started by its full path
    # with PYTHONPATH so that it runs at all without one.
    script = (f'PATH=/usr/local/bin:/usr/bin:/bin; export -n PATH 2>/dev/null || true; '
              f'before="$PATH"; eval "$(env PYTHONPATH={shlex.quote(str(REPO))} {wizard})"; echo "during=$PATH"; '
              f'command -v ls >/dev/null && echo ls-found; eval "$(env PYTHONPATH={shlex.quote(str(REPO))} {wizard})";'
              ' echo "again=$PATH"; deactivate; echo "after=$PATH"; [ "$PATH" = "$before" ] && echo restored')
    if shell == "sh":  # POSIX sh has no `export -n`: an env without PATH gives the same unexported start
        script = script.replace("export -n PATH 2>/dev/null || true; ", "")
    proc = subprocess.run(["env", "-i", f"HOME={tmp_path}", *_shell_argv(shell, script)], capture_output=True,
                          text=True, timeout=120, stdin=subprocess.DEVNULL, cwd=REPO)
    assert proc.returncode == 0, proc.stderr
    lines = dict(line.split("=", 1) for line in proc.stdout.splitlines() if "=" in line)
    assert lines["during"] == f"{plain_env}/bin:/usr/local/bin:/usr/bin:/bin", proc.stdout
    assert lines["again"] == lines["during"], "activating twice must not pile up"
    assert "ls-found" in proc.stdout and "restored" in proc.stdout and lines["after"] == "/usr/local/bin:/usr/bin:/bin"


@pytest.mark.parametrize("where", ["marker", "folder"])
def test_the_prompt_runs_nothing_from_an_edited_marker_or_a_folder_name(where, tmp_path):
    """Bash expands `$(…)` and backticks in PS1 at every prompt, quoted or not: the env's name reaches the
    prompt only as letters, digits and `._+-`, whether it comes from an edited marker or the folder's name."""
    name = "v$(touch PWNED_A)`touch PWNED_B`" if where == "folder" else "plain"
    root = tmp_path / name
    venv.EnvBuilder(with_pip=False, symlinks=True).create(root)
    if where == "marker":
        (root / MARKER_NAME).write_text(json.dumps({"recipe": "x$(touch PWNED_A)`touch PWNED_B`\\w"}))
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "CONDA_PREFIX", "PYTHONHOME")}
    env["PYTHONPATH"] = str(Path.cwd())
    script = f'{_activate_cmd(root, "bash")}\necho "prompt<$PS1>"\n'
    proc = subprocess.run(["bash", "--noprofile", "--norc", "-i"], input=script, capture_output=True, text=True,
                          env=env, cwd=tmp_path, timeout=120)  # interactive: the prompt is drawn (and expanded)
    assert "prompt<(gc:" in proc.stdout, proc.stdout + proc.stderr
    assert not any((tmp_path / flag).exists() for flag in ("PWNED_A", "PWNED_B")), proc.stdout + proc.stderr


def test_a_folder_name_with_invisible_characters_is_shown_escaped_in_the_comments(plain_env, tmp_path):
    """Eighth hostile pass U7: U+0085 and U+2028 in a removed folder's name stayed raw in the script's comment
    line (some terminals and editors break lines at them); shown as the escapes every other output uses."""
    stale_dir = tmp_path / "cudnn\x85old\u2028lib"
    _touch(stale_dir / "libcudnn.so.8.0.5")
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "CONDA_PREFIX")}
    env["LD_LIBRARY_PATH"] = str(stale_dir)
    proc = subprocess.run([sys.executable, "-m", "wizard", "activate", "--env", str(plain_env)], capture_output=True,
                          text=True, env=env, cwd=tmp_path, timeout=120)
    assert proc.returncode == 0, proc.stderr
    comments = [line for line in proc.stdout.split("\n") if line.startswith("#")]  # not splitlines: it splits at both
    assert any("cudnn\\u0085old\\u2028lib" in line for line in comments), comments
    assert not any(ch in line for line in comments for ch in "\x85\u2028")
