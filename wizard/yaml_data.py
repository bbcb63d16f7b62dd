"""YAML read as plain data: libyaml's C parser where PyYAML ships it, PyYAML's own safe parser otherwise.

Both build only dicts, lists, strings and numbers (no tag constructs an object or runs code).

The wizard's own tables (`wizard/data/*.yaml`, read by `detect` on every run) go through `load_table`,
which keeps their parsed form as JSON in the state's cache, keyed by the file's path, size and mtime:
`detect --json` then needs neither PyYAML's import nor its parser, the larger part of its start-up.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from wizard import bounded, paths
from wizard.patterns import LazyPattern, plain_whole_number
from wizard.security import show_characters

TYPE_CHECKING = False  # `typing.TYPE_CHECKING` without importing `typing` (start-up time, issue 23)
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, TypeVar

    T = TypeVar("T")


class YAMLError(ValueError):
    """A file that is not YAML, or not the data expected; PyYAML's own errors are turned into this."""

    def __init__(self, message: str, line: int | None = None, problem: str | None = None) -> None:
        super().__init__(message)
        self.line = line
        """1-based line of the problem, when the parser knows it."""
        self.problem = problem


#: What YAML's reader refuses anywhere in a file (PyYAML's own set): C0 and C1 controls besides tab, newline,
#: carriage return and NEL; DEL; lone surrogates; U+FFFE and U+FFFF.
#: Compiled when first used (`wizard.patterns.LazyPattern`): its ranges took 5 ms to compile, on the start-up path of
#: every command that imports this module, `detect --json` among them (issue 23).
_UNREADABLE_RE = LazyPattern("[^\x09\x0A\x0D\x20-\x7E\x85\xA0-\uD7FF\uE000-\uFFFD\U00010000-\U0010FFFF]")


def check_characters(text: str) -> None:
    """Refuse a character YAML cannot hold, by its line, before PyYAML reads the text.

    Why: PyYAML's reader says such a character in its own words (`unacceptable character #x0000: control
    characters are not allowed\n  in "<unicode string>", position 30`): no line, a character position that
    libyaml counts in UTF-8 bytes, and an escaped newline in the wizard's one-line message (nineteenth hostile
    pass P8). A lone surrogate even stopped libyaml with a UnicodeEncodeError before it read anything."""
    found = _UNREADABLE_RE.search(text)
    if found is None:
        return
    import unicodedata  # deferred: only a refused file needs it, and `detect` reads its tables through here (issue 23)

    char = found.group()
    line = text.count("\n", 0, found.start()) + 1
    kind = {"Cc": "a control character", "Cs": "half of a surrogate pair"}.get(unicodedata.category(char),
                                                                            "a character Unicode reserves")
    problem = f"the character {show_characters([char])}, {kind}, is not allowed in YAML; delete it"
    raise YAMLError(f"line {line}: {problem}", line=line, problem=problem)


def load_data(text: str):
    """Parse `text` as YAML data; raises `YAMLError` (with the line, when known) on malformed input."""
    check_characters(text)
    import yaml  # deferred for start-up time: `detect` reads its tables from the cache without it

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # C-accelerated on manylinux wheels
    try:
        return yaml.load(text, Loader=loader)  # noqa: S506 - (C)SafeLoader constructs plain data only
    except yaml.YAMLError as exc:
        raise _wizard_error(exc) from None
    except ValueError as exc:  # Python's limit on a number's digits, met while building the value (16th pass P5)
        raise YAMLError(str(exc), line=_long_number_line(text),
                        problem="a number far longer than any setting (more than 4300 digits)") from None


def _long_number_line(text: str) -> int | None:
    """The line (from 1) of the first run of more than 4300 digits in `text`, or None."""
    found = re.search(r"[0-9]{4301,}", text)
    return text.count("\n", 0, found.start()) + 1 if found else None


def load_user_data(text: str):
    """Parse a file a person gave (answers, …): aliases and deep nesting refused first (`bounded`), then
    `load_data`. Raises `bounded.ParseLimitError` or `YAMLError`."""
    import yaml  # deferred for start-up time, as in load_data

    check_characters(text)
    try:
        bounded.check_yaml(text)
        root = yaml.compose(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except yaml.YAMLError as exc:
        raise _wizard_error(exc) from None
    _refuse_unwritten_numbers(root, "")
    return load_data(text)


class NumberNotWritten(YAMLError):
    """A whole number not written in the digits 0-9 (`patterns.plain_whole_number`), which YAML 1.1 reads as one."""


def _refuse_unwritten_numbers(node, key: str) -> None:
    """`NumberNotWritten` for the first int of `node`'s tree (a file a person gave) that is not written as a person
    writes a whole number: `version: 0x1` is 1 to YAML 1.1, `017` is 15 and `1:30` is 90. The rule a recipe's
    numbers take (`recipes.loader`'s `integer`), by the one helper (`patterns.plain_whole_number`); `key` names where
    it is (`options.jobs`, `find_links[0]`)."""
    import yaml  # loaded by the caller already

    if isinstance(node, yaml.MappingNode):
        for name, value in node.value:
            label = str(name.value) if isinstance(name, yaml.ScalarNode) else "?"
            _refuse_unwritten_numbers(value, f"{key}.{label}" if key else label)
    elif isinstance(node, yaml.SequenceNode):
        for i, item in enumerate(node.value):
            _refuse_unwritten_numbers(item, f"{key}[{i}]")
    elif isinstance(node, yaml.ScalarNode) and node.tag == "tag:yaml.org,2002:int":
        try:
            if plain_whole_number(node.value, signed=True) is not None:
                return
            read = yaml.SafeLoader("").construct_yaml_int(node)
        except (ValueError, yaml.YAMLError):  # past 4300 digits: `load_data` says so
            return
        line = node.start_mark.line + 1
        problem = (f"'{key or 'the value'}' is {node.value}, which is not a whole number written in the digits 0-9 "
                   f"only, such as 12 (YAML reads it as the number {read})")
        raise NumberNotWritten(f"line {line}: {problem}", line=line, problem=problem)


def compose_user_nodes(text: str):
    """The node tree of a file a person wrote (a recipe), for a reader that checks each node's line and tag:
    characters, aliases and nesting refused first, as in `load_user_data`. Raises `bounded.ParseLimitError` or
    `YAMLError` (with the line and the problem in plain words, when the parser knows them)."""
    import yaml  # deferred for start-up time, as in load_data

    check_characters(text)
    try:
        bounded.check_yaml(text)
        return yaml.compose(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except yaml.YAMLError as exc:
        raise _wizard_error(exc) from None


def _wizard_error(exc) -> YAMLError:
    mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
    problem = getattr(exc, "problem", None) or getattr(exc, "context", None)
    if problem is None and getattr(exc, "reason", None):  # a reader error `check_characters` did not foresee
        problem = f"the character {show_characters([chr(exc.character)])} is not allowed in YAML ({exc.reason})" \
            if isinstance(getattr(exc, "character", None), int) else str(exc.reason)
    line = mark.line + 1 if mark is not None else None
    return YAMLError(f"line {line}: {problem}" if line and problem else " ".join(str(exc).split()),
                     line=line, problem=problem)


#: What a table's parser (`load_table`'s `parse`) raises for data of the wrong shape: a missing key or row, a value of
#: the wrong type, a number that is no number (`float("x")`, `Version("x")`) or out of range.
SHAPE_ERRORS = (LookupError, TypeError, ValueError, AttributeError, ArithmeticError)


def load_table(path: Path, parse: Callable[[Any], T]) -> T:
    """`parse` of the data in one of the wizard's YAML tables, from the JSON cache when it is as new as the file.

    `parse` is the table's own reader: it turns the data into what its caller uses, and raises one of
    `SHAPE_ERRORS` for data of the wrong shape. The cache is used only when its data passes `parse`: a cache whose
    data was swapped or cut short while its key still matched was trusted, so `detect` blamed the intact YAML in the
    package ("the model memory table …/model_memory.yaml is unreadable") and `detect --assume-driver` stopped as "a
    bug" (38th hostile pass (part B) P4). Such a cache is parsed again from the YAML and rewritten, like an
    unreadable one; what `parse` raises on the YAML's own data goes to the caller, whose words name the YAML.

    The cache file is named by the table's name and its file's device and inode, so two copies of the wizard that
    share a state folder (a pipx install and a development checkout) keep a cache each: named by the table's name
    alone, each run of one replaced the other's, and every `detect` parsed the YAML again."""
    stat = path.stat()
    key = {"path": str(path), "size": stat.st_size, "mtime_ns": stat.st_mtime_ns}
    tables = paths.state_subfolder("cache", "tables")  # None: no state, or a cache another user could swap
    if tables is None:
        return parse(load_data(path.read_text(encoding="utf-8")))
    cache = tables / f"{path.stem}-{stat.st_dev:x}-{stat.st_ino:x}.json"
    try:
        # the one bounded reader (`bounded.read_json`): a FIFO or a link to /dev/zero there hung or filled `detect`,
        # and a deep one ended it in "a bug" (30th hostile pass (part A) P3/P4); any of them is only a cache, parsed again
        cached = bounded.read_json(cache, bounded.CACHE_BYTES)
        if isinstance(cached, dict) and cached.get("key") == key and "data" in cached:
            return parse(cached["data"])
    except (OSError, *SHAPE_ERRORS):
        pass  # no cache yet, an unreadable one, or data not of the table's shape: parse the YAML
    data = load_data(path.read_text(encoding="utf-8"))
    parsed = parse(data)  # before the cache is written: a cache holds only data its table's reader takes
    try:  # a new file (O_EXCL, O_NOFOLLOW) then a rename: never an open of a name another user could have linked
        paths.write_state_cache(cache, json.dumps({"key": key, "data": data}))
    except (OSError, TypeError, ValueError):  # a read-only state folder, or data JSON cannot hold: no cache
        pass
    return parsed


def dump_data(data) -> str:
    """`data` as block-style YAML in the given key order (what a person edits, e.g. an answers file)."""
    import yaml  # deferred for start-up time, as in load_data

    return yaml.safe_dump(data, sort_keys=False)
