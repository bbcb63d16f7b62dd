"""Turns a pty's raw output into clean lines, plus the unfinished line a prompt or progress bar sits on.

Why: installers draw for humans. In a pty, pip and uv emit ANSI colours, cursor moves and `\\r`
progress redraws; Textual's `Log` treats `\\r` as a newline and passes escapes through raw (measured:
it corrupted a real terminal). So the core cleans once, here, for the log file, the CLI and the TUI:
CRLF normalised, escapes stripped (even when split across reads), each finished line reduced to what
followed its last `\\r` (the final state of a progress bar), and the text after the last newline kept
as `live` — prompts end without a newline, so that is where they are matched.
"""

from __future__ import annotations

import re

#: CSI sequences, OSC strings (BEL or ST terminated) and two-character escapes.
ANSI_RE = re.compile(r"\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|[@-Z\\-_])")
#: An escape sequence that may still be incomplete at the end of a chunk.
_PARTIAL_ESC_RE = re.compile(r"\x1b(?:\[[0-?]*[ -/]*|\][^\x07\x1b]*(?:\x1b)?)?$")
_CONTROL_RE = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1a\x1c-\x1f\x7f]")


def strip_ansi(text: str) -> str:
    return _CONTROL_RE.sub("", ANSI_RE.sub("", text))


def _last_redraw(line: str) -> str:
    """What a terminal would show for a line with `\\r` redraws: the text after the last one."""
    if "\r" not in line:
        return line
    parts = [p for p in line.split("\r")]
    for part in reversed(parts):
        if part:
            return part
    return ""


class LineAssembler:
    """Feed raw chunks; get finished clean lines back; read `live` for the unfinished tail."""

    def __init__(self) -> None:
        self._buffer = ""
        self._pending_escape = ""

    def feed(self, chunk: str) -> list[str]:
        text = self._pending_escape + chunk
        self._pending_escape = ""
        partial = _PARTIAL_ESC_RE.search(text)
        if partial and partial.group(0):
            self._pending_escape = partial.group(0)
            text = text[: partial.start()]
        text = text.replace("\r\n", "\n")
        self._buffer += strip_ansi(text)
        if "\n" not in self._buffer:
            return []
        *done, self._buffer = self._buffer.split("\n")
        return [_last_redraw(line).rstrip() for line in done]

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
