"""Standard input that cannot be read, named as such for `-` and /dev/stdin alike (sixth hostile pass 4g, 4l, 4d).

`diagnose - 0>FILE` (open for writing only) said "a file system error … GC_WIZARD_HOME"; `diagnose /dev/stdin <&-`
read whatever held descriptor 0 and reported a clean log (rc 0, no findings). Real processes, real redirections
typed as a user types them."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from tests.fixtures.cli import bare_program
from tests.fixtures.state import REPO
from wizard.commands import streams

OOM = (REPO / "tests" / "logs" / "oom_graphcast_025deg.log").read_text()  # a real run's log


def _shell(script: str, *args: str, stdin: str = "") -> subprocess.CompletedProcess:
    env = {**os.environ, "PY": sys.executable}
    return subprocess.run(["bash", "-c", script.replace("$GCW", '"$PY" -m wizard'), "gcw", *args],
                          capture_output=True, text=True, env=env, input=stdin, cwd=str(REPO), timeout=120)


@pytest.mark.parametrize("name", ["-", "/dev/stdin", "/dev/fd/0"])
@pytest.mark.parametrize("redirect, says", [("<&-", "standard input is closed"),
                                            ('0>"$1"', "standard input is open for writing only")])
def test_standard_input_that_cannot_be_read_is_named_for_any_of_its_names(tmp_path, name, redirect, says):
    proc = _shell(f'$GCW diagnose {name} --json {redirect}', str(tmp_path / "written.txt"))
    # The state folder is not blamed; the quoted command names it, as a new shell runs it (walk 37 #6).
    assert "Traceback" not in proc.stderr and "GC_WIZARD_HOME" not in bare_program(proc.stderr)
    result = json.loads(proc.stdout.splitlines()[-1])
    assert proc.returncode == 2 and result["exit"] == 2 and result["error"].startswith(says), proc.stderr


@pytest.mark.parametrize("name", ["-", "/dev/stdin"])
def test_a_log_piped_in_is_read_under_either_name(name):
    proc = _shell(f"$GCW diagnose {name} --json", stdin=OOM)
    result = json.loads(proc.stdout.splitlines()[-1])
    assert proc.returncode == 1 and result["log"] == "standard input"
    assert [f["id"] for f in result["findings"]] == ["gpu_out_of_memory"]


def test_standard_input_that_is_a_folder_is_named(tmp_path, monkeypatch):
    """CPython refuses a folder on descriptor 0 before any of the wizard runs ("init_sys_streams: <stdin> is a
    directory"); an in-process caller's stdin can still be one, and is named."""
    fd = os.open(tmp_path, os.O_RDONLY)

    class FolderStdin:
        def fileno(self) -> int:
            return fd

    try:
        monkeypatch.setattr(sys, "stdin", FolderStdin())
        assert streams.stdin_problem() == "standard input is a folder"
    finally:
        os.close(fd)
