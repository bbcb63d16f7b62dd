"""A path on standard output is written as the file system's bytes whatever the stream's encoding.

Why: 33rd hostile pass (part A) P3 — under `PYTHONIOENCODING=latin-1` a state folder `…/lé` (UTF-8 on disk) was printed
as `export GC_WIZARD_HOME='…/l\\351'`, `module use '…/l\\351/modules'` and `Log: …/l\\351/logs/…`: Latin-1 has `é`, so
the output layer's rule for a character the stream lacks (32nd hostile pass (part A) P4) never ran, and each pasted
line named another folder. A bash reads the printed line back as the folder on disk."""

from __future__ import annotations

import io
import json
import shutil
import subprocess

import pytest

from wizard.commands.streams import GuardedStream
from wizard.security import shell_word

FOLDER = "/tmp/st/l\u00e9 x/\u65e5"


def _written(encoding: str, *lines: str) -> bytes:
    raw = io.BytesIO()
    out = GuardedStream(io.TextIOWrapper(raw, encoding=encoding, errors="strict"), -1, "standard output")
    for line in lines:
        out.write(line)
    out.flush()
    return raw.getvalue()


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
@pytest.mark.parametrize("encoding", ["latin-1", "cp1252", "ascii", "utf-8"])
def test_a_copied_line_names_the_folder_on_disk_under_any_stream_encoding(encoding):
    home = "/tmp/st/l\u00e9"
    line = _written(encoding, f"export GC_WIZARD_HOME={shell_word(home)}\n").rstrip(b"\n")
    got = subprocess.run(["bash", "-c", line + b'; printf %s "$GC_WIZARD_HOME"'],
                         capture_output=True, check=True, timeout=30).stdout
    assert got == home.encode("utf-8")


@pytest.mark.parametrize("encoding", ["latin-1", "cp1252"])
def test_a_path_in_prose_is_its_utf8_bytes_and_the_prose_keeps_the_streams_encoding(encoding):
    written = _written(encoding, f"Log: {FOLDER}/logs/a.log (caf\u00e9)\n")
    assert "/tmp/st/l\u00e9".encode("utf-8") in written and "/\u65e5/logs/a.log".encode("utf-8") in written
    assert "(caf\u00e9)".encode(encoding) in written


def test_a_json_line_on_a_stream_that_is_not_utf8_is_ascii_and_exact():
    value = {"env": "/tmp/st/l\u00e9", "title": "caf\u00e9"}
    written = _written("latin-1", json.dumps(value, ensure_ascii=False) + "\n")
    assert written.isascii() and json.loads(written) == value
