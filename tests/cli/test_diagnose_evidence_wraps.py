"""Walk 28 #18, the CLI's half: on an 80-column terminal `diagnose` printed a quoted log line of 90 to 200 characters
on one line, and the terminal wrapped it back to column 0 (`> jaxlib.xla_extension.XlaRuntimeError:
FAILED_PRECONDITION: No visible` / ` GPU devices.`). Every line now fits the terminal, and a quoted line's further rows
start under its text, past the "> "; the fix's under its words, past "Fix: ". The real command, on a captured log."""

from __future__ import annotations

from pathlib import Path

from tests.fixtures.cli import run_inproc

LOG = Path(__file__).resolve().parents[1] / "logs" / "real" / "jax_gpu_lowering_no_visible_gpu.log"


def test_each_evidence_line_fits_80_columns_and_goes_on_under_its_mark(tmp_path):
    proc = run_inproc("diagnose", str(LOG), env={"GC_WIZARD_HOME": str(tmp_path / "state"), "COLUMNS": "80"})
    assert proc.returncode == 1, proc.stderr
    rows = proc.stdout.splitlines()
    assert all(len(row) <= 80 for row in rows), [row for row in rows if len(row) > 80]
    assert "jaxlib.xla_extension.XlaRuntimeError: FAILED_PRECONDITION: No visible GPU devices." in " ".join(
        " ".join(rows).split())  # the words, whole and in order
    evidence = rows.index("   Evidence:")
    quoted = [row for row in rows[evidence + 1:] if row.strip()]
    assert sum(row.startswith("     > ") for row in quoted) >= 2 and any(not row.startswith("     > ") for row in quoted)
    for row in quoted:
        assert row.startswith(("     > ", "       ")) and row[7] != " ", row  # a further row: under the quoted text
    fix = next(i for i, row in enumerate(rows) if row.startswith("   Fix: "))
    assert rows[fix + 1].startswith(" " * 8) and rows[fix + 1][8] != " ", rows[fix:fix + 2]
