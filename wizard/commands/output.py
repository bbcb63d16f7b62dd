"""Provides the CLI's output conventions: one JSON value as the last stdout line, plain errors."""

from __future__ import annotations

import json
import os
import sys

from wizard.patterns import ascii_digits
from wizard.security import cut, json_text, redact_secrets, redact_value

TYPE_CHECKING = False  # `typing.TYPE_CHECKING` without importing `typing` (start-up time, issue 23)
if TYPE_CHECKING:
    from typing import Any


def emit_json(value: Any) -> None:
    """Print `value` as one compact JSON line (docs/interface.md: the last line of stdout is one JSON value).

    Each string is masked as a value, not in the serialised text: there a newline is `\\n`, so a masked
    `NAME=value` took the next line's first word with it. The CLI's stdout (`streams.GuardedStream`) masks a JSON
    line value by value itself, so the values are masked here only for any other stdout (a caller of the
    library, a test's capture): masking twice was a tenth of `detect --json`'s own time (issue 23)."""
    if not getattr(sys.stdout, "masks_json_lines", False):
        value = redact_value(value)
    sys.stdout.write(json_line(value) + "\n")
    sys.stdout.flush()


def json_line(value: Any) -> str:
    """`value` as one `--json` line (`security.json_text`), each string holding a byte that is not UTF-8 spelled as
    every sentence spells it, `\\xff` (`paths.as_shown`): the line is valid UTF-8 JSON with no lone surrogate in it
    whatever the locale. Every command's `--json` line and its error line (`guard.emit_error_json`) are written so.

    Why: such a byte was written as JSON's `\\udcff` escape, which Python reads back as the byte but jq and other
    readers turn into U+FFFD or refuse (review: `history --json` under `LC_ALL=C`). kernel.json keeps the escape:
    jupyter_client, which reads it with Python, needs the exact path."""
    text = json_text(value, default=str)
    if "`gc-wizard" in text:  # a finding's fix quoting the program: named as the printed fix names it (walk 38 #2:
        text = json_text(_named(value), default=str)  # the JSON's fix said a bare `gc-wizard install`)
    if "\\ud" not in text:  # nearly every line: no escaped byte, nothing more to do
        return text
    from wizard.paths import as_shown  # deferred: only a line holding such a byte needs it (start-up time)

    def spelled(item: Any) -> Any:
        if isinstance(item, str):
            return as_shown(item)
        if isinstance(item, list):
            return [spelled(part) for part in item]
        if isinstance(item, dict):
            return {spelled(key): spelled(part) for key, part in item.items()}
        return item

    return json_text(spelled(json.loads(text)))


def _named(value: Any, fix: bool = False) -> Any:
    """`value` with every `fix` string in it (a finding's, at any depth) as `runnable` makes the printed Fix: line: a
    quoted `gc-wizard …` as a new login shell runs it. Other strings keep their words (what the CLI recorded)."""
    if isinstance(value, str):
        return runnable(value) if fix else value
    if isinstance(value, (list, tuple)):
        return [_named(part, fix) for part in value]
    if isinstance(value, dict):
        return {key: _named(part, key == "fix") for key, part in value.items()}
    return value


def say(text: str = "") -> None:
    sys.stdout.write(runnable(text) + "\n")
    sys.stdout.flush()


def warn(text: str) -> None:
    """`gc-wizard: TEXT` on stderr, on a terminal wrapped to its width between words as every error line is
    (`errors.for_terminal`; walk 38 #6: the terminal broke forecast's `Name or ser` / `vice not known.`); into a
    pipe or a file one line, for scripts."""
    from wizard.errors import (
        for_terminal,  # deferred: loaded already by every command; kept off this module's import
    )

    sys.stderr.write(for_terminal(f"gc-wizard: {runnable(text)}") + "\n")
    sys.stderr.flush()


def runnable(text: str) -> str:
    """`text` with each `gc-wizard …` it quotes as a new login shell runs it (`paths.runnable`): the CLI's one way out
    for every line, so a sentence built anywhere below (an error of `history.store`, `install.bundle`, the options)
    never prints a bare `gc-wizard` that is not on PATH (walk 37 #6). A command for another machine is not such a
    quote (`paths.elsewhere_command`)."""
    if "`gc-wizard" not in text:
        return text
    from wizard import paths  # deferred: only a line that quotes the program needs it (start-up time)

    return paths.runnable(text)


def confirm(question: str, *, assume_yes: bool) -> bool:
    """Ask a yes/no question on the terminal; with `--yes` say yes; with no terminal say no."""
    if assume_yes:
        return True
    if not sys.stdin.isatty():
        warn(f"{question} — no terminal to ask on; pass --yes to proceed.")
        return False
    try:
        answer = ask_line(f"{question} [y/N] ").strip().lower()
    except (EOFError, OSError) as exc:
        # The terminal went away while the question waited (24th hostile pass (part A) P1): the disk was blamed. A
        # hung-up terminal reads as an EIO or, once the kernel has hung it up, as an end of file: the same words.
        import errno  # deferred: only a question without an answer needs it

        from wizard.errors import (  # deferred: only a lost terminal needs it
            OperationFailed,
            terminal_gone_sentence,
        )

        cause = exc if isinstance(exc, OSError) else OSError(errno.EIO, "end of file")
        gone = terminal_gone_sentence(cause, 0) or terminal_gone_sentence(cause)
        if gone is not None:
            raise OperationFailed(f"no answer to “{question}”: {gone}. Nothing was done.") from None
        if isinstance(exc, EOFError):
            return False
        raise
    return answer in ("y", "yes")


def ask_line(prompt: str) -> str:
    """Write `prompt` where the user sees it, never on stdout, and read one answer line from standard input; an end
    of input raises EOFError, as `input()` does. Every question the CLI asks (`confirm`, `install`'s relayed
    installer questions) comes through here.

    Why (walk 27 #1): `input()` writes its prompt on stdout, so `rollback --json > out` and `remove ID --json > out`
    showed a blank terminal that waited, and the saved stdout's last line began with the question, not JSON
    (docs/interface.md: the last line of stdout is one JSON value). The prompt goes to stderr; where stderr is not a
    terminal (`2>log` on a terminal) to the terminal the answer is read from (standard input's), masked as the
    streams mask, so it is still seen; with neither, to stderr."""
    if _is_terminal(sys.stderr):
        _write(sys.stderr, prompt)
    else:
        try:
            with open(os.ttyname(sys.stdin.fileno()), "w", encoding="utf-8", errors="replace") as tty:
                _write(tty, redact_secrets(prompt, keep_user=True))
        except (AttributeError, ValueError, OSError):  # no terminal on stdin (a test's stand-in stream)
            _write(sys.stderr, prompt)
    line = sys.stdin.readline()
    if not line:
        raise EOFError
    return line.rstrip("\r\n")


def _write(stream, text: str) -> None:
    stream.write(text)
    stream.flush()


def _is_terminal(stream) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError, OSError):
        return False


def width() -> int:
    """The columns to lay text out in: the terminal's (COLUMNS wins, as in `shutil`), 80 when stdout is
    not a terminal (a pipe or a file: the size a pasted log or an 80-column SSH window has), capped at
    100 so a wide terminal still gets short lines."""
    return max(40, min(100, terminal_columns()))


def terminal_columns(fallback: int = 80, also: tuple[int, ...] = ()) -> int:
    """The terminal's columns as `shutil.get_terminal_size` gives them (COLUMNS first, then stdout's terminal, then
    the terminals of the descriptors in `also`, else `fallback`), without importing `shutil`: it brings zlib, bz2 and
    lzma, a tenth of `detect --json`'s start-up (issue 23); argparse's help formatter would import it for every
    command (`HelpFormatter`). The one reader of COLUMNS: a value that is not 0–9 digits (`abc`, `80x`, `1e3`,
    Arabic-Indic digits) is ignored, as `shutil` does; a second reader's bare `int()` crashed diagnose and verify
    (32nd hostile pass (part A) P1)."""
    value = os.environ.get("COLUMNS", "").strip()
    columns = int(value) if ascii_digits(value) else 0
    if columns > 0:
        return columns
    try:
        descriptors: tuple[int, ...] = (sys.__stdout__.fileno(), *also)
    except (AttributeError, ValueError, OSError):
        descriptors = also
    for fd in descriptors:
        try:
            found = os.get_terminal_size(fd).columns
        except (ValueError, OSError):
            continue
        if found:
            return found
    return fallback


def fit(text: str, columns: int) -> str:
    """`text` cut to `columns` with "…" at the end (for one-line notes; never for ids or commands), masked
    before the cut (`security.cut`)."""
    return cut(text, columns)


def wrapped(text: str, columns: int, indent: str = "", rest: str | None = None) -> list[str]:
    """`text` wrapped between words to `columns`; a word longer than a line (a path, a command) stays
    whole on a line of its own, so it can still be copied. Runs of spaces (a message's own line breaks
    and indents, joined) become one. The wrap is the core's (`wizard.wrap`), masked first.

    A quoted `gc-wizard …` is wrapped as it will be printed (`runnable`), not as written: walk 39 #5, `recipes`
    folded "(`gc-wizard history` lists them all)." to fit, then `say` spelled the program as its whole path and the
    row reached 84 columns, so the terminal cut "a" / "ll)." mid-word."""
    from wizard.wrap import wrap

    text = redact_secrets(runnable(text), keep_user=True)  # before the wrap: a row's cut could split a secret (`fit`)
    return wrap(text, columns, indent, rest)
