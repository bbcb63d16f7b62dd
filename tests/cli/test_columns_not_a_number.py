"""A COLUMNS that is not 0–9 digits (`abc`, `80x`, `1e3`, Arabic-Indic digits) is ignored, as `shutil` does: diagnose
had a second reader of COLUMNS whose bare `int()` stopped diagnose, `diagnose --env` and verify with "this is a bug"
(32nd hostile pass (part A) P1). Every reader is now `output.terminal_columns`."""

from __future__ import annotations

import pytest

from tests.fixtures.cli import run_inproc
from wizard.commands.output import terminal_columns


@pytest.mark.parametrize("value", ["abc", "80x", "1e3", "0x50", "\u0669\u0660", "-5"])
def test_diagnose_prints_its_findings_whatever_columns_says(tmp_path, value):
    log = tmp_path / "log.txt"
    log.write_text("Traceback (most recent call last):\n"
                   "ImportError: libcudnn.so.8: cannot open shared object file: No such file or directory\n")
    proc = run_inproc("diagnose", str(log), env={"GC_WIZARD_HOME": str(tmp_path / "state"), "COLUMNS": value})
    assert proc.returncode == 1, proc.stderr
    assert "this is a bug" not in proc.stderr + proc.stdout and "cudnn" in proc.stdout.lower()


@pytest.mark.parametrize("value", ["abc", "1e3", "\u0669\u0660", ""])
def test_the_one_reader_passes_over_a_value_that_is_not_digits(monkeypatch, value):
    monkeypatch.setenv("COLUMNS", value)
    assert terminal_columns(77) > 0  # never raises
    monkeypatch.setenv("COLUMNS", "123")
    assert terminal_columns(77) == 123
