"""`history` ends with legends and commands only where they have something to act on, each command as it runs
pasted (walk 37 #7): "Go back: … rollback [ID]" pasted said "There is no history entry '[ID]'", and with only a
cancelled entry the "● current" legend and "Delete an old one: … remove ID" were printed for nothing current or
deletable."""

from __future__ import annotations

from tests.fixtures.state import save_entries
from wizard.commands.history import history_table
from wizard.flows.history import history_rows
from wizard.history.store import Entry


def _entry(n: int, status: str, *, current: bool = False, env: str = "/gone") -> Entry:
    return Entry(id=f"20261129-05284{n}-c12a", kind="install", recipe="jax0.4.23-cpu", env=env, status=status,
                 current=current, started="2026-11-29T05:28:54+00:00",
                 error=None if status in ("installed", "verified") else "cancelled by the user")


def test_only_a_cancelled_entry_gets_no_legend_and_no_command(isolated_state):
    save_entries([_entry(1, "cancelled")])
    rows, total, _ = history_rows()
    text = "\n".join(history_table(rows, total, 80))
    assert "● current" not in text and "Delete an old one" not in text and "Go back" not in text


def test_go_back_is_a_line_that_runs_as_pasted(isolated_state, tmp_path):
    old, new = tmp_path / "old", tmp_path / "new"
    old.mkdir()
    new.mkdir()
    save_entries([_entry(1, "verified", env=str(old)), _entry(2, "verified", current=True, env=str(new))])
    rows, total, _ = history_rows()
    lines = history_table(rows, total, 80)
    back = next(line for line in lines if line.startswith("Go back:"))
    assert back.endswith(" rollback") and "[ID]" not in back
    assert "● current" in lines and any(line.startswith("Delete an old one:") for line in lines)
