"""No child the wizard starts gets git's own variables from the wizard's environment, but the few `GIT_KEPT` names.

36th hostile pass (part A) P1: `GIT_TEMPLATE_DIR` (hooks copied into each clone and run) and `GIT_EXEC_PATH` (the
folder git takes `git-upload-pack` and its other programs from) at another user's folder reached the git that
bundle's `pip wheel git+file://…` started through `children.run_capture`, and that user's hooks and program ran as
root. The rule is an allow-list: every `GIT_…` variable git knows — read here from the installed git's own programs
and its manual — must be either kept for a stated reason (`GIT_KEPT`) or left out."""

from __future__ import annotations

import gzip
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from wizard.children import GIT_KEPT, OTHER_GIT_PROGRAMS, run_capture, without_git_settings
from wizard.install.private_args import PrivateArguments
from wizard.install.runner import build_env

#: git's documented variables that name a program, a folder of programs, a repository, hooks or a file it writes
#: (git(1), git-init(1)): each must be left out, whatever the installed git lists.
NAMES_A_PLACE_OR_PROGRAM = (
    "GIT_TEMPLATE_DIR", "GIT_EXEC_PATH", "GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY",
    "GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_COMMON_DIR", "GIT_CEILING_DIRECTORIES", "GIT_NAMESPACE",
    "GIT_PROXY_COMMAND", "GIT_EXTERNAL_DIFF", "GIT_SSH", "GIT_SSH_COMMAND", "GIT_SSH_VARIANT", "GIT_PAGER",
    "GIT_EDITOR", "GIT_SEQUENCE_EDITOR", "GIT_ALLOW_PROTOCOL", "GIT_TRACE", "GIT_TRACE2", "GIT_TRACE2_EVENT",
    "GIT_TRACE_PACKET", "GIT_SSL_NO_VERIFY", "GIT_SSL_CAINFO", "GIT_CONFIG", "GIT_CONFIG_PARAMETERS",
    "GIT_CONFIG_COUNT", "GIT_CONFIG_KEY_0", "GIT_CONFIG_VALUE_0", "GIT_SHALLOW_FILE", "GIT_GRAFT_FILE",
    "GIT_QUARANTINE_PATH", "GIT_REPLACE_REF_BASE", "SSH_ASKPASS",
)
_NAME = re.compile(rb"(?<![A-Za-z0-9_])GIT_[A-Z0-9_]*[A-Z0-9](?![A-Za-z0-9_])")


def _installed_git_names() -> set[str]:
    """Every `GIT_…` name in the installed git's programs (`git --exec-path`: git itself, its remote helpers, its
    scripts) and in its manual page where there is one."""
    git = shutil.which("git")
    if git is None:
        return set()
    folder = subprocess.run([git, "--exec-path"], capture_output=True, text=True, check=True).stdout.strip()
    seen_files: set[tuple[int, int]] = set()
    names: set[bytes] = set()
    for path in [Path(os.path.realpath(git)), *sorted(Path(folder).iterdir())]:
        try:
            info = path.stat()
        except OSError:
            continue
        if not path.is_file() or (info.st_dev, info.st_ino) in seen_files or info.st_size > 64 * 2**20:
            continue
        seen_files.add((info.st_dev, info.st_ino))
        names.update(_NAME.findall(path.read_bytes()))
    for manual in Path("/usr/share/man/man1").glob("git.1*"):
        data = manual.read_bytes()
        names.update(_NAME.findall(gzip.decompress(data) if manual.suffix == ".gz" else data))
    return {name.decode() for name in names}


def test_each_of_gits_own_variables_is_kept_for_a_reason_or_left_out():
    installed = _installed_git_names()
    if shutil.which("git") is not None:  # the list was read: git 2.39 names about 170
        assert len(installed) > 60 and "GIT_TEMPLATE_DIR" in installed and "GIT_EXEC_PATH" in installed, installed
    names = sorted(installed | set(NAMES_A_PLACE_OR_PROGRAM) | set(GIT_KEPT))
    kept = {name for name in names if name in without_git_settings({name: "/usr/bin/env"})}
    assert kept <= set(GIT_KEPT), sorted(kept - set(GIT_KEPT))  # nothing but the allow-list is handed on
    assert all(GIT_KEPT[name].strip() for name in GIT_KEPT)  # each kept one says why
    assert not kept & set(NAMES_A_PLACE_OR_PROGRAM), sorted(kept & set(NAMES_A_PLACE_OR_PROGRAM))
    assert set(OTHER_GIT_PROGRAMS) <= set(NAMES_A_PLACE_OR_PROGRAM)


def test_a_login_program_is_kept_only_where_no_other_user_could_change_it(tmp_path):
    own = tmp_path / "own"
    own.mkdir(mode=0o700)
    (own / "askpass").write_text("#!/bin/sh\n")
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o777)  # every user may write it, and it has no sticky bit
    (shared / "askpass").write_text("#!/bin/sh\n")
    assert without_git_settings({"GIT_ASKPASS": str(own / "askpass")}) == {"GIT_ASKPASS": str(own / "askpass")}
    for value in (str(shared / "askpass"), "askpass", str(tmp_path / "missing")):
        assert without_git_settings({"GIT_ASKPASS": value}) == {}, value


def test_an_installer_step_gets_none_even_from_its_own_variables_but_its_switch():
    step = {"GIT_TEMPLATE_DIR": "/x", "GIT_EXEC_PATH": "/x", "GIT_SSH_COMMAND": "x", "GIT_TERMINAL_PROMPT": "0"}
    env = build_env(dict(step), environ={"PATH": os.defpath, "GIT_DIR": "/x", "SSH_ASKPASS": "/x", **step})
    assert sorted(name for name in env if "GIT" in name or "ASKPASS" in name) == ["GIT_TERMINAL_PROMPT"], env


def test_a_helper_child_gets_none_but_the_wizards_own_login_program(monkeypatch):
    for name in NAMES_A_PLACE_OR_PROGRAM:
        monkeypatch.setenv(name, "/nonexistent")
    argv = [sys.executable, "-c", "import os; print(sorted(n for n in os.environ if 'GIT' in n or 'ASKPASS' in n))"]
    with PrivateArguments(["uv", "pip", "install", "graphcast @ git+https://alice:pw@example.org/g.git"]) as private:
        assert "GIT_ASKPASS" in private.env
        for env in (None, dict(os.environ)):  # this process's environment, and one the caller hands over
            proc = run_capture(argv, timeout=60, env=private.environ(env))
            assert proc.stdout.split() == ["['GIT_ASKPASS']"], (proc.stdout, proc.stderr)


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_a_real_clone_under_run_capture_runs_no_template_hook_and_no_other_exec_path(tmp_path, monkeypatch):
    git = shutil.which("git")
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    source = tmp_path / "source"
    ident = ["-c", "user.name=t", "-c", "user.email=t@t"]
    for args in (["init", "-q", str(source)], ["-C", str(source), *ident, "commit", "-q", "--allow-empty", "-m", "x"]):
        subprocess.run([git, *args], check=True, capture_output=True, env={**os.environ, "GIT_TEMPLATE_DIR": ""})
    ran = tmp_path / "ran"
    hooks = tmp_path / "tpl" / "hooks"
    hooks.mkdir(parents=True)
    programs = tmp_path / "xp"
    programs.mkdir()
    real = subprocess.run([git, "--exec-path"], capture_output=True, text=True, check=True).stdout.strip()
    for script, then in ((hooks / "post-checkout", ""), (programs / "git-upload-pack", f'exec {real}/git-upload-pack "$@"')):
        script.write_text(f"#!/bin/sh\necho {script.name} >> {ran}\n{then}\n")
        script.chmod(0o755)
    monkeypatch.setenv("GIT_TEMPLATE_DIR", str(hooks.parent))
    monkeypatch.setenv("GIT_EXEC_PATH", str(programs))
    argv = [git, "clone", "-q", f"file://{source}"]
    direct = subprocess.run([*argv, str(tmp_path / "direct")], capture_output=True, text=True)
    assert direct.returncode == 0 and ran.read_text().split() == ["git-upload-pack", "post-checkout"], direct
    ran.unlink()  # both live as given; neither under run_capture, with this environment or one handed over
    for n, env in enumerate((None, dict(os.environ))):
        proc = run_capture([*argv, str(tmp_path / f"clone{n}")], timeout=60, env=env)
        assert proc.returncode == 0 and not ran.exists(), (proc.stderr, ran.exists() and ran.read_text())
