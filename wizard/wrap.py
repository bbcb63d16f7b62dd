"""Text wrapped to a width between words only: the one wrap every description and both faces use.

Why one helper: four near-copies (the CLI's, the plan's, the machine's and the check's) each made their own
choices, and the differences showed as bugs: a command broken at a hyphen (`--with-` / `assets`, walk 21 #3), a
number on one row and its unit on the next (`~8` / `GB GPU`, walk 21 #15), "<- loads first" split by the wrap.

A word is a run of characters without a space, so a path, command, option or URL is never broken: one longer than
a line goes on a line of its own, whole, where it can still be copied. A backquoted span (`gc-wizard install X
--graphcast-src DIR`) is one word too: a command embedded in prose and broken at a real line break pastes as two
commands and leaves a backquote open (walk 37 #3); one longer than a line stands whole on its own line, where the
terminal folds it without a line break and it still pastes as one. A number and its unit (`~8 GB`, `23.5 GiB`,
`15.9 s`) stay on one line, and so do words the caller joins with `KEEP`. Runs of spaces and line breaks become one
space: a paragraph is wrapped, not laid out. Only `os` and `re` are imported, which every command has already
loaded: the app's first frame and `detect --json` pay nothing for this module.

`hanging` wraps text that is already laid out in lines (a label and its value, a bulleted or indented paragraph, a
quoted "> " evidence line): each line too long for the width goes on under the start of its own value, never back at
column 0 (walk 28 #18). Both faces use it: the CLI at the terminal's width, the app's text widgets at their own.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence

#: Joins words that must stay on one line ("<- loads first"); shown as a plain space.
KEEP = "\u00a0"

#: A number, then a unit: wrapped as one word.
_NUMBER_UNIT = re.compile(r"(?<![\w.])([~≈<>]?[0-9][0-9,.]*)[ \t]+((?:[KMGTP]i?B|kB|B|bytes|s|ms|min|h|%)(?![\w-]))")
_SPACES = re.compile(r"[ \t\r\n\f\v]+")
#: A backquoted span on one line of the text: a command or path quoted in prose, wrapped as one word.
_QUOTED = re.compile(r"`[^`\n]+`")
#: What a laid-out line starts with before its text: an indent, then a mark ("- ", "> ", "! ", "✗ ", "2. ").
_MARK = re.compile(r" *(?:(?:[-*•>!✓✗★●↳#]|[0-9]{1,2}[.)]) +)?")
#: A label, then its value: "cudart 13.0.96  /usr/…" (a gap of two spaces or more), or "Fix: …" (a short label),
#: padded before its colon to line up with the one above too ("target : " under "current: ", walk 33 #6).
_LABEL = re.compile(r"(?:\S(?:[^ ]| (?! ))*? {2,}|[A-Za-z][\w()'-]*(?: [\w()'-]+){0,2} ?: +)(?=\S)")


def wrap(text: str, width: int, indent: str = "", rest: str | None = None, *, tilde: bool = False) -> list[str]:
    """`text` as lines of at most `width` characters (unless one word is longer), the first starting with `indent`,
    the others with `rest` (default: `indent`); an empty text is one line, `indent`. With `tilde`, a path under the
    home folder too long for any row is spelled with ~ for it (`_row`)."""
    rest = indent if rest is None else rest
    words = [w for w in _SPACES.split(_units(text)) if w]
    lines: list[str] = []
    line, empty = indent, True
    for word in words:
        if empty:  # after a mark or label the word stays beside it; after spaces alone it moves left as a row's does
            line, empty = (indent + word) if indent.strip() else _row(indent, word, width, tilde), False
        elif len(line) + 1 + len(word) > width:
            lines.append(line)
            line = _row(rest, word, width, tilde)
        else:
            line += " " + word
    lines.append(line)
    return [one.replace(KEEP, " ") for one in lines]


def _units(text: str) -> str:
    """`text` with the spaces that must not become line breaks made `KEEP`: between a number and its unit, and inside
    a backquoted span (its runs of spaces one `KEEP`), so the span is one word however long."""
    text = _QUOTED.sub(lambda m: _SPACES.sub(KEEP, m.group()), text)
    return _NUMBER_UNIT.sub(lambda m: m.group(1) + KEEP + m.group(2), text)


def _row(rest: str, word: str, width: int, tilde: bool = False) -> str:
    """A new row starting with `word`: under `rest`, or further left if only that keeps the word whole on the row (a
    path is never cut inside a name where the row can hold it). With `tilde`, a path under the home folder too long for
    any row, or for the row under `rest`, is spelled with ~ for it, so it fits where it can (walk 28 #18: the app cut `…/envs/jax0.4.23-cpu-20` /
    `261128-193636`); the CLI keeps paths as they are, for scripts (a terminal wraps a long one without cutting it)."""
    if tilde and len(rest) + len(word) > width:
        short = _home_spelled(word)
        # Spelled with ~ where that keeps it under `rest`, in line with the rows around it (walk 38 #6: History's
        # `stopped:` rows went on at 9 spaces, then 10), or where nothing else fits a row.
        if short and (len(rest) + len(short) <= width or len(word) > width):
            word = short
    return rest[:max(0, width - len(word))] + word


def _home_spelled(word: str) -> str | None:
    """`word` with ~ for the home folder it starts in, else None."""
    home = os.environ.get("HOME", "").rstrip("/")
    return "~" + word[len(home):] if len(home) > 1 and word.startswith(home + "/") else None


def hang(line: str, width: int | None = None) -> str:
    """Where `line`'s wrapped rows start: after its indent, its mark ("- ", "> ", "✗ ", "2. ") and its label ("Fix: ",
    or a label padded to its column, as in `detect`'s facts; a "> " line quotes a log, so it has none). Within
    `width`, a hang deeper than half the row gives way to a shallower one: the value needs the room more."""
    mark = _MARK.match(line).group()
    label = _LABEL.match(line, len(mark)) if ">" not in mark else None  # a quoted log line has no label of ours
    hangs = [mark + label.group(), mark] if label and len(label.group()) <= 32 else [mark]
    if width is not None:
        hangs = [one for one in (*hangs, mark[:len(mark) - len(mark.lstrip(" "))]) if len(one) <= width // 2] or [""]
    return " " * len(hangs[0])


def hanging(lines: str | Sequence[str], width: int, *, tilde: bool = False) -> list[str]:
    """Laid-out `lines` (a text, or its lines) fitted to `width`: a line that fits stays as it is; a longer one wraps
    between words (`wrap`) with its further rows under the start of its value (`hang`). Words joined with `KEEP` stay
    on one row. A label whose value's first word cannot follow it on its row (a long path) stands alone on its row.
    `tilde`: as `wrap`'s (the app's screens)."""
    out: list[str] = []
    for line in lines.split("\n") if isinstance(lines, str) else lines:
        line = line.rstrip()
        if len(line) <= width:
            out.append(line.replace(KEEP, " "))
            continue
        under = hang(line, width)
        head, mark = line[:len(under)], _MARK.match(line).group()
        # The first row as it is laid out (a table's gaps kept), broken at its last space that fits and does not part
        # a number from its unit; the rest wrapped under the hang.
        kept = _units(line)
        cut = kept.rfind(" ", len(under), width + 1)
        if cut >= 0 and kept[len(under):cut].strip():
            out.append(kept[:cut].rstrip().replace(KEEP, " "))
            out += wrap(kept[cut:], width, under, tilde=tilde)
        elif len(head) > len(mark):  # a label, then a word too long to follow it
            value = line[len(under):]
            first = value.split(" ", 1)[0]
            short = _home_spelled(first) if tilde else None
            if short and len(head) + len(short) <= width:  # beside its label with ~ (walk 39 #3: `Environment:` alone
                out += wrap(short + value[len(first):], width, head, under, tilde=tilde)  # on its row, the path below)
                continue
            out.append(head.rstrip())
            out += wrap(value, width, under, tilde=tilde)
        else:
            out += wrap(line[len(under):], width, head, under, tilde=tilde)
    return out


def keep_together(phrase: str) -> str:
    """`phrase` with its spaces made `KEEP`: `wrap` never breaks it."""
    return phrase.replace(" ", KEEP)


def command(words: Sequence[str], width: int, first: str = "", rest: str = "    ", *, keep: int = 1) -> list[str]:
    """A shell command's words (each already quoted) on lines of at most `width`, broken only between words and
    with ` \\` at each break, so a copied block still runs as one command; a word longer than a line stays whole,
    and the first `keep` words stay on the first line (`export NAME=…` broken after `export` reads as broken).
    Why not `wrap`: a command broken at a plain line break pastes as two commands (walk 21 #17)."""
    # A long option and its value are one unit: `--assets` at a line's end with `DIR/assets` on the next reads as an
    # option without its value (and a test of the Next: lines broke there for one length of the temporary path).
    units: list[tuple[int, str]] = []
    for i, word in enumerate(words):
        if units and i > keep and _takes_value(words[i - 1]) and not word.startswith("-") and units[-1][1] == words[i - 1]:
            units[-1] = (units[-1][0], f"{units[-1][1]} {word}")
        else:
            units.append((i, word))
    lines: list[str] = []
    line, empty = first, True
    for i, word in units:
        if empty:
            line, empty = line + word, False
        elif i >= keep and len(line) + 1 + len(word) > width - 2:  # room for the " \"
            lines.append(line + " \\")
            line = rest + word
        else:
            line += " " + word
    lines.append(line)
    return lines


def _takes_value(word: str) -> bool:
    """A long option written without its value (`--assets`, not `--assets=DIR` nor `-v`)."""
    return word.startswith("--") and len(word) > 2 and "=" not in word


def command_words(text: str) -> list[str]:
    """A shell command line's words, quotes kept as written: `eval "$(gc-wizard activate)"` is two words, and so is
    `export GC_WIZARD_HOME='/a b'`. An unbalanced quote keeps the line whole (never broken at its spaces)."""
    words: list[str] = []
    word, quote = "", ""
    for char in text:
        if quote:
            quote = "" if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char.isspace():
            if word:
                words.append(word)
            word = ""
            continue
        word += char
    if quote:
        return [text.strip()]
    return [*words, word] if word else words


#: A row that is one backquoted command and nothing else but its indent and the sentence's punctuation after it: how
#: `wrap` lays out a command too long to share a row with prose (`_QUOTED`, `_row`).
_LONE_COMMAND = re.compile(r"(?P<indent> *)`(?P<command>[^`\n]+)`(?P<after>[.,;:)]*) *")


def lone_command(row: str) -> str | None:
    """The command a laid-out row holds alone (`` `gc-wizard install X --graphcast-src DIR` ``, its backquotes and the
    punctuation after them dropped), else None: the core's one description of "this row is a command to copy", for a
    face that shows such a row so that it is never broken (walk 38 #1: the app folded the row at its own width, and a
    terminal's selection of the two rows pasted as two commands)."""
    found = _LONE_COMMAND.fullmatch(row.replace(KEEP, " "))
    return found.group("command") if found else None


def command_row(line: str, indent: str = "    ") -> str:
    """`line` laid out as a row that `lone_command` reads back as the command (backquoted under `indent`), so a face
    shows it whole and copies it (ctrl+y); a `# comment` line, or one holding a backquote, stays prose. Walk 39 #1: the
    Done screen's activate, kernel and module lines were plain indented rows, and ctrl+y had nothing to copy there."""
    if line.lstrip().startswith("#") or "`" in line:
        return indent + line
    return f"{indent}`{line}`"


#: A row's punctuation right after a command set apart (`commands_apart`): it stays on the command's row.
_AFTER = re.compile(r"[.,;:)]*")


def commands_apart(text: str, programs: Sequence[str] = ("gc-wizard",)) -> str:
    """`text` with each backquoted command of one of `programs` (`` `gc-wizard remove ID` ``, as the text spells the
    program) on a row of its own, laid out by `command_row` under the line's indent, and the prose before and after
    it on rows of their own: a face shows such a row whole and copies it (`lone_command`). A row that is one command
    already stays as it is.

    Why: walk 39 (w40a, not done) — the Not-done screen said "… not current: `gc-wizard remove ID` deletes it." and
    "`gc-wizard verify --env DIR` checks it" inside sentences, so ctrl+y had nothing there to copy, while the Done
    and Diagnose screens copy theirs."""
    out: list[str] = []
    for line in text.split("\n"):
        indent = line[:len(line) - len(line.lstrip(" "))]
        if lone_command(line) is not None:
            out.append(line)
            continue
        rows, start = [], 0
        for found in _QUOTED.finditer(line):
            inner = found.group()[1:-1].strip()
            if found.start() < start or not any(inner == p or inner.startswith(p + " ") for p in programs if p):
                continue
            end = _AFTER.match(line, found.end()).end()
            before = line[start:found.start()].rstrip()
            if before.strip():
                rows.append(before if not rows else indent + before.lstrip())
            rows.append(command_row(inner, indent + "    ") + line[found.end():end])  # its punctuation kept
            start = end
        if not rows:
            out.append(line)
            continue
        rest = line[start:].strip()
        out += rows + ([indent + rest] if rest else [])
    return "\n".join(out)

