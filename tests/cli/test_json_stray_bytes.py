"""A path or variable holding a byte that is not UTF-8 (`/opt/l\\xff`) comes out of every JSON the wizard writes
for others — a `--json` line, its error line, kernel.json — as JSON's `\\udcff` escape: the text stays valid UTF-8
(a strict `json.loads(bytes)`, jq, jupyter_client read it) and the value stays exact (Python reads U+DCFF back,
which `os.fsencode` turns into the byte). `report` spells it the same way. Eleventh hostile pass #34/#186/#187.

Real processes (`python -m wizard`): the bytes on standard output are the point, so no in-process stream."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from tests.fixtures.state import REPO


def _run(*args: bytes | str, env: dict[bytes, bytes] | None = None) -> subprocess.CompletedProcess[bytes]:
    environ = dict(os.environb)
    environ.update(env or {})
    return subprocess.run([sys.executable, "-m", "wizard", *args], capture_output=True, env=environ, cwd=REPO,
                          timeout=120)


def _last_json(out: bytes) -> dict:
    line = out.strip().splitlines()[-1]
    return json.loads(line.decode("utf-8"))  # strict: a raw 0xff is a UnicodeDecodeError here


@pytest.mark.parametrize("stray", [b"\xff", b"\x80\xfe", b"caf\xe9"])  # a Latin-1 name is the usual one
def test_detect_json_writes_stray_bytes_as_escapes(tmp_path, stray):
    lib, conda = os.fsencode(tmp_path) + b"/l" + stray, os.fsencode(tmp_path) + b"/c" + stray
    os.makedirs(lib)
    os.makedirs(conda + b"/bin")
    proc = _run("detect", "--json", env={b"LD_LIBRARY_PATH": lib, b"CONDA_PREFIX": conda})
    assert proc.returncode == 0, proc.stderr
    facts = json.dumps(_last_json(proc.stdout))
    assert json.dumps(os.fsdecode(conda))[1:-1] in facts  # the exact path, `\udcff` in the JSON text


@pytest.mark.parametrize("stray", [b"\xff", b"\xc3("])  # a lone byte; a broken two-byte sequence
def test_diagnose_json_and_its_error_line_are_valid_utf8(tmp_path, stray):
    log = os.fsencode(tmp_path) + b"/bad" + stray + b".log"
    with open(log, "wb") as handle:
        handle.write(b"hello\n")
    data = _last_json(_run("diagnose", "--json", log).stdout)
    assert os.fsencode(data["log"]) == log  # read back exactly: the byte, not U+FFFD
    missing = os.fsencode(tmp_path) + b"/gone" + stray + b".log"
    proc = _run("diagnose", "--json", missing)
    error = _last_json(proc.stdout)
    assert proc.returncode == 2 and error["ok"] is False and os.fsdecode(missing) in error["error"]


def test_report_spells_a_stray_byte_as_the_json_does(tmp_path):
    lib = os.fsencode(tmp_path) + b"/l\xff"
    os.makedirs(lib)
    report = _run("report", env={b"LD_LIBRARY_PATH": lib}).stdout
    report.decode("utf-8")
    assert f"{tmp_path}/l\\udcff".encode() in report
