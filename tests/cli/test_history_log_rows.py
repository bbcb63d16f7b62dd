"""Plain `history` names each entry's log, as `--json` and the app's History do, and says when it is gone (walk 38 #4:
the user told to `diagnose` a stopped install's log had to look for it under the state folder)."""

from __future__ import annotations

from tests.fixtures.cli import run_inproc
from tests.fixtures.state import save_entries
from wizard.history.store import Entry


def test_each_entry_names_its_log_and_a_gone_one_says_so(isolated_state, tmp_path):
    log, gone = tmp_path / "install-1.log", tmp_path / "install-2.log"
    log.write_text("log\n")
    save_entries([Entry(id="20261129-052841-c12a", kind="install", recipe="jax0.4.23-cpu", env="/gone",
                        status="cancelled", started="2026-11-29T05:28:41+00:00", error="cancelled by the user",
                        log=str(log)),
                  Entry(id="20261129-052842-c12a", kind="install", recipe="jax0.4.23-cpu", env="/gone",
                        status="failed", started="2026-11-29T05:28:42+00:00", error="boom", log=str(gone)),
                  Entry(id="20261129-052843-c12a", kind="install", recipe="jax0.4.23-cpu", env="/gone",
                        status="failed", started="2026-11-29T05:28:43+00:00", error="no log")])
    proc = run_inproc("history")
    assert proc.returncode == 0, proc.stderr
    said = " ".join(proc.stdout.split())  # read across the fold: the rows wrap at the terminal's width
    assert f"log: {log} " in said and f"log: {log} (no longer there)" not in said, said
    assert f"log: {gone} (no longer there)" in said, said
    assert said.count("log: ") == 2, said  # an entry without a log has no row for it
    # a row of its own ("log:" alone when the path is too long to share the row, as in CI's deep temporary folders)
    assert any(row.strip().split(" ")[0] == "log:" for row in proc.stdout.splitlines())
