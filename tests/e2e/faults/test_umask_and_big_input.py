"""What the wizard creates is never writable by group or others whatever the umask (issue 24, P7), and
`diagnose` holds bounded memory whatever the line length (P3).

New cases of each class: umask 002 (a lab's shared group) and 000 on an `--env` folder and in the state
folder; a log of one 120 MB line of progress dots (not the issue's NULs) through a pipe.
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from tests.fixtures.peak_memory import wait_with_peak
from tests.fixtures.state import REPO


def _writable_by_others(root: Path) -> list[str]:
    bad = []
    for folder, dirs, files in os.walk(root):
        for name in [*dirs, *files]:
            path = Path(folder) / name
            mode = path.lstat().st_mode
            if not stat.S_ISLNK(mode) and mode & 0o022:
                bad.append(f"{path} {oct(mode & 0o777)}")
    return bad


@pytest.mark.parametrize("umask", [0o002, 0o000])
def test_an_env_and_the_state_are_not_writable_by_others_under_any_umask(tiny, isolated_state, tmp_path, umask):
    target = tmp_path / "shared-scratch-env"
    args = [sys.executable, "-m", "wizard", "install", "tiny-a", "--yes", "--json", "--env", str(target), *tiny.args()]
    proc = subprocess.run(args, capture_output=True, text=True, cwd=str(REPO), timeout=300,
                          preexec_fn=lambda: os.umask(umask))
    assert proc.returncode == 0, proc.stderr
    assert (target / "gc-wizard-env.json").is_file()
    assert _writable_by_others(target) == []
    assert _writable_by_others(isolated_state) == []


def _not_the_owners(root: Path) -> list[str]:
    bad = []
    for folder, dirs, files in os.walk(root):
        for name in [*dirs, *files]:
            mode = (Path(folder) / name).lstat().st_mode
            wanted = 0o700 if stat.S_ISDIR(mode) else 0o600
            if not stat.S_ISLNK(mode) and mode & wanted != wanted:
                bad.append(f"{Path(folder) / name} {oct(mode & 0o777)}")
    return bad


@pytest.mark.parametrize("umask", [0o777, 0o277])
def test_the_owner_can_use_what_the_wizard_made_whatever_the_umask(tiny, isolated_state, umask):
    """Fifteenth hostile pass P6: under `umask 0777` history.json and the new env were mode 0000, which a user
    other than root cannot open again. The owner's bits are never masked: 0700 folders, 0600 files at least."""
    args = [sys.executable, "-m", "wizard", "install", "tiny-a", "--yes", "--json", *tiny.args()]
    proc = subprocess.run(args, capture_output=True, text=True, cwd=str(REPO), timeout=300,
                          preexec_fn=lambda: os.umask(umask))
    assert proc.returncode == 0, proc.stderr
    assert stat.S_IMODE((isolated_state / "history.json").stat().st_mode) == 0o600
    env = Path(json.loads(proc.stdout.splitlines()[-1])["env"])
    assert stat.S_IMODE(env.stat().st_mode) == 0o700
    assert _not_the_owners(isolated_state) == [] and _writable_by_others(isolated_state) == []


@pytest.mark.skipif(os.geteuid() != 0, reason="giving a folder to another user needs root (CI runs as root)")
def test_a_state_folder_another_user_owns_is_refused_before_activate_install_or_module_use_it(tiny, isolated_state):
    """Sixth hostile pass 7c/7g: another user who owns `envs/` or `modules/graphcast` can swap the current env or
    the Lua file the owner later runs; every command that uses the state names the folder and changes nothing."""
    from tests.fixtures.state import run_cli

    proc, result = tiny.install("tiny-a")
    assert result and result["ok"], proc.stderr
    before = tiny.history()
    for folder in (isolated_state / "envs", isolated_state / "modules" / "graphcast"):
        folder.mkdir(parents=True, exist_ok=True)
        os.chown(folder, 65534, 65534)
        for command in (["activate"], ["module", "install"], ["kernel", "install"],
                        ["install", "tiny-b", "--yes", *tiny.args()]):
            proc = run_cli(*command)
            assert proc.returncode == 1 and f"{folder} belongs to" in proc.stderr, (command, proc.stderr)
            assert "Traceback" not in proc.stderr
        os.chown(folder, os.geteuid(), os.getegid())
    assert tiny.history() == before


def test_diagnose_of_one_endless_line_through_a_pipe_stays_small(tmp_path):
    log = tmp_path / "progress.log"
    with open(log, "wb") as handle:
        for _ in range(120):
            handle.write(b"." * (1 << 20))  # 120 MB of progress dots, no newline
        handle.write(b"\nLoaded runtime CuDNN library: 8.2.1 but source was compiled with: 8.9.4.\n")
    with open(log, "rb") as source:
        proc = subprocess.Popen([sys.executable, "-m", "wizard", "diagnose", "-", "--json"], stdin=source,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=str(REPO))
        status, peak_kib = wait_with_peak(proc)  # not ru_maxrss: it carries the pytest worker's (fixtures/peak_memory)
    assert "Traceback" not in proc.stderr.read().decode()
    assert status == 1  # the finding at the end is found
    # Before the tail was bounded per line, a 120 MB line held ~300 MB.
    assert peak_kib < 160 * 1024, peak_kib
