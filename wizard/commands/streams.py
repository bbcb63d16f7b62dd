"""The one output layer every command writes through: standard streams that are safe whatever they are.

Why one layer: each command used to write `sys.stdout`/`sys.stderr` its own way, so each fault of a
stream met a different piece of code and a different ending —

- a closed descriptor (`>&-`, `<&-`, cron, daemon wrappers) leaves `sys.stdout`/`sys.stdin` as None:
  `AttributeError` tracebacks; worse, the next file the wizard opens takes descriptor 1 and a child
  that inherits it would write its output into that file (a log, history.json);
- a failing stdout (`> /dev/full`, a full disk behind a redirect) raised an OSError without a file
  name, which the general handler reported as the *state* disk being full;
- a secret quoted in an error (a token in a `--find-links` query) was masked on stderr but not in
  the `--json` line on stdout, which is the one fleet and CI scripts keep;
- a path with a byte that is not UTF-8 (held by Python as a lone surrogate), or any non-ASCII mark
  on a stream whose locale is ASCII, was a `UnicodeEncodeError`.

`guarded_streams()` fixes all four where they meet: descriptors 0-2 are always open (a closed one is
given /dev/null), and `sys.stdout`/`sys.stderr` become `GuardedStream`s that pass every write through
`redact_secrets`, write undecodable path bytes back as the bytes they were (anything else the
stream's encoding lacks is written as its UTF-8 bytes, but the wizard's own typography outside a path, which
gets an ASCII stand-in), and turn a failed write into `OutputFailed`, a sentence that
names the stream and where it goes. A stdout that was closed before the wizard started is refused
up front (`closed_stdout_problem`): nothing has run, and nothing could report what would.

A reader that goes away (`gc-wizard … | head -1`, a pipe whose reader exits) ends a command that
only reads and prints quietly, with exit 0, as `ls | head` does. A command that changes something
(`install`, `rollback`, `remove`, …) must not stop half-way, nor report success for work it never did:
with `outlive_reader` its streams drop further output (the descriptor is pointed at /dev/null, so its
children's output goes there too) and the command runs to the end with its own exit status, saying so on
standard error where that still has a reader (`reader_gone_note`).

The one exception to redaction is `write_verbatim`, for the shell code `activate` prints: the wizard
composes it from its own state, and masking a folder named `secret:` in a PATH would break the
script the user evals.
"""

from __future__ import annotations

import codecs
import contextlib
import errno
import fcntl
import io
import os
import re
import sys
from collections.abc import Iterator

from wizard.errors import WizardError, for_terminal, terminal_gone_sentence
from wizard.security import escape_stray_returns, json_lines_for, redact_output, reveal_format_characters

TYPE_CHECKING = False  # `typing.TYPE_CHECKING` without importing `typing` (start-up time, issue 23)
if TYPE_CHECKING:
    from typing import Any, TextIO

_STREAM_NAMES = {0: "standard input", 1: "standard output", 2: "standard error"}
_ERRORS = "gc-wizard-output"
#: Descriptors that were closed when the wizard started (and now hold /dev/null).
_closed_at_start: set[int] = set()
#: Names of the streams whose reader went away while a command that outlives it ran.
_readers_gone: list[str] = []
#: stream name -> the sentence parts (where, why, fix) of a write that failed while a command that outlives it ran.
_writes_failed: dict[str, tuple[str, str, str]] = {}
#: The stream a command was refused for before it ran (`unwritable_problem`).
_refused: list[str] = []


class OutputFailed(WizardError):
    """Writing a standard stream failed; the message names the stream, where it goes, and why."""


#: ASCII for the typography the wizard's own sentences use, written where the stream's encoding lacks it (`LC_ALL=C`
#: on a bare server or in a batch job): "Plan for X — JAX" read "Plan for X ? JAX", and "`a` → `b`" as a question.
_ASCII_STAND_INS = {
    "…": "...", "—": "--", "–": "-", "·": "-", "→": "->", "←": "<-", "↳": "->", "↓": "v", "▶": ">", "›": ">",
    "✓": "ok", "✗": "x", "●": "*", "○": "o", "•": "*", "▪": "*", "■": "#", "□": "[]", "★": "*", "×": "x",
    "“": '"', "”": '"', "‘": "'", "’": "'", "ʼ": "'", "≤": "<=", "≥": ">=", "≈": "~", "°": " deg", "⏎": "Enter",
    "─": "-", "━": "-", "═": "=", "│": "|", "├": "|", "╰": "`",
}


def _bytes_or_stand_in(exc: UnicodeError) -> tuple[str | bytes, int]:
    """Encoding error handler, the output layer's one rule for what the stream's encoding lacks: a lone surrogate from
    a path (`\\udcff`) is written as its original byte (`surrogateescape`); the wizard's own typography (`—`, `→`,
    `✓`) as its ASCII stand-in, outside a path; any other character (a user's `é`, and any mark inside a path) as its
    UTF-8 bytes, the bytes a path spelled with it has (`security.reveal_format_characters` reads them so).

    Why bytes, not `?`: under `PYTHONIOENCODING=ascii` or `LC_ALL=C PYTHONUTF8=0` a state folder `…/sté` was printed as
    `export GC_WIZARD_HOME='…/st?'` and `module use '…/st?/modules'`: pasted, they named a folder that does not exist
    (32nd hostile pass (part A) P4). A shell takes the bytes as they come, so the pasted line names the real folder."""
    if not isinstance(exc, UnicodeEncodeError):
        raise exc
    in_path = "/" in _word_around(exc.object, exc.start, exc.end)
    out = bytearray()
    for char in exc.object[exc.start:exc.end]:
        code = ord(char)
        if 0xDC80 <= code <= 0xDCFF:
            out.append(code - 0xDC00)
        elif 0xD800 <= code <= 0xDFFF:
            out += b"?"  # no byte stands for it (`reveal_format_characters` shows it escaped before it gets here)
        elif char in _ASCII_STAND_INS and not in_path:
            out += _ASCII_STAND_INS[char].encode("ascii")
        else:
            out += char.encode("utf-8")
    return bytes(out), exc.end


def _word_around(text: str, start: int, end: int, reach: int = 4096) -> str:
    """The run of non-blank characters `text[start:end]` stands in (at most `reach` characters each side): a word
    holding a `/` is a path, or part of one."""
    left = start
    while left > max(0, start - reach) and not text[left - 1].isspace():
        left -= 1
    right = end
    while right < min(len(text), end + reach) and not text[right].isspace():
        right += 1
    return text[left:right]


codecs.register_error(_ERRORS, _bytes_or_stand_in)


def _is_utf8(encoding: str) -> bool:
    try:
        return codecs.lookup(encoding).name == "utf-8"
    except LookupError:
        return False


#: Blank runs, kept by `re.split`: what lies between them is a word.
_BLANKS = re.compile(r"(\s+)")


def _encoded(text: str, encoding: str) -> bytes:
    """`text` as the bytes to write on a stream in `encoding`: a word that holds a `/` (a path, or part of one) as the
    file system's bytes (UTF-8, a path's undecodable byte as that byte), whatever the stream's encoding; the rest in
    the stream's encoding, through the output layer's handler.

    Why: under `PYTHONIOENCODING=latin-1` a state folder `…/lé` was printed as `export GC_WIZARD_HOME='…/l\\351'`,
    `module use '…/l\\351/modules'` and `Log: …/l\\351/logs/…`: Latin-1 has `é`, so no error reached the handler
    that writes a path's missing character as its UTF-8 bytes (32nd hostile pass (part A) P4), and each pasted line
    named another folder than the one on disk (33rd hostile pass (part A) P3). The handler's rule, a character in a
    path is written as the bytes the path holds, now holds for every character of a path."""
    if text.isascii() or _is_utf8(encoding):
        return text.encode(encoding, _ERRORS)
    out = bytearray()
    for piece in _BLANKS.split(text):
        out += piece.encode("utf-8" if "/" in piece and not piece.isascii() else encoding, _ERRORS)
    return bytes(out)


def stream_target(fd: int) -> str:
    """Where descriptor `fd` goes, for a message: a file's path, `/dev/full`, or `a pipe`."""
    try:
        target = os.readlink(f"/proc/self/fd/{fd}")
    except OSError:
        return "?"
    if target.startswith(("pipe:", "socket:")):
        return "a " + target.split(":", 1)[0]
    return target


def describe_failure(name: str, fd: int, exc: BaseException) -> str:
    """The sentence for a write to `name` that failed: the stream and its target, never the state folder."""
    where, why, fix = _what_failed(name, fd, exc)
    return f"cannot write to {name} ({where}): {why}. The state folder is not affected; {fix}."


def _what_failed(name: str, fd: int, exc: BaseException) -> tuple[str, str, str]:
    """Where `name` goes, why a write to it fails, and the fix: the parts every sentence about it is made of."""
    where = stream_target(fd) if fd >= 0 else "?"
    # The fix follows the cause: "a disk with space" only where the disk is full (eighth hostile pass F5: a stdout
    # opened for reading, `1</dev/null`, was told to go to /dev/null, where it already went).
    fix = f"send {name} to a file or a terminal you can write to"
    if isinstance(exc, OSError) and exc.errno in (errno.ENOSPC, errno.EDQUOT):
        why, fix = "the disk it goes to is full", f"send {name} to a file on a disk with space, or to /dev/null"
    elif fd >= 0 and terminal_gone_sentence(exc, fd):
        # The one rule for a vanished terminal (`wizard.errors.terminal_gone_sentence`), which the prompts and the
        # app's end use too (24th hostile pass (part A) P1).
        why, fix = ("the terminal went away (an SSH connection dropped, or a tmux or screen session was killed)",
                    "run gc-wizard again from a terminal")
    elif isinstance(exc, OSError) and exc.errno == errno.EBADF:
        why = "it is open for reading only (a `<` where a `>` was meant?)" if fd >= 0 and _read_only(fd) else \
            "it is not open for writing"
        fix = f"open {name} for writing (`>FILE`), or leave it as the terminal"
    elif isinstance(exc, OSError) and exc.strerror:
        why = exc.strerror[:1].lower() + exc.strerror[1:]
    else:
        why = "it is closed"
    return where, why, fix


def _cannot_take_output(fd: int) -> OSError | None:
    """What a write to descriptor `fd` would meet, known without writing to it (a `--json` stdout must hold
    its one line and nothing else): open for reading only, /dev/full, a file on a disk with no free block."""
    import stat  # deferred: only commands that change something look

    try:
        info = os.fstat(fd)
    except OSError:
        return None
    if _read_only(fd):
        return OSError(errno.EBADF, os.strerror(errno.EBADF))
    if stat.S_ISCHR(info.st_mode) and info.st_rdev == os.makedev(1, 7):  # /dev/full: every write ENOSPC
        return OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
    if stat.S_ISREG(info.st_mode):
        try:
            disk = os.fstatvfs(fd)
        except OSError:
            return None
        free = disk.f_bfree if os.geteuid() == 0 else disk.f_bavail  # root may use the reserved blocks
        if disk.f_blocks and not free:
            return OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
    return None


def unwritable_problem() -> str | None:
    """Before a command that changes something (an install, a rollback, a lock file): the refusal when standard
    output or standard error cannot take what it will say, or None.

    Why up front: such a command goes on when a stream fails (it must not stop half-way), so `install > /dev/full`
    made its environment current and then said "the state folder is not affected", exit 1 (fourteenth hostile
    pass Q5); refused here, nothing has run and the sentence is true."""
    for fd, stream in ((1, sys.stdout), (2, sys.stderr)):
        if _fd_of(stream) != fd:
            continue  # not the descriptor (an in-process caller's capture): nothing to look at
        exc = _cannot_take_output(fd)
        if exc is not None:
            name = _STREAM_NAMES[fd]
            where, why, fix = _what_failed(name, fd, exc)
            _refused.append(name)  # nothing runs: the refusal is the last word, not `lost_output_note`
            return (f"cannot write to {name} ({where}): {why}, so what this command does could not be reported; "
                    f"nothing was done. To go on, {fix}.")
    return None


def _read_only(fd: int) -> bool:
    """Whether descriptor `fd` is open, for reading only."""
    try:
        return fcntl.fcntl(fd, fcntl.F_GETFL) & os.O_ACCMODE == os.O_RDONLY
    except OSError:
        return False


class GuardedStream(io.TextIOBase):
    """A text stream over another one: every write redacted and encodable, every failure `OutputFailed`."""

    #: `redact_output` masks a line that is a JSON document value by value (`emit_json` then need not, issue 23).
    masks_json_lines = True

    def __init__(self, inner: TextIO, fd: int, name: str, *, outlive_reader: bool = False) -> None:
        super().__init__()
        self.inner = inner
        self.fd = fd
        self.name_of_stream = name
        self.outlive_reader = outlive_reader
        self.reader_gone = False
        buffer = getattr(inner, "buffer", None)
        # Write the bytes ourselves where there is a byte buffer: the inner stream's own `errors`
        # ("strict" on an ASCII locale) would fail on a path byte or a `●`.
        self._buffer = buffer
        self._encoding = getattr(inner, "encoding", None) or "utf-8"
        self._utf8 = _is_utf8(self._encoding)

    # The attributes code reads from a stream.
    @property
    def encoding(self) -> str:  # type: ignore[override]
        return self._encoding

    def isatty(self) -> bool:
        try:
            return self.inner.isatty()
        except (OSError, ValueError):
            return False

    def fileno(self) -> int:
        return self.inner.fileno()

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        text = escape_stray_returns(reveal_format_characters(redact_output(text)))
        if not text.isascii():  # a `--json` line the locale cannot write as UTF-8 is escaped, never turned into `?`
            text = json_lines_for(text, self._encoding if self._utf8 else "ascii")
        return self._write(text)

    def write_verbatim(self, text: str) -> int:
        """Without redaction: only for shell code the wizard composed itself (see the module's docstring).

        Written as UTF-8 whatever the stream's encoding: under `LC_ALL=C` or `PYTHONIOENCODING=ascii`/`latin-1` a
        recipe value `café😀` became `export X='caf??'`, exit 0, so `eval "$(gc-wizard activate)"` set another value
        than kernel.json and the Lua module hold (28th hostile pass (part A) P2). A shell takes the bytes as they
        come, so UTF-8 gives the variable the bytes the kernel's environment gets; a path's byte stays that byte."""
        return self._write(text, "utf-8")

    def _write(self, text: str, encoding: str | None = None) -> int:
        if self.reader_gone:
            return len(text)
        try:
            if self._buffer is not None:
                self.inner.flush()  # keep order with anything written to the inner stream directly
                self._write_all(_encoded(text, encoding or self._encoding))
            else:
                self.inner.write(text.encode(self._encoding, _ERRORS).decode(self._encoding, "replace"))
        except BrokenPipeError:
            self._reader_left()
        except (OSError, ValueError) as exc:
            self._write_failed(exc)
        return len(text)

    def _write_all(self, data: bytes) -> None:
        """Every byte of `data`, or OSError: a byte buffer's `write` may take less than it is given (a file-size limit,
        `ulimit -f`, cut a 4.8 MB `history --json` at 100 KB) and says so only in its count, which went unread: the
        command ended 0 with its output cut (seventeenth hostile pass P6). The rest is written again, and the
        write that cannot take it raises (EFBIG), which ends as any failed write does."""
        view = memoryview(data)
        while view:
            written = self._buffer.write(view)
            if not written:
                raise OSError(errno.EIO, "the write was cut short")
            view = view[written:]

    def flush(self) -> None:
        if self.reader_gone:
            return
        try:
            if self._buffer is not None:
                self._buffer.flush()
            self.inner.flush()
        except BrokenPipeError:
            self._reader_left()
        except (OSError, ValueError) as exc:
            self._write_failed(exc)

    def _write_failed(self, exc: BaseException) -> None:
        """A write failed (a disk that filled up meanwhile): a read-only command ends on the sentence; one that
        changes something goes on without this stream, as without a reader, and says at the end what became of
        it (`lost_output_note`) — not that "the state folder is not affected"."""
        if not self.outlive_reader:
            raise OutputFailed(describe_failure(self.name_of_stream, self.fd, exc)) from None
        _writes_failed.setdefault(self.name_of_stream, _what_failed(self.name_of_stream, self.fd, exc))
        self._drop()

    def _reader_left(self) -> None:
        """The pipe's reader is gone: a read-only command ends quietly (the CLI catches this), one that
        changes something goes on without this stream (see the module's docstring)."""
        if not self.outlive_reader:
            raise BrokenPipeError(errno.EPIPE, f"the reader of {self.name_of_stream} went away")
        _readers_gone.append(self.name_of_stream)
        self._drop()

    def _drop(self) -> None:
        """From now on this stream's output goes nowhere (its children's too: the descriptor is /dev/null)."""
        self.reader_gone = True
        if self.fd >= 0:
            with contextlib.suppress(OSError):
                null = os.open(os.devnull, os.O_WRONLY)
                os.dup2(null, self.fd)  # children started later inherit /dev/null, not the dead pipe
                os.close(null)
        with contextlib.suppress(OSError, ValueError):
            if self._buffer is not None:
                self._buffer.flush()  # what was buffered now goes to /dev/null, so no later flush fails

    def close(self) -> None:
        """Nothing: the wrapper never owns the stream under it (and `IOBase.__del__` would flush a stream
        that may be gone by then, into an "Exception ignored" message)."""

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


def _reopen_closed_descriptors() -> None:
    """Give each of descriptors 0-2 that is closed /dev/null, so no file the wizard opens later takes its
    number (a child inheriting "stdout" would then write into that file)."""
    for fd in (0, 1, 2):
        try:
            os.fstat(fd)
            continue
        except OSError:
            pass
        null = os.open(os.devnull, os.O_RDWR)
        if null != fd:
            os.dup2(null, fd)
            os.close(null)
        _closed_at_start.add(fd)


def _make_blocking() -> None:
    """Put descriptors 0-2 back in blocking mode when whoever started the wizard left them non-blocking.

    Why: on a non-blocking pipe a write the reader has no room for fails with EAGAIN and a read with nothing yet
    returns nothing — `recipes --json` delivered 4 KiB of 33 with exit 0, and `diagnose -` reported a log it never
    read as clean (seventh hostile pass 4b/4f). A blocking descriptor waits instead, as every command expects."""
    for fd in (0, 1, 2):
        try:
            if not os.get_blocking(fd):
                os.set_blocking(fd, True)
        except OSError:
            continue


def was_closed(fd: int) -> bool:
    """Whether descriptor `fd` (0, 1 or 2) was closed when the wizard started."""
    return fd in _closed_at_start


def closed_stdout_problem() -> str | None:
    """The refusal for a stdout closed before the start (`>&-`), or None."""
    if not was_closed(1):
        return None
    return ("standard output is closed (as `>&-` leaves it), so nothing this command does could be reported; "
            "nothing was done. Send it to a file or to /dev/null instead (`> /dev/null`).")


#: Text like the wizard's own: one line longer than a DNS label (`idna` took short ones), dots, a path, JSON.
_PROBE = ("gc-wizard: a plain sentence of more than sixty-three characters between its dots, /tmp/a..b, "
          '{"ok": true}; done.\n')


def unencodable_problem() -> str | None:
    """The refusal for a standard output or error whose encoding cannot write the wizard's text (a
    `PYTHONIOENCODING` such as `idna` or `undefined`), or None.

    Why, before anything runs (25th hostile pass (part A) P2): each write then raised inside the codec, the sentence
    about it failed the same way, and every command exited 1 without a word; `install --yes` even installed and
    switched the current env first. The sentence goes out as raw ASCII bytes (`say_raw`), past the broken codec."""
    for fd, stream in ((1, sys.stdout), (2, sys.stderr)):
        encoding = getattr(stream, "encoding", None)
        if stream is None or not isinstance(encoding, str):
            continue
        try:
            "\u2014".encode(encoding, _ERRORS)  # a mark: written, or its stand-in (`--`)
            if _PROBE.encode(encoding, _ERRORS).decode(encoding) != _PROBE:
                raise ValueError("the text does not come back whole")
            ascii_compatible = _ascii_compatible(encoding)
        except (LookupError, ValueError, TypeError):
            return _encoding_sentence(fd, encoding, "cannot write plain text, so nothing this command says could be read")
        if not ascii_compatible:
            return _encoding_sentence(fd, encoding, "is not ASCII-compatible (it writes plain letters as other bytes, "
                                      "two or four to a letter for utf-16 and utf-32), so what this command prints "
                                      "could not be read as text, nor the commands it gives you pasted into a shell")
    return None


def _ascii_compatible(encoding: str) -> bool:
    """Whether a stream in `encoding` writes plain ASCII text as those very bytes, after whatever the stream writes
    first (utf-8-sig's mark): a shell reads a pasted command, and a pipe's reader the JSON, only so.

    Why: 37th hostile pass (part B) P1 — `PYTHONIOENCODING=utf-16` (or utf-32, in any spelling) passed the round trip
    above, and a command then printed UTF-16 beside the raw ASCII and UTF-8 bytes the wizard writes past the codec
    (`say_raw`, `write_verbatim`); a child Python's answer in it crashed `history` and undid a finished `install`."""
    encoder = codecs.getincrementalencoder(encoding)(_ERRORS)
    encoder.encode("")  # its start (a byte-order mark), if it writes one
    return encoder.encode(_PROBE) == _PROBE.encode("ascii")


def _encoding_sentence(fd: int, encoding: str, why: str) -> str:
    """`unencodable_problem`'s sentence: the stream, its encoding and where that was set, `why`, and the fix."""
    name = "".join(ch if ch.isascii() and ch.isprintable() else "?" for ch in encoding)[:60]
    cause = ("PYTHONIOENCODING" if os.environ.get("PYTHONIOENCODING") and not sys.flags.ignore_environment
             else "the locale")
    return (f"{_STREAM_NAMES[fd]}'s encoding {name} (set by {cause}) {why}; nothing was done. Unset PYTHONIOENCODING "
            "or set it to utf-8 (`PYTHONIOENCODING=utf-8`), and run the command again.")


def say_raw(sentence: str, *, json_line: bool = False) -> None:
    """`gc-wizard: SENTENCE` as ASCII bytes on descriptor 2 (on 1 where 2 cannot take it), past any text stream and
    its codec; with `json_line` the interface's failure line on descriptor 1 too. For `unencodable_problem`."""
    line = f"gc-wizard: {sentence}\n".encode("ascii", "backslashreplace")
    try:
        os.write(2, line)
    except OSError:
        with contextlib.suppress(OSError):
            os.write(1, line)
    if json_line:
        import json  # deferred: only this refusal needs it here

        with contextlib.suppress(OSError):
            os.write(1, (json.dumps({"ok": False, "error": sentence, "exit": 1}) + "\n").encode("ascii"))


#: Names a user gives for standard input where a file name goes; each is read as `-` is.
STDIN_NAMES = ("-", "/dev/stdin", "/dev/fd/0", "/proc/self/fd/0")


def stdin_problem() -> str | None:
    """Why standard input cannot be read as input, or None: closed before the start (`<&-`; a path such as
    /dev/stdin then reads whatever holds descriptor 0 now), open for writing only (`0>FILE`: the read failed
    as "a file system error" blaming the state folder), or a folder (CPython itself refuses that one at
    start-up, before any of the wizard runs, so this covers in-process callers)."""
    import fcntl  # deferred: only the commands that read standard input need it
    import stat

    if was_closed(0):
        return "standard input is closed (as `<&-` leaves it)"
    try:
        fd = sys.stdin.fileno()
    except (AttributeError, ValueError, io.UnsupportedOperation):
        return None  # not a descriptor (a test's text stream): read as it is
    try:
        mode = os.fstat(fd).st_mode
        flags = fcntl.fcntl(fd, fcntl.F_GETFL)
    except OSError as exc:
        return f"standard input cannot be used ({exc.strerror or exc})"
    if stat.S_ISDIR(mode):
        return "standard input is a folder"
    if flags & os.O_ACCMODE == os.O_WRONLY:
        return "standard input is open for writing only (as `0>FILE` leaves it)"
    return None


def _text_stream(fd: int, mode: str) -> TextIO:
    return open(fd, mode, encoding="utf-8", errors=_ERRORS, closefd=False)  # noqa: SIM115 - lives as long as the process


@contextlib.contextmanager
def guarded_streams(*, wrap: bool = True, outlive_reader: bool = False) -> Iterator[None]:
    """For the length of one command: descriptors 0-2 open, `sys.stdin` usable, and (with `wrap`; the
    terminal app draws on the terminal itself) `sys.stdout` and `sys.stderr` guarded; with
    `outlive_reader`, a reader that goes away no longer stops the command (see the module's docstring).
    The previous objects come back afterwards (in-process callers, tests)."""
    _readers_gone.clear()
    _writes_failed.clear()
    _refused.clear()
    _reopen_closed_descriptors()
    _make_blocking()
    saved = sys.stdin, sys.stdout, sys.stderr
    if sys.stdin is None:
        sys.stdin = _text_stream(0, "r")
    if sys.stdout is None:
        sys.stdout = _text_stream(1, "w")
    if sys.stderr is None:
        sys.stderr = _text_stream(2, "w")
    if wrap and not isinstance(sys.stdout, GuardedStream):
        sys.stdout = GuardedStream(sys.stdout, _fd_of(sys.stdout), _STREAM_NAMES[1],
                                   outlive_reader=outlive_reader)
    if wrap and not isinstance(sys.stderr, GuardedStream):
        sys.stderr = GuardedStream(sys.stderr, _fd_of(sys.stderr), _STREAM_NAMES[2],
                                   outlive_reader=outlive_reader)
    try:
        yield
    finally:
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(OSError, ValueError, WizardError):
                stream.flush()
        sys.stdin, sys.stdout, sys.stderr = (saved[0] if saved[0] is not None else sys.stdin,
                                             saved[1] if saved[1] is not None else sys.stdout,
                                             saved[2] if saved[2] is not None else sys.stderr)


def reader_gone_note() -> str | None:
    """The sentence for the end of a command that went on after standard output's reader left, or None."""
    if "standard output" not in _readers_gone:
        return None
    return ("standard output's reader went away (a closed pipe) while this ran; gc-wizard went on without it "
            "to the end, so nothing was left half-done, and the exit status is the command's own.")


def lost_output_note() -> tuple[str, bool] | None:
    """For the end of a command that changes something and went on after a write to a stream failed: the
    sentence, and whether standard output was the one (its output, a `--json` line included, is then
    incomplete, which the sentence says; the exit status stays the command's own, since the work was done: 25th
    hostile pass (part A) P2). None when every write went through."""
    if not _writes_failed or _refused:
        return None
    name, (where, why, fix) = next(iter(_writes_failed.items()))
    return (f"cannot write to {name} ({where}): {why}, so part of what this command said was lost; it went on "
            "without it to the end, so nothing was left half-done; the exit status is the command's own, and what it "
            "changed is in `gc-wizard history`. "
            f"Next time, {fix}."), "standard output" in _writes_failed


def say_error(message: str, *, json_line: bool = False, shell_code: bool = False) -> None:
    """A command's last word on an error: `gc-wizard: SENTENCE` on standard error, or, where standard error
    cannot take it (`2>/dev/full`, a file on a full disk, a refusal that named it), on standard output.

    Why: `install 2>/dev/full` was refused with "cannot write to standard error …, nothing was done" sent to
    the one stream that could not carry it, so the user saw exit 1 and an empty stdout (twentieth pass P6).
    With `--json` the line on stdout already holds the sentence; for `activate`, whose stdout a shell evals,
    it goes there as a comment, so nothing of it is run."""
    line = f"gc-wizard: {reveal_format_characters(message)}\n"
    _say(line, line, json_line=json_line, shell_code=shell_code)


def say_usage_error(sentence: str, *, json_line: bool = False) -> None:
    """A usage error's one sentence (`gc-wizard install: unrecognized arguments: --bogus …`) on standard error, or
    on standard output where standard error cannot take it.

    Why: argparse writes straight to standard error and passes over a failed write, so `install --bogus
    2>/dev/full` ended with exit 2 and nothing anywhere (twenty-first hostile pass P7): the one path `say_error`
    did not reach."""
    line = reveal_format_characters(sentence).rstrip("\n") + "\n"
    _say(line, line, json_line=json_line)


def _say(text: str, fallback: str, *, json_line: bool, shell_code: bool = False) -> None:
    """`text` on standard error; where that cannot take it, `fallback` on standard output (unless a `--json` line
    there already holds it; as shell comments for `activate`)."""
    stderr = sys.stderr
    if "standard error" not in _refused and "standard error" not in _writes_failed:
        try:
            stderr.write(for_terminal(text.rstrip("\n"), stderr) + "\n")  # a terminal's width, between words
            stderr.flush()
        except (OSError, ValueError, WizardError):
            pass
        else:
            if "standard error" not in _writes_failed and not getattr(stderr, "reader_gone", False):
                return
    if json_line:
        return
    with contextlib.suppress(OSError, ValueError, WizardError, BrokenPipeError):
        if shell_code:
            sys.stdout.write("".join(f"# {part}\n" for part in fallback.splitlines()))
        else:
            sys.stdout.write(fallback)
        sys.stdout.flush()


def _fd_of(stream: TextIO) -> int:
    """The stream's descriptor; -1 for one without (an in-memory capture)."""
    try:
        return stream.fileno()
    except (OSError, ValueError, AttributeError, io.UnsupportedOperation):
        return -1


def write_verbatim(text: str) -> None:
    """Write shell code to stdout without redaction (see the module's docstring), flushed."""
    out = sys.stdout
    if isinstance(out, GuardedStream):
        out.write_verbatim(text)
    else:
        out.write(text)
    out.flush()


@contextlib.contextmanager
def plain_streams() -> Iterator[None]:
    """The streams as they were before `guarded_streams` wrapped them, for the terminal app."""
    saved = sys.stdout, sys.stderr
    if isinstance(sys.stdout, GuardedStream):
        sys.stdout = sys.stdout.inner
    if isinstance(sys.stderr, GuardedStream):
        sys.stderr = sys.stderr.inner
    try:
        yield
    finally:
        sys.stdout, sys.stderr = saved


@contextlib.contextmanager
def app_terminal() -> Iterator[None]:
    """For the terminal app: descriptor 2 (where Textual draws) is the terminal for as long as the app runs.

    Why: Textual draws on standard error. With it closed (`gc-wizard 2>&-`: /dev/null since the start) or sent
    to a file (`2>errors.log`), the app ran invisibly on a blank screen, or drew its escape codes into the file
    (fifth hostile pass 4e). The app only starts when stdin and stdout are terminals, so when stderr is not one,
    stdout's terminal is put on descriptor 2 (and `sys.__stderr__`, which Textual reads) until the app ends; the
    user's stderr comes back afterwards, for the farewell lines and anything after.
    """
    if os.isatty(2) or not os.isatty(1):
        yield
        return
    saved_fd = os.dup(2)
    saved = sys.stderr, sys.__stderr__
    os.dup2(1, 2)
    terminal = _text_stream(2, "w")
    sys.stderr = sys.__stderr__ = terminal
    try:
        yield
    finally:
        with contextlib.suppress(OSError, ValueError):
            terminal.flush()
        os.dup2(saved_fd, 2)
        os.close(saved_fd)
        sys.stderr, sys.__stderr__ = saved
