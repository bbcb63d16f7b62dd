"""The real-log corpus (tests/logs/real): each log with the root cause its thread established.

`tests/logs/real/SOURCES.md` is the single record of where each log came from and what caused it; the
corpus test and `bench/diagnose.py` both read it here, so a new log is one file plus one table row.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

REAL = Path(__file__).resolve().parent / "logs" / "real"
CLEAN = "clean"
UNRECOGNISED = "unrecognised"
"""A failure no catalogue entry explains: right when `diagnose` gives no finding and the unrecognised result."""


@dataclass(frozen=True)
class CorpusLog:
    name: str
    url: str
    expected: str
    """The finding id the thread established as the root cause, `clean`, or `unrecognised` (no entry fits)."""
    why: str

    @property
    def path(self) -> Path:
        return REAL / self.name

    def text(self) -> str:
        return self.path.read_text(encoding="utf-8")


def load_corpus() -> list[CorpusLog]:
    """Every row of SOURCES.md's table (`| log | thread | root cause | why |`)."""
    rows = []
    for line in (REAL / "SOURCES.md").read_text(encoding="utf-8").splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) >= 4 and cells[0].endswith(".log"):
            rows.append(CorpusLog(cells[0], cells[1], cells[2], " | ".join(cells[3:])))
    return rows


def score(diagnose, looks_failed=None) -> dict:
    """Runs `diagnose(text) -> [finding ids]` over the corpus: accuracy, every miss, and the false findings
    (a clean log with a finding, a failure log whose first finding is another cause). With `looks_failed(text)
    -> bool` (the unrecognised check), also the silent misses: failure logs with no finding that look clean."""
    failures = hits = clean_ok = clean_total = silent = wrong = 0
    misses = []
    per_id: dict[str, list[int]] = {}
    for log in load_corpus():
        text = log.text()
        got = diagnose(text)
        if log.expected == CLEAN:
            clean_total += 1
            clean_ok += not got and not (looks_failed and looks_failed(text))
            if got:
                misses.append((log.name, log.expected, got))
            continue
        failures += 1
        if log.expected == UNRECOGNISED:
            ok = not got and (looks_failed is None or looks_failed(text))
        else:
            ok = bool(got) and got[0] == log.expected
        hits += ok
        wrong += bool(got) and not ok
        silent += not got and looks_failed is not None and not looks_failed(text)
        counts = per_id.setdefault(log.expected, [0, 0])
        counts[0] += ok
        counts[1] += 1
        if not ok:
            misses.append((log.name, log.expected, got))
    return {"failures": failures, "hits": hits, "accuracy": hits / failures if failures else 0.0,
            "clean": clean_total, "clean_ok": clean_ok, "per_id": per_id, "misses": misses,
            "wrong_first": wrong, "silent": silent}


def silent_without_their_cause(diagnose, looks_failed, entries) -> tuple[int, list[str]]:
    """How the catalogue does on a cause it does not know: each failure log diagnosed with its own cause's
    entry left out (`diagnose(text, entries) -> [ids]`) must still not look clean — another finding, or the
    unrecognised result. Returns (failure logs, the names of those that looked clean)."""
    names, total = [], 0
    for log in load_corpus():
        if log.expected == CLEAN:
            continue
        total += 1
        text = log.text()
        others = tuple(entry for entry in entries if entry.id != log.expected)
        if not diagnose(text, others) and not looks_failed(text):
            names.append(log.name)
    return total, names
