"""Reads the files a user or another program hands the wizard with limits, so a bad one is a sentence.

Recipe, answers, facts and history files come from other people, other machines and older or newer
wizards. Read naively, a 2 GB file, a YAML "billion laughs" alias bomb or ten thousand nested
brackets end in `MemoryError` or `RecursionError` — a traceback and, in an install, a lost run. So
every such file is read here: a size cap per kind of file (checked before the whole file is read), a
UTF-8 BOM accepted (editors on other systems write one), YAML aliases refused (no recipe or answers
file needs one, and they are how the bombs expand), nesting deeper than any real file has refused
with the line it happens on, and — where a repeated key would silently win — duplicate JSON keys
named with both lines.

Every function raises `ParseLimitError` (a `ValueError`) whose text is a sentence *without* the file
name; callers prefix the file and choose the exit code (a user's file: 2; the state's history: set
aside, see `wizard.history.store`).
"""

from __future__ import annotations

import json
import os
import re
import stat
import time
from pathlib import Path

TYPE_CHECKING = False  # `typing.TYPE_CHECKING` without importing `typing` (start-up time, issue 23)
if TYPE_CHECKING:
    from typing import Any, BinaryIO

#: Size caps, in bytes. The real files are a few KiB (recipes, answers), tens of KiB (facts) and,
#: for a history of years of installs, a few MiB.
RECIPE_BYTES = 256 * 1024
ANSWERS_BYTES = 256 * 1024
FACTS_BYTES = 8 * 1024 * 1024
HISTORY_BYTES = 32 * 1024 * 1024
MARKER_BYTES = 1024 * 1024
#: How much of a log the report and the history read (the end of the file).
LOG_TAIL_BYTES = 256 * 1024
#: A bundle's manifest and a lock list a few hundred files with their hashes: tens to hundreds of KiB.
MANIFEST_BYTES = 8 * 1024 * 1024
LOCK_BYTES = 8 * 1024 * 1024
#: The forecast assets' small files — a `SHA256SUMS`, a bucket listing page, the cache's `recorded.json` —
#: name a few dozen files (a whole mirror of the bucket: under 100 KiB). An endless or sparse one must not
#: fill a shared login node's memory.
ASSET_INDEX_BYTES = 4 * 1024 * 1024
#: A GraphCast checkout's git files: its index lists a few hundred files (tens of KiB; a 20,000-file index with
#: git's extensions stays under a few MiB), a pack index 28 bytes an object, a loose object one compressed file. A
#: `truncate -s 3G .git/index` was read whole (3 GB of memory; eleventh hostile pass #110).
GIT_INDEX_BYTES = 64 * 1024 * 1024
GIT_PACK_INDEX_BYTES = 64 * 1024 * 1024
GIT_LOOSE_OBJECT_BYTES = 32 * 1024 * 1024
#: Nesting: a recipe is 4 levels deep, facts and history about 6.
YAML_DEPTH = 20
JSON_DEPTH = 64

BOM = "\ufeff"


class ParseLimitError(ValueError):
    """A file over a limit or malformed in a way that would hurt to parse; the text is one sentence."""


def _size_text(n: int) -> str:
    return f"{n / 2**20:.0f} MiB" if n >= 2**20 else f"{n // 1024} KiB"


def read_text(path: str | os.PathLike[str], limit: int, *, streams_ok: bool = False) -> str:
    """The file's text: at most `limit` bytes, UTF-8 (a BOM is dropped). OSError passes through.

    Only a regular file is opened (`not_regular`): a state or env file replaced by a FIFO hung every command
    that read it, and a link to /dev/zero was read until memory ran out (seventh hostile pass 3a/3c/3f).
    `streams_ok` is for a path the user names on the command line, where `<(…)` or /dev/stdin is a wish."""
    why = not_regular(path)
    if why is not None and not streams_ok:
        raise ParseLimitError(why)
    if why is not None:
        data = _read_stream(path, limit, why)
    else:
        with open(path, "rb") as handle:
            data = handle.read(limit + 1)
    if len(data) > limit:
        raise ParseLimitError(f"it is larger than {_size_text(limit)}, far more than such a file ever holds")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ParseLimitError(f"it is not a text file (not UTF-8 at byte {exc.start})") from None
    return text[1:] if text.startswith(BOM) else text


#: How long a stream named on the command line (`<(…)`, a FIFO, /dev/stdin) may take to be written and closed.
STREAM_SECONDS = 15.0


def _read_stream(path: str | os.PathLike[str], limit: int, kind: str) -> bytes:
    """At most `limit + 1` bytes of a stream, waiting at most `STREAM_SECONDS` for it to be written and ended.

    Why: a plain `open` of a named pipe that nobody writes to blocks for ever, and `install --yes --answers FIFO`,
    run unattended, hung until something killed it (fifteenth hostile pass P5). The stream is opened without
    blocking and read as it comes; a pipe with no writer yet reads as ended, so an end before any byte is waited
    out too (the writer of `cat f > fifo &` may open it a moment later).

    Only a named pipe can have a writer still to come: an end read from anything else (/dev/null, a pipe whose
    writer closed it, `<(true)`, a closed stdin given as /dev/stdin) is the end, answered at once (31st hostile
    pass (part A) P8: `--answers /dev/null` waited 15 s, then said "nothing was written to it")."""
    import select  # deferred: only a stream waits, and every command reads files through this module (issue 23)

    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    try:
        late_writer = _named_pipe(fd)
        deadline = time.monotonic() + STREAM_SECONDS
        data = bytearray()
        while len(data) <= limit:
            left = deadline - time.monotonic()
            if left <= 0:
                what = "nothing was written to it" if not data else "it was not closed"
                raise ParseLimitError(f"{kind.removesuffix(', not a regular file')} and {what} within "
                                      f"{STREAM_SECONDS:.0f} s")
            if not select.select([fd], [], [], min(left, 0.2))[0]:
                continue
            try:
                block = os.read(fd, min(1 << 16, limit + 1 - len(data)))
            except BlockingIOError:
                continue
            if block:
                data += block
            elif data or not late_writer:
                break
            else:
                time.sleep(min(0.05, max(left, 0)))
        return bytes(data)
    finally:
        os.close(fd)


def _named_pipe(fd: int) -> bool:
    """Whether open `fd` is a named pipe (a FIFO in a folder), the one stream a writer may still open after an end
    was read. An anonymous pipe (`<(…)`, a shell's `|`) was made with its writer, so its end is final; the kernel
    names it `pipe:[N]` where a named one has its path. Unknown (no /proc): a pipe is taken as named."""
    if not stat.S_ISFIFO(os.fstat(fd).st_mode):
        return False
    try:
        return not os.readlink(f"/proc/self/fd/{fd}").startswith("pipe:")
    except OSError:
        return True


_KINDS = ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a named pipe (FIFO)"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"))


def not_regular(path: str | os.PathLike[str]) -> str | None:
    """Why `path` (links followed) cannot be read as a file — "it is a named pipe (FIFO), not a regular file" —
    or None for a regular file. A missing path raises FileNotFoundError (the caller's "no such file").

    One check for every small file the wizard reads by name: a FIFO blocks the reader for ever and a device
    (`/dev/zero`) never ends, so neither is opened; and the sentence says what the path is, not "no such file".
    """
    mode = os.stat(path).st_mode
    if stat.S_ISREG(mode):
        return None
    kind = next((name for test, name in _KINDS if test(mode)), "not a plain file")
    return f"it is {kind}, not a regular file"


def not_a_folder(path: str | os.PathLike[str]) -> str:
    """Why `path` (links followed), which is not a folder, cannot be used as one: "no such folder", or what it is
    instead ("it is a file, not a folder"). One wording for every option that takes a folder (--bundle,
    --assets, --find-links): a bundle's manifest.json given as --bundle was called "no such folder", though it
    was right there."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return "no such folder"
    except OSError as exc:
        return f"it cannot be looked at ({exc.strerror or exc})"
    if stat.S_ISREG(mode):
        return "it is a file, not a folder"
    kind = next((name for test, name in _KINDS if test(mode)), "not a plain file")
    return f"it is {kind}, not a folder"


def read_regular_text(path: str | os.PathLike[str], limit: int) -> str:
    """`read_text` for a path that must be a regular file: anything else is a `ParseLimitError` saying what it is
    (checked before opening, so a FIFO never blocks). OSError (a missing file included) passes through."""
    why = not_regular(path)
    if why is not None:
        raise ParseLimitError(why)
    return read_text(path, limit)


def read_lenient_text(path: str | os.PathLike[str], limit: int) -> str:
    """A regular file's text with undecodable bytes replaced, at most `limit` bytes (`read_bytes`' rules): for the
    files the wizard only looks into — a package's METADATA or `direct_url.json`, a conda record, a CUDA header, a
    checkout's `setup.py`. Why: these were read whole with `read_text()`, so one linked to /dev/zero grew the wizard to
    24 GB until the kernel killed it, and a FIFO hung it (seventeenth hostile pass P4). ParseLimitError (a
    ValueError) for anything else; OSError passes through."""
    return read_bytes(path, limit).decode("utf-8", "replace")


def read_bytes(path: str | os.PathLike[str], limit: int) -> bytes:
    """A regular file's bytes, at most `limit` of them: a larger file (one grown by `truncate`, a sparse one) is a
    `ParseLimitError` before its content is read, never a partial read taken for the whole, and a FIFO or device is
    never opened. OSError passes through."""
    why = not_regular(path)
    if why is not None:
        raise ParseLimitError(why)
    size = os.stat(path).st_size
    if size > limit:
        raise ParseLimitError(f"it is {_size_text(size)}, more than the {_size_text(limit)} such a file ever holds")
    with _open_regular(path) as handle:
        data = handle.read(limit + 1)
    if len(data) > limit:
        raise ParseLimitError(f"it is larger than {_size_text(limit)}, far more than such a file ever holds")
    return data


def read_head(path: str | os.PathLike[str], limit: int) -> bytes:
    """The first `limit` bytes of a regular file (a config or `.pth` file: what follows is never needed); b"" for
    anything else — a FIFO is never opened, a device never read. OSError passes through."""
    if not_regular(path) is not None:
        return b""
    with open(path, "rb") as handle:
        return handle.read(limit)


def read_regular_head(path: str | os.PathLike[str], limit: int) -> bytes:
    """The first `limit` bytes of a regular file; anything else is a `ParseLimitError` saying what it is. Opened
    without blocking and looked at again once open, so a file swapped for a FIFO between the look and the open
    never blocks the reader (35th hostile pass (part A) P6: a git HEAD that was a FIFO). OSError passes through."""
    why = not_regular(path)
    if why is not None:
        raise ParseLimitError(why)
    with _open_regular(path) as handle:
        return handle.read(limit)


def _open_regular(path: str | os.PathLike[str]) -> BinaryIO:
    """`path` opened for reading, without blocking, and checked once open to be a regular file (`ParseLimitError`
    otherwise): a file swapped for a FIFO after `not_regular` looked at it never blocks the reader."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY)
    handle = open(fd, "rb")  # noqa: SIM115 - handed to the caller's `with`
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):
        handle.close()
        kind = next((name for test, name in _KINDS if test(mode)), "not a plain file")
        raise ParseLimitError(f"it is {kind}, not a regular file")
    return handle


def read_stream_text(stream: BinaryIO, limit: int) -> str:
    """A stream's text (an HTTP answer): at most `limit` bytes, UTF-8 with undecodable bytes replaced.

    Raises `ParseLimitError` when the stream holds more than `limit` bytes, rather than silently using the
    first part of it (a cut `SHA256SUMS` would drop checksums without a word).
    """
    data = stream.read(limit + 1)
    if len(data) > limit:
        raise ParseLimitError(f"it is larger than {_size_text(limit)}, far more than such a file ever holds")
    return strip_bom(data.decode("utf-8", errors="replace"))


def strip_bom(text: str) -> str:
    return text[1:] if text.startswith(BOM) else text


def check_yaml(text: str, *, max_depth: int = YAML_DEPTH) -> None:
    """Refuse YAML aliases and nesting deeper than `max_depth`, before anything is built from it.

    Runs libyaml's event parser (no recursion, no objects built); a YAML syntax error passes through as
    `yaml.YAMLError` for the caller's own message.
    """
    import yaml

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    try:
        _walk_events(yaml.parse(text, Loader=loader), max_depth)
    except yaml.MarkedYAMLError as exc:
        # Newer PyYAML (6.0.4) stops deep flow nesting in its scanner, before the parser yields the events
        # the depth count reads. Whatever that library says, measure the nesting ourselves up to where it
        # stopped, and say it in the wizard's own sentence.
        mark = exc.problem_mark or exc.context_mark
        upto = mark.index if mark is not None else len(text)
        deepest, line = flow_depth(text, upto + 1)
        if deepest > max_depth:
            raise ParseLimitError(f"line {line} is nested more than {max_depth} levels deep; "
                                  "no valid file is") from None
        raise


def flow_depth(text: str, upto: int) -> tuple[int, int]:
    """The deepest flow nesting (`[`/`{`) in `text[:upto]` outside quotes and comments, and its line."""
    depth = deepest = 0
    line = deepest_line = 1
    quote = ""
    comment = False
    for char in text[:upto]:
        if char == "\n":
            line += 1
            comment = False
        elif comment:
            continue
        elif quote:
            quote = "" if char == quote else quote
        elif char in "\"'":
            quote = char
        elif char == "#":
            comment = True
        elif char in "[{":
            depth += 1
            if depth > deepest:
                deepest, deepest_line = depth, line
        elif char in "]}":
            depth = max(0, depth - 1)
    return deepest, deepest_line


def _walk_events(events, max_depth: int) -> None:
    import yaml

    depth = 0
    for event in events:
        if isinstance(event, yaml.AliasEvent):
            raise ParseLimitError(f"line {event.start_mark.line + 1} uses a YAML alias (*{event.anchor}); "
                                  "aliases are not allowed here, write the value out")
        if isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
            depth += 1
            if depth > max_depth:
                raise ParseLimitError(f"line {event.start_mark.line + 1} is nested more than {max_depth} levels "
                                      "deep; no valid file is")
        elif isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
            depth -= 1


class _Duplicate(Exception):
    def __init__(self, key: str) -> None:
        self.key = key


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise _Duplicate(key)
        out[key] = value
    return out


def _key_lines(text: str, key: str) -> list[int]:
    pattern = re.compile(re.escape(json.dumps(key)) + r"\s*:")
    return [text.count("\n", 0, m.start()) + 1 for m in pattern.finditer(text)]


def _depth(value: Any, limit: int) -> int:
    """Nesting depth of parsed JSON, stopping as soon as `limit` is passed."""
    deepest = 0
    stack = [(value, 1)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, (dict, list)):
            deepest = max(deepest, level)
            if deepest > limit:
                return deepest
            stack.extend((child, level + 1) for child in (item.values() if isinstance(item, dict) else item))
    return deepest


def loads_json(text: str, *, max_depth: int = JSON_DEPTH, duplicates: bool = False) -> Any:
    """`json.loads` that turns the ways a hostile file hurts into `ParseLimitError` sentences.

    `duplicates=True` refuses a key that appears twice in one object, naming both lines.
    A plain syntax error stays a `json.JSONDecodeError` (a ValueError) for the caller's own message.
    """
    text = strip_bom(text)
    try:
        value = json.loads(text, object_pairs_hook=_no_duplicates if duplicates else None)
    except _Duplicate as dup:
        lines = _key_lines(text, dup.key)
        where = f" (lines {lines[0]} and {lines[1]})" if len(lines) >= 2 else ""
        raise ParseLimitError(f"the key {json.dumps(dup.key)} appears twice in one object{where}; "
                              "keep one") from None
    except RecursionError:
        raise ParseLimitError(f"it is nested more than {max_depth} levels deep; no valid file is") from None
    except MemoryError:
        raise ParseLimitError(MEMORY_WORDS) from None
    except ValueError as exc:
        if isinstance(exc, json.JSONDecodeError):
            raise
        # Python's own limit on a number's digits (sixteenth hostile pass P5: a 5001-digit `version` was "a bug").
        raise ParseLimitError("it holds a number far longer than any setting (more than 4300 digits)") from None
    if _depth(value, max_depth) > max_depth:
        raise ParseLimitError(f"it is nested more than {max_depth} levels deep; no valid file is")
    return value


#: What a file that could not be read in the memory left is called (a `ulimit -v`, a nearly full machine).
MEMORY_WORDS = "it could not be read in the memory left (far larger, or far more deeply nested, than any such file)"

#: The wizard's own caches in the state (`cache/tables/*.json`: the parsed tables, 150 KiB today).
CACHE_BYTES = 8 * 1024 * 1024


def read_json(path: str | os.PathLike[str], limit: int, *, lenient: bool = False, max_depth: int = JSON_DEPTH) -> Any:
    """The JSON value of the regular file `path`: at most `limit` bytes, nested at most `max_depth` levels.

    The one reader for every JSON file the wizard reads that it did not take from the user's command line: the
    state's files and caches (`cache/tables/*.json`, `cache/download-sizes.json`, `last-assets.json`, the assets'
    `recorded.json`) and other tools' files it looks into (a Jupyter `kernel.json`, a conda record, a package's
    `direct_url.json`, a CUDA `version.json`). A FIFO is never opened, a device never read (`not_regular`), a file
    past `limit` never read whole, and `RecursionError`, `MemoryError` and a syntax error all become one
    `ParseLimitError` (a ValueError, which every caller answers: a cache is parsed again, another tool's file passed
    over) whose text is a sentence naming the file. `lenient` replaces bytes that are not UTF-8 (another tool's file).
    OSError (a missing file included) passes through.

    Why: 30th hostile pass (part A) P3/P4 — the table cache was read with a plain `read_text` (a FIFO there hung
    every `detect`, a link to /dev/zero grew it to the memory limit), and seven readers called `json.loads` past
    `except ValueError`, so a few KB of `{"a":{"a":…` ended `detect`, `kernel list`, `diagnose --env` and `forecast`
    in "this is a bug"."""
    try:
        text = read_lenient_text(path, limit) if lenient else read_text(path, limit)
        return loads_json(text, max_depth=max_depth)
    except json.JSONDecodeError as exc:
        raise ParseLimitError(f"{os.fspath(path)} is not valid JSON (line {exc.lineno}: {exc.msg})") from None
    except ParseLimitError as exc:
        raise ParseLimitError(f"{os.fspath(path)} cannot be read: {exc}") from None
    except (MemoryError, RecursionError):
        raise ParseLimitError(f"{os.fspath(path)} cannot be read: {MEMORY_WORDS}") from None


def loads_toml(text: str, *, max_depth: int = JSON_DEPTH) -> Any:
    """`tomllib.loads` with `loads_json`'s sentences for the ways a hostile file hurts: nesting past `max_depth`
    (tomllib recursed into a RecursionError, so a 200 KB `pylock.toml` of nested arrays ended as "an error of its
    own": seventeenth hostile pass P5) and numbers past Python's digit limit are `ParseLimitError`; a plain syntax
    error stays `TOMLDecodeError` (a ValueError) for the caller's own message."""
    try:  # deferred for start-up time: only the commands that read a lock or an installer's settings parse TOML
        import tomllib
    except ImportError:  # Python 3.10: the same parser, as the tomli package (a dependency there)
        import tomli as tomllib  # type: ignore[no-redef]
    try:
        value = tomllib.loads(strip_bom(text))
    except RecursionError:
        raise ParseLimitError(f"it is nested more than {max_depth} levels deep; no valid file is") from None
    except tomllib.TOMLDecodeError:
        raise
    except ValueError:
        raise ParseLimitError("it holds a number far longer than any setting (more than 4300 digits)") from None
    if _depth(value, max_depth) > max_depth:
        raise ParseLimitError(f"it is nested more than {max_depth} levels deep; no valid file is")
    return value


def read_tail(path: str | os.PathLike[str], limit: int = LOG_TAIL_BYTES) -> str:
    """The last `limit` bytes of a regular file as text (undecodable bytes replaced)."""
    with open(path, "rb") as handle:
        handle.seek(0, os.SEEK_END)
        size = handle.tell()
        handle.seek(max(0, size - limit))
        data = handle.read(limit)
    return data.decode("utf-8", errors="replace")


def is_regular_file_under(path: str | os.PathLike[str], folder: str | os.PathLike[str]) -> bool:
    """Whether `path` is a regular file (not a link, device or FIFO) inside `folder`.

    For paths read from a state file: a history entry's `log` must be one of the wizard's own logs,
    never `/etc/shadow`, a FIFO that blocks the reader, or a link out of the folder.
    """
    return why_not_regular_file_under(path, folder) is None


def why_not_regular_file_under(path: str | os.PathLike[str], folder: str | os.PathLike[str]) -> str | None:
    """Why `path` is not read as a regular file inside `folder`, in words after "not shown: " (None when it is).

    Why: `report` said "the log file could not be read" for a plain, readable log that a hand-edited history placed
    outside the state's logs/ (25th hostile pass (part B) P6); the refusal is right, its reason must be the true one."""
    try:
        candidate = Path(path)
        if not candidate.is_absolute():
            return f"{path} is not an absolute path (the history was edited by hand?)"
        info = os.lstat(candidate)
        if stat.S_ISLNK(info.st_mode):
            return f"{path} is a link; only the state's own log files are read"
        if not stat.S_ISREG(info.st_mode):
            return f"{path} is not a regular file (a FIFO, device or folder); only the state's own log files are read"
        root = Path(folder).resolve()
        if root not in candidate.resolve().parents:
            return (f"{path} lies outside this state's logs folder {root} (the history was edited by hand, or the "
                    "state was moved?); gc-wizard reads only its own logs")
        return None
    except FileNotFoundError:
        return f"{path} is gone"
    except (OSError, ValueError) as exc:
        return f"{path} could not be read ({getattr(exc, 'strerror', None) or exc})"
