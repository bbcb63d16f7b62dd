"""The security rules every face follows, each defined once.

- Which installer question asks for a secret (`is_secret_question`): its answer is never echoed on a
  terminal, shown in a dialog, written to a log or kept.
- Credentials in URLs (`redact_credentials`): a private index or a proxy written as
  `scheme://user:secret@host` keeps its secret out of logs, reports and screens.
- Files that may hold private details (a support report, an answers file with a private index) are
  created readable by their owner only (`write_private_file`): created with mode 0600 from the start,
  never written first and `chmod`-ed afterwards, so no other user can open them in between.
- Terminal escape sequences in text from a child process or a pasted log (`strip_terminal_escapes`):
  an escape could move the cursor, retitle the terminal or hide text, so text shown or matched is
  plain.

Why one module: the rules used to exist once per face and disagreed (a `PIN:` prompt was kept out of
the log but echoed on the terminal and shown in clear in the TUI's dialog).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

#: A question whose answer must stay hidden: passwords, passphrases, tokens, secrets, PINs.
SECRET_QUESTION_RE = re.compile(r"pass(?:word|phrase)|token|secret|\bpin\b", re.IGNORECASE)

#: `scheme://user:secret@` (the user group is kept by default) and `scheme://secret@` without a user
#: is left alone: it is indistinguishable from a user name.
_CREDENTIALS_RE = re.compile(r"(\b[A-Za-z][A-Za-z0-9+.-]*://)([^/\s@:]+)(?::[^/\s@]*)?@")

#: CSI; OSC (BEL or ST terminated); DCS/SOS/PM/APC strings (ST terminated); any other escape
#: (intermediate bytes then a final byte: `ESC ( B`, `ESC 7`, `ESC M`, and the two-character
#: escapes `ESC [@-Z\\-_]`).
ESCAPE_RE = re.compile(
    r"\x1b(?:\[[0-?]*[ -/]*[@-~]"
    r"|\][^\x07\x1b]*(?:\x07|\x1b\\)"
    r"|[PX^_][^\x1b]*\x1b\\"
    r"|[ -/]*[0-~])"
)
#: Control characters left after the escapes are gone (tab, LF and CR are kept; ESC and C1 are not).
CONTROL_RE = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")

PRIVATE_MODE = 0o600


def is_secret_question(question: str) -> bool:
    """Whether an installer's question asks for something that must not be shown, echoed or logged."""
    return bool(SECRET_QUESTION_RE.search(question))


def redact_credentials(text: str, *, keep_user: bool = True, mask: str = "***") -> str:
    """`https://user:secret@host` -> `https://user:***@host` (or `https://***@host` without the user).

    Logs keep the user name (it says which account was used); a report for someone else drops it too.
    """
    if keep_user:
        def replace(match: re.Match) -> str:
            whole = match.group(0)
            if ":" not in whole[len(match.group(1)):]:
                return whole  # `scheme://user@host`: no secret in it
            return f"{match.group(1)}{match.group(2)}:{mask}@"
    else:
        def replace(match: re.Match) -> str:
            return f"{match.group(1)}{mask}@"
    return _CREDENTIALS_RE.sub(replace, text)


def strip_terminal_escapes(text: str, *, keep_controls: bool = False) -> str:
    """The text without escape sequences and (unless `keep_controls`) control characters; tab, `\\n`
    and `\\r` always stay."""
    text = ESCAPE_RE.sub("", text)
    return text if keep_controls else CONTROL_RE.sub("", text)


def write_private_file(path: str | os.PathLike[str], text: str, *, encoding: str = "utf-8") -> Path:
    """Write `text` to `path`, readable and writable by its owner only (mode 0600), atomically.

    The content goes to a new file beside the target, created with `O_EXCL` and mode 0600 (no window
    in which another user could open it), then replaces the target. Raises OSError.
    """
    target = Path(path).expanduser()
    target.parent.mkdir(parents=True, exist_ok=True)
    for attempt in range(100):
        tmp = target.with_name(f".{target.name}.{os.getpid()}.{attempt}.tmp")
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, PRIVATE_MODE)
            break
        except FileExistsError:
            continue
    else:
        raise FileExistsError(f"cannot create a temporary file beside {target}")
    try:
        with os.fdopen(fd, "w", encoding=encoding) as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    return target
