"""Walk 24 #9: `bundle` printed 332 lines — every pip line, setuptools' "License classifiers are deprecated" banner
three times — with its result at the very end. The installer's lines go to a log of the state folder; the terminal
shows the steps, the result and the log's path. The real CLI in this process, the tiny recipes, the real pip."""

from __future__ import annotations

from pathlib import Path


def test_bundle_keeps_the_installers_lines_in_its_log_and_prints_its_result(tiny, tmp_path, monkeypatch,
                                                                            isolated_state):
    out = tmp_path / "bun"
    proc = tiny.bundle(out, monkeypatch)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert not any(word in proc.stdout for word in ("Looking in links", "Processing ", "Saved ", "$ ")), proc.stdout
    assert len(lines) <= 11, proc.stdout  # the steps, the result, gc-wizard's own install line (walk 26 #2), the log
    assert any(line.startswith("Bundle ready: ") for line in lines)
    log = Path(lines[-1].removeprefix("Log: "))
    assert lines[-1].startswith("Log: ") and log.parent == Path(isolated_state) / "logs", proc.stdout
    kept = log.read_text()
    assert "pkg_a-1.0" in kept or "pkg-a" in kept, kept[:2000]
