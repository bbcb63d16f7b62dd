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
import collections
import functools
import os
import re
import shlex
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from wizard import bounded, paths
from wizard.detect.facts import Facts
from wizard.errors import UserError
from wizard.install.reach import advice_for, find_unreachable
from wizard.install.resolution_settings import resolution_advice
from wizard.recipes.family import default_recipes, family_recipes
from wizard.recipes.loader import Recipe, is_recipe_id, load_recipes
from wizard.security import cut, redact_secrets, shell_line, shell_word, strip_terminal_escapes
from wizard.verify import causes, fallback, log_values
from wizard.verify.noexec_place import noexec_place_fix
from wizard.verify.protocol import TIER_PREFIX, TIER_START_PREFIX, Tier
from wizard.yaml_data import YAMLError, load_data

KNOWN_FAILURES_PATH = paths.DATA_DIR / "known_failures.yaml"


#: Lines the wizard itself adds to a verify log (probe progress and its JSON result): never evidence.
_RESULT_START = '{"probe_version": '
_WIZARD_LINE = re.compile("^(?:" + "|".join(map(re.escape, (TIER_PREFIX, TIER_START_PREFIX, _RESULT_START))) + ")")
_EVIDENCE_LINES = 8
_EVIDENCE_CHARS = 400

_REQUIRED = ("id", "title", "patterns", "explanation", "fix")
_ALLOWED = set(_REQUIRED) | {"priority", "explains", "libraries", "fix_with_dirs", "memory_check", "symptom"}


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
    symptom: bool = False
    """Names what went wrong, not why: facts rank its possible causes (`wizard.verify.causes`)."""
    anchors: tuple[tuple[str, ...] | None, ...] = ()
    """Per pattern, literals of which every match contains one (None: none known): a cheap test that
    lets a big log skip the regex where none is present."""
    contexts: tuple[re.Pattern | None, ...] = ()
    """Per pattern, a regex that must also match somewhere in the same log for the pattern's match to count
    (None: no condition). It tells a cause by its surroundings: "no CUDA device" is WSL's libcuda path only in
    a WSL log, a kernel/library version mismatch is the container's CUDA only inside a container."""
    context_anchors: tuple[tuple[str, ...] | None, ...] = ()
    """Per pattern, the literals of its `with` regex (as `anchors`): a big log skips the search where none is."""
    absences: tuple[re.Pattern | None, ...] = ()
    """Per pattern, a regex that must match nowhere in the same log for the pattern's match to count (None: no
    condition). Some causes show only by what is missing: JAX's lone "No GPU/TPU found" is a CPU-only jaxlib
    when no line shows a CUDA jaxlib trying (and failing) to start, and the same line is a symptom when one does."""
    absence_anchors: tuple[tuple[str, ...] | None, ...] = ()
    """Per pattern, the literals of its `without` regex (as `anchors`)."""


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
    causes: tuple[dict[str, str], ...] = ()
    """For a symptom: its possible causes, most likely first, each {"id", "why", "check"}."""

    def to_dict(self) -> dict[str, Any]:
        data = {"id": self.id, "title": self.title, "explanation": self.explanation, "fix": self.fix,
                "evidence": list(self.evidence), "explains": list(self.explains)}
        if self.causes:
            data["causes"] = [dict(cause) for cause in self.causes]
        return data


# --------------------------------------------------------------------------------------------------
# Loading the knowledge file


def _bad(path: Path, where: str, problem: str) -> UserError:
    return UserError(f"{path}: {where}: {problem}")


def _sre_parse():
    try:
        import re._parser as sre_parse  # Python >= 3.11
    except ImportError:  # pragma: no cover - older Pythons
        import sre_parse  # type: ignore[no-redef]
    return sre_parse


def _longest_literal(items, sre_parse) -> str:
    best, run = "", []
    for op, arg in list(items) + [(None, None)]:
        if op is sre_parse.LITERAL:
            run.append(chr(arg))
            continue
        if len(run) > len(best):
            best = "".join(run)
        run = []
    return best


def literal_anchor(pattern: re.Pattern) -> tuple[str, ...] | None:
    """Literals of which every match of `pattern` contains at least one, or None when none are known.

    Read from the parsed pattern: the longest literal run of its top-level sequence, or for a top-level
    alternation (`A|B|C`) the longest run of each branch; when the sequence has no literal long enough, an
    alternation it must pass through (`(?:A|B)…`, `(?P<x>A|B)…`) gives one literal per branch. Case-insensitive
    patterns give None and are always run; a case-insensitive part (`(?i:…)`, for a sentence users retype in
    their own case) gives no literal. A literal shorter than 4 characters is too common to be worth testing.
    """
    if pattern.flags & re.IGNORECASE:
        return None
    sre_parse = _sre_parse()
    try:
        parsed = list(sre_parse.parse(pattern.pattern, pattern.flags))
    except Exception:  # pragma: no cover - already compiled, so parseable
        return None
    return _sequence_anchors(parsed, sre_parse)


def _sequence_anchors(items, sre_parse) -> tuple[str, ...] | None:
    """`literal_anchor` for a parsed sequence: its longest literal run, else the anchors of a group or an
    alternation every match of it passes through (one set per branch)."""
    items = list(items)
    literal = _longest_literal(items, sre_parse)
    if len(literal) >= 4:
        return (literal,)
    for op, arg in items:
        if op is sre_parse.SUBPATTERN:
            if arg[1] & re.IGNORECASE:
                continue  # a `(?i:…)` part matches other cases than its literals: no anchor from it
            found = _sequence_anchors(arg[-1], sre_parse)
        elif op is sre_parse.BRANCH:
            per_branch = [_sequence_anchors(branch, sre_parse) for branch in arg[1]]
            found = None if None in per_branch else tuple(lit for branch in per_branch for lit in branch)
        else:
            continue
        if found is not None:
            return found
    return None


def _top_level_branches(text: str) -> list[str]:
    """A regex's text split at its top-level `|` (outside groups, classes and escapes); one item when it has none."""
    parts, depth, start, i, in_class = [], 0, 0, 0, False
    while i < len(text):
        char = text[i]
        if char == "\\":
            i += 2
            continue
        if in_class:
            in_class = char != "]" or text[i - 1] == "["
        elif char == "[":
            in_class = True
            if text[i + 1:i + 2] == "^":
                i += 1
        elif char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
        elif char == "|" and depth == 0:
            parts.append(text[start:i])
            start = i + 1
        i += 1
    return [*parts, text[start:]]


@functools.lru_cache(maxsize=1024)
def _condition_branches(text: str, flags: int) -> tuple[tuple[re.Pattern, tuple[str, ...] | None], ...]:
    """A `with`/`without` condition as its top-level branches, each compiled alone with its own anchors (a literal
    of 2 or more characters will do: a condition is searched once a piece until met, and any anchor beats none).

    Why: a condition only has to be met once anywhere, but one unanchored branch (`^[\\w.-]+[-_]\\d+[ \\t]+\\|`,
    `\\bGPU\\b`) made the whole alternation unanchored, and Python tries every branch at every position: the
    container condition alone cost 0.36 s a megabyte of every log that never mentions a container, and a big log
    was read at 1 MB/s. Alone, a branch that starts with a literal is found by a fast scan, and one whose literal
    is not in the piece is not searched at all."""
    out = []
    for branch in _top_level_branches(text):
        try:
            compiled = re.compile(branch, flags)
        except re.error:  # a branch that is not a pattern alone (cannot happen for a valid whole): search it whole
            whole = re.compile(text, flags)
            return ((whole, literal_anchor(whole)),)
        anchors = literal_anchor(compiled)
        if anchors is None and not flags & re.IGNORECASE:
            literal = _longest_literal(_sre_parse().parse(branch, flags), _sre_parse())
            anchors = (literal,) if len(literal) >= 2 else None
        out.append((compiled, anchors))
    return tuple(out)


#: The quotes a web page, blog or word processor puts where a program printed ASCII ones: a log pasted from
#: there says "couldn‘t communicate" or “cuda12_pip”, and must still match.
_QUOTE_VARIANTS = {"'": "'\u2018\u2019\u02bc", '"': '"\u201c\u201d'}
#: What a literal space in a pattern also matches: more blanks, or a line break with the indentation around it
#: (a message its producer wraps, as NumPy and JAX do, or one re-wrapped by a terminal, mail or issue page).
_SPACE_OR_WRAP = r"(?:[ \t]+|[ \t]*\n[ \t]*)"
_QUANTIFIERS = "*+?{"


def tolerant_pattern(regex: str) -> str:
    """`regex` as it must read a pasted log: each literal ASCII quote also matches its typographic forms (‘ ’ ʼ,
    “ ”), each literal space also matches several blanks or a wrapped line.

    Why at compile time rather than by rewriting the log: evidence lines must stay the log's own text, and one
    rewrite here covers every pattern of the catalogue, present and future. Escaped characters are copied as
    they are; inside a character class the quote variants are added to the class; a space with a quantifier
    (" ?", " *") keeps its own meaning.
    """
    out: list[str] = []
    in_class = False
    index = 0
    while index < len(regex):
        char = regex[index]
        if char == "\\":
            out.append(regex[index:index + 2])
            index += 2
            continue
        following = regex[index + 1] if index + 1 < len(regex) else ""
        if in_class:
            if char == "]" and out[-1] != "[" and out[-1] != "[^":
                in_class = False
            out.append(_QUOTE_VARIANTS[char][1:] + char if char in _QUOTE_VARIANTS else char)
        elif char == "[":
            in_class = True
            negated = regex.startswith("[^", index)
            out.append("[^" if negated else "[")
            index += 2 if negated else 1
            continue
        elif char in _QUOTE_VARIANTS:
            out.append("[" + _QUOTE_VARIANTS[char] + "]")
        elif char == " " and following not in _QUANTIFIERS:
            while regex.startswith(" ", index + 1) and (regex[index + 2:index + 3] or "x") not in _QUANTIFIERS:
                index += 1  # a run of literal spaces is one gap
            out.append(_SPACE_OR_WRAP)
        else:
            out.append(char)
        index += 1
    return "".join(out)


def parse_known_failures(text: str, path: Path) -> tuple[KnownFailure, ...]:
    """Validates and compiles a known-failures document; errors name the file, entry and field."""
    try:
        data = load_data(text)
    except YAMLError as exc:
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
        contexts = []
        absences = []
        for pattern in raw["patterns"]:
            condition = absence = None
            if isinstance(pattern, dict):
                if "match" not in pattern or not {"with", "without"} & set(pattern) \
                        or set(pattern) - {"match", "with", "without"}:
                    raise _bad(path, where, f"a pattern given as a mapping needs 'match' and 'with' or 'without' "
                                            f"(or both), not {sorted(pattern)}")
                pattern, condition, absence = pattern["match"], pattern.get("with"), pattern.get("without")
            for regex in (pattern, condition, absence):
                if regex is None:
                    continue
                try:
                    re.compile(str(regex), re.MULTILINE)
                except re.error as exc:
                    raise _bad(path, where, f"bad regex {regex!r}: {exc}") from None
            compiled.append(re.compile(tolerant_pattern(str(pattern)), re.MULTILINE))
            contexts.append(re.compile(tolerant_pattern(str(condition)), re.MULTILINE)
                            if condition is not None else None)
            absences.append(re.compile(tolerant_pattern(str(absence)), re.MULTILINE)
                            if absence is not None else None)
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
        symptom = raw.get("symptom", False)
        if not isinstance(symptom, bool):
            raise _bad(path, where, "'symptom' must be true or false")
        fix_with_dirs = raw.get("fix_with_dirs")
        if fix_with_dirs is not None and not isinstance(fix_with_dirs, str):
            raise _bad(path, where, "'fix_with_dirs' must be a string")
        entries.append(KnownFailure(
            id=raw["id"], title=raw["title"].strip(), patterns=tuple(compiled),
            explanation=" ".join(raw["explanation"].split()), fix=" ".join(raw["fix"].split()),
            priority=priority, explains=tuple(explains), libraries=tuple(libraries),
            fix_with_dirs=" ".join(fix_with_dirs.split()) if fix_with_dirs else None, memory_check=memory_check,
            symptom=symptom, anchors=tuple(literal_anchor(p) for p in compiled), contexts=tuple(contexts),
            context_anchors=tuple(literal_anchor(c) if c is not None else None for c in contexts),
            absences=tuple(absences),
            absence_anchors=tuple(literal_anchor(a) if a is not None else None for a in absences),
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
    file = Path(path) if path else paths.package_file(KNOWN_FAILURES_PATH)
    try:
        mtime = file.stat().st_mtime
    except OSError as exc:
        raise UserError(f"cannot read the known-failures file {file}: {exc.strerror}") from None
    return _load_cached(str(file), mtime)


# --------------------------------------------------------------------------------------------------
# Matching


_NULS = re.compile("\x00+")

#: BuildKit's plain progress (`docker build --progress=plain`, `docker buildx`, a CI's build log): each line a step
#: prints comes after "#STEP SECONDS " (four significant digits: "#8 9.445 ", "#10 21.41 ", "#10 197.1 ") and the
#: step's own status lines after "#STEP " ("#10 ERROR: process … did not complete successfully", "#10 DONE 0.1s",
#: "#10 [stage-0 7/7] RUN …"). Read without the prefix, "ERROR: Failed building wheel …" and "error: command …
#: failed" are failing lines again (trimesh_2264, batch 89, looked clean). Line by line, so a log read in pieces
#: reads the same; the summary of a failed build, which repeats a step's last lines after "SECONDS " alone, keeps
#: its text (a bare number at a line's start is too common elsewhere).
_BUILDKIT_PREFIX = re.compile(r"^#[0-9]+ (?:[0-9]+\.[0-9]+ |(?=(?:ERROR|CANCELED|DONE|CACHED)\b|\[))", re.MULTILINE)


def clean_log_text(text: str) -> str:
    """ANSI escapes removed, CR/LF normalised, BuildKit's step prefixes dropped, the wizard's own progress/JSON lines
    blanked out."""
    if "\x1b" in text or "\x9b" in text:
        text = strip_terminal_escapes(text, keep_controls=True)
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    if "\x00" in text:  # a hole in a log (a crash mid-write, a sparse copy) ends the line before it: the next starts
        text = _NULS.sub("\n", text)
    if "#" in text:
        text = _BUILDKIT_PREFIX.sub("", text)
    if TIER_PREFIX not in text and TIER_START_PREFIX not in text and _RESULT_START not in text:
        return text  # the common case on a big log: nothing to blank, no per-line pass
    return "\n".join("" if _WIZARD_LINE.match(line) else line for line in text.split("\n"))


#: How much of a quoted line's text either side of what the catalogue matched the evidence keeps (characters).
_EVIDENCE_CONTEXT = 60


def evidence_window(line: str, start: int, end: int, context: int = _EVIDENCE_CONTEXT) -> str:
    """`line[start:end]` (what a catalogue entry or the unrecognised reader's error phrase matched) with at most
    `context` characters either side, cut at a blank with `…` where the line goes on, masked; "" for a blank line.

    Why: diagnose quotes lines from other people's logs, and the rest of a long line is not evidence of anything: a
    line that failed for memory went on with `wandb login SEK…`, a NuGet `<add key="ApiKey" value="SEK…"/>` or a
    `password%3DSEK…`, and each went out in clear in the text and the `--json` evidence wherever the masker did not
    know that shape (29th hostile pass (part A) P1). Quoting only the matched span and a bounded context keeps what
    shows the cause and leaves the rest of the line out, whatever shape a secret there has. The whole line is masked
    first (`security.cut`'s rule: a secret cut at the window's edge would lose the shape the masker knows) and the
    window is found again in the masked text by the matched phrase."""
    raw_phrase = line[start:end].strip()
    masked = redact_secrets(line[: 2 * _EVIDENCE_CHARS + 256] if len(line) > 2 * _EVIDENCE_CHARS else line,
                            keep_user=True).strip()
    if not masked:
        return ""
    lead = len(line) - len(line.lstrip())
    at = masked.find(raw_phrase, max(0, start - lead - 4 * context)) if raw_phrase else -1
    if at < 0:
        at = masked.find(raw_phrase) if raw_phrase else -1
    if at < 0:  # the phrase held a secret the masker changed: its place in the masked line, as near as known
        at, length = min(max(0, start - lead), len(masked)), max(0, end - start)
    else:
        length = len(raw_phrase)
    left, right = max(0, at - context), min(len(masked), at + length + context)
    head, tail = masked[left:at], masked[at + length:right]
    if left > 0:
        blank = head.find(" ")
        head = "…" + (head[blank + 1:] if 0 <= blank < len(head) - 1 else head)
    if right < len(masked):
        blank = tail.rfind(" ")
        tail = (tail[:blank] if blank > 0 else tail) + "…"
    window = head + masked[at:at + length] + tail
    return window if len(window) <= _EVIDENCE_CHARS else cut(window, _EVIDENCE_CHARS)


class _Lines:
    def __init__(self, text: str):
        self.text = text
        self.starts = [0] + [m.end() for m in re.finditer("\n", text)]

    def whole(self, start: int, end: int) -> str:
        """The lines the match `start`..`end` touches, whole and unmasked (for `fallback.is_warning`)."""
        first = self.starts[bisect.bisect_right(self.starts, start) - 1]
        last = bisect.bisect_right(self.starts, max(start, end - 1))
        return self.text[first:self.starts[last] - 1 if last < len(self.starts) else len(self.text)]

    def span(self, start: int, end: int) -> list[tuple[int, str]]:
        """The lines the match `start`..`end` touches, each as evidence: only the part of it the match covers and a
        bounded context either side (`evidence_window`), masked."""
        first = bisect.bisect_right(self.starts, start) - 1
        last = bisect.bisect_right(self.starts, max(start, end - 1)) - 1
        out = []
        for index in range(first, last + 1):
            begin = self.starts[index]
            stop = self.starts[index + 1] - 1 if index + 1 < len(self.starts) else len(self.text)
            line = self.text[begin:stop]
            short = evidence_window(line, max(start, begin) - begin, min(end, stop) - begin)
            if short:
                out.append((begin, short))
        return out


#: Evidence lines kept per finding while scanning; beyond this only a count is kept (bounded memory on
#: a multi-GB log whose matching lines all differ, e.g. by time stamp).
_EVIDENCE_KEPT = 64


@dataclass
class _Hit:
    entry: KnownFailure
    position: int
    groups: dict[str, str] = field(default_factory=dict)
    evidence: list[str] = field(default_factory=list)
    explains: list[str] = field(default_factory=list)
    line_positions: dict[str, int] = field(default_factory=dict)
    more: int = 0
    """Matching lines beyond _EVIDENCE_KEPT (counted, not kept)."""
    fallback_only: bool = True
    """Whether every line it matched is one of JAX's CPU-fallback warnings (`fallback.is_warning`)."""


#: Digits read as 0 where anchors are looked up: lines that differ only in their numbers (a training loop's
#: steps, losses and timestamps, a progress bar) become one line.
_DIGITS_AS_ZERO = bytes.maketrans(b"123456789", b"000000000")


def _anchor_haystack(text: str) -> bytes:
    """Where a piece's anchors are looked up: its distinct lines, digits read as 0, as UTF-8 bytes.

    Why: the anchors are the cost of a big log (hundreds of substring searches over each piece, and the short words
    that wrapped-line tolerance leaves as anchors search slowly), while a big log is mostly the same few lines
    with other numbers. When an anchor (no line break in it) is in a line, its digits-as-0 form is in that line's
    digits-as-0 form: testing the distinct lines finds every anchor that is there (at worst it lets a pattern run
    that then matches nothing). UTF-8 keeps "is a substring" exact, and a progress bar's one block character no
    longer makes Python store and search the piece at 2 or 4 bytes a character.
    """
    data = text.encode("utf-8", "surrogatepass").translate(_DIGITS_AS_ZERO)
    haystack = b"\n".join(set(data.split(b"\n")))
    for run, shorter in _RUNS:  # a long run of one progress-bar character, cut (see ANCHOR_RUN)
        while run in haystack:
            haystack = haystack.replace(run, shorter)
    return haystack


#: The longest run of one character an anchor may hold (a test holds every anchor of the catalogue to it): the
#: haystack keeps that much of any longer run. Why: a progress bar of dots with no line end (`diagnose - <` a 120 MB
#: line of them) is one distinct line, and every anchor ending in "." was searched through all of it at every
#: position, two minutes for that log (fourteenth hostile pass, the 600-second e2e case). A run cut to this length
#: still holds every anchor that was there: an anchor's inner runs are whole runs of the line, and its first and
#: last runs at most this long.
ANCHOR_RUN = 32
#: The characters progress bars are drawn with, each as (a run twice the limit, a run at the limit): every pass of
#: `bytes.replace` halves a long run, in memory twice the haystack at most. Not a regex: `(.)\1{32,}` kept a
#: frame of its stack per character of the run and grew past 700 MB on a 120 MB line of dots.
_RUNS = tuple(((c * (2 * ANCHOR_RUN)).encode(), (c * ANCHOR_RUN).encode())
              for c in ". #=-_*~>|+\t█▉▊▋▌▍▎▏━─═■□●•▪░▒▓⣿")


@functools.lru_cache(maxsize=4096)
def _anchor_key(anchor: str) -> bytes:
    """An anchor as `_anchor_haystack` reads lines: UTF-8, digits as 0."""
    return anchor.encode("utf-8", "surrogatepass").translate(_DIGITS_AS_ZERO)


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


class Scanner:
    """Runs every known-failure pattern over a log fed in pieces, in bounded memory.

    Each piece is cleaned text that ends at a line end; `overlap` is how many characters at its start
    were already part of the previous piece (so a pattern spanning a few lines still matches across the
    cut, and a match wholly inside the overlap is not counted twice). Offsets are absolute, so "which
    came first" holds across pieces.
    """

    def __init__(self, entries: tuple[KnownFailure, ...]):
        self.entries = entries
        self.hits: dict[str, _Hit] = {}
        self.conditional: dict[tuple[str, str | None, str | None], _Hit] = {}
        """Matches of patterns with a `with` or `without` condition, by (entry id, with, without regex text), kept
        until the end: the line they need, or the line that rules them out, may come in a later piece of the log."""
        self.met: set[str] = set()
        """The `with` and `without` conditions (their regex text) met anywhere so far."""
        self.gpu_memory: tuple[int, int] | None = None
        """The last (free, total) bytes a "Memory usage:" line reported: a hint for ranking causes."""
        self.cuts = LineCuts()
        """The lines `scan_stream` cut to their ends (`LineCuts.sentence` says so)."""
        self.named_recipes: list[str] = []
        """The recipe ids the log says it installed (`LOG_RECIPE`), in log order: the first known one is the recipe a
        fix names (walk 25 #2/#3)."""
        self.graphcast_given: tuple[str, str] | None = None
        """(GraphCast version, local source) the log's first line says the install took (`LOG_GRAPHCAST_GIVEN`)."""
        self.again: tuple[str, ...] | None = None
        """The words of the `gc-wizard install …` line the install wrote to run it again (`AGAIN_NOTE`, `again_words`)."""
        self.after_fallback: tuple[int, str] | None = None
        """The last raised exception's (position, line) once a JAX CPU-fallback warning may have been printed: the
        failure a run that outlived the warning met (`fallback`, `_outlived_fallback`)."""

    def feed(self, text: str, base: int = 0, overlap: int = 0) -> None:
        lines: _Lines | None = None
        present: dict[str, bool] = {}
        haystack = _anchor_haystack(text)

        def anywhere(anchors: tuple[str, ...]) -> bool:
            return any(present[a] if a in present else present.setdefault(
                a, _anchor_key(a) in haystack if "\n" not in a else a in text) for a in anchors)

        for entry in self.entries:
            count = len(entry.patterns)
            for pattern, anchors, condition, absence in zip(
                    entry.patterns, entry.anchors or (None,) * count, entry.contexts or (None,) * count,
                    entry.absences or (None,) * count, strict=True):
                if anchors is not None and not anywhere(anchors):
                    continue
                for match in pattern.finditer(text):
                    if match.end() <= overlap and overlap:
                        continue  # seen in the previous piece
                    if not _memory_ok(entry, match):
                        continue
                    if lines is None:
                        lines = _Lines(text)
                    if condition is None and absence is None:
                        self._record(self.hits, entry.id, entry, match, base, lines)
                    else:
                        key = (entry.id, condition.pattern if condition is not None else None,
                               absence.pattern if absence is not None else None)
                        self._record(self.conditional, key, entry, match, base, lines)
        for entry in self.entries:  # the conditions met in this piece, wherever their own patterns matched
            pairs = (list(zip(entry.contexts, entry.context_anchors or (None,) * len(entry.contexts), strict=True))
                     + list(zip(entry.absences, entry.absence_anchors or (None,) * len(entry.absences), strict=True)))
            for condition, anchors in pairs:
                if condition is None or condition.pattern in self.met:
                    continue
                if anchors is not None and not anywhere(anchors):
                    continue
                if any((found is None or anywhere(found)) and branch.search(text)
                       for branch, found in _condition_branches(condition.pattern, condition.flags)):
                    self.met.add(condition.pattern)
        if len(self.named_recipes) < _NAMED_KEPT and ("Installing " in text or "/envs/" in text):
            for pattern in LOG_RECIPE:
                for match in pattern.finditer(text):
                    if match.group("id") not in self.named_recipes and len(self.named_recipes) < _NAMED_KEPT:
                        self.named_recipes.append(match.group("id"))
        if self.graphcast_given is None and "; GraphCast v" in text:
            found = LOG_GRAPHCAST_GIVEN.search(text)
            self.graphcast_given = (found.group("version"), found.group("src").rstrip()) if found else None
        if self.again is None and AGAIN_NOTE in text:
            found = _AGAIN_NOTE.search(text)
            self.again = again_words(found.group("line")) if found else None
        if "Memory usage:" in text:
            for match in _MEMORY_USAGE.finditer(text):
                self.gpu_memory = (int(match.group(1)), int(match.group(2)))
        if self.after_fallback is not None or any(word in text for word in fallback.WARNING_WORDS):
            found = fallback.last_exception(text, base)
            if found is not None and (self.after_fallback is None or found[0] > self.after_fallback[0]):
                self.after_fallback = found
            elif self.after_fallback is None:
                self.after_fallback = (-1, "")

    @staticmethod
    def _record(store: dict, key, entry: KnownFailure, match: re.Match, base: int, lines: _Lines) -> None:
        hit = store.get(key)
        if hit is None:
            hit = store[key] = _Hit(entry, base + match.start())
        hit.position = min(hit.position, base + match.start())
        if hit.fallback_only and not fallback.is_warning(lines.whole(match.start(), match.end())):
            hit.fallback_only = False
        for name, value in match.groupdict().items():
            if value is not None and name not in hit.groups:
                # a value the producer wrapped onto the next line (uv's "(>=3.10,\n      <3.14)") reads as one
                hit.groups[name] = re.sub(r"[ \t]*\n\s*", " ", value.strip())
        for offset, line in lines.span(match.start(), match.end()):
            if line in hit.line_positions:
                continue
            if len(hit.evidence) >= _EVIDENCE_KEPT:
                hit.more += 1
                continue
            hit.line_positions[line] = base + offset
            hit.evidence.append(line)

    def result(self) -> dict[str, _Hit]:
        """The hits so far, each a copy (folding them into findings must not change the scan)."""
        merged: dict[str, _Hit] = {}
        met = [hit for (_, condition, absence), hit in self.conditional.items()
               if (condition is None or condition in self.met) and (absence is None or absence not in self.met)]
        for hit in list(self.hits.values()) + met:
            into = merged.get(hit.entry.id)
            if into is None:
                merged[hit.entry.id] = _Hit(hit.entry, hit.position, dict(hit.groups), list(hit.evidence), [],
                                            dict(hit.line_positions), hit.more, hit.fallback_only)
                continue
            into.position = min(into.position, hit.position)
            into.fallback_only = into.fallback_only and hit.fallback_only
            for name, value in hit.groups.items():
                into.groups.setdefault(name, value)
            for line in hit.evidence:
                if line not in into.line_positions:
                    into.line_positions[line] = hit.line_positions[line]
                    into.evidence.append(line)
            into.more += hit.more
        for hit in merged.values():
            # Evidence in log order, whichever pattern found it.
            hit.evidence.sort(key=lambda line: hit.line_positions[line])
        return merged

    def log_recipe(self) -> Recipe | None:
        """The recipe the log says it installed (its first line, or the CLI's "==> Installing RECIPE into", or the
        managed environment's folder `envs/RECIPE-YYYYmmdd-HHMMSS`), when that is a recipe known here; else None."""
        if not self.named_recipes:
            return None
        try:
            recipes = load_recipes()
        except Exception:  # a broken user recipe file must not break a diagnosis: then no recipe is named
            return None
        return next((recipes[name] for name in self.named_recipes if name in recipes), None)

    def findings(self, facts: Facts | None = None, context: causes.Context | None = None) -> list[Finding]:
        """Root cause first, as `diagnose_text` gives them; may be called again with facts."""
        return _findings(self, facts, context)


_MEMORY_USAGE = re.compile(r"Memory usage: ([0-9]+) bytes free, ([0-9]+) bytes total")
#: Where a log names the recipe it installed, most certain first: the install log's first line and the CLI's
#: announcement (`flows.transaction.installing_words`), then a managed environment's folder (logs written before
#: that first line existed: walk 25's). A fix names that recipe and its GraphCast, never a fixed CUDA recipe.
LOG_RECIPE = (
    re.compile(r"^(?:==> |\[gc-wizard\] )Installing (?P<id>[\w.+-]+) into ", re.MULTILINE),
    re.compile(r"/envs/(?P<id>[\w.+-]+?)-[0-9]{8}-[0-9]{6}(?:-[0-9]+)?\b"),
)
_NAMED_KEPT = 8
#: The install log's first line when GraphCast came from a local source (`flows.transaction.installing_words`, then
#: "; GraphCast vX from SRC"): read back so a fix's install line gives that source again.
LOG_GRAPHCAST_GIVEN = re.compile(r"^(?:==> |\[gc-wizard\] )Installing [\w.+-]+ into .*; GraphCast v(?P<version>[\w.+-]+) "
                                 r"from (?P<src>.+)$", re.MULTILINE)
#: A `gc-wizard install RECIPE …` a fix prints, in backticks.
_INSTALL_LINE = re.compile(r"`gc-wizard install (?P<recipe>[\w.+-]+)(?P<rest>[^`]*)`")


def _scan(text: str, entries: tuple[KnownFailure, ...]) -> dict[str, _Hit]:
    scanner = Scanner(entries)
    scanner.feed(text)
    return scanner.result()


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
            root.fallback_only = root.fallback_only and other.fallback_only
            for line in other.evidence:
                if line not in root.evidence:
                    root.evidence.append(line)
            root.more += other.more
            stack.extend(other.entry.explains)
    return [hit for hit in order if hit.entry.id not in absorbed]


# --------------------------------------------------------------------------------------------------
# Facts


def _driver_cuda_major(facts: Facts | None) -> int | None:
    version = facts.driver.cuda_driver_version if facts is not None and facts.driver is not None else None
    try:
        return int(str(version).split(".")[0]) if version else None
    except ValueError:
        return None


def gpu_recipe_for(facts: Facts | None) -> str:
    """The demo notebook's GPU recipe that fits the detected driver's maximum CUDA version (read from the
    recipe files: `wizard.recipes.family.default_recipes`)."""
    return default_recipes(_driver_cuda_major(facts))[0]


def fix_recipes(facts: Facts | None, context: causes.Context | None = None, ran: Recipe | None = None
                ) -> tuple[str, str]:
    """(GPU recipe, CPU recipe) a fix names as `{recipe}` and `{cpu_recipe}`: of the family of the recipe
    the environment was installed from (its marker, `context.recipe`, or the one the log names, `ran`) when known —
    a GraphCast v0.2 stack that fell back to the CPU is pointed at `jax0.10.2-cpu`, not at the 0.4.23 recipes —
    else the 0.4.23 ones; the GPU one fits the detected driver's CUDA version.

    The recipe the log ran is named itself where it fits: a CPU recipe's failure on a machine with no driver known
    says "rerun `gc-wizard install jax0.4.23-cpu`", never a CUDA recipe (walk 25 #3), and a GPU recipe is named
    unless the detected driver is too old for it."""
    major = _driver_cuda_major(facts)
    gpu, cpu = default_recipes(major)
    installed = getattr(context, "recipe", None) or (ran.id if ran is not None else None)
    if installed:
        family_gpu, family_cpu = family_recipes(installed, major)
        gpu, cpu = family_gpu or gpu, family_cpu or cpu
    if ran is not None and ran.backend == "cpu":
        cpu = ran.id
        if getattr(facts, "driver", None) is None:
            gpu = ran.id
    elif ran is not None and (major is None or (ran.machine.cuda_major or 0) <= major):
        gpu = ran.id
    return gpu, cpu


#: The findings whose cause may be the GraphCast source itself: their install lines never give it again.
_SOURCE_AT_FAULT = frozenset({"wrong_graphcast_package"})


def with_given_graphcast(text: str, given: tuple[str, str] | None, finding_id: str = "") -> str:
    """`text` (a fix) with `--graphcast-src SRC` (shell-quoted) added to each `gc-wizard install RECIPE` line whose
    recipe installs the GraphCast version `given` (version, source) holds; `text` unchanged without `given`, and
    a line that already names a source or a bundle is left as it is, and so is a finding that blames the source
    (`_SOURCE_AT_FAULT`).

    Why the one place: walk 27 (rerun lines) — a run from a local checkout (`--graphcast-src DIR`, for a server without GitHub)
    was told to rerun `gc-wizard install jax0.4.23-cpu`, which fetches GraphCast from GitHub and fails there. Every
    fix the catalogue, the install's check and `diagnose` print passes through here. A `verify` line needs no source:
    the environment holds the GraphCast it was installed with.

    The source comes from a log or an environment's record, neither of them trusted (31st hostile pass (part A) P3:
    a pasted log's `git+https://evil.example/…` became the fix's source): it is given again only as
    `log_values.source_refusal` allows (a local path here that passes the swap rule), left out when it is the
    recipe's own; else the line says `--graphcast-src DIR` and the source named is quoted once as not used."""
    if given is None or "gc-wizard install " not in text or finding_id in _SOURCE_AT_FAULT:
        return text

    version, source = given
    try:
        recipes = load_recipes()
    except Exception:  # a broken user recipe file must not break a diagnosis: then the lines stay as they are
        return text
    refused: list[str | None] = []  # judged once, at the first line that would carry the source
    said: list[bool] = []

    def add(match: re.Match) -> str:
        recipe = recipes.get(match.group("recipe"))
        rest = match.group("rest")
        if recipe is None or recipe.graphcast.version != version or "--graphcast-src" in rest or "--bundle" in rest:
            return match.group(0)
        if log_values.recipes_own(source, recipe):
            return match.group(0)
        if not refused:
            refused.append(log_values.source_refusal(source))
        if refused[0] is None:
            return f"`gc-wizard install {match.group('recipe')}{rest} --graphcast-src {shell_word(source)}`"
        line = f"`gc-wizard install {match.group('recipe')}{rest} --graphcast-src {log_values.PLACEHOLDER}`"
        if said:
            return line
        said.append(True)
        return (f"{line} ({log_values.PLACEHOLDER}: a GraphCast checkout or wheel of your own; the source the run "
                f"named, {log_values.shown(source)}, is not given again: {refused[0]})")

    return _INSTALL_LINE.sub(add, text)


def recipe_stack(recipe_id: str) -> dict[str, str]:
    """{"recipe_jax": its jax pin, "recipe_graphcast": its GraphCast version} for the recipe a fix names (empty when
    it is not a known recipe): a fix quotes the stack it names, never the 0.4.23/v0.1.1 one for a GraphCast v0.2
    environment (walk 26 #4)."""
    try:
        recipe = load_recipes().get(recipe_id)
    except Exception:  # a broken user recipe file must not break a diagnosis: then no versions are quoted
        return {}
    if recipe is None:
        return {}
    out = {"recipe_graphcast": recipe.graphcast.version}
    if recipe.pins.get("jax"):
        out["recipe_jax"] = recipe.pins["jax"]
    return out


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


#: A part of a text that is said only when the log gave every value it names: `[[(release {needed})]]`.
_OPTIONAL = re.compile(r"\[\[(.*?)\]\]", re.DOTALL)


def _render(template: str, values: dict[str, str]) -> str:
    """Fills {name}s from the match; a `[[…]]` part is dropped when a name in it has no value (the log did not
    say), so a wording never reads "release unknown"."""
    def optional(part: re.Match) -> str:
        names = re.findall(r"{(\w+)}", part.group(1))
        return part.group(1) if all(values.get(name) for name in names) else ""

    text = _OPTIONAL.sub(optional, template)
    return re.sub(r" +([,.;:)])", r"\1", re.sub(r"  +", " ", text.format_map(_Values(values))))


def _reach_fix(evidence: list[str], ran: Recipe | None = None) -> str | None:
    """For an unreachable host: which host and the local source that replaces it (wizard/install/reach.py,
    the same advice the installer itself prints), or None when the lines name no host. `ran`: the recipe the log
    names, whose GraphCast version the advice gives (none: "the recipe's version", walk 25 #2)."""
    hosts = find_unreachable("\n".join(evidence))
    return advice_for(hosts, ran) if hosts else None


#: Fixes computed from a finding's evidence where the knowledge file's text cannot be specific enough.
_FIX_FROM_EVIDENCE = {"host_unreachable": _reach_fix}
#: The same, as a template whose {names} are filled as the knowledge file's are (a noexec mount that is not TMPDIR's).
_TEMPLATE_FROM_EVIDENCE = {"noexec_mount": noexec_place_fix}


#: The findings of an installer that found no solution or no file for a pin, which the user's own installer settings
#: can cause (`resolution_settings.SETTINGS`: UV_EXCLUDE_NEWER hides files, UV_RESOLUTION=lowest picks other versions,
#: *_REQUIRE_HASHES …); their fix names the ones set here.
_RESOLVER_FINDINGS = frozenset({"resolver_conflict", "jaxlib_wheel_unavailable"})
#: Which installer said the lines (pip's resolver words, then uv's); a log of poetry, conda or pixi is neither.
_INSTALLER_WORDS = (
    ("pip", re.compile(r"ResolutionImpossible|conflicting dependencies|The conflict is caused by|Could not find a "
                       r"version that satisfies|No matching distribution found|is not a supported wheel")),
    ("uv", re.compile(r"No solution found when resolving dependencies|we can conclude that|there is no version of|"
                      r"has no wheels with a matching|conflicting URLs|only has wheels|can't be installed because")),
)


def _settings_advice(finding_id: str, evidence: list[str]) -> str | None:
    """For a resolver's failure, the user's installer settings that may cause it, as the failed install step names
    them (`resolution_settings.resolution_advice`, the one reader): None when none is set, or the lines are no
    resolver's of uv or pip. Why: `diagnose LOG` of a failure under UV_EXCLUDE_NEWER or UV_RESOLUTION=lowest only
    said to install a recipe, which failed the same way (fixers' leftover: diagnose LOG and resolution settings)."""
    if finding_id not in _RESOLVER_FINDINGS:
        return None
    said = "\n".join(evidence)
    installer = next((name for name, words in _INSTALLER_WORDS if words.search(said)), None)
    return resolution_advice(installer, said, os.environ) if installer else None


def _finding(hit: _Hit, facts: Facts | None, causes: tuple[dict[str, str], ...] = (),
             context: causes.Context | None = None, ran: Recipe | None = None,
             given: tuple[str, str] | None = None) -> Finding:
    entry = hit.entry
    values = dict(hit.groups)
    values["recipe"], values["cpu_recipe"] = fix_recipes(facts, context, ran)
    values.update(recipe_stack(values["recipe"]))
    if "minimum" in values or "built" in values:
        values.setdefault("needed", values.get("minimum") or values["built"])
    dirs = shadowing_dirs(facts, entry.libraries)
    fix = entry.fix
    provider = _FIX_FROM_EVIDENCE.get(entry.id)
    specific = provider(hit.evidence, ran) if provider else None
    if specific:
        fix = specific.replace("{", "{{").replace("}", "}}")
    template = _TEMPLATE_FROM_EVIDENCE.get(entry.id)
    made = template(hit.evidence) if template else None
    if made:
        fix = made
    if dirs and entry.fix_with_dirs:
        values["dirs"] = ", ".join(dirs)
        fix = entry.fix_with_dirs
    evidence = hit.evidence[:_EVIDENCE_LINES]
    extra = len(hit.evidence) - len(evidence) + hit.more
    if extra > 0:
        evidence.append(f"… and {extra} more matching lines")
    # A value the log gave enters a command of the fix only when a shell would take it as it is (31st hostile pass
    # (part A) P3): else the fix reads as if the log had not said it (a `[[…]]` part that names it is left out).
    fix_values = {name: value for name, value in values.items()
                  if hit.groups.get(name) != value or log_values.may_fill(fix, name, value)}
    explanation = _render(entry.explanation, values)
    if causes:
        ranked = "; ".join(f"{n}) {c['title']}: {c['why']}" for n, c in enumerate(causes, 1))
        explanation += f" What is known about this machine ranks the likely causes: {ranked}."
    fix = with_given_graphcast(_render(fix, fix_values), given, entry.id)
    settings = _settings_advice(entry.id, hit.evidence)
    return Finding(
        id=entry.id, title=entry.title, explanation=explanation,
        fix=f"{settings} {fix}" if settings else fix, evidence=tuple(evidence), explains=tuple(hit.explains),
        priority=entry.priority, causes=causes,
    )


def _outlived_fallback(ordered: list[_Hit], hits: dict[str, _Hit], after: tuple[int, str] | None) -> list[_Hit]:
    """`ordered` without the findings that are only JAX's CPU-fallback warning when the run went on past it and then
    raised an exception no finding explains and no fallback causes (`fallback.unrelated`): that exception is the
    failure, not the warning (batch 95, mujoco_1442: Brax's "Only euler integration is supported." after "Falling
    back to cpu")."""
    if after is None or after[0] < 0 or not fallback.unrelated(after[1]):
        return ordered
    position = after[0]
    if any(position in hit.line_positions.values() for hit in hits.values()):
        return ordered

    def outlived(hit: _Hit) -> bool:
        return hit.fallback_only and bool(hit.line_positions) and max(hit.line_positions.values()) < position

    return [hit for hit in ordered if not outlived(hit)]


def _findings(scanner: Scanner, facts: Facts | None, context: causes.Context | None) -> list[Finding]:
    hits = scanner.result()
    ordered = _outlived_fallback(_fold(scanner.result()), hits, scanner.after_fallback)
    ran = scanner.log_recipe() if ordered else None
    given = (context.graphcast_given if context is not None else None) or scanner.graphcast_given
    out = []
    for index, hit in enumerate(ordered):
        ranked: tuple[dict[str, str], ...] = ()
        known = facts is not None or context is not None or scanner.gpu_memory is not None
        if index == 0 and hit.entry.symptom and known:
            ctx = causes.Context.merge(context, facts, scanner.gpu_memory)
            # Each cause's command as a new shell runs it (walk 33 #4: `gc-wizard verify --env DIR --slurm`).
            ranked = tuple({key: paths.runnable(value) for key, value in cause.items()}
                           for cause in causes.rank(hit.entry.id, ctx))
        out.append(_finding(hit, facts, ranked, context, ran, given))
    return out


def diagnose_text(text: str, facts: Facts | None = None, *,
                  known_failures: tuple[KnownFailure, ...] | None = None,
                  context: causes.Context | None = None) -> list[Finding]:
    """Every known failure in `text`, root cause first; an empty list for a clean log.

    When the first finding is only a symptom, `facts` (this machine) and `context` (an inspected
    environment) rank its possible causes into the finding (`Finding.causes`).
    """
    entries = known_failures if known_failures is not None else load_known_failures()
    scanner = Scanner(entries)
    scanner.feed(clean_log_text(text))
    return _findings(scanner, facts, context)


#: How much of a big log is scanned at a time, and how many of the previous piece's lines each piece
#: repeats (the longest multi-line pattern spans fewer).
CHUNK_CHARS = 4 * 1024 * 1024
OVERLAP_LINES = 40
#: Characters of a line's start, and of its end, that are scanned; the middle of a longer line is read past, not
#: scanned. Why: the scan's cost grows with the length of a line, not only with the bytes (its anchors and patterns run
#: over a line that no repeated-line shortcut shrinks), so one 50 MB line of `a` in a 49 KB gzip took 128 s and a
#: 1.5 GB line in a 6.5 MB gzip ran past 200 s (24th hostile pass (part A) P2). No error line is that long: the
#: messages the catalogue knows fit in a few hundred characters, and a progress bar that never ends its line keeps
#: its last state at its end.
LINE_KEPT = 64 * 1024


class LineCuts:
    """The overlong lines of a log, cut by `capped_blocks` to their first and last `LINE_KEPT` characters: how many,
    and the longest, for the sentence that says so (`sentence`)."""

    def __init__(self) -> None:
        self.count = 0
        self.longest = 0

    def note(self, length: int) -> None:
        self.count += 1
        self.longest = max(self.longest, length)

    def sentence(self, name: str) -> str | None:
        """Why part of `name` was not scanned, or None: no line was cut."""
        if not self.count:
            return None
        lines = (f"a line of {self.longest:,} characters, longer than any log line," if self.count == 1 else
                 f"{self.count:,} lines longer than any log line (the longest {self.longest:,} characters)")
        return (f"{name} has {lines} so gc-wizard "
                f"scanned only the first and last {LINE_KEPT // 1024} KB of {'it' if self.count == 1 else 'each'} "
                "and read past the middle")


def capped_blocks(handle: IO[str], cuts: LineCuts) -> Iterator[str]:
    """The stream's text, `CHUNK_CHARS` read at a time, with every line longer than twice `LINE_KEPT` cut to its first
    and last `LINE_KEPT` characters (as two lines, so no pattern matches across the cut); never an empty block. A
    line ends at "\n" or "\r", as `clean_log_text` reads it: a progress bar's carriage returns end its lines too.

    Work is linear in the characters read: each is looked at once by the search for a line end and copied at most once, and only a
    bounded end of the part read past is kept (24th hostile pass (part A) P2)."""
    column = 0  # characters of the current line so far
    tail = ""  # the last LINE_KEPT characters past the line's first LINE_KEPT
    past = 0  # characters past the line's first LINE_KEPT
    while True:
        block = handle.read(CHUNK_CHARS)
        if not block:
            if past > LINE_KEPT:  # the log ends inside an overlong line
                cuts.note(column)
                yield "\n" + tail
            elif tail:
                yield tail
            return
        out: list[str] = []
        start = 0
        # The next "\n" and "\r", each searched for again only once passed: a search from every line's start for a
        # character the block holds none of would read the rest of the block each time (a regex for either is
        # ten times slower than `str.find`).
        ahead = {"\n": -2, "\r": -2}
        while start < len(block):
            if not column:  # at a line's start: the lines that end within twice LINE_KEPT are whole, taken at once
                window = start + 2 * LINE_KEPT + 1
                whole = max(block.rfind("\n", start, window), block.rfind("\r", start, window))
                if whole >= start:
                    out.append(block[start:whole + 1])
                    start = whole + 1
                    continue
            for char, at in ahead.items():
                if at != -1 and at < start:
                    ahead[char] = block.find(char, start)
            found = [at for at in ahead.values() if at != -1]
            newline = min(found) if found else -1
            stop = len(block) if newline == -1 else newline
            room = max(0, LINE_KEPT - column)
            if room:
                out.append(block[start:min(stop, start + room)])
            if stop - start > room:
                rest = block[start + room:stop]
                tail = (tail + rest[-LINE_KEPT:])[-LINE_KEPT:]
                past += len(rest)
            column += stop - start
            if newline == -1:
                break
            if past > LINE_KEPT:
                cuts.note(column)
                out.append("\n")
            out.append(tail)
            out.append(block[newline])
            column, tail, past = 0, "", 0
            start = newline + 1
        text = "".join(out)
        if text:
            yield text


def diagnose_stream(handle: IO[str], facts: Facts | None = None, *,
                    known_failures: tuple[KnownFailure, ...] | None = None,
                    context: causes.Context | None = None,
                    tail: LogTail | collections.deque | None = None) -> list[Finding]:
    """Like `diagnose_text` for a text stream of any size: read in pieces, memory bounded by CHUNK_CHARS.

    `tail`, when given, receives the log's last lines (its maxlen bounds them), for `unrecognised`.
    """
    entries = known_failures if known_failures is not None else load_known_failures()
    return scan_stream(handle, known_failures=entries, tail=tail).findings(facts, context)


class LogTail:
    """The last lines of a log, bounded in characters as well as in lines: each line kept is cut to
    `line_chars` (a "line" of a binary file or an endless progress bar is gigabytes), so memory stays
    under `lines` x `line_chars` whatever the input (a `collections.deque(maxlen=...)` counted only
    lines, and held up to 400 pieces of 4 Mi characters each). Has the deque's `maxlen`, `extend` and
    iteration, which `scan_stream` and `summarise` use."""

    def __init__(self, lines: int = 400, line_chars: int = 2000) -> None:
        self.maxlen = lines
        self.line_chars = line_chars
        self._lines: collections.deque[str] = collections.deque(maxlen=lines)

    def extend(self, lines: Iterable[str]) -> None:
        for line in lines:
            if len(line) > self.line_chars:
                end = "\n" if line.endswith("\n") else ""
                line = cut(line, self.line_chars) + end
            self._lines.append(line)

    def __iter__(self) -> Iterator[str]:
        return iter(self._lines)

    def __len__(self) -> int:
        return len(self._lines)


def _last_lines(text: str, count: int) -> str:
    """The last `count` lines of `text` (a slice found from the end: no split of a big piece)."""
    position = len(text)
    for _ in range(count):
        position = text.rfind("\n", 0, max(0, position - 1) if position == len(text) else position)
        if position < 0:
            return text
    return text[position + 1:]


def scan_stream(handle: IO[str], *, known_failures: tuple[KnownFailure, ...] | None = None,
                tail: LogTail | collections.deque | None = None) -> Scanner:
    """Scans a text stream of any size in pieces; `Scanner.findings()` then gives the findings.

    Pieces are read by size (CHUNK_CHARS) and cut at their last line end, so memory stays bounded even
    for a "line" of gigabytes (a binary file, a progress bar that never ends its line): such a line is
    cut where the piece ends. `tail`, when given, receives the log's last lines (its maxlen bounds them).
    """
    scanner = Scanner(known_failures if known_failures is not None else load_known_failures())
    carried = ""
    pending = ""
    base = 0
    blocks = capped_blocks(handle, scanner.cuts)  # an overlong line cut, and said (24th hostile pass (part A) P2)
    while True:
        block = next(blocks, "")
        data = pending + block
        if not data:
            break
        cut = data.rfind("\n")
        if block and cut == -1 and len(data) < CHUNK_CHARS:
            pending = data  # a short unfinished line: wait for its end
            continue
        if not block or cut == -1:
            piece_raw, pending = data, ""
        else:
            piece_raw, pending = data[: cut + 1], data[cut + 1:]
        if tail is not None:
            tail.extend(_last_lines(piece_raw, tail.maxlen or OVERLAP_LINES).splitlines(keepends=True))
        piece = clean_log_text(carried + piece_raw)
        overlap = len(clean_log_text(carried)) if carried else 0
        scanner.feed(piece, base=base - overlap, overlap=overlap)
        base += len(piece) - overlap
        carried = _last_lines(piece_raw, OVERLAP_LINES)
        if not block:
            break
    return scanner


def diagnose_file(path: str | Path, facts: Facts | None = None, **kwargs: Any) -> list[Finding]:
    """`diagnose_stream` over a file (undecodable bytes replaced, any newline convention)."""
    with open(path, encoding="utf-8", errors="replace", newline=None) as handle:
        return diagnose_stream(handle, facts, **kwargs)


# --------------------------------------------------------------------------------------------------
# When nothing is recognised

#: glog error lines that clean runs print too: the CUDA libraries' double factory registration (TensorFlow beside
#: JAX), and XLA's autotuning timer saying its delay kernel timed out (xla/stream_executor/cuda/cuda_timer.cc: only
#: the timing's accuracy suffers, the program goes on), and XLA's convolution autotuner comparing cuDNN algorithms
#: (buffer_comparator.cc, gpu_conv_algorithm_picker.cc), which logs each differing element and the mismatch at ERROR
#: level, then picks another algorithm and runs on (clean_dreamax_1_cudnn_heuristics_results_mismatch.log, batch 58),
#: and a forked worker's failed device count (_WORKER_DEVICE_COUNT), and the cuDNN frontend declining a convolution
#: (cuda_dnn.cc and XLA's convolution rewriter: LOG(ERROR) "Disabling cuDNN frontend for the following convolution:",
#: its descriptors, "... because <reason>"): the convolution runs on cuDNN's legacy API and the output is right
#: (clean_jax_9460_disabling_cudnn_frontend_output_correct.log, batch 65).
#: A CUDA status line that clean runs print: TensorFlow's (and XLA's) device count read in a process forked after CUDA
#: was initialised, or before cuInit, fails with CUDA_ERROR_NOT_INITIALIZED and is logged at ERROR level, while the
#: process that owns the GPU runs on (DeepVariant's GPU image prints it once per worker and finishes its calls:
#: deepvariant_722_gpu_cuda_not_initialized_finished.log, batch 60). A GPU that is really unusable says so in other lines.
_WORKER_DEVICE_COUNT = r"could not retrieve CUDA device count: CUDA_ERROR_NOT_INITIALIZED"
_GLOG_NOISE = (r"Unable to register cu\w+ factory|Delay kernel timed out|Difference at [0-9]+: "
               r"|Results mismatch between different convolution algorithms"
               r"|Disabling cuDNN frontend for the following convolution"
               # TensorFlow's/XLA's NUMA look-up for the GPU's PCI device (stream_executor cuda_gpu_executor.cc
               # TryToReadNumaNode): logged at ERROR level where sysfs has no numa_node file (WSL2, some VMs and
               # kernels), the node then taken as zero and the GPU used (clean_nvdocker_1410, batch 101)
               r"|could not open file to read NUMA node: |successful NUMA node read from SysFS had negative value"
               r"|" + _WORKER_DEVICE_COUNT)
#: CUDA status lines ("CUDA_ERROR_X: …") that are no failure: a zero-byte allocation's, a forked worker's device count.
_CUDA_STATUS_NOISE = r"failed to allocate 0B|" + _WORKER_DEVICE_COUNT
#: glog lines of a source file whose every line is a clean run's noise: XLA's slow-operation alarm
#: (xla/service/slow_operation_alarm.cc logs at ERROR level when constant folding or a compile "is taking > Ns" and
#: then "The operation took Ns"; the program goes on, only its compile is slow).
_GLOG_NOISE_FILE = r"(?![^\n]*\bslow_operation_alarm\.cc:[0-9]+\])"

#: pip's notice after an install that went through (pip/_internal/commands/install.py, _warn_about_conflicts and the
#: 2020 resolver banner): logged at ERROR level, but the packages are installed and the run goes on; what the
#: conflict breaks, if anything, fails later in its own words (clean_interpax_20_pip_resolver_notice_jax_cuda_installed.log,
#: batch 64).
_PIP_CONFLICT_NOTICE = (r"\s*pip's (?:legacy )?dependency resolver does not (?:currently take into account all the packages|"
                        r"consider dependency conflicts)|\s*After October 2020 you may experience errors")

#: The HDF5 calls whose failure netCDF-C expects and handles, so that HDF5's error stack for them (printed whenever
#: the library's automatic error printing is on, as netCDF4's 1.6+ wheels leave it) is a working run's notice: the
#: look-up of an optional attribute (libhdf5/hdf5open.c reads _NCProperties, _Netcdf4Coordinates, _Netcdf4Dimid and
#: the _QuantizeBitGroom/_QuantizeGranularBitRound/_QuantizeBitRound… attributes only where a file has them; H5Aopen,
#: H5Aopen_by_name, H5Aopen_name, H5Aopen_by_idx and their internal frames H5VL(_)attr_open, H5VL__native_attr_open,
#: H5A(_)_open_by_name, H5O(_)_attr_open_by_name, at any HDF5 1.8-1.14 numbering) and the unregistering of its file
#: drivers at exit (nc4_hdf5_finalize's H5FDunregister, "not a file driver" under HDF5 1.14). A stack of any other
#: call stays a failing line, and whatever the program says after a stack (netCDF's "NetCDF: HDF error", h5py's
#: OSError) fails as before (clean_xarray_7549, clean_netcdfc_3003, batch 105).
_HDF5_PROBE_CALL = (r"(?:H5Aopen(?:_by_name|_name|_by_idx|_idx)?|H5VL_{1,2}(?:native_)?attr_open|H5A_{1,2}open_by_name"
                    r"|H5O_{1,2}attr_open_by_name|H5FDunregister)")

#: paxml's checkpoint notice (paxml/checkpoints.py, restoring a checkpoint of version > 1.0 without the caller's
#: `train_state_unpadded_shape_dtype_struct`): logged by absl at ERROR level ("ERROR:absl:For checkpoint version > 1.0,
#: we require users to provide …") beside its WARNING "… is not provided. We assume `train_state` is unpadded.", and the
#: restore goes on with that assumption: TimesFM's maintainers checked that loading and inference work
#: (timesfm_41_absl_error_unpadded_shape_inference_works.log, batch 106, held out; fixed after its score).
_PAXML_UNPADDED_NOTICE = r"absl:\s*For checkpoint version > [0-9.]+, we require users to provide\b"

#: A line that says a run failed, in every shape it comes in: an exception name at the start of a line or after
#: a prose, log-level, traceback or quoting prefix ("… failed with ValueError: …", "`TypeError: …`", loguru's
#: "| ERROR |", JAX's "JaxStackTraceBeforeTransformation: NotImplementedError"), exception classes not named
#: *Error (`zipfile.BadZipFile`, pip's resolver's `ResolutionImpossible`), an absl/XLA status at the start of a line
#: ("INTERNAL: …", also quoted in markdown), a CUDA driver status with its message or number ("CUDA_ERROR_X: an …", OpenMM's "CUDA_ERROR_X (100)";
#: cuGetErrorString's messages that open with a capital, "OS call failed …" (304), "CUDA-capable device(s) is/are busy
#: …" (46), "PTX JIT compiler library not found" (221), as FFmpeg's "cu->cuInit(0) failed -> NAME: …" prints them,
#: libc6shim_13, batch 107), glog's fatal and
#: "Check failed" lines, a C++ exception's `what():` line, CUDA's status words, a tool's "NAME: … error:" (docker,
#: nvidia-container-cli) and a container runtime's hook refusal quoted inside docker's own line (or docker's inside another
#: program's line), a CDI device no specification defines, nvidia-smi without NVML, a prose "Runtime error:" / "Fatal Python error:", a resolver's "Because … depends on …"
#: derivation (poetry, uv), HDF5's error stack (with or without its header line), a field of NaNs, the bare error prefixes of pip, uv, git and docker,
#: a module system's refusal of a `module load`, and a CI runner's error annotation (`##[error]`, `::error::`). A warning
#: is never one; nor is glog's "E…" line by itself, which clean runs print too.
_EXCEPTION_LINE = re.compile(
    r"^\s*(?:[\w.]+\.)?(?:[A-Z]\w*(?:Error|Exception|Exit)|Traceback|Segmentation fault|Illegal instruction|Aborted|"
    r"F[0-9]{4} [0-9:.]+ +[0-9]+ [\w.]+:[0-9]+\]|ERROR:(?!" + _PIP_CONFLICT_NOTICE + r"|" + _PAXML_UNPADDED_NOTICE + r")|error:|Error(?: response from daemon)?:|fatal:|"
    r"##\[error\]|::error::)"
    r"(?:\b|\s).*$"
    # a pasted exception may open with a typographic quote ("This raises `”KeyError: …", xugrid_78, batch 71)
    r"|^[^\n]*?(?:^|[ \t|>\]:(`'\"*“”‘’])(?:[\w.]+\.)?(?:[A-Z]\w*(?:Error|Exception)|BadZipFile|ResolutionImpossible|"
    r"RequirementsConflicted|"
    r"JaxStackTraceBeforeTransformation|KeyboardInterrupt):(?:[ \t][^\n]*)?$"
    # a class raised from a library's `exceptions` module whatever its name (google.api_core's Unauthorized, Forbidden)
    r"|^[^\n]*?(?:^|[ \t|>\]:(`'\"*])[\w.]*\bexceptions\.[A-Z]\w*:(?:[ \t][^\n]*)?$"
    r"|^[\s`'\"*>]*(?:INTERNAL|UNKNOWN|RESOURCE_EXHAUSTED|UNIMPLEMENTED|FAILED_PRECONDITION|NOT_FOUND|INVALID_ARGUMENT|"
    r"UNAVAILABLE|ABORTED|DATA_LOSS|OUT_OF_RANGE|PERMISSION_DENIED|DEADLINE_EXCEEDED): .*$"
    r"|^.*\bCheck failed: .*$"
    r"|^(?!.*(?:" + _CUDA_STATUS_NOISE + r")).*\bCUDA_ERROR_[A-Z_]{4,}(?:: [a-zA-Z]| \([0-9]+\)).*$"
    r"|^[\s`'\"*>]*(?!No\b)(?:[A-Z][\w-]*\s){1,3}[Ee]rror:\s(?![-+]?\.?[0-9]).*$"
    r"|^\s*(?:\([0-9]+\) )?(?:So, b|And b|B)ecause [^\n]*\b(?:depends on|requires|match(?:es)?)\b.*$"
    r"|^.*\b(?:CUDA [Ee]rror:? |[Ff]ailed call to cu\w+: (?:CUDA_ERROR_|UNKNOWN ERROR)|cuda runtime error \([0-9]+\)|NCCL WARN ).*$"
    # (HDF5's stack header "HDF5-DIAG: Error detected in HDF5 …" has its own line below, by the call that failed)
    r"|^[\s`'\"*>]*(?!HDF5-DIAG: )[\w./-]+: (?:[\w ]{0,30} )?[Ee]rror(?: response)?\b[: ].*$"
    r"|^.*\b(?:NVIDIA-SMI has failed|NVIDIA-SMI couldn't find libnvidia-ml|Failed to initialize NVML|"
    r"terminate called after throwing|what\(\):\s+\S|"
    # docker's refusal quoted after another program's prefix (a kubelet event: "… with error: Error response from
    # daemon: {…}") and a container engine's CDI injection failure after a comment or prose prefix (batch 79)
    r"Error response from daemon: |unresolvable CDI devices |"
    r"Result = FAIL|"
    # nccl-tests' CUDACHECK/NCCLCHECK/TESTCHECK (src/common.h): "HOST: Test CUDA failure common.cu:1304 '…'", "HOST: Test
    # NCCL failure common.cu:777 '…'", " .. HOST pid N: Test failure common.cu:925" (nccltests_369, batch 84, looked clean)
    r"Test (?:CUDA|NCCL) failure [\w./-]+:[0-9]+|: Test failure [\w./-]+:[0-9]+|"
    # XLA's refusal of a flag it does not define in XLA_FLAGS (xla/parse_flags_from_env.cc, LOG(QFATAL) "Unknown flags
    # in XLA_FLAGS: --flag …", TensorFlow's copy adding "Perhaps you meant to specify these on the TF_XLA_FLAGS
    # envvar?"; also for TF_XLA_FLAGS): the process exits there (proteinfer_87, batch 106, held out: looked clean)
    r"Unknown flags? in (?:TF_)?XLA_FLAGS: |"
    r"Cuda failure|Could not create cudnn handle|set to ERROR in coordination service|Unable to initialize backend '(?:cuda|gpu)'|Execution of replica [0-9]+ failed|"
    # XLA's failure of a custom call (jaxlib's cuSOLVER/cuBLAS kernels before the FFI: "CustomCall failed:
    # jaxlib/cusolver_kernels.cc:44: operation cusolverDnCreate(&handle) failed: …"), cut short or not (batch 81)
    r"CustomCall failed: |"
    r"Could not load library|Unable to load any of|returned non-zero exit status|failed with return code|"
    r"error running hook|OCI runtime (?:create )?(?:error|failed)|requirement error: unsatisfied|"
    r"Error (?:at|processing|loading|while)\b|CUDA out of memory|RESOURCE_EXHAUSTED|Resource exhausted|"
    r"Out of memory: Kill(?:ed)? process|CUDA initialization: Unexpected error|Error [0-9]{2,3}: [a-z]|"
    # XLA:TPU's compiler refusing a program that does not fit (batch 76: its memory report, cut short, looked clean)
    r"Compilation failure: |Exceeded (?:hbm|vmem) capacity by ).*$"
    r"|^.*[\"'`](?:ERROR|error): .*$"
    # ecCodes' concept look-up when a key is set (cfgrib's to_grib writing a variable with no GRIB concept: "concept:
    # no match for cfName=unknown", "concept: input handle edition=2, centre=ecmf") is logged at ERROR level while the
    # message is written anyway (clean_cfgrib_317_eccodes_error_concept_output_fine.log, batch 63); the rest of the same
    # notice (grib_accessor_class_concept print_user_friendly_message: "concept: input handle dataset=…", the hint
    # "Please check the Parameter Database '…'" for a shortName or a paramId, "The paramId value should be an
    # integer. …") is that notice too (clean_aqua_2336, batch 97): the caller's own failure, when the set fails,
    # comes after it ("grib_set_values[0] … failed", "Concept no match", ConceptNoMatchError); other ecCodes errors fail
    # ecCodes' generic pack_bytes refusing a padding key of another length ("pack_bytes: Wrong size (20) for
    # section2Padding. It is 0 bytes long", grib_accessor_gen pack_bytes) is logged at ERROR level while DWD's ICON
    # files are read and written on (clean_openmeteo_555, batch 83); the same refusal for any other key stays one
    r"|^(?!.*\bECCODES ERROR\s*:\s*(?:concept: (?:no match for|input handle)\b|Please check the Parameter "
    r"Database '[^'\n]*'\s*$|The paramId value should be an integer\.|"
    r"pack_bytes: Wrong size \([0-9]+\) for \w*[Pp]adding\w*\. It is [0-9]+ bytes long))"
    r".*\bECCODES ERROR\b.*$"
    # a write the system refused, in any program's words: strerror(EDQUOT) or strerror(ENOSPC) after its "WHAT: "
    # prefix (bash's here-document, cp, tar, git; Go programs in lower case) or Ruby's errno class
    r"|^.*(?:: (?:[Dd]isk quota exceeded|[Nn]o space left on device)\b|\bErrno::(?:EDQUOT|ENOSPC)\b).*$"
    # the module system's refusal of a `module load`: Lmod's prefix, Environment Modules' words (its ERROR: lines and
    # "ModuleCmd_Load.c(213):ERROR:105: …" carry no exception name at a line's start)
    # kmod's refusals (modprobe, insmod: "modprobe: ERROR: could not insert 'nvidia': No such device", "modprobe: FATAL:
    # Module nvidia not found"), upper-case after the program's name (batch 79)
    r"|^[\s`'\"*>]*(?:modprobe|insmod|rmmod|depmod): (?:ERROR|FATAL): .*$"
    # Apptainer's and Singularity's fatal level (sylog: "FATAL:   container creation failed: …", "FATAL:   While
    # executing nvidia-container-cli: …"), a bare upper-case level at the line's start (batch 86 producers' pass)
    r"|^[\s`'\"*>]*FATAL: +\S.*$"
    # Singularity 2.x's error and abort levels (src/util/message.c: the level padded to seven, "ERROR  : …", "ABORT  :
    # Retval = 255", or under -d "ERROR   [U=1000,P=42]   func()   …"), and Apptainer's/SingularityCE's debug header for
    # its own levels (singularity_1548, batch 101, looked clean)
    r"|^[\s`'\"*>]*(?:ERROR|ABORT) {1,2}: +\S.*$"
    r"|^[\s`'\"*>]*(?:ERROR|ABORT|FATAL) +\[U=[0-9]+,P=[0-9]+\].*$"
    # cuda-gdb giving up on the GPU side of a debug session (the debugger back-end the driver ships, libcudadebugger,
    # absent where the program runs, as in a container whose --nv list lacks it; the Debugger API's own refusal):
    # "Could not find CUDA Debugger back-end. …", "The CUDA Debugger API failed with error …", "[CUDA Debugging is
    # disabled]" (apptainer_2261, batch 101, looked clean)
    r"|^.*\b(?:Could not find CUDA Debugger back-end|The CUDA Debugger API failed with error)\b.*$"
    r"|^.*\[CUDA Debugging is disabled\].*$"
    r"|^.*\b(?:Lmod has detected the following error:|Unable to locate a modulefile for |ModuleCmd_\w+\.c\([0-9]+\):ERROR:[0-9]+:).*$"
    # glibc's loader giving up on a program or library (elf/rtld.c, dl-lookup.c, dl-reloc.c: "PROG: error while loading
    # shared libraries: …", "PROG: symbol lookup error: …", "PROG: relocation error: …") wherever the paste puts it
    # (paddleseg_3215_cuda111_cublas_rungemmshortapi_not_defined.log, in parentheses, looked clean before batch 72)
    r"|^.*\b(?:error while loading shared libraries|symbol lookup error|relocation error): .*$"
    # (JAX's INFO notice of a platform other than the GPU it could not start, "Unable to initialize backend 'tpu':
    # module 'jaxlib.xla_extension' has no attribute 'get_tpu_client'" (jax/_src/xla_bridge.py logs it with
    # logger.info), is none of these in any logging format: clean_jax_16995, batch 74)
    r"|^(?![IW][0-9]{4} |[0-9-]+ [0-9:.]+: [IW] |.*\bUnable to initialize backend '(?!cuda'|gpu')\w+': )"
    r".*\b(?:[Ff]alling back to (?:the )?(?:cpu|CPU)\b|No GPU/TPU found|"
    r"NewConnectionError|"
    r"Failed to establish a new connection|NVRM: No NVIDIA|probe routine was not called|No FFI handler registered|"
    r"module '[\w.]+' has no attribute '\w+').*$"
    r"|^.*?(?:^|\s)(?:ptxas )?fatal\s*: .*$"
    # a C/C++/CUDA compiler's diagnostic (GCC, Clang, nvcc's host compiler: `FILE:LINE[:COL]: [fatal ]error: `, or
    # `cc1plus: fatal error:`) and the linker's refusal (`ld: cannot find -lcudart`, `undefined reference to`): a
    # package built from source while installing fails with these lines and no Python exception
    r"|^[\s`'\"*>]*(?:[^\s:]+:(?:[0-9]+:(?:[0-9]+:)?)? )?(?:fatal error|error): .*$"
    # MSVC's and its linker's diagnostics, where a package is built from source on Windows: `FILE(LINE[,COL]): [fatal ]error
    # C1083: …`, `LINK : fatal error LNK1181: …` (cartopy_2178, batch 108: "trace.cpp(767): fatal error C1083: Cannot
    # open include file: 'geos_c.h'", no Python exception after it)
    r"|^[\s`'\"*>]*(?:[^\n]*?\([0-9]+(?:,[0-9]+)?\)\s*|LINK\s*|cl\s*):\s*(?:fatal\s+)?error\s+[A-Z]{1,3}[0-9]{4}\s*:.*$"
    r"|^.*\b(?:ld(?:\.\w+)?|collect2): (?:cannot find -l\S+|.*\bundefined reference to ).*$"
    # uv's error tree (miette's graphical theme: "× No solution found …", "╰─▶ Because …", "├─▶ Failed …"), and the
    # same tree in miette's ASCII theme, which uv prints where the terminal takes no Unicode ("x No solution found
    # …", "`-> Because …", "|-> Failed …": samannotator_37, batch 108)
    r"|^\s*(?:[×╰├]\S*\s+|x\s+|[`|]->\s+)(?:Failed|Because|No solution|error)\b.*$"
    r"|^(?:\[[0-9]+\]\s+[0-9]+\s+killed\s.*|Killed)$"
    # LLVM's report_fatal_error ("LLVM ERROR: 64-bit code requested on a subtarget that doesn't support it!", then
    # abort: XLA's CPU compiler on a CPU it cannot target, neuralgcm_188, batch 93, looked clean) and the shell's note
    # on any signal that dumped core ("Bus error (core dumped)", "Floating point exception (core dumped)", or the
    # words alone as a paste ends)
    r"|^[\s`'\"*>]*LLVM ERROR: .*$"
    r"|^.*\(core dumped\)\s*$|^[\s`'\"*>]*core dumped\s*$"
    # MintPy's ERA5 download through PyAPS (mintpy/tropo_pyaps3.py) catches the failure and prints only "WARNING: the
    # N attempt to download failed, retry it." and "WARNING: downloading failed for 3 times, stop trying and
    # continue." (mintpytutorial_66, batch 93, looked clean)
    r"|^.*\b(?:the [0-9]+ attempt to download failed|downloading failed for [0-9]+ times)\b.*$"
    r"|^" + _GLOG_NOISE_FILE + r"(?:\[[\w ]+\]:)?\[?[EF][0-9]{4} [0-9:.]+ +(?:[0-9]+ )?[\w.]+:[0-9]+\] (?!" + _GLOG_NOISE + r").*$"
    r"|^.*\b[A-Z]\w*(?: [A-Z]\w*){0,3} Error\s+│.*$"
    r"|^" + _GLOG_NOISE_FILE + r"(?:>\s*)*(?:[0-9-]+ [0-9:.]+: )?[EF] [\w./-]+:[0-9]+\] (?!" + _GLOG_NOISE + r"|failed to allocate 0B).*$"
    r"|^.*\|[ \t]*(?:ERROR|CRITICAL)[ \t]*\|.*$"
    r"|^.*HDF5-DIAG: Error detected.*$(?!\n[^\n#]*#000: [^\n]*\bH5\w*\.c line [0-9]+ in " + _HDF5_PROBE_CALL + r"\(\))"
    # HDF5's header/library version check (H5check_version): with HDF5_DISABLE_VERSION_CHECK unset it prints this
    # banner, "You can, at your own risk, disable this warning …" and the build settings, then aborts; set to 1 it
    # says the application "will continue at your own risk" instead, a warning only
    r"|^.*\*{3}HDF5 library version mismatched error\*{3}(?=[\s\S]{0,1500}?You can, at your own risk, disable this)"
    r".*$"
    # glibc's loader refusing a symbol version of the C or C++ runtime, however the line is cut after it
    r"|^.*\bversion [`'‘](?:GLIBC|GLIBCXX|CXXABI)_[0-9.]+.*$"
    # pip's resolver explaining a conflict (its ERROR lines may be cut from the paste)
    r"|^\s*The conflict is caused by:\s*$"
    # onnxruntime's own error lines (its log's "[E:onnxruntime:…]", a status "[ONNXRuntimeError] : N : FAIL", the
    # Python binding's "EP Error"), which ai-models' ONNX weather models print
    r"|^.*(?:\[E:onnxruntime:|\[ONNXRuntimeError\] : [0-9]|\bEP Error\b).*$"
    # Python logging's ERROR/CRITICAL level in the formats without a colon after it: Hydra's job logging
    # ("[2025-04-09 13:49:47,957][dry-run][ERROR] - Failed to load a valid model.", PhysicsNeMo's and Earth2Studio's
    # scripts; physicsnemo_844, batch 83), a bare "[ERROR] …", and the level after a timestamp as basicConfig-style
    # formats write it ("2024-09-27 16:33:34,333 ERROR …", ai-models and climetlab; "… - name - ERROR - …")
    r"|^[\s`'\"*>]*(?:\[[^\]\n]*\]\s*)*\[(?:ERROR|CRITICAL|FATAL)\](?:\s+-\s+|:?\s+)\S.*$"
    r"|^[\s`'\"*>]*[0-9]{4}-[0-9][0-9]-[0-9][0-9][ T][0-9:.,]+(?:\s+-\s+[\w.-]+)?\s+(?:-\s+)?(?:ERROR|CRITICAL)\s+(?:-\s+)?\S.*$"
    # PyTorch's refusal of a checkpoint that does not fit the model (torch.nn.Module.load_state_dict: "Error(s) in
    # loading state_dict for Aurora:", then "size mismatch for …: copying a param with shape …", "Missing key(s) in
    # state_dict: …", "Unexpected key(s) in state_dict: …"), however it is printed: a notebook's error copied as JSON
    # ("message": "Error(s) in loading state_dict …", aurora_35, batch 83) or the lines under it alone; and
    # torch.func.functional_call's own check of the same keys (torch/nn/utils/stateless.py _reparametrize_module:
    # "Error(s) in reparametrizing for M:", then "Missing key(s): 'a', …." / "Unexpected key(s): …." without "in
    # state_dict"), that shorter wording taken only when a quoted key follows, as a checkpoint's names are pasted
    # (makani_147, batch 97), so a validator's prose "missing key(s): options" stays out
    r"|^.*\b(?:Error\(s\) in (?:loading state_dict|reparametrizing) for |size mismatch for \S+: copying a param "
    r"with shape |Missing key\(s\) in state_dict: |Unexpected key\(s\) in state_dict: ).*$"
    r"|^[\s`>*]*(?:RuntimeError: )?(?:Missing|Unexpected) key\(s\): [\"'].*$"
    # a notebook's exception copied as JSON (VS Code's {"name": "RuntimeError", "message": …, "stack": …}, nbformat's
    # "ename"): the class name stands alone in quotes
    r"|^\s*\{?\s*\"e?name\":\s*\"(?:[\w.]+\.)?[A-Z]\w*(?:Error|Exception)\",?\s*$"
    r"|^\s*#[0-9]{3}: [^\n]*\bH5\w*\.c line [0-9]+ in (?!" + _HDF5_PROBE_CALL + r"\(\))\w+\(\).*$"
    r"|^.*\bNaN values? (?:found|detected|encountered)\b.*$"
    # A version or device check's own refusal, said in a sentence with no error word: cuDNN's and Caffe2's
    # "source was compiled with" / "versions mismatch", CUDA's "driver version is insufficient" and "no
    # CUDA-capable device is detected" however a program prefixes it, NumPy 2's "cannot be run in NumPy",
    # XLA's "libdevice not found", nvcc's and ptxas's "is not defined for option", PyTorch's "driver on your
    # system is too old", JAX's "is newer than and incompatible with", pip's "No matching distribution found"
    # without its ERROR prefix, CUDA's "no kernel image is available", TensorFlow's "Cannot dlopen some GPU
    # libraries", a CUDA runtime error in any case, a "Check failed" that markdown turned to "_Check_ failed".
    r"|^.*\b(?:but source was compiled with|versions? mismatch|version incompatibility|driver version is "
    r"insufficient|no CUDA-capable device is detected|cannot be run in(?:\s+NumPy)?$|libdevice not found|"
    r"Can't find libdevice|is not defined for option|driver on your system is too old|is newer than and "
    r"incompatible with|No matching distribution found|no kernel image is available|Cannot dlopen some GPU "
    r"libraries)\b.*$"
    r"|^.*\b(?:CUDA Runtime Error\([0-9]+\)|_Check_ failed\b).*$"
    # an absl status inside a line after prose or another error's words (ColabFold's "Not Enough GPU memory? INTERNAL:
    # CustomCall failed: …", XLA's autotuner "Autotuning failed for HLO: … with error: NOT_FOUND: No valid config
    # found!"), after a question, "with error:" or an opening parenthesis; not a glog I/W line, nor JAX's notice of a
    # platform it could not start ("Unable to initialize backend 'tpu': INTERNAL: …", which clean runs print)
    r"|^(?![IW][0-9]{4} |[0-9-]+ [0-9:.]+: [IW] ).*?(?:[?!]\s+|\bwith error:\s+|\()(?:INTERNAL|RESOURCE_EXHAUSTED|UNIMPLEMENTED|"
    r"FAILED_PRECONDITION|NOT_FOUND|INVALID_ARGUMENT|UNAVAILABLE|ABORTED|DATA_LOSS|OUT_OF_RANGE|PERMISSION_DENIED|"
    r"DEADLINE_EXCEEDED): \S.*$"
    # jaxlib's GPU kernels' status text (JAX_AS_STATUS: "jaxlib/gpu/prng_kernels.cc:33: operation gpuGetLastError()
    # failed: …", "jaxlib/cuda/cusolver_kernels.cc:44: operation cusolverDnCreate(&handle) failed: …") and XLA's
    # autotuner giving up on an HLO, however they are prefixed
    r"|^.*\bjaxlib/[\w/]+\.cc:[0-9]+: operation .* failed: .*$"
    r"|^.*\bAutotuning failed for HLO\b.*$"
    # a process the kernel killed for a signal, as the shell reports it, quoted anywhere in a sentence ("the terminal
    # writes this: Illegal instruction (SIGILL) (core dumped)", netket_667, batch 68)
    r"|^.*\b(?:Illegal instruction|Segmentation fault|Bus error|Floating point exception)(?:\s*\(SIG[A-Z]+\))?"
    r"\s*\(core dumped\).*$"
    r"|^.*[\]|]\s*Killed\s*$", re.MULTILINE)
#: The install runner's step log (wizard/install/runner.py): a header per step and a footer that says FAILED.
_STEP_HEADER = re.compile(r"^===== \S+  (?P<step>[\w-]+): (?P<title>.*)$", re.MULTILINE)
_STEP_FAILED = re.compile(r"^===== (?P<step>[\w-]+): FAILED \((?P<status>[^)]*)\)", re.MULTILINE)
_TIER_START = re.compile("^" + re.escape(TIER_START_PREFIX) + r"(\{.*\}|\w+)\s*$", re.MULTILINE)
_TIER_DONE = re.compile("^" + re.escape(TIER_PREFIX) + r"(\{.*\})$", re.MULTILINE)


def _tier_json(text: str) -> dict[str, Any]:
    try:
        value = bounded.loads_json(text)
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


def _tier_step(raw: str) -> str | None:
    """The tier a verify log failed in: the last one the probe reported failed, else the one it had
    started and never finished (it died in it)."""
    tiers = [Tier.from_probe(data) for data in map(_tier_json, _TIER_DONE.findall(raw)) if data.get("name")]
    failed = [t.name for t in tiers if not t.ok]
    if failed:
        return f"the {failed[-1]} tier"
    # The probe says `{"name": …}`; a bare tier name is read too.
    started = [str(_tier_json(text).get("name") or "") if text.startswith("{") else text
               for text in _TIER_START.findall(raw)]
    started = [name for name in started if name]
    if started and started[-1] not in {t.name for t in tiers}:
        return f"the {started[-1]} tier"
    return None


#: How many of the failing lines an unrecognised result quotes (the last ones, without repeats).
_UNRECOGNISED_LINES = 5


@dataclass(frozen=True)
class Unrecognised:
    """What can still be said about a failed run whose cause is not known: where, what, what next."""

    last_error: str
    step: str | None
    next_step: str
    lines: tuple[str, ...] = ()
    """The failing lines seen (the last few, each once, in log order): what to quote when reporting it."""

    def to_dict(self) -> dict[str, Any]:
        return {"id": "unrecognised", "last_error": self.last_error, "lines": list(self.lines), "step": self.step,
                "next": self.next_step}


#: How much of an unrecognised error line is its phrase: the exception's name and the start of its message.
_ERROR_PHRASE_CHARS = 140


def _shorten(line: str) -> str:
    """A quoted error line fit to one row: its error phrase (the first `_ERROR_PHRASE_CHARS` characters) and a
    bounded context, masked before it is cut (`evidence_window`; pass 18 found a URL's password and a token cut in
    the middle, and so in clear, in `last_error`). Only the phrase: the rest of a long line is no evidence, and may
    hold a secret in a shape the masker does not know (29th hostile pass (part A) P1)."""
    stripped = line.strip()
    return evidence_window(stripped, 0, min(len(stripped), _ERROR_PHRASE_CHARS))


_TRACEBACK_HEADER = "Traceback (most recent call last):"

#: IPython's traceback banner, the first line of every exception a notebook or IPython shows
#: (IPython/core/ultratb.py's short header: the exception's name, then "Traceback (most recent call last)"
#: right-aligned to the terminal's width, so any run of spaces or none). It names the class of an exception whose
#: own line (`Class: message`) comes further down: where the log holds that line, the banner is only its header, and
#: quoting it as the last error quoted a header, not the failure (batch 112, colabtools_2589: a chained traceback
#: pasted up to its second banner). Where the paste stops before the exception's line (papermill_769), the banner
#: is the one line naming the exception, and stays, as `_cut_traceback` keeps Python's own header.
_IPYTHON_BANNER = re.compile(r"^(?:[\w.]+\.)?(?P<cls>[A-Z]\w*)[ \t]*Traceback \(most recent call last\)[ \t]*$")


def _drop_stated_banners(errors: list[str], unquote: Callable[[str], str]) -> list[str]:
    """`errors` without the IPython banners whose exception's own line (`Class:`) is among them too."""
    stated = [e for e in errors if not _IPYTHON_BANNER.match(unquote(e))]

    def redundant(line: str) -> bool:
        banner = _IPYTHON_BANNER.match(unquote(line))
        return banner is not None and any(
            re.search(r"(?<![\w])" + re.escape(banner.group("cls")) + ":", e) for e in stated)

    return [e for e in errors if not redundant(e)]


#: An error a library handled by taking another path, logged with its traceback (Python's logging.exception):
#: Keras' JAX backend when it cannot build the Splash attention kernel ("ERROR:absl:Failed to apply Splash kernel for
#: flash attention. Falling back to JAX native dot_product_attention.", keras/src/backend/jax/nn.py). The run goes
#: on, so neither the line nor the traceback under it says it failed. Falling back to the CPU is not one: for a GPU
#: run that is the failure.
_HANDLED_FALLBACK = re.compile(
    r"^(?:>\s*)*(?:ERROR|WARNING|[\w.]*\s*-?\s*ERROR)\b[^\n]*\b[Ff]alling back to (?!(?:the )?(?:cpu|CPU)\b)[^\n]*$"
    r"(?P<traceback>\n(?:>\s*)*Traceback \(most recent call last\):(?:\n(?:>\s*)*[ \t]+[^\n]*)*"
    r"(?:\n(?:>\s*)*(?:[\w.]+\.)?[A-Z]\w*(?:Error|Exception)\b[^\n]*)?)?", re.MULTILINE)


def _cut_traceback(raw: str) -> list[str]:
    """A Python traceback pasted without its exception line (a terminal's scroll-back, an issue cut short) still
    says the run failed: its header and last frame line are what to quote, as the log has them. [] when the log
    has no traceback."""
    start = raw.rfind(_TRACEBACK_HEADER)
    if start < 0:
        return []
    frames = [line.strip() for line in raw[start + len(_TRACEBACK_HEADER):].splitlines() if line.strip()]
    return [_TRACEBACK_HEADER] + frames[-1:]


def unrecognised(text: str) -> Unrecognised | None:
    """For a log with no known finding: its last exception line and the wizard step it failed in.

    None for a log with no failure in it (a clean run).
    """
    raw = strip_terminal_escapes(text, keep_controls=True).replace("\r\n", "\n").replace("\r", "\n")
    tier = step = _tier_step(raw)
    failed_steps = _STEP_FAILED.findall(raw)
    if step is None and failed_steps:
        name, status = failed_steps[-1]
        titles = {m.group("step"): m.group("title").strip() for m in _STEP_HEADER.finditer(raw)}
        step = f"the install step {name}" + (f" ({titles[name]})" if name in titles else "") + f", {status}"
    def unquoted(line: str) -> str:
        return re.sub(r"^(?:>\s*)*", "", line.strip())

    handled = {unquoted(line) for m in _HANDLED_FALLBACK.finditer(raw) for line in m.group(0).splitlines()}
    # a traceback under such a line is the handled one: drop it before looking for a traceback cut short
    raw_unhandled = _HANDLED_FALLBACK.sub("", raw)
    errors = [m.group(0).strip() for m in _EXCEPTION_LINE.finditer(clean_log_text(raw))]
    errors = [e for e in errors if unquoted(e) not in handled]
    errors = [e for e in errors if e not in ("Traceback (most recent call last):",)]
    errors = _drop_stated_banners(errors, unquoted) or _cut_traceback(raw_unhandled)
    if not errors and step is None:
        return None
    if not errors and ((failed_steps and failed_steps[-1][1] == "cancelled" and tier is None) or _STOP_NOTE.search(raw)):
        # The user's own Ctrl-C (or a stop the wizard asked for): the step was stopped, nothing in it failed, and
        # "send a report to whoever maintains the server" was wrong advice (seventeenth walk, problem 7).
        return None
    last = _shorten(errors[-1]) if errors else "no error line (the run stopped without one)"
    quoted: list[str] = []
    for line in reversed(errors):
        line = _shorten(line)
        if line not in quoted:
            quoted.insert(0, line)
        if len(quoted) == _UNRECOGNISED_LINES:
            break
    return Unrecognised(
        last_error=last, step=step, lines=tuple(quoted),
        next_step="`gc-wizard report` writes this machine's details and the log's tail into one file to send to "
        "whoever maintains the server or this tool; `gc-wizard verify` reruns the checks step by step.")


#: The line an install's log holds after its first: the `install` line that runs the same install again, with every
#: option it took (`flows.transaction`'s note, by the plan's one builder `describe_plan.install_command`).
AGAIN_NOTE = "to run this install again: "
_AGAIN_NOTE = re.compile(r"^\[gc-wizard\] " + re.escape(AGAIN_NOTE) + r"(?P<line>[^\n]+ install [^\n]+)$", re.MULTILINE)
#: The options an install line may name (`flows.install_line.install_line`, `SlurmTarget.flags`): a logged line with any
#: other is not one the wizard wrote, and is not offered.
_AGAIN_OPTIONS = frozenset({"--recipes-dir", "--env", "--installer", "--python", "--alternative", "--with-notebook",
                            "--allow-extra-packages", "--bundle", "--find-links", "--lock", "--graphcast-src",
                            "--offline", "--slurm", "--srun-arg", "--slurm-wait"})


def again_words(line: str) -> tuple[str, ...] | None:
    """The words of a logged "run this install again" line (`gc-wizard install RECIPE --option value …`), or None when
    it is not one the wizard writes. A log is untrusted (31st hostile pass (part A) P3): only a recipe id and the
    install line's own options pass, and the words are quoted again when shown (`again_line`)."""
    try:
        words = shlex.split(line)
    except ValueError:
        return None
    # The program as the install printed it for a new shell (`paths.wizard_command`: a path, `GC_WIZARD_HOME=… PYTHON
    # -m wizard`; walk 37 #6), or a bare `gc-wizard` in an older log: only what follows `install` is read, and shown
    # again with this run's program (`again_line`).
    start = words.index("install") if "install" in words[1:] else 0
    words = ["gc-wizard", *words[start:]] if start else words
    if len(words) < 3 or words[:2] != ["gc-wizard", "install"] or not is_recipe_id(words[2]):
        return None
    for word in words[3:]:
        if word.startswith("-") and word.split("=", 1)[0] not in _AGAIN_OPTIONS:
            return None
        if any(c in word for c in "\n\r\0`"):
            return None
    return tuple(words)


def again_line(words: tuple[str, ...], command: str) -> str:
    """`again_words` as a line to paste, with `command` (`paths.wizard_command`) for its program."""
    return f"{command} {shell_line(words[1:])}"


#: The line an install's log ends with when it was stopped (`flows.transaction`'s note, `STOP_NOTE` + the stop's words).
STOP_NOTE = "the run was stopped: "
_STOP_NOTE = re.compile(r"^\[gc-wizard\] " + re.escape(STOP_NOTE) + r"(?P<why>[^\n]+)$", re.MULTILINE)


@dataclass(frozen=True)
class Stopped:
    """A run the user (Ctrl-C, the app's stop) or a signal stopped: not a failure, and no cause to look for. Why its own
    result: walk 28 #14 — such a log, which says `FAILED (cancelled)`, got "No known problem found" and exit 0, read
    as a clean install."""

    step: str | None
    why: str
    recipe: str | None
    given: tuple[str, str] | None = None
    """(GraphCast version, local source) the run named on its log's first line: the line to go again carries it (walk
    29 N3: "run `gc-wizard install RECIPE` with the same options", without the `--graphcast-src` it needed)."""

    again: tuple[str, ...] | None = None
    """The words of the install line the run wrote to go again (`LogScanner.again`): every option it took (walk 33 #3:
    the line named `--graphcast-src` but not `--alternative pypi-plugin`, so pasted it was refused)."""

    @property
    def next_step(self) -> str:
        # The recipe as the log named it, only in a recipe id's shape: a log is untrusted (31st hostile pass (part A) P3).
        if self.again is not None:
            again = f"`{again_line(self.again, paths.wizard_command())}`"
        elif self.recipe and is_recipe_id(self.recipe):  # a log from before the line was written
            again = paths.runnable(with_given_graphcast(f"`gc-wizard install {self.recipe}`", self.given)
                                   + " with the same options")
        else:
            again = "the same command"
        return (f"nothing in it failed, so there is no cause to look for; to install, run {again} again (in the app, "
                "the Not-done screen's p, Change the plan, goes again from the same plan). A run that failed after that has "
                "its own "
                "log to diagnose.")

    def to_dict(self) -> dict[str, Any]:
        return {"id": "stopped", "step": self.step, "by": self.why, "next": self.next_step}


def stopped_run(text: str, recipe: str | None = None, given: tuple[str, str] | None = None,
                again: tuple[str, ...] | None = None) -> Stopped | None:
    """For a log with no finding and no unrecognised failure: the stop it ends with (the wizard's note, or its last
    step's `FAILED (cancelled)`), where, and why; None for a log that was not stopped. `recipe`: the one it installed;
    `given`: the (version, local GraphCast source) its first line named (`LogScanner.graphcast_given`); `again`: the
    install line it wrote to go again (`LogScanner.again`)."""
    raw = strip_terminal_escapes(text, keep_controls=True).replace("\r\n", "\n").replace("\r", "\n")
    notes = list(_STOP_NOTE.finditer(raw))
    failed_steps = _STEP_FAILED.findall(raw)
    cancelled = bool(failed_steps) and failed_steps[-1][1] == "cancelled"
    if not notes and not cancelled:
        return None
    step = _tier_step(raw)
    if step is None and cancelled:
        name = failed_steps[-1][0]
        titles = {m.group("step"): m.group("title").strip() for m in _STEP_HEADER.finditer(raw)}
        step = f"the install step {name}" + (f" ({titles[name]})" if name in titles else "")
    why = notes[-1].group("why").strip() if notes else "by you (Ctrl-C, or the app's stop) or by a signal"
    return Stopped(step=step, why=_shorten(why), recipe=recipe, given=given, again=again)


def uses_facts(findings: list[Finding], known_failures: tuple[KnownFailure, ...] | None = None) -> bool:
    """Whether detection could sharpen any of these findings (so a caller can skip detection otherwise)."""
    entries = {e.id: e for e in (known_failures or load_known_failures())}
    return any(entries[f.id].libraries or "{recipe}" in entries[f.id].fix for f in findings if f.id in entries)
