"""An installer cache whose path holds bytes that are not UTF-8, under `LC_ALL=C PYTHONUTF8=0`, is a setting like any
other: `plan` and `install` go on, never "this is a bug".

27th hostile pass (part A) P2: the path `uv cache dir` printed was decoded as ASCII text with `errors="replace"`, and
`os.stat` of the U+FFFD characters that made raised UnicodeEncodeError, so UV_CACHE_DIR, XDG_CACHE_HOME or HOME set
to such a folder stopped `plan` and `install` with the crash sentence. The real CLI, real uv, a real folder.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.fixtures.state import REPO, last_json
from wizard.paths import path_from_output


def _run(*args: str, env: dict) -> subprocess.CompletedProcess:
    # bytes: the plan names the folder as the bytes it is, which no text decoding of this test's locale need take
    return subprocess.run([sys.executable, "-m", "wizard", *args], capture_output=True, input=b"", timeout=600,
                          cwd=str(REPO), env={**os.environ, "LC_ALL": "C", "PYTHONUTF8": "0", **env})


@pytest.mark.parametrize("variable", ["UV_CACHE_DIR", "XDG_CACHE_HOME", "HOME"])
def test_a_cache_path_that_is_not_utf8_is_no_bug(tmp_path, isolated_state, tiny, variable):
    odd = os.fsencode(tmp_path) + b"/b\xff\xfeq"
    os.mkdir(odd)
    env = {variable: os.fsdecode(odd + b"/c")}
    plan = _run("plan", "tiny-a", *tiny.args()[:-1], env=env)
    assert plan.returncode == 0, plan.stderr
    assert b"this is a bug" not in plan.stderr and b"Traceback" not in plan.stderr, plan.stderr
    if variable == "UV_CACHE_DIR":
        assert b"Download cache:" in plan.stdout and odd + b"/c" in plan.stdout, plan.stdout  # the line may wrap
    proc = _run("install", "tiny-a", "--yes", "--json", *tiny.args(), env=env)
    assert b"this is a bug" not in proc.stderr, proc.stderr
    proc.stdout = proc.stdout.decode("utf-8", "replace")
    assert proc.returncode == 0 and last_json(proc)["ok"], proc.stderr


def test_a_path_a_child_printed_lossily_is_the_one_it_meant():
    """uv prints a path's bytes that are not UTF-8 as U+FFFD: the candidate that prints so is the real path."""
    meant = os.fsdecode(b"/srv/b\xff\xfeq/uv")
    printed = b"/srv/b\xef\xbf\xbd\xef\xbf\xbdq/uv\n"
    assert path_from_output(printed, candidates=("/elsewhere/uv", meant)) == meant
    assert path_from_output(b"warning: x\n/srv/cache/uv\n") == "/srv/cache/uv"
    assert path_from_output(b"/srv/b\xffq/uv\n") == os.fsdecode(b"/srv/b\xffq/uv")  # the filesystem's own decoding
    assert path_from_output(b"\n") is None
