"""Each secret rule's needles hold for every text its pattern can match (`wizard.security._Rule`).

A rule is only run on a text that holds one of its needles, so a needle that some match lacks would let that
secret through unmasked. Rather than trusting examples, this reads each pattern's parse tree (Python's own
`re._parser`) and proves, branch by branch, that every way through it spells out a needle; a pattern it
cannot prove fails with the path it could not cover.
"""

from __future__ import annotations

import itertools
import re
from re import _constants as C  # noqa: N812 (the opcodes' module, as `re` itself names it)
from re import _parser as parser

import pytest

from wizard import security

#: A finite piece of a pattern is expanded into its strings up to this many; past it the piece is unknown.
LIMIT = 4096


def _rules() -> list[tuple[str, security._Rule]]:
    rules = [(name, value) for name, value in vars(security).items() if isinstance(value, security._Rule)]
    rules += [(f"_CLIENT_PASSWORDS[{i}]", rule) for i, rule in enumerate(security._CLIENT_PASSWORDS)]
    return rules


def _strings(node: list, folded: bool) -> set[str] | None:
    """Every string the sequence `node` can match, when there are few (None past `LIMIT` or when unbounded)."""
    out = {""}
    for op, arg in node:
        piece = _piece_strings(op, arg, folded)
        if piece is None:
            return None
        out = {a + b for a, b in itertools.product(out, piece)}
        if len(out) > LIMIT:
            return None
    return out


def _piece_strings(op, arg, folded: bool) -> set[str] | None:
    if op is C.LITERAL:
        char = chr(arg)
        return {security._fold(char) if folded else char}
    if op in (C.AT, C.ASSERT, C.ASSERT_NOT):
        return {""}  # consumes nothing
    if op is C.IN and all(item_op in (C.LITERAL, C.RANGE) for item_op, _ in arg):
        chars = set()
        for item_op, item in arg:
            chars |= {chr(item)} if item_op is C.LITERAL else {chr(c) for c in range(item[0], item[1] + 1)}
        return {security._fold(c) if folded else c for c in chars} if len(chars) <= 64 else None
    if op is C.SUBPATTERN:
        return _strings(arg[-1], folded)
    if op is C.BRANCH:
        out: set[str] = set()
        for branch in arg[1]:
            strings = _strings(branch, folded)
            if strings is None:
                return None
            out |= strings
        return out
    if op in (C.MAX_REPEAT, C.MIN_REPEAT) and arg[1] is not C.MAXREPEAT and arg[1] <= 4:
        inner = _strings(arg[2], folded)
        if inner is None:
            return None
        out = set()
        for count in range(arg[0], arg[1] + 1):
            out |= {"".join(p) for p in itertools.product(inner, repeat=count)}
            if len(out) > LIMIT:
                return None
        return out
    return None  # a character class, an unbounded repeat, a back-reference: no short list of strings


def _covers(node: list, needles: tuple[str, ...], folded: bool, before: frozenset[str] = frozenset({""})) -> bool:
    """Whether every match of the sequence `node`, after any of the strings `before`, holds a needle: a run of its
    finite pieces whose every string holds one, or one piece that covers on its own (what came just before it
    counted: `re` factors the common start of a group's branches out of them)."""
    run: set[str] = set(before)
    for op, arg in node:
        if op is C.ASSERT and _covers(arg[1], needles, folded):
            return True  # a lookaround's text is in the text too
        piece = _piece_strings(op, arg, folded)
        if piece is not None:
            run = {a + b for a, b in itertools.product(run, piece)}
            if len(run) <= LIMIT and all(any(n in s for n in needles) for s in run):
                return True
            if len(run) > LIMIT:
                run = {""}
            continue
        if _piece_covers(op, arg, needles, folded, frozenset(run)):
            return True
        run = {""}
    return False


def _piece_covers(op, arg, needles: tuple[str, ...], folded: bool, before: frozenset[str]) -> bool:
    if op is C.SUBPATTERN:
        return _covers(arg[-1], needles, folded, before)
    if op is C.BRANCH:
        return all(_covers(branch, needles, folded, before) for branch in arg[1])
    if op in (C.MAX_REPEAT, C.MIN_REPEAT) and arg[0] >= 1:
        return _covers(arg[2], needles, folded, before)
    return False


@pytest.mark.parametrize(("name", "rule"), _rules(), ids=[name for name, _ in _rules()])
def test_every_match_of_the_rule_holds_one_of_its_needles(name: str, rule: security._Rule) -> None:
    tree = parser.parse(rule.source, rule.flags)
    assert rule.needles, f"{name} names no needle"
    assert _covers(list(tree), rule.needles, rule.folded), (
        f"{name}: some match of {rule.source!r} holds none of {rule.needles}")


def test_the_proof_rejects_a_needle_a_match_can_lack() -> None:
    """The check above is not vacuous: needles that a branch can avoid are caught."""
    assert not _covers(list(parser.parse(r"(?:token|api[-_]?key)=\S+")), ("token",), False)
    assert not _covers(list(parser.parse(r"(?:ab)*c")), ("ab",), False)
    assert _covers(list(parser.parse(r"\b(?:mysql|mysqldump|mariadb)\b\s-p")), ("mysql", "mariadb"), False)


@pytest.mark.parametrize("letter", ["\u0130", "\u0131", "\u017f", "\u212a"])
def test_folding_agrees_with_ignorecase_on_the_letters_casefold_treats_otherwise(letter: str) -> None:
    """`re.IGNORECASE` matches these as ASCII letters (İ and ı as `i`, ſ as `s`, the Kelvin sign as `k`): the needle
    look-up must find them too, or `ſecret=…`, `İd_token=…` would skip their rule."""
    ascii_letter = next(c for c in "iks" if re.fullmatch(c, letter, re.IGNORECASE))
    assert ascii_letter in security._fold(letter)


def test_text_without_needles_comes_back_as_it_was_and_secrets_still_go() -> None:
    plain = "driver 535.104.05 (CUDA 12.2) on gpu-node-3; /usr/lib/x86_64-linux-gnu/libcudnn.so.8"
    assert security.redact_secrets(plain) is plain or security.redact_secrets(plain) == plain
    assert security.MASK in security.redact_secrets("export HF_TOKEN=hf_abcdefghijklmnopqrstuvwx")
    assert security.MASK in security.redact_secrets("PAſſWORD=hunter2hunter2")


@pytest.mark.parametrize(("name", "rule"), _rules(), ids=[name for name, _ in _rules()])
def test_the_one_search_before_the_rules_finds_each_rules_needles(name: str, rule: security._Rule) -> None:
    """`redact_secrets` runs no rule on a text this search finds nothing in: every needle of every rule is in it,
    written in any case."""
    for needle in rule.needles:
        for spelling in (needle, needle.upper(), needle.title()):
            assert security._any_needle().search(security._fold(f"x {spelling} y")), (name, spelling)
