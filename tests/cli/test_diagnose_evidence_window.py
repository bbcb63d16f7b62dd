"""29th hostile pass (part A) P1, the structural half: diagnose quoted whole lines of other people's logs, so a secret
anywhere on a matching line went out in whatever shape the masker did not know. It now quotes only the span the
catalogue entry (or the unrecognised reader's error phrase) matched and a bounded context (`evidence_window`), in the
text and `--json` alike. This runs the real command on real log files."""

from __future__ import annotations

import json

from tests.fixtures.cli import run_inproc

PREFIX = "RESOURCE_EXHAUSTED: Out of memory while trying to allocate 123 bytes. "



def test_diagnose_quotes_only_the_matched_span_and_a_bounded_context(tmp_path):
    """The structural half: whatever shape a secret far along the line has, it is not quoted."""
    log = tmp_path / "long.log"
    far = "nothing to see here " * 6 + "some-unknown-tool --weird-flag UNKNOWNSHAPE123secret"
    log.write_text("EARLYMARK7x " + "step 1 of many, " * 8 + PREFIX + far + "\n", encoding="utf-8")
    proc = run_inproc("diagnose", str(log), "--json", env={"GC_WIZARD_HOME": str(tmp_path / "state")})
    (finding,) = json.loads(proc.stdout.strip().splitlines()[-1])["findings"]
    (evidence,) = finding["evidence"]
    assert "Out of memory while trying to allocate 123 bytes" in evidence
    assert "UNKNOWNSHAPE123secret" not in evidence and "EARLYMARK7x" not in evidence
    assert evidence.startswith("…") and evidence.endswith("…")
    assert len(evidence) <= len("Out of memory while trying to allocate 123 bytes") + 2 * 60 + 2


def test_unrecognised_quotes_only_the_error_phrase(tmp_path):
    log = tmp_path / "u.log"
    log.write_text("RuntimeError: the run stopped " + "filler words " * 15 + "odd-tool UNKNOWNSHAPE123secret\n",
                   encoding="utf-8")
    proc = run_inproc("diagnose", str(log), "--json", env={"GC_WIZARD_HOME": str(tmp_path / "state")})
    result = json.loads(proc.stdout.strip().splitlines()[-1])["unrecognised"]
    assert result["last_error"].startswith("RuntimeError: the run stopped")
    assert "UNKNOWNSHAPE123secret" not in proc.stdout
