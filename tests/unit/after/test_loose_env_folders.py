"""An environment whose bin/ or site-packages group or other users can write is named, with the chmod that fixes
it, by every command that runs it (twentieth pass P7: `activate` put a 0777 bin/ first on PATH without a word)."""

from __future__ import annotations

import os
import stat
import venv

import pytest

from tests.fixtures.cli import run_inproc
from wizard.paths import loose_env_folders


@pytest.fixture
def env(tmp_path):
    folder = tmp_path / "env"
    venv.create(folder, with_pip=False, symlinks=True)
    return folder


def _site(env):
    return next(env.glob("lib/python*/site-packages"))


@pytest.mark.parametrize("loose, mode", [("bin", 0o777), ("site", 0o775), ("site", 0o757), ("bin", 0o2770)])
def test_each_loose_folder_is_named_with_its_mode_and_the_fix(env, loose, mode):
    folder = env / "bin" if loose == "bin" else _site(env)
    os.chmod(folder, mode)
    said = loose_env_folders(env)
    assert said is not None and f"{folder} ({mode:04o}) can be written by group or other users" in said
    assert said.endswith(f"`chmod go-w {folder}`.")
    assert stat.S_IMODE(folder.stat().st_mode) == mode  # named, not changed: the environment is the user's


def test_a_closed_environment_says_nothing_and_lib64_is_counted_once(env):
    assert loose_env_folders(env) is None
    (env / "lib64").unlink(missing_ok=True)
    (env / "lib64").symlink_to("lib")
    os.chmod(_site(env), 0o777)
    said = loose_env_folders(env)
    assert said.count("0777") == 1, said


@pytest.mark.parametrize("command", [["activate"], ["verify", "--json"], ["kernel", "install", "--json"]])
def test_a_command_that_runs_the_environment_warns_once(env, tmp_path, command):
    # Group-writable (root's group here): named. A site-packages every user can write is refused before the python
    # runs since the 29th hostile pass (part B) P5, as a bin/ every user can write is (below).
    os.chmod(env / "bin", 0o775)
    os.chmod(_site(env), 0o775)
    proc = run_inproc(*command, "--env", str(env), env={"GC_WIZARD_HOME": str(tmp_path / "state"),
                                                        "JUPYTER_DATA_DIR": str(tmp_path / "jd")})
    said = [line for line in proc.stderr.splitlines() if "can be written by group or other users" in line]
    assert len(said) == 1 and f"chmod go-w {env / 'bin'} {_site(env)}" in said[0], proc.stderr
    assert "Traceback" not in proc.stderr


@pytest.mark.parametrize("command", [["activate"], ["verify", "--json"], ["kernel", "install", "--json"]])
@pytest.mark.parametrize("loose", ["bin", "site"])
def test_a_bin_folder_every_user_can_write_is_refused_before_its_python_runs(env, tmp_path, command, loose):
    """Twenty-third hostile pass P2: another user could swap the environment's python in a bin/ every user can write,
    and the command would run theirs: the swap rule refuses it (exit 2) with the chmod, and nothing is run. The same
    for a site-packages every user can write, where their `.pth` would run at every start (29th hostile pass (part B)
    P5: `source_trust.site_folder_risk`)."""
    folder = env / "bin" if loose == "bin" else _site(env)
    os.chmod(folder, 0o777)
    proc = run_inproc(*command, "--env", str(env), env={"GC_WIZARD_HOME": str(tmp_path / "state"),
                                                        "JUPYTER_DATA_DIR": str(tmp_path / "jd")})
    assert proc.returncode == 2, proc.stdout + proc.stderr
    said = " ".join((proc.stderr + proc.stdout).split())
    assert f"`chmod o-w {folder}" in said and "nothing was run" in said and "Traceback" not in said
