"""Turns a pty's raw output into clean lines, plus the unfinished line a prompt or progress bar sits on.

Why: installers draw for humans. In a pty, pip and uv emit ANSI colours, cursor moves and `\\r`
progress redraws; Textual's `Log` treats `\\r` as a newline and passes escapes through raw (measured:
it corrupted a real terminal). So the core cleans once, here, for the log file, the CLI and the TUI:
CRLF normalised, escapes stripped (even when split across reads), each finished line reduced to what
followed its last `\\r` (the final state of a progress bar), and the text after the last newline kept
as `live` — prompts end without a newline, so that is where they are matched.

What is stripped: CSI (`ESC [ … final`), OSC (`ESC ] … BEL|ST`), DCS/SOS/PM/APC strings, and every
other escape (`ESC ( B` from `tput sgr0`, `ESC 7`, `ESC =`, `ESC M`), then any control character left
except tab (C0, DEL and C1 — a stray ESC or a C1 CSI would still move a real terminal's cursor).
Backspaces are dropped, not applied. A line longer than `MAX_LINE` characters without a newline is
handed out in pieces so memory stays bounded; an escape string that never ends is given up on after
`MAX_PENDING` characters and its text kept.
"""

from __future__ import annotations

import re

from wizard.security import CONTROL_RE, strip_terminal_escapes

#: An escape sequence that is still incomplete at the very end of the text read so far.
_PARTIAL_ESC_RE = re.compile(r"\x1b(?:\[[0-?]*[ -/]*|\][^\x07\x1b]*\x1b?|[PX^_][^\x1b]*\x1b?|[ -/]+)?\Z")
#: A partial escape longer than this is not an escape (an unterminated OSC would hold lines forever).
MAX_PENDING = 4096
#: An unfinished line longer than this is handed out as a finished one.
MAX_LINE = 100_000


def strip_ansi(text: str) -> str:
    """The text without escape sequences and control characters (tab, `\\n` and `\\r` stay)."""
    return strip_terminal_escapes(text)


def _last_redraw(line: str) -> str:
    """What a terminal would show for a line with `\\r` redraws: the text after the last one.

    A trailing `\\r` (before the newline, or a bar that returns before it redraws) shows the previous
    state, so empty parts are skipped.
    """
    if "\r" not in line:
        return line
    for part in reversed(line.split("\r")):
        if part:
            return part
    return ""


def _compact(tail: str) -> str:
    """The unfinished tail with earlier redraws dropped, keeping a trailing `\\r` (the next write overlays)."""
    cut = tail.rfind("\r")
    if cut < 0:
        return tail
    if cut < len(tail) - 1:
        return tail[cut + 1:]
    shown = _last_redraw(tail)
    return shown + "\r" if shown else ""


class LineAssembler:
    """Feed raw chunks; get finished clean lines back; read `live` for the unfinished tail."""

    def __init__(self) -> None:
        self._buffer = ""
        self._pending_escape = ""

    def _hold_partial_escape(self, text: str) -> str:
        """Keep an escape cut off by the end of the chunk for the next feed; return the rest."""
        last = text.rfind("\x1b")
        if last < 0:
            return text
        before = text.rfind("\x1b", 0, last) if text.endswith("\x1b") else -1
        for start in (before, last):  # an OSC/DCS body may end with ST's first byte, ESC
            if start >= 0 and _PARTIAL_ESC_RE.match(text, start):
                if len(text) - start > MAX_PENDING:  # not an escape after all: keep the text
                    return text[:start] + text[start + 1:]
                self._pending_escape = text[start:]
                return text[:start]
        return text

    def feed(self, chunk: str) -> list[str]:
        """Add raw output; return the lines it finished, cleaned, trailing blanks removed."""
        text = self._pending_escape + chunk
        self._pending_escape = ""
        text = self._hold_partial_escape(text)
        if "\x1b" in text or CONTROL_RE.search(text):
            text = strip_ansi(text)
        buffer = self._buffer + text.replace("\r\n", "\n")
        if "\n" not in buffer:
            self._buffer = _compact(buffer)
            if len(self._buffer) > MAX_LINE:
                done, self._buffer = self._buffer, ""
                return [done.rstrip()]
            return []
        *done, tail = buffer.split("\n")
        self._buffer = _compact(tail)
        if "\r" in buffer:
            return [_last_redraw(line).rstrip() for line in done]
        return [line.rstrip() for line in done]

    @property
    def live(self) -> str:
        """The unfinished line as it would look now (a prompt, or a progress bar's latest state)."""
        return _last_redraw(self._buffer)

    def flush(self) -> list[str]:
        """At EOF: the unfinished line, if any, as a last line."""
        rest = _last_redraw(self._buffer).rstrip()
        self._buffer = ""
        self._pending_escape = ""
        return [rest] if rest else []


#: An installer's advice to replace or wipe a folder: uv's "hint: Use the `--clear` flag or set
#: `UV_VENV_CLEAR=1` to replace the existing directory", pip's `--force-reinstall`/`--ignore-installed`.
_DESTRUCTIVE_HINT = re.compile(r"--clear\b|UV_VENV_CLEAR|--force-reinstall|--ignore-installed|--break-system-packages")


def is_destructive_hint(line: str) -> bool:
    """Whether an installer's line advises wiping or overwriting a folder. The wizard quotes an installer's
    last lines in its own failure sentences; there such advice reads as the wizard's, and for a folder such
    as `/` (an edited history entry) following it would wipe the machine. The log keeps the line."""
    return bool(_DESTRUCTIVE_HINT.search(line))



# --------------------------------------------------------------------------- a child's Python traceback
#: The first line of a Python traceback (also an exception group's, `+ Exception Group Traceback …`).
_TRACEBACK_START = re.compile(r"^(?P<indent>\s*)(?:\+\s*)?(?:Exception Group )?Traceback \(most recent call last\):\s*$")
#: One frame of it: `  File "/x/y.py", line 12, in f`.
_FRAME = re.compile(r'^\s*(?:\|\s*)?File "(?P<file>[^"\n]+)", line (?P<line>[0-9]+)')
#: The sentences that join two tracebacks of one chain.
_CHAIN = ("During handling of the above exception, another exception occurred:",
          "The above exception was the direct cause of the following exception:")
#: A frame in a Python installation (the installer's own code, the standard library, a build backend) or in no file:
#: not where the user can look. Any other frame's file is one the child choked on (a package's `setup.py`).
_LIBRARY_FRAME = re.compile(r"^<|/(?:site|dist)-packages/|/lib(?:64)?/python[0-9]")
#: A frame of a build backend run for a source package (uv's `builds-v0` environment, setuptools' `build_meta`, the
#: `pyproject_hooks` runner pip uses): the error is the build's — the source's setup.py and whatever it imported,
#: files of the source among them — not the installer's own.
_BUILD_FRAME = re.compile(r"/builds-v[0-9]+/|/setuptools/build_meta\.py$|/pyproject_hooks/|/_in_process\.py$|/pep517/")


class TracebackFolder:
    """An installer's output with each Python traceback it prints folded into one line: its last line (the error),
    the file it choked on when a frame names one outside any Python installation, and where the whole is kept.

    Why: when pip crashed (a `--find-links` file whose name is not UTF-8) the wizard quoted its traceback, twelve lines
    of `File "/…/urllib/request.py", line 1688, in pathname2url`, on stderr, in `--json`'s "error" and in history
    (27th hostile pass (part A) P5): the wizard's own crashes never show one, and a child's is no more use to the user.
    Fed line by line (a traceback spans lines); the log keeps every line as the child wrote it.

    A traceback with a build backend's frame is the build's, and is said so: a sourceless `wheel.pyc` in a GraphCast
    checkout, imported by setuptools' build, read "uv stopped on a Python error of its own: ModuleNotFoundError …",
    blaming uv for the checkout's file (28th hostile pass (part B) P10)."""

    def __init__(self, who: str = "the installer", kept: str | None = "the log") -> None:
        self.who, self.kept = who, kept
        self._indent: int | None = None  # the header's indentation while inside a traceback
        self._file: str | None = None
        self._after = False  # just after a folded traceback: the blank lines and chain sentence that follow go too
        self._build = False  # a build backend's frame was seen in this traceback

    def __call__(self, line: str) -> str | None:
        """The line to pass on, or None for one that is part of a traceback."""
        if self._indent is None:
            start = _TRACEBACK_START.match(line)
            if start is None:
                if self._after and (not line.strip() or line.strip() in _CHAIN):
                    return None
                self._after = False
                return line
            self._indent, self._file, self._build = len(start.group("indent")), None, False
            return None
        frame = _FRAME.match(line)
        if frame is not None:
            self._build = self._build or bool(_BUILD_FRAME.search(frame.group("file")))
            if not _LIBRARY_FRAME.search(frame.group("file")):
                self._file = f"{frame.group('file')}, line {frame.group('line')}"
            return None
        body = line.rstrip()
        if not body.strip() or len(body) - len(body.lstrip()) > self._indent or body.lstrip().startswith("|"):
            return None  # a frame's code, its `^^^^` marks, a blank line: inside
        self._indent, self._after = None, True
        notes = [f"in {self._file}"] if self._file else []
        notes += [f"its traceback is in {self.kept}"] if self.kept else []
        lead = (f"the source's build (its setup.py and what that imports, files of the source included; not "
                f"{self.who}) stopped on a Python error" if self._build
                else f"{self.who} stopped on a Python error of its own")
        return f"{lead}: {body.strip()}" + (f" ({'; '.join(notes)})" if notes else "")

    def lines(self, lines: list[str]) -> list[str]:
        """`lines` with their tracebacks folded."""
        return [shown for shown in map(self, lines) if shown is not None]


def fold_tracebacks(lines: list[str], who: str = "the installer", kept: str | None = None) -> list[str]:
    """A finished child's output lines with each Python traceback folded into one (`TracebackFolder`)."""
    return TracebackFolder(who, kept).lines(lines)
