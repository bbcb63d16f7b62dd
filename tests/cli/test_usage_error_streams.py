"""A usage error (exit 2, argparse's path) says its sentence somewhere whatever standard error is (twenty-first
hostile pass P7): `install tiny-a --bogus 2>/dev/full` ended with exit 2 and nothing anywhere, because argparse
writes to standard error itself and passes over a failed write. A real /dev/full as standard error."""

from __future__ import annotations

import contextlib
import io
import sys
from collections.abc import Iterator

import pytest

from wizard import cli


class _Pipe(io.StringIO):
    def isatty(self) -> bool:
        return False


@contextlib.contextmanager
def _dev_full() -> Iterator[io.TextIOWrapper]:
    """/dev/full as a text stream; closing it passes over what its buffer still holds (a read-only command's
    stream keeps what it could not write)."""
    full = open("/dev/full", "w", encoding="utf-8")  # noqa: SIM115 - closed below, past its failing flush
    try:
        yield full
    finally:
        with contextlib.suppress(OSError):
            full.close()


def _usage_error(argv: list[str], monkeypatch, stderr) -> tuple[int, str]:
    out = _Pipe()
    monkeypatch.setattr(sys, "stdout", out)
    monkeypatch.setattr(sys, "stderr", stderr)
    monkeypatch.setattr(sys, "argv", ["gc-wizard", *argv])
    with pytest.raises(SystemExit) as ended:
        cli.main(argv)
    return ended.value.code, out.getvalue()


@pytest.mark.parametrize("argv, sentence", [
    (["install", "tiny-a", "--bogus"], "gc-wizard: unrecognized arguments: --bogus"),  # changes something
    (["plan", "tiny-a", "--bogus"], "gc-wizard: unrecognized arguments: --bogus"),  # only reads
    (["instal"], "unknown command 'instal'; did you mean install?"),  # a misspelt command
    (["bundle", "x", "--offline"], "gc-wizard bundle: the following arguments are required: --out"),
])
def test_a_usage_error_with_stderr_unwritable_says_its_sentence_on_stdout(argv, sentence, monkeypatch):
    with _dev_full() as full:
        code, stdout = _usage_error(argv, monkeypatch, full)
    assert code == 2
    assert sentence in stdout and "usage:" not in stdout, stdout


def test_a_usage_error_with_stderr_unwritable_and_json_has_only_the_json_line(monkeypatch):
    with _dev_full() as full:
        code, stdout = _usage_error(["install", "tiny-a", "--bogus", "--json"], monkeypatch, full)
    assert code == 2
    assert stdout.count("\n") == 1 and '"error": "gc-wizard: unrecognized arguments: --bogus (' in stdout, stdout


def test_a_usage_error_with_a_working_stderr_is_its_one_sentence_there_only(monkeypatch):
    err = _Pipe()
    code, stdout = _usage_error(["install", "tiny-a", "--bogus"], monkeypatch, err)
    assert code == 2 and stdout == ""
    assert err.getvalue().startswith("gc-wizard: unrecognized arguments: --bogus") and "usage:" not in err.getvalue()
    assert err.getvalue().count("\n") == 1
