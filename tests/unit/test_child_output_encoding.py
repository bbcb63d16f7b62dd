"""37th hostile pass (part B) P1: every child Python the wizard reads text from writes it in the encoding the wizard
reads it in, whatever the user's `PYTHONIOENCODING` (`children.CHILD_IO_ENCODING`, set by `children.child_environ`,
the one rule every child takes).

Why: under `PYTHONIOENCODING=utf-16` the probe of where a fresh start imports `wizard` from
(`paths._fresh_import_origin`) answered in UTF-16, read as UTF-8 it held NULs, and `history` and `install` crashed
("embedded null byte"), `install` after removing the env it had built; under `latin-1` a path holding `é` came back
as another name."""

from __future__ import annotations

import sys

import pytest

from wizard import children, paths
from wizard.detect import deadline
from wizard.install import runner

ENCODINGS = ["utf-16", "UTF_32", "utf-16-be", "latin-1", "utf-8:strict"]


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_a_child_python_writes_what_the_wizard_reads_whatever_the_users_encoding(encoding, monkeypatch):
    monkeypatch.setenv("PYTHONIOENCODING", encoding)
    done = children.run_capture([sys.executable, "-c", "print('/tmp/caf\\u00e9 \\u2014 ok')"], timeout=60)
    assert done.returncode == 0 and done.stdout == "/tmp/caf\u00e9 \u2014 ok\n", done


def test_a_path_that_is_not_utf8_comes_back_as_its_bytes(monkeypatch):
    """`raw=True` decodes a printed path as the file system names it: a name's byte that is not UTF-8 is that byte."""
    monkeypatch.setenv("PYTHONIOENCODING", "utf-8")  # strict: the child would fail on the name
    code = "import os; print(os.fsdecode(b'/tmp/bun\\xff'))"
    done = children.run_capture([sys.executable, "-c", code], timeout=60, raw=True)
    assert done.returncode == 0 and done.stdout == b"/tmp/bun\xff\n", done


@pytest.mark.parametrize("encoding", ["utf-16", "latin-1"])
def test_the_fresh_start_probe_answers_the_same_under_any_encoding(encoding, monkeypatch):
    monkeypatch.delenv("PYTHONIOENCODING", raising=False)
    plain = paths._fresh_import_origin()
    monkeypatch.setenv("PYTHONIOENCODING", encoding)
    given = paths._fresh_import_origin()
    assert given == plain and (given is None or "\x00" not in given), (given, plain)


def test_every_kind_of_child_gets_the_wizards_encoding(monkeypatch):
    """The class, at the shared place: detect's probes and the installer's steps build theirs on `child_environ`."""
    monkeypatch.setenv("PYTHONIOENCODING", "utf-16")
    assert children.child_environ()["PYTHONIOENCODING"] == children.CHILD_IO_ENCODING
    assert children.child_environ({"PYTHONIOENCODING": "utf-32"})["PYTHONIOENCODING"] == children.CHILD_IO_ENCODING
    assert deadline.probe_env()["PYTHONIOENCODING"] == children.CHILD_IO_ENCODING
    assert runner.build_env({"PYTHONIOENCODING": "utf-16"})["PYTHONIOENCODING"] == children.CHILD_IO_ENCODING
    assert children.CHILD_IO_ENCODING.split(":")[0] == "utf-8"
