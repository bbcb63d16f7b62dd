"""The real-log corpus (tests/logs/real): each log with the root cause its thread established.

`tests/logs/real/SOURCES.md` is the single record of where each log came from and what caused it; the
corpus test and `bench/diagnose.py` both read it here, so a new log is one file plus one table row.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

REAL = Path(__file__).resolve().parent / "logs" / "real"
CLEAN = "clean"


@dataclass(frozen=True)
class CorpusLog:
    name: str
    url: str
    expected: str
    """The finding id the thread established as the root cause, or `clean`."""
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


def score(diagnose) -> dict:
    """Runs `diagnose(text) -> [finding ids]` over the corpus: accuracy and every miss."""
    failures = hits = clean_ok = clean_total = 0
    misses = []
    per_id: dict[str, list[int]] = {}
    for log in load_corpus():
        got = diagnose(log.text())
        if log.expected == CLEAN:
            clean_total += 1
            clean_ok += not got
            if got:
                misses.append((log.name, log.expected, got))
            continue
        failures += 1
        ok = bool(got) and got[0] == log.expected
        hits += ok
        counts = per_id.setdefault(log.expected, [0, 0])
        counts[0] += ok
        counts[1] += 1
        if not ok:
            misses.append((log.name, log.expected, got))
    return {"failures": failures, "hits": hits, "accuracy": hits / failures if failures else 0.0,
            "clean": clean_total, "clean_ok": clean_ok, "per_id": per_id, "misses": misses}
