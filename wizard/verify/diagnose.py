"""Names the root cause of a failed JAX / CUDA / GraphCast run, in plain words, from any log.

Why a separate module with its knowledge in YAML (`wizard/data/known_failures.yaml`): the same
diagnosis serves `gc-wizard diagnose` on a pasted notebook log, `verify` on its probe's stderr, and the
support report; and a newly met failure is a data entry, not code. Each entry's regexes run over the
real messages; findings come back root cause first: an entry that `explains` another (a cuDNN version
mismatch explains the later "DNN library initialization failed") absorbs it, keeping its evidence.
Facts from detection sharpen the fix (which LD_LIBRARY_PATH folder holds the old cuDNN, which GPU
recipe fits the driver).
"""

from __future__ import annotations

import bisect
import functools
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from wizard import paths
from wizard.detect.facts import Facts
from wizard.errors import UserError
from wizard.security import strip_terminal_escapes

KNOWN_FAILURES_PATH = paths.DATA_DIR / "known_failures.yaml"

#: The GPU recipe to name in fixes, by the driver's maximum CUDA major version (none known: CUDA 12).
GPU_RECIPE_BY_CUDA_MAJOR = {12: "jax0.4.23-cuda12-cudnn89", 11: "jax0.4.23-cuda11-cudnn86"}
DEFAULT_GPU_RECIPE = GPU_RECIPE_BY_CUDA_MAJOR[12]

#: Lines the wizard itself adds to a verify log (probe progress and its JSON result): never evidence.
_WIZARD_LINE = re.compile(r"^(?:gc-wizard-tier(?:-start)?: |\{\"probe_version\": )")
_EVIDENCE_LINES = 8
_EVIDENCE_CHARS = 400

_REQUIRED = ("id", "title", "patterns", "explanation", "fix")
_ALLOWED = set(_REQUIRED) | {"priority", "explains", "libraries", "fix_with_dirs", "memory_check"}


@dataclass(frozen=True)
class KnownFailure:
    """One entry of known_failures.yaml, validated and with its patterns compiled."""

    id: str
    title: str
    patterns: tuple[re.Pattern, ...]
    explanation: str
    fix: str
    priority: int = 50
    explains: tuple[str, ...] = ()
    libraries: tuple[str, ...] = ()
    fix_with_dirs: str | None = None
    memory_check: dict[str, Any] | None = None


@dataclass(frozen=True)
class Finding:
    """A known failure found in a log: what broke, why, what to do, and the lines that show it."""

    id: str
    title: str
    explanation: str
    fix: str
    evidence: tuple[str, ...]
    explains: tuple[str, ...] = ()
    """Ids of symptoms this root cause produced that were also in the log (folded into this finding)."""
    priority: int = 50

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "title": self.title, "explanation": self.explanation, "fix": self.fix,
                "evidence": list(self.evidence), "explains": list(self.explains)}


# --------------------------------------------------------------------------------------------------
# Loading the knowledge file


def _bad(path: Path, where: str, problem: str) -> UserError:
    return UserError(f"{path}: {where}: {problem}")


def parse_known_failures(text: str, path: Path) -> tuple[KnownFailure, ...]:
    """Validates and compiles a known-failures document; errors name the file, entry and field."""
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise UserError(f"{path}: not valid YAML: {exc}") from None
    if not isinstance(data, list):
        raise _bad(path, "top level", "must be a list of entries")
    entries: list[KnownFailure] = []
    seen: set[str] = set()
    for index, raw in enumerate(data):
        where = f"entry {index + 1}"
        if not isinstance(raw, dict):
            raise _bad(path, where, "must be a mapping")
        if isinstance(raw.get("id"), str):
            where = f"entry {raw['id']!r}"
        for key in _REQUIRED:
            if key not in raw:
                raise _bad(path, where, f"missing {key!r}")
        unknown = set(raw) - _ALLOWED
        if unknown:
            raise _bad(path, where, f"unknown field(s) {', '.join(sorted(unknown))}")
        for key in ("id", "title", "explanation", "fix"):
            if not isinstance(raw[key], str) or not raw[key].strip():
                raise _bad(path, where, f"{key!r} must be a non-empty string")
        if raw["id"] in seen:
            raise _bad(path, where, "duplicate id")
        seen.add(raw["id"])
        if not isinstance(raw["patterns"], list) or not raw["patterns"]:
            raise _bad(path, where, "'patterns' must be a non-empty list of regexes")
        compiled = []
        for pattern in raw["patterns"]:
            try:
                compiled.append(re.compile(str(pattern), re.MULTILINE))
            except re.error as exc:
                raise _bad(path, where, f"bad regex {pattern!r}: {exc}") from None
        priority = raw.get("priority", 50)
        if not isinstance(priority, int):
            raise _bad(path, where, "'priority' must be an integer")
        explains = raw.get("explains", [])
        libraries = raw.get("libraries", [])
        for key, value in (("explains", explains), ("libraries", libraries)):
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                raise _bad(path, where, f"{key!r} must be a list of strings")
        memory_check = raw.get("memory_check")
        if memory_check is not None and (
                not isinstance(memory_check, dict) or set(memory_check) != {"free", "total", "below"}):
            raise _bad(path, where, "'memory_check' must be {free: GROUP, total: GROUP, below: FRACTION}")
        fix_with_dirs = raw.get("fix_with_dirs")
        if fix_with_dirs is not None and not isinstance(fix_with_dirs, str):
            raise _bad(path, where, "'fix_with_dirs' must be a string")
        entries.append(KnownFailure(
            id=raw["id"], title=raw["title"].strip(), patterns=tuple(compiled),
            explanation=" ".join(raw["explanation"].split()), fix=" ".join(raw["fix"].split()),
            priority=priority, explains=tuple(explains), libraries=tuple(libraries),
            fix_with_dirs=" ".join(fix_with_dirs.split()) if fix_with_dirs else None, memory_check=memory_check,
        ))
    for entry in entries:
        for other in entry.explains:
            if other not in seen:
                raise _bad(path, f"entry {entry.id!r}", f"'explains' names unknown id {other!r}")
    return tuple(entries)


@functools.lru_cache(maxsize=4)
def _load_cached(path: str, mtime: float) -> tuple[KnownFailure, ...]:
    file = Path(path)
    return parse_known_failures(file.read_text(encoding="utf-8"), file)


def load_known_failures(path: Path | None = None) -> tuple[KnownFailure, ...]:
    file = Path(path or KNOWN_FAILURES_PATH)
    try:
        mtime = file.stat().st_mtime
    except OSError as exc:
        raise UserError(f"cannot read the known-failures file {file}: {exc.strerror}") from None
    return _load_cached(str(file), mtime)


# --------------------------------------------------------------------------------------------------
# Matching


def clean_log_text(text: str) -> str:
    """ANSI escapes removed, CR/LF normalised, the wizard's own progress/JSON lines blanked out."""
    text = strip_terminal_escapes(text, keep_controls=True).replace("\r\n", "\n").replace("\r", "\n")
    return "\n".join("" if _WIZARD_LINE.match(line) else line for line in text.split("\n"))


class _Lines:
    def __init__(self, text: str):
        self.text = text
        self.starts = [0] + [m.end() for m in re.finditer("\n", text)]

    def span(self, start: int, end: int) -> list[tuple[int, str]]:
        first = bisect.bisect_right(self.starts, start) - 1
        last = bisect.bisect_right(self.starts, max(start, end - 1)) - 1
        out = []
        for index in range(first, last + 1):
            stop = self.starts[index + 1] - 1 if index + 1 < len(self.starts) else len(self.text)
            line = self.text[self.starts[index]:stop].strip()
            if line:
                short = line if len(line) <= _EVIDENCE_CHARS else line[: _EVIDENCE_CHARS - 1] + "…"
                out.append((self.starts[index], short))
        return out


@dataclass
class _Hit:
    entry: KnownFailure
    position: int
    groups: dict[str, str] = field(default_factory=dict)
    evidence: list[str] = field(default_factory=list)
    explains: list[str] = field(default_factory=list)
    line_positions: dict[str, int] = field(default_factory=dict)


def _memory_ok(entry: KnownFailure, match: re.Match) -> bool:
    check = entry.memory_check
    if not check:
        return True
    groups = match.groupdict()
    free, total = groups.get(check["free"]), groups.get(check["total"])
    if free is None or total is None:
        return True  # the check applies only to the pattern that captures both numbers
    try:
        return int(total) > 0 and int(free) / int(total) < float(check["below"])
    except ValueError:
        return False


def _scan(text: str, entries: tuple[KnownFailure, ...]) -> dict[str, _Hit]:
    lines = _Lines(text)
    hits: dict[str, _Hit] = {}
    for entry in entries:
        for pattern in entry.patterns:
            for match in pattern.finditer(text):
                if not _memory_ok(entry, match):
                    continue
                hit = hits.get(entry.id)
                if hit is None:
                    hit = hits[entry.id] = _Hit(entry, match.start())
                hit.position = min(hit.position, match.start())
                for name, value in match.groupdict().items():
                    if value is not None and name not in hit.groups:
                        hit.groups[name] = value.strip()
                for offset, line in lines.span(match.start(), match.end()):
                    if line not in hit.line_positions:
                        hit.line_positions[line] = offset
                        hit.evidence.append(line)
    for hit in hits.values():
        # Evidence in log order, whichever pattern found it.
        hit.evidence.sort(key=lambda line: hit.line_positions[line])
    return hits


def _fold(hits: dict[str, _Hit]) -> list[_Hit]:
    """Root cause first: each matched cause absorbs the matched symptoms it explains (transitively)."""
    order = sorted(hits.values(), key=lambda h: (h.entry.priority, h.position))
    absorbed: set[str] = set()
    for root in order:
        if root.entry.id in absorbed:
            continue
        stack = list(root.entry.explains)
        while stack:
            other_id = stack.pop(0)
            other = hits.get(other_id)
            if other is None or other_id in absorbed or other is root:
                continue
            absorbed.add(other_id)
            root.explains.append(other_id)
            for line in other.evidence:
                if line not in root.evidence:
                    root.evidence.append(line)
            stack.extend(other.entry.explains)
    return [hit for hit in order if hit.entry.id not in absorbed]


# --------------------------------------------------------------------------------------------------
# Facts


def gpu_recipe_for(facts: Facts | None) -> str:
    """The GPU recipe that fits the detected driver's maximum CUDA version."""
    version = facts.driver.cuda_driver_version if facts is not None and facts.driver is not None else None
    if version:
        try:
            major = int(str(version).split(".")[0])
        except ValueError:
            return DEFAULT_GPU_RECIPE
        if major >= 12:
            return GPU_RECIPE_BY_CUDA_MAJOR[12]
        if major == 11:
            return GPU_RECIPE_BY_CUDA_MAJOR[11]
    return DEFAULT_GPU_RECIPE


def shadowing_dirs(facts: Facts | None, libraries: tuple[str, ...]) -> list[str]:
    """LD_LIBRARY_PATH folders holding any of `libraries`, each with what was found there."""
    if facts is None or not libraries:
        return []
    found: dict[str, list[str]] = {}
    for lib in facts.cuda_libraries:
        if lib.name not in libraries or lib.found_via != "LD_LIBRARY_PATH":
            continue
        folder = os.path.dirname(lib.path)
        label = f"{lib.name} {lib.version}" if lib.version else lib.name
        found.setdefault(folder, [])
        if label not in found[folder]:
            found[folder].append(label)
    return [f"{folder} ({', '.join(labels)})" for folder, labels in found.items()]


class _Values(dict):
    def __missing__(self, key: str) -> str:
        return "unknown"


def _render(template: str, values: dict[str, str]) -> str:
    return template.format_map(_Values(values))


def _finding(hit: _Hit, facts: Facts | None) -> Finding:
    entry = hit.entry
    values = dict(hit.groups)
    values["recipe"] = gpu_recipe_for(facts)
    if "minimum" in values or "built" in values:
        values.setdefault("needed", values.get("minimum") or values["built"])
    dirs = shadowing_dirs(facts, entry.libraries)
    fix = entry.fix
    if dirs and entry.fix_with_dirs:
        values["dirs"] = ", ".join(dirs)
        fix = entry.fix_with_dirs
    evidence = hit.evidence[:_EVIDENCE_LINES]
    if len(hit.evidence) > _EVIDENCE_LINES:
        evidence.append(f"… and {len(hit.evidence) - _EVIDENCE_LINES} more matching lines")
    return Finding(
        id=entry.id, title=entry.title, explanation=_render(entry.explanation, values),
        fix=_render(fix, values), evidence=tuple(evidence), explains=tuple(hit.explains),
        priority=entry.priority,
    )


def diagnose_text(text: str, facts: Facts | None = None, *,
                  known_failures: tuple[KnownFailure, ...] | None = None) -> list[Finding]:
    """Every known failure in `text`, root cause first; an empty list for a clean log."""
    entries = known_failures if known_failures is not None else load_known_failures()
    hits = _scan(clean_log_text(text), entries)
    return [_finding(hit, facts) for hit in _fold(hits)]


def uses_facts(findings: list[Finding], known_failures: tuple[KnownFailure, ...] | None = None) -> bool:
    """Whether detection could sharpen any of these findings (so a caller can skip detection otherwise)."""
    entries = {e.id: e for e in (known_failures or load_known_failures())}
    return any(entries[f.id].libraries or "{recipe}" in entries[f.id].fix for f in findings if f.id in entries)
