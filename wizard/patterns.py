"""`LazyPattern`: a regular expression compiled the first time it is used, not when its module is imported.

Why: every command starts by importing detection, the output layer and the security rules, and compiling the
patterns they hold took a fifth of `detect --json`'s start-up (issue 23), though most are only needed when their
text turns up (nvidia-smi's table, a kernel module's version line, a secret). A `LazyPattern` is used as the
compiled pattern is (`search`, `match`, `sub`, …) and compiles on the first call.
"""

from __future__ import annotations

import re

TYPE_CHECKING = False  # `typing.TYPE_CHECKING` without importing `typing` (start-up time, issue 23)
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator


def class_members(source: str, *, without: tuple[str, str] | None = None) -> frozenset[str]:
    """Every character of a character class written as characters and `a-b` ranges (`"[\x00-\x08\xad]"`), as a
    set: `set.isdisjoint(text)` tells in one pass at C speed whether a text holds any, without compiling a class
    whose ranges reach past U+00FF (a millisecond each, issue 23). Only for such plain classes: no escapes, no
    negation, and no `-` or `]` as a member. `without=(low, high)` leaves out the characters of that span (the
    surrogates, which a caller finds another way, are two thousand of a class's members)."""
    body = source[1:-1]
    low, high = (ord(without[0]), ord(without[1])) if without else (1, 0)
    members: set[str] = set()
    i = 0
    while i < len(body):
        first = last = ord(body[i])
        if i + 2 < len(body) and body[i + 1] == "-":
            last = ord(body[i + 2])
            i += 3
        else:
            i += 1
        members.update(chr(code) for code in range(first, last + 1) if not low <= code <= high)
    return frozenset(members)


def ascii_digits(text: str) -> bool:
    """Whether `text` is one or more of the digits 0-9 and nothing else: the one test before `int(text)` of a value
    from outside (an environment variable, a header, a file name).

    Why not `str.isdigit()` or `\\d`: both take far more than 0-9. `'²'.isdigit()` is True and `int('²')` raises, so
    `CUDA_VISIBLE_DEVICES=²` and a mirror's `Content-Length: ²` ended with "this is a bug" (31st hostile pass (part A)
    P5); `\\d` and `isdecimal()` take Arabic-Indic digits, which `int()` reads, so `١٢.٢` was taken as a CUDA version
    and printed as such (P4). The package's regexes say `[0-9]`, and a test forbids `isdigit` and `\\d`."""
    return bool(text) and not text.strip("0123456789")


def whole_number(text: str) -> int | None:
    """`text` (digits 0-9 only, `ascii_digits`) as an int; None for anything else, '٣٠' and '²' included. The one
    reader of a whole number from a variable, a file or an argument."""
    return int(text) if ascii_digits(text) else None


def plain_whole_number(text: str, *, signed: bool = False) -> int | None:
    """`text` as an int when it is written as a person writes a whole number: the digits 0-9 only (`whole_number`),
    no leading zero but in `0` itself, and a leading `-` where `signed`; None for anything else. The one rule of a
    whole number read from a YAML file a person wrote (a recipe's `integer`, an answers file's `load_user_data`).

    Why: YAML 1.1 reads `0x1F`, `017` (octal 15), `0b11`, `1_000`, `+5` and `1:30` (sexagesimal, 90) as ints, so a
    value its author never wrote was taken as a number: recipes refused them, while an answers file's `version: 0x1`
    was read as version 1 (fixers' leftover: YAML 1.1 integers). Raises ValueError past Python's 4300 digits."""
    digits = text[1:] if signed and text.startswith("-") else text
    value = whole_number(digits)
    if value is None or (len(digits) > 1 and digits.startswith("0")):
        return None
    return -value if digits is not text else value


def decimal_number(text: str) -> float | None:
    """`text` as a float when it is written in 0-9 only: digits with at most one `.` (`30`, `1.5`, `.5`) and an
    optional exponent (`1e3`, `2E-1`); None for anything else. The one reader of a decimal number from a variable, a
    file or an argument.

    Why not `float(text)` alone: it takes every script's digits (`float('٣٠')` is 30.0), `nan`, `inf`, `1_0` and
    spaces, so `GC_WIZARD_INACTIVITY_TIMEOUT='٣٠'` was taken as 30 s against the package's 0-9 rule (33rd hostile
    pass (part A) P5). A sign is not taken: no caller reads a negative number from outside."""
    mantissa, marker, exponent = text.replace("E", "e").partition("e")
    whole, _, fraction = mantissa.partition(".")
    if not (ascii_digits(whole) or ascii_digits(fraction)) or (whole and not ascii_digits(whole)) \
            or (fraction and not ascii_digits(fraction)):
        return None
    if marker and not ascii_digits(exponent[1:] if exponent[:1] in "+-" else exponent):
        return None
    return float(text)


class LazyPattern:
    __slots__ = ("source", "flags", "_compiled")

    def __init__(self, source: str, flags: int = 0) -> None:
        self.source = source
        self.flags = flags
        self._compiled: re.Pattern[str] | None = None

    @property
    def pattern(self) -> re.Pattern[str]:
        if self._compiled is None:  # two threads at once compile twice: the same pattern, harmless
            self._compiled = re.compile(self.source, self.flags)
        return self._compiled

    def search(self, text: str, *bounds: int) -> re.Match[str] | None:
        return self.pattern.search(text, *bounds)

    def match(self, text: str, *bounds: int) -> re.Match[str] | None:
        return self.pattern.match(text, *bounds)

    def fullmatch(self, text: str, *bounds: int) -> re.Match[str] | None:
        return self.pattern.fullmatch(text, *bounds)

    def sub(self, replacement: str | Callable[[re.Match[str]], str], text: str, count: int = 0) -> str:
        return self.pattern.sub(replacement, text, count)

    def finditer(self, text: str, *bounds: int) -> Iterator[re.Match[str]]:
        return self.pattern.finditer(text, *bounds)
