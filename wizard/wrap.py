"""Text wrapped to a width between words only: the one wrap every description and both faces use.

Why one helper: four near-copies (the CLI's, the plan's, the machine's and the check's) each made their own
choices, and the differences showed as bugs: a command broken at a hyphen (`--with-` / `assets`, walk 21 #3), a
number on one row and its unit on the next (`~8` / `GB GPU`, walk 21 #15), "<- loads first" split by the wrap.

A word is a run of characters without a space, so a path, command, option or URL is never broken: one longer than
a line goes on a line of its own, whole, where it can still be copied. A number and its unit (`~8 GB`, `23.5 GiB`,
`15.9 s`) stay on one line, and so do words the caller joins with `KEEP`. Runs of spaces and line breaks become one
space: a paragraph is wrapped, not laid out. Only `re` is imported, which every command has already loaded: the
app's first frame and `detect --json` pay nothing for this module.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

#: Joins words that must stay on one line ("<- loads first"); shown as a plain space.
KEEP = "\u00a0"

#: A number, then a unit: wrapped as one word.
_NUMBER_UNIT = re.compile(r"(?<![\w.])([~≈<>]?[0-9][0-9,.]*)[ \t]+((?:[KMGTP]i?B|kB|B|bytes|s|ms|min|h|%)(?![\w-]))")
_SPACES = re.compile(r"[ \t\r\n\f\v]+")


def wrap(text: str, width: int, indent: str = "", rest: str | None = None) -> list[str]:
    """`text` as lines of at most `width` characters (unless one word is longer), the first starting with `indent`,
    the others with `rest` (default: `indent`); an empty text is one line, `indent`."""
    rest = indent if rest is None else rest
    words = [w for w in _SPACES.split(_NUMBER_UNIT.sub(lambda m: m.group(1) + KEEP + m.group(2), text)) if w]
    lines: list[str] = []
    line, empty = indent, True
    for word in words:
        if empty:
            line, empty = line + word, False
        elif len(line) + 1 + len(word) > width:
            lines.append(line)
            line = rest + word
        else:
            line += " " + word
    lines.append(line)
    return [one.replace(KEEP, " ") for one in lines]


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
