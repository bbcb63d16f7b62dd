"""The shortcuts the output layer takes for plain text give what the whole patterns give (issue 23).

`reveal_format_characters` and `json_text` answer ASCII (and surrogate-free) text without compiling their wide
character classes; these tests hold the shortcut to the full pattern on every ASCII character and on text that
goes the long way, so a character added to the class cannot be missed by the shortcut unnoticed.
"""

from __future__ import annotations

import json

from wizard import security
from wizard.patterns import class_members
from wizard.security import json_text, reveal_format_characters


def _by_whole_class(text: str) -> str:
    return security._INVISIBLE_FORMAT.sub(security._escape, text)


def test_every_ascii_character_is_revealed_as_the_whole_class_reveals_it():
    for code in range(128):
        text = f"a{chr(code)}b"
        assert reveal_format_characters(text) == _by_whole_class(text), repr(text)
    assert reveal_format_characters("x\x1b[2Jy\x7f") == "x\\u001b[2Jy\\u007f"
    assert reveal_format_characters("line one\nline two\ttab\r") == "line one\nline two\ttab\r"


def test_the_ascii_members_are_exactly_the_whole_classes_ascii_members():
    whole = {chr(c) for c in range(128) if security._INVISIBLE_FORMAT.search(chr(c))}
    short = {chr(c) for c in range(128) if security._ASCII_INVISIBLE.search(chr(c))}
    assert whole == short and "\x1b" in short and "\n" not in short


def test_text_beyond_ascii_still_goes_through_the_whole_class():
    assert reveal_format_characters("données\u202eevil") == "données\\u202eevil"
    assert reveal_format_characters("tag\U000e0041") == "tag\\udb40\\udc41"
    # Bytes held as surrogates that spell UTF-8 are read as what they spell first (an RLO in a C-locale argument).
    assert reveal_format_characters("x\udce2\udc80\udcaey") == "x\\u202ey"
    assert reveal_format_characters("l\udcffn") == "l\udcffn"  # a byte that is no UTF-8 stays itself


def test_json_text_escapes_lone_surrogates_and_leaves_everything_else():
    assert json_text({"path": "/opt/l\udcff"}) == '{"path": "/opt/l\\udcff"}'
    assert json_text({"folder": "données"}) == '{"folder": "données"}'
    assert json_text({"plain": "ascii"}) == json.dumps({"plain": "ascii"}, ensure_ascii=False)
    assert json.loads(json_text(["\ud800x"])) == ["\ud800x"]


def test_the_set_of_invisible_characters_is_exactly_what_the_class_matches():
    every = "".join(map(chr, range(0x110000)))
    matched = frozenset(security._INVISIBLE_FORMAT.pattern.findall(every))
    assert class_members(security._INVISIBLE_CLASS) == matched
    surrogates = frozenset(map(chr, range(0xD800, 0xE000)))
    assert class_members(security._INVISIBLE_CLASS, without=("\ud800", "\udfff")) == matched - surrogates


def test_text_beyond_ascii_without_an_invisible_character_is_passed_on_as_it_is():
    for text in ("GraphCast 1° · ✓ done …", "données", "温度 2m", "Ω\u00a0kelvin"):
        assert reveal_format_characters(text) is text
