"""A path or variable holding a byte that is not UTF-8 (`/opt/l\\xff`) comes out of every `--json` line and its
error line spelled as every sentence spells it, `\\xff` (`paths.as_shown`), whatever the locale: the text is valid
UTF-8 JSON with no lone surrogate, which jq and most readers but Python's turn into U+FFFD or refuse (review of
hostile pass 28's notes: `history --json` under `LC_ALL=C` wrote `\\udcff`; eleventh hostile pass #34/#186/#187
for the raw byte before that). `report` spells it the same way; kernel.json keeps JSON's exact `\\udcff` escape
for jupyter_client (tests/unit/after/test_kernel_stray_bytes.py).

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
    said = _strings(_last_json(proc.stdout))
    assert any(_shown(conda) in text for text in said), said  # as a sentence spells it
    assert b"\\udc" not in proc.stdout


def _strings(value) -> list[str]:
    if isinstance(value, dict):
        return [text for part in value.values() for text in _strings(part)]
    if isinstance(value, list):
        return [text for part in value for text in _strings(part)]
    return [value] if isinstance(value, str) else []


def _shown(path: bytes) -> str:
    """A path as every sentence of the wizard spells it: its bytes as UTF-8, a byte that is not UTF-8 `\\xNN`."""
    return path.decode("utf-8", "backslashreplace")


@pytest.mark.parametrize("locale", [{}, {b"LC_ALL": b"C"}, {b"LC_ALL": b"C", b"PYTHONUTF8": b"0"}])
def test_history_json_spells_a_stray_byte_as_its_sentences_do_in_any_locale(tmp_path, locale):
    """Review: under `LC_ALL=C` the history's `--json` wrote `\\udcff` (and `é` as two such escapes without UTF-8
    mode); every locale now gives the same line, `\\xff` for the byte and `é` for the UTF-8 name."""
    state = tmp_path / "state"
    state.mkdir(mode=0o700)
    env = os.fsdecode(os.fsencode(tmp_path) + b"/env\xff\xc3\xa9")
    entry = {"id": "20261122-210000-aaaa", "kind": "install", "recipe": "jax0.4.23-cpu", "env": env,
             "status": "verified", "packages": ["jax==0.4.23"]}
    (state / "history.json").write_text(json.dumps({"version": 1, "entries": [entry]}), encoding="utf-8")
    proc = _run("history", "--json", env={b"GC_WIZARD_HOME": os.fsencode(state), **locale})
    assert proc.returncode == 0, proc.stderr
    assert b"\\udc" not in proc.stdout, proc.stdout
    assert _last_json(proc.stdout)[0]["env"] == _shown(os.fsencode(tmp_path) + b"/env\xff\xc3\xa9")


@pytest.mark.parametrize("stray", [b"\xff", b"\xc3("])  # a lone byte; a broken two-byte sequence
def test_diagnose_json_and_its_error_line_are_valid_utf8(tmp_path, stray):
    log = os.fsencode(tmp_path) + b"/bad" + stray + b".log"
    with open(log, "wb") as handle:
        handle.write(b"hello\n")
    data = _last_json(_run("diagnose", "--json", log).stdout)
    assert data["log"] == _shown(log)  # the byte as `\\xNN`, not U+FFFD nor a lone surrogate
    missing = os.fsencode(tmp_path) + b"/gone" + stray + b".log"
    proc = _run("diagnose", "--json", missing)
    error = _last_json(proc.stdout)
    assert proc.returncode == 2 and error["ok"] is False and _shown(missing) in error["error"], error


def test_report_spells_a_stray_byte_as_the_json_does(tmp_path):
    lib = os.fsencode(tmp_path) + b"/l\xff"
    os.makedirs(lib)
    report = _run("report", env={b"LD_LIBRARY_PATH": lib}).stdout
    report.decode("utf-8")
    assert f"{tmp_path}/l\\xff".encode() in report and b"\\udc" not in report
