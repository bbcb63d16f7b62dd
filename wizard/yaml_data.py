"""YAML read as plain data: libyaml's C parser where PyYAML ships it, PyYAML's own safe parser otherwise.

Both build only dicts, lists, strings and numbers (no tag constructs an object or runs code).

The wizard's own tables (`wizard/data/*.yaml`, read by `detect` on every run) go through `load_table`,
which keeps their parsed form as JSON in the state's cache, keyed by the file's path, size and mtime:
`detect --json` then needs neither PyYAML's import nor its parser, the larger part of its start-up.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

from wizard import bounded, paths


class YAMLError(ValueError):
    """A file that is not YAML, or not the data expected; PyYAML's own errors are turned into this."""

    def __init__(self, message: str, line: int | None = None, problem: str | None = None) -> None:
        super().__init__(message)
        self.line = line
        """1-based line of the problem, when the parser knows it."""
        self.problem = problem


def load_data(text: str):
    """Parse `text` as YAML data; raises `YAMLError` (with the line, when known) on malformed input."""
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
    found = re.search(r"\d{4301,}", text)
    return text.count("\n", 0, found.start()) + 1 if found else None


def load_user_data(text: str):
    """Parse a file a person gave (answers, …): aliases and deep nesting refused first (`bounded`), then
    `load_data`. Raises `bounded.ParseLimitError` or `YAMLError`."""
    import yaml  # deferred for start-up time, as in load_data

    try:
        bounded.check_yaml(text)
    except yaml.YAMLError as exc:
        raise _wizard_error(exc) from None
    return load_data(text)


def _wizard_error(exc) -> YAMLError:
    mark = getattr(exc, "problem_mark", None)
    return YAMLError(str(exc), line=mark.line + 1 if mark is not None else None, problem=getattr(exc, "problem", None))


def load_table(path: Path):
    """The data in one of the wizard's YAML tables, from the JSON cache when it is as new as the file."""
    stat = path.stat()
    key = {"path": str(path), "size": stat.st_size, "mtime_ns": stat.st_mtime_ns}
    cache = paths.state_dir() / "cache" / "tables" / f"{path.stem}.json"
    try:
        cached = json.loads(cache.read_text(encoding="utf-8"))
        if cached.get("key") == key:
            return cached["data"]
    except (OSError, ValueError, AttributeError, KeyError):
        pass  # no cache yet, or an unreadable one: parse the YAML
    data = load_data(path.read_text(encoding="utf-8"))
    try:
        cache.parent.mkdir(parents=True, exist_ok=True)
        partial = cache.with_name(f".{cache.name}.{os.getpid()}")
        partial.write_text(json.dumps({"key": key, "data": data}), encoding="utf-8")
        partial.replace(cache)
    except (OSError, TypeError, ValueError):  # a read-only state folder, or data JSON cannot hold: no cache
        pass
    return data


def dump_data(data) -> str:
    """`data` as block-style YAML in the given key order (what a person edits, e.g. an answers file)."""
    import yaml  # deferred for start-up time, as in load_data

    return yaml.safe_dump(data, sort_keys=False)
