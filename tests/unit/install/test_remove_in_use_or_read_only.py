"""`remove` and the folders it deletes (22nd hostile pass P10, P11): an environment a running process uses (its
working folder, its Python, a file it has loaded) is not deleted, the process named; a read-only environment the user
owns is made writable by its owner and deleted, not left with advice about immutable files and other owners."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.fixtures.cli import run_inproc
from tests.fixtures.envs import python_link_env
from tests.fixtures.modes import NOBODY, need_root
from tests.fixtures.state import REPO
from wizard.history.store import Entry
from wizard.install import envs


def _env(home: Path, name: str) -> Path:
    env = home / "envs" / name
    python_link_env(env, cfg="home = /usr/bin\n")
    (env / "lib" / "python3.11" / "site-packages" / "pkg").mkdir(parents=True)
    (env / "lib" / "python3.11" / "site-packages" / "pkg" / "__init__.py").write_text("")
    return env


def _history(home: Path, gone: Path, keep: Path) -> None:
    entries = [{**Entry(id="e1", kind="install", recipe="tiny-a", env=str(gone), status="installed").to_dict()},
               {**Entry(id="e2", kind="install", recipe="tiny-b", env=str(keep), status="installed",
                        current=True).to_dict()}]
    (home / "history.json").write_text(json.dumps({"version": 1, "entries": entries}))


@pytest.mark.parametrize("how", ["cwd", "python"])
def test_remove_refuses_an_environment_a_running_process_uses_and_names_it(isolated_state, how):
    gone, keep = _env(isolated_state, "tiny-a-1"), _env(isolated_state, "tiny-b-1")
    _history(isolated_state, gone, keep)
    argv = ([sys.executable, "-c", "import time; time.sleep(60)"] if how == "cwd"
            else [str(gone / "bin" / "python"), "-c", "import time; time.sleep(60)"])
    proc = subprocess.Popen(argv, cwd=str(gone) if how == "cwd" else "/")
    try:
        for _ in range(50):  # until the child has exec'd (its cmdline is the new program's)
            if envs.processes_using(gone):
                break
            import time
            time.sleep(0.05)
        result = run_inproc("remove", "e1", "--yes")
        said = " ".join((result.stderr + result.stdout).split())
        assert result.returncode == 1, said
        assert f"{gone} is in use: pid {proc.pid} (" in said and "stop it, then remove again" in said
        assert "Traceback" not in said and (gone / "pyvenv.cfg").is_file()
    finally:
        proc.kill()
        proc.wait()
    assert run_inproc("remove", "e1", "--yes").returncode == 0 and not gone.exists()


@pytest.mark.parametrize("how", ["activated", "path", "pythonpath", "open"])
def test_remove_refuses_an_environment_an_activated_shell_an_import_or_an_open_file_uses(isolated_state, how):
    """23rd hostile pass P7: an activated shell working elsewhere (VIRTUAL_ENV, its bin/ first on PATH), a Python of
    another interpreter importing from its site-packages through PYTHONPATH, and a process holding its pyvenv.cfg
    open were not seen, and the env was deleted under them."""
    import time

    gone, keep = _env(isolated_state, "tiny-a-1"), _env(isolated_state, "tiny-b-1")
    _history(isolated_state, gone, keep)
    site = gone / "lib" / "python3.11" / "site-packages"
    base_env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH", "CONDA_PREFIX")}
    code = "import sys, time; print('ready', flush=True); time.sleep(60)"
    env = {"activated": {**base_env, "VIRTUAL_ENV": str(gone)},
           "path": {**base_env, "PATH": f"{gone / 'bin'}:{base_env.get('PATH', '')}"},
           "pythonpath": {**base_env, "PYTHONPATH": str(site)},
           "open": base_env}[how]
    if how == "pythonpath":
        code = "import pkg, time; print('ready', flush=True); time.sleep(60)"
    if how == "open":
        code = (f"import time; f = open({str(gone / 'pyvenv.cfg')!r}); print('ready', flush=True); time.sleep(60)")
    proc = subprocess.Popen([sys.executable, "-c", code], cwd="/", env=env, stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout.readline().strip() == "ready"
        words = {"activated": "has it activated", "path": "has its bin/ on PATH",
                 "pythonpath": "imports from it (PYTHONPATH)", "open": "holds its files open"}[how]
        result = run_inproc("remove", "e1", "--yes")
        said = " ".join((result.stderr + result.stdout).split())
        assert result.returncode == 1, said
        assert f"{gone} is in use: pid {proc.pid} (" in said and words in said, said
        assert "Traceback" not in said and (gone / "pyvenv.cfg").is_file()
    finally:
        proc.kill()
        proc.wait()
    time.sleep(0.05)
    assert run_inproc("remove", "e1", "--yes").returncode == 0 and not gone.exists()


def test_no_process_means_no_word(tmp_path):
    assert envs.processes_using(tmp_path) == []


def test_a_read_only_environment_its_owner_removes_is_deleted(public_tmp):
    """As a normal user (root gives the tree to nobody and becomes it in a child): `chmod -R a-w` on the env made
    every folder undeletable, and the advice named immutable files and other owners."""
    need_root("give the environment to another user and remove it as that user")
    root = public_tmp / "state"
    root.mkdir()
    env = _env(root, "tiny-a-1")
    for folder, dirs, files in os.walk(root):
        for name in [folder, *(os.path.join(folder, d) for d in dirs), *(os.path.join(folder, f) for f in files)]:
            os.lchown(name, NOBODY, NOBODY)
    os.chown(root, 0, 0)
    for folder, _dirs, files in os.walk(env, topdown=False):
        for name in files:
            path = os.path.join(folder, name)
            if not os.path.islink(path):
                os.chmod(path, 0o444)
        os.chmod(folder, 0o555)
    code = ("import os, sys\nfrom pathlib import Path\nfrom wizard.install.envs import _remove_env_tree\n"
            f"os.setgroups([]); os.setgid({NOBODY}); os.setuid({NOBODY})\n"
            "print(_remove_env_tree(Path(sys.argv[1])))\n")
    proc = subprocess.run([sys.executable, "-c", code, str(env)], env={**os.environ, "PYTHONPATH": str(REPO)},
                          cwd="/", capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "[]" and not env.exists(), proc.stdout
