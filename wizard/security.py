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

import codecs  # loaded by the interpreter itself: costs nothing at start-up
import errno  # built in: costs nothing at start-up
import json
import os
import re
import stat
import sys
from pathlib import Path

from wizard import bounded
from wizard.patterns import LazyPattern, class_members

TYPE_CHECKING = False  # `typing.TYPE_CHECKING` without importing `typing` (start-up time, issue 23)
if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping
    from typing import Any

#: A question whose answer must stay hidden: passwords, passphrases, tokens, secrets, PINs.
SECRET_QUESTION_RE = LazyPattern(r"pass(?:word|phrase)|token|secret|\bpin\b", re.IGNORECASE)

#: A VCS prefix before a URL's scheme (`git+`, `hg+`), as uv and pip take one.
_VCS_PREFIX = r"(?:[A-Za-z][A-Za-z0-9.-]*\+)?"
#: One separator a URL parser reads after a special scheme's `:` (`https`, `file` …): `/` or `\`, as the WHATWG URL
#: standard uv follows reads them; any number of them, or none (`file:/DIR`, `file:\\DIR`, `file:DIR`).
_LOOSE_SEPARATORS = r"[/\\]"
#: A URL's scheme and the separator a URL parser reads before its authority: `scheme://`, and for the schemes the
#: WHATWG URL standard calls special (http, https, ws, wss, ftp, file; also after a `git+`-style prefix) any run of
#: `/` and `\\` — uv (the `url` crate) and browsers read `https:/u:PW@host`, `https:///u:PW@host` and
#: `http:\\/u:PW@host` as `https://u:PW@host` and send the login (25th hostile pass (part A) P1: such a password was
#: printed by plan, its --json, the refusals, the install log and the report, as the rules below knew `://` only);
#: with no separator at all too (`https:@u:PW@host` is sent as `https://%40u:PW@host`: pass 26's early look, P1).
#: Every rule that finds a URL's authority starts with this one piece. At most 8 separators. The lookahead first: a
#: word start with no `:/` or `:\\` after its scheme-like run fails in one scan of the word, not three (the
#: alternation alone made masking a whole 660 KB log about 1.2 times slower).
#: What stands before the scheme in the same word does not matter (37th hostile pass (part B) P2): a colour code's
#: `ESC[36m` left `36mhttps://user:PW@host`, and a scheme may not start with a digit, so the login was printed; the
#: match still starts only at a word's start (one scan per word), and takes the digits, `+.-` or letters before the
#: scheme with it: `5https://`, `-https://`, `xhttps:/u:PW@host` (a special scheme is found inside a word, lazily,
#: as `git+https:` always was).
_SCHEME = (r"(?<![A-Za-z0-9+.-])(?=[A-Za-z0-9+.-]*:)(?:[0-9+.-]*[A-Za-z][A-Za-z0-9+.-]*://"
           rf"|[A-Za-z0-9+.-]*?(?i:https?|wss?|ftp|file):{_LOOSE_SEPARATORS}{{0,8}})")
#: The literal words every text `_SCHEME` matches holds one of (a rule's needles).
_SCHEME_NEEDLES = (":/", ":\\", "http:", "https:", "ftp:", "file:", "ws:", "wss:")

#: `scheme://user:secret@` (the user group is kept by default, unless it is the credential itself:
#: `_user_is_secret`, `_shows_user`); `scheme://name@` without a password is left alone when the name reads as an
#: account's.
#: A password may hold a `/` pasted without percent-encoding (`_URL_SLASHED_USERINFO`), unless a port comes first.
_CREDENTIALS_RE = LazyPattern(rf"({_SCHEME})([^/\s@:]+)"
                              r"(?::[^/\s@]{0,512}|:(?![0-9]{1,5}(?:/|$))[^\s@/]{0,512}/[^\s@]{0,512}?)?@")

#: CSI; OSC (BEL or ST terminated); DCS/SOS/PM/APC strings (ST terminated); any other escape
#: (intermediate bytes then a final byte: `ESC ( B`, `ESC 7`, `ESC M`, and the two-character
#: escapes `ESC [@-Z\\-_]`).
ESCAPE_RE = LazyPattern(
    r"\x1b(?:\[[0-?]*[ -/]*[@-~]"
    r"|\][^\x07\x1b]*(?:\x07|\x1b\\)"
    r"|[PX^_][^\x1b]*\x1b\\"
    r"|[ -/]*[0-~])"
)
#: Control characters left after the escapes are gone (tab, LF and CR are kept; ESC and C1 are not).
CONTROL_RE = LazyPattern(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")

#: Unicode categories a line of text shown to a person never needs: controls (Cc: C0, DEL, C1), format
#: characters (Cf: the bidi embeddings, overrides and isolates U+202A-202E and U+2066-2069, the marks U+200E/200F
#: and U+061C, zero-width U+200B-200D and U+2060, the BOM U+FEFF, the interlinear annotations), line and
#: paragraph separators (Zl, Zp), private use (Co) and lone surrogates (Cs). Why by category and not a list:
#: U+202E made a recipe title read "Tiny -cpu stack" for "Tiny upc- stack" (fifth hostile pass 5i), and the
#: next such character is in the same category.
_UNSHOWABLE_CATEGORIES = frozenset({"Cc", "Cf", "Zl", "Zp", "Co", "Cs"})


def unshowable_characters(text: str, *, allow: str = "") -> list[str]:
    """The characters of `text` that could disturb or deceive the terminal it is shown on (each once, sorted),
    besides those in `allow` (say "\\t\\n" for a multi-line note); [] when there are none."""
    import unicodedata  # deferred: only a recipe's or a state file's text is checked, never `detect`'s (issue 23)

    return sorted({ch for ch in text if ch not in allow and unicodedata.category(ch) in _UNSHOWABLE_CATEGORIES})


def show_characters(chars: list[str]) -> str:
    """`\\u001b \\u202e`: each character as its escape, so the message itself shows none of them.

    The same `\\u` escape `reveal_format_characters` writes, so a refusal that names a character and the value it
    quotes show it alike (ESC was `\\x1b` in one and `\\u001b` in the other). Beyond U+FFFF a person reads
    `\\U000e0041`: U+E0041 as `\\ue0041` read as U+E004 and a "1" (T22)."""
    return " ".join(f"\\u{ord(c):04x}" if ord(c) <= 0xFFFF else f"\\U{ord(c):08x}" for c in chars)

PRIVATE_MODE = 0o600


def is_secret_question(question: str) -> bool:
    """Whether an installer's question asks for something that must not be shown, echoed or logged."""
    return bool(SECRET_QUESTION_RE.pattern.search(question))


def redact_credentials(text: str, *, keep_user: bool = True, mask: str = "***") -> str:
    """`https://user:secret@host` -> `https://user:***@host` (or `https://***@host` without the user).

    Logs keep the user name (it says which account was used); a report for someone else drops it too. A user name
    that is itself the credential goes whole (`_user_is_secret`): `https://TOKEN:@host` (Gemfury's form) is not
    shown as `https://TOKEN:***@host`, nor `https://TOKEN@host` kept as a mere account name.
    """
    def replace(match: re.Match) -> str:
        scheme, user = match.group(1), match.group(2)
        password = match.group(0)[len(scheme) + len(user):-1]  # "" (none), ":" (empty) or ":secret"
        if not password:  # `scheme://user@host`: no secret in it, unless the name is one
            return match.group(0) if keep_user and not _user_is_secret(user) else f"{scheme}{mask}@"
        if keep_user and _shows_user(user, password[1:]):
            return f"{scheme}{user}:{mask}@"
        return f"{scheme}{mask}@"
    return _CREDENTIALS_RE.pattern.sub(replace, text)


#: A run of letters and digits as long as a generated token (a Gemfury or classic GitHub token used as a URL's user
#: name: `https://TOKEN:x-oauth-basic@github.com`).
_GENERATED_RUN = LazyPattern(r"[A-Za-z0-9]{16,}")


def _user_is_secret(user: str) -> bool:
    """Whether a URL's user name is a credential itself, not an account's name: it holds a `:` once
    percent-decoded (`user%3Apassword@host`, the password inside the name), or looks generated — a run of 16 or
    more letters and digits with a digit in it, or a token's mix of upper case, lower case and digits
    (`_PATH_TOKEN`). `alice`, `__token__`, `oauth2`, `gitlab+deploy-token-7` are names, and stay."""
    if "%" in user:
        from urllib.parse import unquote  # deferred: only a URL with a user name needs it (start-up time)

        user = unquote(user)
    return ":" in user or bool(_PATH_TOKEN.pattern.match(user)) or any(
        not run.isalpha() for run in _GENERATED_RUN.pattern.findall(user))


def _shows_user(user: str, password: str) -> bool:
    """Whether a URL's user name may be shown beside its masked password (`keep_user`): only a name with a password
    after it. `https://TOKEN:@host` gives the token as the user and nothing as the password (Gemfury's documented
    form): shown as `TOKEN:***@`, the credential was printed on every channel (twentieth hostile pass P1)."""
    return bool(user) and bool(password) and not _user_is_secret(user)


#: Characters that change how the text around them is drawn while showing nothing themselves: bidi embeddings,
#: overrides and isolates, zero-width spaces and joiners, the word joiner and invisible operators, the BOM — and
#: the control characters a terminal acts on (ESC starts a sequence that can clear the screen or set the window
#: title; seventh hostile pass 5c/5f: a checkout's file name did both), tab, newline and carriage return aside.
#: Every character of Unicode's "format" category (Cf) is one (the soft hyphen, the Arabic letter mark, the
#: Mongolian vowel separator, the interlinear annotations, the tag characters; eighth hostile pass U7), and so are
#: the line and paragraph separators, which some terminals and editors break lines at.
_INVISIBLE_CLASS = (
    "[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\xad\u0600-\u0605\u061c\u06dd\u070f\u0890\u0891\u08e2\u180e"
    "\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb\U000110bd\U000110cd"
    "\U00013430-\U0001343f\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0001\U000e0020-\U000e007f"
    # A lone surrogate (`\ud800` in an edited history.json) is no character at all; it was written as `?`
    # (ninth hostile pass V1). Not U+DC80-U+DCFF: those stand for a path's bytes that are not UTF-8
    # (surrogateescape), which are written as those bytes.
    "\ud800-\udc7f\udd00-\udfff]")
_INVISIBLE_FORMAT = LazyPattern(_INVISIBLE_CLASS)
#: The same characters but the surrogates as a set (`patterns.class_members`), made on first use: text beyond ASCII
#: that holds none of them and no surrogate (a `1°`, a `✓`, an `…`: most of what the wizard prints) is passed on
#: without compiling the class.
_INVISIBLE_MEMBERS: list[frozenset[str]] = []


_LONE_SURROGATE = LazyPattern("[\ud800-\udfff]")


def json_text(value: Any, **options: Any) -> str:
    """`json.dumps(value, ensure_ascii=False, **options)` with every lone surrogate written as JSON's own escape
    (`\\udcff`): the one rule for JSON the wizard writes for others to read — a `--json` line, kernel.json.

    Why: a path or variable holding a byte that is not UTF-8 (`/opt/l\\xff`) is held by Python as the lone
    surrogate U+DCFF; written as that byte, the JSON text was not UTF-8, so `json.loads(bytes)`, jq and
    jupyter_client (which read kernel.json as UTF-8) refused it or read another path (eleventh hostile pass
    #34/#186/#187). The escape is plain ASCII, valid JSON, and exact: Python's json reads it back as U+DCFF, which
    `os.fsencode` — and so a kernel's environment, an `open()` — turns back into the byte. `report` spells such a
    byte the same way (`\\udcff`). Other characters stay themselves (a folder named `données` reads as such).
    A lone surrogate can only stand inside a string of the output, so escaping it there is always right."""
    text = json.dumps(value, ensure_ascii=False, **options)
    if _utf8_as_is(text):  # nearly every line: nothing to escape, and the pattern is not even compiled
        return text
    return _LONE_SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def json_lines_for(text: str, encoding: str) -> str:
    """`text` with each of its lines that is a JSON document and that `encoding` cannot write as it is written with
    every character past ASCII as JSON's `\\uXXXX` escape (a pair of them past U+FFFF), as `ensure_ascii` writes it;
    other lines as they are.

    Why: under `LC_ALL=C` or `PYTHONIOENCODING=ascii`/`latin-1` the stream turned a recipe value's `café😀` into
    `caf??` in every `--json` line, with exit 0, so a script read another value than kernel.json holds (28th hostile
    pass (part A) P2). Outside a string a JSON text holds only ASCII, so escaping each other character is exact and
    the line stays the same JSON; a line that is not JSON (prose) is left to the stream's stand-ins."""
    out = []
    for line in text.splitlines(keepends=True):
        if not line.isascii() and line.lstrip()[:1] in "{[" and not _encodes(line, encoding):
            body = line.rstrip("\r\n")
            try:
                bounded.loads_json(body)
            except ValueError:
                pass
            else:
                line = _NON_ASCII.sub(_json_escape, body) + line[len(body):]
        out.append(line)
    return "".join(out)


_NON_ASCII = LazyPattern("[^\x00-\x7f]")


def _json_escape(match: re.Match) -> str:
    code = ord(match.group())
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    code -= 0x10000
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"


def _encodes(text: str, encoding: str) -> bool:
    """Whether `encoding` writes `text` as it is (a lone surrogate, a path's byte, is written as that byte)."""
    try:
        text.encode(encoding, "surrogateescape")
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def _utf8_as_is(text: str) -> bool:
    """Whether `text` holds no lone surrogate (so UTF-8 writes it as it is): pure ASCII, or encodable. One C-level
    pass instead of a regular expression over text that is almost never anything else (issue 23)."""
    if text.isascii():
        return True
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def reveal_format_characters(text: str) -> str:
    """`text` with each invisible format character written as its escape (`\\u202e`), so a value from a state,
    log or recipe file (`tiny-a\u202e…` in a history entry's error) cannot make a line read as other text.

    Every output channel applies it after redaction (the streams, the app's `Shown` text); in a `--json` line the
    escape is JSON's own, so a reader still gets the original character back.

    Bytes that Python held as lone surrogates but that are UTF-8 together (an argument or path read under
    `LC_ALL=C PYTHONUTF8=0`) are read as the characters they spell first: a right-to-left override in a path given
    on the command line went out raw, live on the user's UTF-8 terminal (sixteenth hostile pass P6). A byte that is
    no UTF-8 stays what it was."""
    if text.isascii():  # most text: its only invisible characters are C0 controls and DEL (issue 23)
        return _ASCII_INVISIBLE.sub(_escape, text) if not text.isprintable() else text
    if not _utf8_as_is(text) and _ESCAPED_BYTE.search(text):
        try:
            text = text.encode("utf-8", "surrogateescape").decode("utf-8", "surrogateescape")
        except UnicodeError:  # a surrogate no byte stands for: leave the text as it is
            pass
    if not _INVISIBLE_MEMBERS:
        _INVISIBLE_MEMBERS.append(class_members(_INVISIBLE_CLASS, without=("\ud800", "\udfff")))
    if _INVISIBLE_MEMBERS[0].isdisjoint(text) and _utf8_as_is(text):  # (no surrogate: `encode` would refuse one)
        return text
    return _INVISIBLE_FORMAT.sub(_escape, text)


#: `_INVISIBLE_FORMAT`'s ASCII members: all an ASCII text can hold of it, and a pattern that compiles at once, where
#: the whole class (its ranges reach past U+FFFF) took a millisecond on every command's start (issue 23).
_ASCII_INVISIBLE = LazyPattern("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
#: A byte Python could not decode, held as a lone surrogate (U+DC80..U+DCFF).
_ESCAPED_BYTE = LazyPattern("[\udc80-\udcff]")


#: A word a shell takes as it is, unquoted (`shlex.quote`'s own set).
_PLAIN_WORD = LazyPattern(r"[\w@%+=:,./-]+", re.ASCII)


def shell_word(text: str) -> str:
    """`text` as one word a shell reads back as exactly `text`'s bytes: the one quoting of every copy-me line.

    A word of characters that show as themselves is `shlex.quote`'s: bare, or in single quotes. A word that holds
    any other — a control character, a format or separator character (U+0085, U+2028, a bidi mark: what
    `reveal_format_characters` would escape), a lone surrogate (a path's byte that is not UTF-8) — is written as
    bash/zsh `$'…'` with each such character's bytes as `\\xNN`, pure ASCII. Why: the output layer escaped such a
    character inside the single quotes (`'/d/e\\u0085x'`), which a shell keeps as six characters, so the pasted
    `uv pip install --python '…'` or `export GC_WIZARD_HOME='…'` named a folder that does not exist (33rd hostile
    pass (part A) P6). `$'…'` is ASCII, so nothing after it changes it, and the shell turns `\\xNN` back into the
    byte."""
    if not text:
        return "''"
    if _PLAIN_WORD.fullmatch(text):
        return text
    if all(_shows_as_itself(char) for char in text):
        return "'" + text.replace("'", "'\"'\"'") + "'"
    out = []
    for char in text:
        if char == "\\" or char == "'":
            out.append("\\" + char)
        elif char.isascii() and char.isprintable() or _shows_as_itself(char):
            out.append(char)
        else:
            out.extend(f"\\x{byte:02x}" for byte in _char_bytes(char))
    return "$'" + "".join(out) + "'"


#: A name a POSIX shell takes as a variable's (`export NAME=…`, `unset NAME`): ASCII letters, digits and `_`, not
#: starting with a digit.
_SHELL_NAME = LazyPattern(r"[A-Za-z_][A-Za-z0-9_]*", re.ASCII)


def is_shell_name(name: object) -> bool:
    """Whether `name` may stand as a variable's name in shell code gc-wizard prints (`export NAME=…`, `unset NAME`).

    The one check of every name written into shell code: `shell_word` quotes values, but a name is code as it
    stands, and an environment built by `env`, Python or a job launcher may hold any text as a name
    (`NCCL_NET_PLUGIN;touch x;X`): printed bare, it ran under `eval "$(gc-wizard activate)"` (38th hostile pass
    (part B) P7). No shell can hold such a variable, so one is never set, unset or restored; it is named in a comment
    instead."""
    return isinstance(name, str) and _SHELL_NAME.fullmatch(name) is not None


def shell_line(argv: Iterable[str]) -> str:
    """`shlex.join` by `shell_word`: a command line to copy, each word read back as it was given."""
    return " ".join(shell_word(part) for part in argv)


def _shows_as_itself(char: str) -> bool:
    """Whether a terminal shows `char` as itself and a pasted copy brings it back: printable, and none of the
    characters `reveal_format_characters` escapes (a surrogate is a byte, never a character)."""
    if char.isascii():
        return char.isprintable() or char in " "
    if not char.isprintable() or "\ud800" <= char <= "\udfff":
        return False
    if not _INVISIBLE_MEMBERS:
        _INVISIBLE_MEMBERS.append(class_members(_INVISIBLE_CLASS, without=("\ud800", "\udfff")))
    return char not in _INVISIBLE_MEMBERS[0]


def _char_bytes(char: str) -> bytes:
    """The bytes a path spells `char` with: UTF-8, a lone surrogate from a path as the byte it stands for."""
    try:
        return char.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:  # a surrogate no byte stands for (an edited file): its UTF-16 code's bytes, visibly
        return char.encode("utf-8", "surrogatepass")


def one_line(text: str) -> str:
    """`text` for a place that holds one line (a table row, a bullet, a cell): `reveal_format_characters`, and a
    newline or carriage return as its escape too. A field of an edited state file (`"started": "2026\\n== ROW"`)
    printed rows of its own in `history` and `report` (tenth hostile pass T10/T15); the output layer keeps `\\n`,
    which ends the lines the wizard itself writes."""
    return reveal_format_characters(text).replace("\n", "\\u000a").replace("\r", "\\u000d")


def shown_path(path: object) -> str:
    """A path as a sentence shows it: on one line (`one_line`), a newline, carriage return, escape or other control
    or format character in it written as its escape. The one escaping of a path inside prose; a copy-me command
    quotes it with `shell_word` instead, which a shell reads back as the same bytes.

    Why: 38th hostile pass (part A) P5 — GC_WIZARD_HOME holding a newline broke `history`'s "No installs yet in the
    state folder …" across two lines, the second reading as a line of its own (the output layer keeps `\n`, which
    ends the wizard's own lines)."""
    return one_line(str(path))


#: A carriage return inside a line: text before it and after it on the same line. The wizard's own returns start a
#: redraw (`\r  12 MiB …`) or end a line (`\r\n`); one in the middle comes from a value (a file name) and would
#: draw what follows over what precedes it.
_STRAY_RETURN = LazyPattern(r"(?<=[^\n])\r(?=[^\r\n])")


def escape_stray_returns(text: str) -> str:
    """`text` with each carriage return inside a line written as its escape (`\\u000d`), as the output layer writes
    every other control character; a return that starts the text or a line, or ends one, stays.

    Why: 36th hostile pass (part A) P4 — `forecast --list` printed an assets file named `cr\\rGraphCast_small.npz`
    as it is, and on a terminal the row read `params/GraphCast_small.npz`: the output layer escaped ESC and U+202E
    in the same listing but let every `\\r` through. A value's newline is `one_line`'s to escape: only the line's
    writer knows which newlines are its own."""
    return _STRAY_RETURN.pattern.sub("\\\\u000d", text) if "\r" in text else text


def _escape(match: re.Match) -> str:
    """JSON's own escape, `\\u009b`, for every one (a surrogate pair beyond U+FFFF): the same text serves a person
    and a `--json` reader, which decodes it back to the character (`\\x9b` made the JSON line invalid; eighth
    hostile pass U4-U6)."""
    code = ord(match.group())
    if code > 0xFFFF:
        code -= 0x10000
        return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"
    return f"\\u{code:04x}"


def strip_terminal_escapes(text: str, *, keep_controls: bool = False) -> str:
    """The text without escape sequences and (unless `keep_controls`) control characters; tab, `\\n`
    and `\\r` always stay."""
    text = ESCAPE_RE.sub("", text)
    return text if keep_controls else CONTROL_RE.sub("", text)


#: The two POSIX ACLs a file may carry (`setfacl`), as the kernel stores them as extended attributes: what may be
#: done to it now, and (a folder's) what the files and folders made in it will get. Named once, for the folder
#: maker here, the swap rule's ACL reader (`source_trust`) and the own-data check (`paths`).
ACL_ACCESS, ACL_DEFAULT = "system.posix_acl_access", "system.posix_acl_default"
_ACL_NAMES = (ACL_ACCESS, ACL_DEFAULT)


def make_folders(path: str | os.PathLike[str], mode: int = 0o777) -> Path:
    """`mkdir -p path` (an existing folder is left as it is, as `Path.mkdir(parents=True, exist_ok=True)` does),
    where every folder made here is left without an ACL and without group/other write, whatever the umask and
    whatever ACL the folder above hands down; returns the path. The one maker of every folder the wizard makes
    (the state and its `envs/`, `logs/`, an environment, a bundle, a module file's and a kernel spec's folders).

    Why: 27th hostile pass (part B) P1 — under a folder with a default ACL (`setfacl -d -m u:tuser:rwx D`) each
    folder made there inherits that entry for itself and for what is made in it: the Jupyter kernel and the module
    folders came out `drwxrwxr-x+` for another user, who swapped root's `kernel.json` and `.lua`, and the state's
    `envs/` inherited it so each install refused its own new folder, naming a path it had just removed. The mode is
    cut by the umask, but an inherited ACL is not: it is taken away right after the folder is made (`strip_acls`).
    Raises OSError as `mkdir` does."""
    target = Path(path)
    missing = []
    folder = target
    while not folder.is_dir():
        if os.path.lexists(folder):  # a file (or a dangling link) where a folder goes: mkdir's own error
            raise FileExistsError(errno.EEXIST, os.strerror(errno.EEXIST), str(folder))
        missing.insert(0, folder)
        if folder.parent == folder:
            break
        folder = folder.parent
    for each in missing:
        try:
            os.mkdir(each, mode)
        except FileExistsError:
            if not each.is_dir():
                raise
            continue  # made meanwhile by another process: not this one's to change
        strip_acls(each)
    return target


def strip_acls(folder: str | os.PathLike[str]) -> None:
    """Take any access and default ACL off `folder`, which this process has just made (`make_folders`,
    `tempfile.mkdtemp`), and group/other write off its mode: what the wizard makes is writable by no one else,
    even under a folder whose default ACL gives another user write (27th hostile pass (part B) P1). A file system
    or system without ACLs has none to take."""
    remove = getattr(os, "removexattr", None)
    if remove is not None:
        for name in _ACL_NAMES:
            try:
                remove(folder, name, follow_symlinks=False)
            except OSError as exc:
                if exc.errno not in _NO_ACL_ERRNOS:
                    raise
    info = os.lstat(folder)
    if stat.S_ISDIR(info.st_mode) and info.st_mode & 0o022:
        os.chmod(folder, stat.S_IMODE(info.st_mode) & ~0o022)


#: "no such ACL" (ENODATA), "no ACLs on this file system" (EOPNOTSUPP, ENOTSUP) and "no extended attributes".
_NO_ACL_ERRNOS = frozenset(getattr(errno, name) for name in ("ENODATA", "EOPNOTSUPP", "ENOTSUP", "ENOSYS")
                           if hasattr(errno, name))


def known_home(environ: Mapping[str, str] | None = None) -> Path | None:
    """The user's home folder: HOME when it is an absolute path, else (HOME unset) the password database's entry, as
    Python's `expanduser` reads it; None when neither gives one (an empty or relative HOME, which `paths.home_problem`
    names; an account with no passwd entry and no HOME: `docker run --user 54321`, a batch system's uid).

    The one reader of "the home folder" (`paths.home_folder` refuses in a sentence where one is needed): `Path.home()`
    raised RuntimeError on such an account, a raw traceback or "this is a bug" in most commands, and
    `expanduser("~")` gave "~" back, a folder named `~` under the working folder (32nd hostile pass (part A) P2)."""
    environ = os.environ if environ is None else environ
    home = environ.get("HOME")
    if home is not None:
        return Path(home) if os.path.isabs(home) else None
    import pwd  # deferred: only an account without HOME asks the password database

    try:
        entry = pwd.getpwuid(os.getuid()).pw_dir
    except KeyError:
        return None
    return Path(entry) if os.path.isabs(entry) else None


def expand_home(path: str | os.PathLike[str]) -> str:
    """`path` with a leading `~` (or `~/…`) read as the home folder `known_home` gives, and `~user` as the password
    database's entry for user (as written when there is none); any other path as it is. The one expander of the paths
    the user gives (options, prompts, recipe folders).

    Why: `Path.expanduser` raised RuntimeError on an account with no home folder (no HOME, no passwd entry), so
    `report --out '~/r.md'` or `--recipes-dir '~/r'` stopped with "this is a bug", while `os.path.expanduser` read an
    empty HOME as `/` and `verify --env '~/x'` took `~` as a folder under the working folder: one path, three
    readings. With no home, a quoted `~` is what the shell leaves it: a folder named `~` (fixers' leftover)."""
    text = str(os.fspath(path))
    if not text.startswith("~"):
        return text
    if text[1:2] not in ("", "/"):
        return os.path.expanduser(text)
    home = known_home()
    if home is None:
        return text
    return (str(home).rstrip("/") + text[1:]) or "/"


#: The encoding error handler of every file the wizard writes (logs, history, reports, crash logs): a lone surrogate
#: that stands for a byte (`\udcff`, a path read from a non-UTF-8 name) is written as that byte, as `surrogateescape`
#: does; any other character the encoding cannot take (a lone `\ud800` from a hand-edited history.json or recipe) as
#: its backslash escape. `surrogateescape` alone raised on the second kind, so a rollback whose history entry held
#: one stopped with "this is a bug" in the middle of its log (32nd hostile pass (part A) P6).
WRITE_ERRORS = "gc-wizard-bytes"


def _byte_or_escape(exc: UnicodeError) -> tuple[bytes, int]:
    """`WRITE_ERRORS`: a byte's surrogate as the byte, any other unencodable character as `\\uXXXX`."""
    if not isinstance(exc, UnicodeEncodeError):
        raise exc
    out = bytearray()
    for char in exc.object[exc.start:exc.end]:
        code = ord(char)
        if 0xDC80 <= code <= 0xDCFF:
            out.append(code - 0xDC00)
        else:
            out += char.encode("ascii", "backslashreplace")
    return bytes(out), exc.end


codecs.register_error(WRITE_ERRORS, _byte_or_escape)


def open_private_log(path: str | os.PathLike[str], *, buffering: int = -1):
    """A text stream appending to the log at `path` (`open_private_append`), that writes any string it is given
    (`WRITE_ERRORS`): the one opener of the wizard's logs, so no value from the state, a recipe or the user can stop
    a run at the line that records it. Raises OSError."""
    return open(open_private_append(path), "a", encoding="utf-8", errors=WRITE_ERRORS, buffering=buffering)


def open_private_append(path: str | os.PathLike[str]) -> int:
    """A descriptor that appends to the regular file at `path` (made 0600 when new), or OSError: never through a
    symlink at `path` (ELOOP), never into a FIFO, device or socket (EINVAL), and never waiting to open one.

    Why: every log the wizard appends to (an install's, the app's `tui.log`) was opened with a plain append, so a
    FIFO planted at `logs/tui.log` froze the app before its first frame, past q, Ctrl-C and SIGTERM, and a link there
    or at `GC_WIZARD_STARTUP_LOG` was written through into another file (30th hostile pass (part A) P6, (part B)
    P11). Logs are appended to, not replaced (`write_private_file`), so this is their one opener."""
    flags = (os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_NOCTTY
             | getattr(os, "O_CLOEXEC", 0))
    fd = os.open(path, flags, 0o600)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(errno.EINVAL, "not a regular file (a FIFO, a device or a socket)", str(path))
        os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    return fd


def write_private_file(path: str | os.PathLike[str], text: str, *, encoding: str = "utf-8",
                       mode: int = PRIVATE_MODE) -> Path:
    """Write `text` to `path`, readable and writable by its owner only (mode 0600), atomically and durably
    (`write_beside` with the folder synced); a device, a FIFO or one of this process's own descriptors at `path`
    (`--out /dev/stdout`) is written into as a shell's `>` would. `mode` is for the few files others must read (a
    module file: 0644, still without group/other write). Raises OSError."""
    return write_beside(expand_home(path), text, encoding=encoding, mode=mode, durable=True, into_devices=True)


def write_beside(path: str | os.PathLike[str], text: str, *, encoding: str = "utf-8", mode: int = PRIVATE_MODE,
                 durable: bool = True, into_devices: bool = False) -> Path:
    """Replace the file at `path` with `text`: the one core of every whole-file write the wizard makes (its private
    files through `write_private_file`, the state's caches through `paths.write_state_cache`).

    The content goes to a new file beside the target, created with `O_EXCL|O_NOFOLLOW` and mode 0600 (no window in
    which another user could open it, and never through a link planted at the temporary name), then replaces the
    target by a rename — a link or a FIFO at `path` is replaced, never opened. `mode` is set on the temporary file
    before any byte is written, whatever the umask (never group/other write). On any failure — a full disk, a signal
    mid-write — the target stays as it was and no temporary file is left. Raises OSError.

    Options: `durable` syncs the file and, after the rename, its folder, so a crash right after cannot bring the old
    file back (a cache, rebuilt when lost, skips both); `into_devices` writes into a device, a FIFO or one of this
    process's own descriptors at `path` instead of replacing it (`--out /dev/stdout`, /dev/full).

    Why one core: `paths.write_state_cache` had its own copy of the temporary-file dance (35th hostile pass (part B)
    P3), so a fix to one (the target's name in a write error, a temporary name already taken) missed the other."""
    target = Path(path)
    if into_devices:
        own = OWN_DESCRIPTOR.match(str(target))
        if own:
            _write_into_descriptor(int(own.group(1)), text, encoding)
            return target
        if _is_device_or_pipe(target) and _write_into_device(target, text, encoding):
            return target
    make_folders(target.parent)
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0)
    for attempt in range(100):
        tmp = target.with_name(f".{target.name}.{os.getpid()}.{attempt}.tmp")
        try:
            fd = os.open(tmp, flags, PRIVATE_MODE)
            break
        except FileExistsError:
            continue
    else:
        raise FileExistsError(f"cannot create a temporary file beside {target}")
    try:
        # WRITE_ERRORS: a path's byte that is not UTF-8 is written as the byte it is; any other lone surrogate escaped.
        try:
            with os.fdopen(fd, "w", encoding=encoding, errors=WRITE_ERRORS) as handle:
                os.fchmod(handle.fileno(), mode & 0o755)  # exactly this, whatever the umask; never group/other write
                handle.write(text)
                handle.flush()
                if durable:
                    os.fsync(handle.fileno())
        except OSError as exc:
            # A write through the open file names no path: said by the file being written, so a full disk is the
            # one it is on and not "one of the places gc-wizard writes in" (22nd hostile pass P7).
            raise said_of(exc, target) from None
        try:
            os.replace(tmp, target)
        except OSError as exc:  # said by the file the user knows, not the temporary one (gone by the time it is said)
            raise OSError(exc.errno, exc.strerror, str(target)) from None
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    if durable:
        _sync_folder(target.parent)
    return target


#: The errors of a write that found no room: the file being written is on the disk that is full, whatever the error
#: names (a copy's `sendfile` names its source, not the full destination).
_NO_ROOM_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT})


def said_of(exc: OSError, path: str | os.PathLike[str]) -> OSError:
    """`exc` as the error of writing `path`: `exc` itself when it names its own file, else the same error naming
    `path` (a write through an open file, a zip's blocks, a copy's `sendfile`, names none, or its source).

    Why: 38th hostile pass (part A) P4 — a full disk while a bundle's wheels were zipped raised ENOSPC with no file,
    and the sentence for a pathless full disk named the state folder and /tmp, never the --out being written; with
    the path the sentence names that path's disk (`error_sentences.describe_os_error`)."""
    shown = os.fspath(path)
    if exc.filename is not None and not (exc.errno in _NO_ROOM_ERRNOS and exc.filename != shown):
        return exc
    return OSError(exc.errno, exc.strerror, shown)


class writing:  # lower case: used as `with writing(path):`, as a function would be
    """`with writing(path): …` — an OSError of the block is raised as the error of writing `path` (`said_of`): for
    the writes that go through an open file or a library's own (zip archives, copies), which name no file."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = path

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: object, exc: BaseException | None, trace: object) -> bool:
        if isinstance(exc, OSError):
            said = said_of(exc, self.path)
            if said is not exc:
                raise said from None
        return False


#: One of this process's own descriptors by path (`/dev/fd/1`, `/proc/self/fd/1`, where `/dev/stdout` leads).
OWN_DESCRIPTOR = LazyPattern(r"^/(?:proc/(?:self|thread-self)/fd|dev/fd)/([0-9]+)$")


def _write_into_descriptor(fd: int, text: str, encoding: str) -> None:
    """Write `text` into descriptor `fd` as it is open (`report --out /dev/stdout > file`: the shell opened and
    truncated the file; a rename beside `/proc/self/fd/1` cannot be made, and reopening would truncate again)."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()  # what the wizard printed before comes first
        except (OSError, ValueError, AttributeError):
            pass
    data = text.encode(encoding, WRITE_ERRORS)
    while data:
        data = data[os.write(fd, data):]


def _write_into_device(target: Path, text: str, encoding: str) -> bool:
    """Write `text` into the device or FIFO at `target` (`--out /dev/stdout`, /dev/full), as a shell's `>` would:
    the rename would put a regular file in the device's place (as root, /dev/full was replaced so) and say it
    wrote. Opened without truncation and checked once open: when a regular file took the device's place since
    it was looked at (a link swapped in), nothing is written through it and False says so — the caller then
    replaces the path itself (eleventh hostile pass #188/#189: never write through a link the wizard did not
    make)."""
    # Opened without waiting: a FIFO nothing reads fails at once (ENXIO, said by `wizard.outputs`) instead of waiting
    # forever without a word (24th hostile pass (part A) P10); the writes themselves wait for the reader as usual.
    fd = os.open(target, os.O_WRONLY | os.O_NOCTTY | os.O_NONBLOCK)
    try:
        if stat.S_ISREG(os.fstat(fd).st_mode):
            return False
        os.set_blocking(fd, True)
        with os.fdopen(fd, "w", encoding=encoding, errors=WRITE_ERRORS, closefd=False) as handle:
            handle.write(text)
    finally:
        os.close(fd)
    return True


def _is_device_or_pipe(target: Path) -> bool:
    """Whether `target` exists as something other than a regular file or a folder (a device, a FIFO, a
    socket), through any links: `/dev/stdout` is a link to the terminal or pipe the output goes to."""
    try:
        mode = os.stat(target).st_mode
    except (OSError, ValueError):
        return False
    return not (stat.S_ISREG(mode) or stat.S_ISDIR(mode))


def _sync_folder(folder: Path) -> None:
    """Make a rename in `folder` durable; a file system that cannot sync a folder is not an error."""
    try:
        dir_fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)
    except OSError:
        pass


# --------------------------------------------------------------------------- every secret form
# Masks secrets in any text the wizard writes down or shows: logs, the support report, history.json.
#
# Why so many forms: people paste what they have. A private index in a `--find-links` URL carries its
# password as URL userinfo (with `@`, `:` or `#` in it), an installer echoes `Authorization: Bearer …`,
# a job script exports `HF_TOKEN=hf_…` or `WANDB_API_KEY=…`, a config dump shows `password: …`, a
# `~/.ssh` mistake pastes a whole private key. Each form below is matched on its own shape, so one that
# slips past another (a token without its variable name) is still caught:
#
# - URL userinfo: `scheme://user:secret@host` and `scheme://token@host` → `scheme://<redacted>@host`
#   (the password may hold any character but whitespace; a `git+https://…/repo@rev` revision is not
#   userinfo and stays);
# - `Authorization: Bearer|Basic|token …` headers and bare `Bearer …`;
# - `password`, `passwd`, `passphrase`, `secret` followed by `:` or `=` and a value (not as the last part
#   of a path: `/etc/passwd: not a Python interpreter` and a `…/secret:/usr/bin` PATH are not secrets; every
#   stdout and stderr line passes through here, see wizard.commands.streams);
# - `-----BEGIN … PRIVATE KEY-----` blocks, up to their END line (or the end of the text);
# - the value of any variable whose name contains TOKEN, KEY, SECRET, PASSWORD, PASSWD or CREDENTIAL
#   (`NAME=value`, `NAME: value`, `export NAME="value"`, JSON `"NAME": "value"`);
# - tokens recognisable on their own: Hugging Face `hf_…`, GitHub `ghp_/gho_/ghu_/ghs_/ghr_…` and
#   `github_pat_…`, AWS access key ids `AKIA…`/`ASIA…`, Slack `xox?-…`, OpenAI-style `sk-…`; W&B keys are
#   40 hex digits, which look like git commits, so they are masked only after `WANDB_API_KEY`, `wandb login`
#   or `api_key`; also GitLab's other prefixes, PyPI `pypi-…`, npm `npm_…`, Google `ya29.…`/`AIza…`,
#   JSON Web Tokens `eyJ….eyJ….…`, Stripe-style live keys, and `vendor_kind_…` tokens (Docker Hub `dckr_pat_…`),
#   Vault `hvs.…`, Databricks `dapi…`, DigitalOcean, SendGrid, Shopify, Atlassian and Slack app tokens;
# - a URL's query values that carry credentials: by their parameter's name (presigned `sig=`,
#   `X-Amz-Signature=`, `X-Goog-Signature=`, `token=`, `key=`, …) or by their look (long, letters mixed
#   with digits), so a presigned or signed link's secret is masked whatever the service calls it.
# - the same query percent-encoded once (`%3Ftoken%3D…`, a URL quoted inside another's query), a URL's userinfo
#   percent-encoded once (`https%3A%2F%2Fuser%3Apw%40host`), and a signature parameter wherever its `name=` stands
#   (`X-Goog-Signature=…` quoted without its `?`).

class _Rule(LazyPattern):
    """One secret pattern of `redact_secrets`, compiled the first time a text could hold what it masks.

    Why: compiling the forty patterns took a tenth of `detect --json`'s time (issue 23), for text that mostly holds
    none of them. Each rule names its `needles`, literal words of which every text the pattern matches holds at least
    one (compared case-folded where the pattern ignores case); a text with none of them is left as it is without
    running the pattern — exactly what the substitution would have returned. `tests/unit/test_security_rules.py`
    checks each rule's needles against the pattern itself, so a needle that does not hold fails there."""

    __slots__ = ("needles", "folded")

    def __init__(self, source: str, *needles: str, flags: int = 0, fold_needles: bool = False) -> None:
        super().__init__(source, flags)
        # `fold_needles`: the pattern holds a case-blind part (`_SCHEME`'s `(?i:https?…)`), so its needles are looked
        # up in the folded text even though the pattern as a whole is not IGNORECASE.
        self.folded = bool(flags & re.IGNORECASE) or source.startswith("(?i)") or fold_needles
        self.needles = tuple(_fold(n) for n in needles) if self.folded else needles
        _RULES.append(self)

    def could_match(self, text: str, folded: str) -> bool:
        haystack = folded if self.folded else text
        return any(needle in haystack for needle in self.needles)


#: Every rule, as made (`_Rule.__init__`): the needles of all of them make `_any_needle`.
_RULES: list[_Rule] = []
_ANY_NEEDLE: list[tuple[int, re.Pattern[str]]] = []


def _any_needle() -> re.Pattern[str]:
    """One pattern for every rule's needles, case-folded: a text it finds nothing in (most of what the wizard prints:
    versions, paths, sentences) holds nothing any rule could mask, and is passed on after one search instead of one
    look-up per rule. Made again if a rule was added since."""
    if not _ANY_NEEDLE or _ANY_NEEDLE[0][0] != len(_RULES):
        needles = sorted({_fold(n) for rule in _RULES for n in rule.needles}, key=len, reverse=True)
        _ANY_NEEDLE[:] = [(len(_RULES), re.compile("|".join(re.escape(n) for n in needles)))]
    return _ANY_NEEDLE[0][1]


def _fold(text: str) -> str:
    """`text` case-folded as `re.IGNORECASE` compares it: `str.casefold`, with the two letters it folds otherwise —
    U+0130 (İ, folded to i and a combining dot) and U+0131 (ı), both of which the pattern matches as `i`."""
    return text.casefold().replace("\u0307", "").replace("\u0131", "i")


class _Masking:
    """One text being masked rule by rule (`redact_secrets`): the folded copy the needles are looked up in is made
    again only after a rule changed the text."""

    __slots__ = ("text", "_folded")

    def __init__(self, text: str, folded: str | None = None) -> None:
        self.text = text
        self._folded = folded

    def sub(self, rule: _Rule, replacement: Any) -> None:
        if self._folded is None and rule.folded:
            self._folded = _fold(self.text)
        if not rule.could_match(self.text, self._folded or ""):
            return
        masked = rule.pattern.sub(replacement, self.text)
        if masked != self.text:
            self.text, self._folded = masked, None


MASK = "<redacted>"

_URL_USERINFO = _Rule(
    rf"(?P<scheme>{_SCHEME})"
    r"(?P<userinfo>[^\s/]*)@"
    r"(?=[A-Za-z0-9\[/])", '@')
#: A password a URL parser does not read as one, pasted without percent-encoding: one holding a `/` (base64 tokens:
#: AWS CodeArtifact, Azure keys — a parser ends the authority at the first `/`, so the rule above saw a host and a
#: path; twenty-second hostile pass P1), an empty user name before it (`https://:TOKEN/…@host`), or a control or
#: Unicode blank character inside it (a vertical tab, NBSP, U+2028: uv still sends the credential; twenty-third pass
#: P1/P3). A user, a `:`, then anything but an `@`, a line end, a tab, a space or a quote, up to an `@` a host
#: follows, is a credential when it holds what ends the plain rule's password (a `/`, such a blank) — unless what
#: follows the `:` is a port (`host:8080/path@x` is a path with an `@` in
#: it). Bounded (256 + 512 characters), as a line of `x://a:/…` is scanned from every scheme.
_URL_ODD_USERINFO = _Rule(
    rf"(?P<scheme>{_SCHEME})"
    r"(?P<userinfo>@{0,8}[^\s/@:\"'<>]{0,256}:(?![0-9.]{1,5}(?:/|$))[^@\n\r\t \"'<>]{0,768})@"
    r"(?=[A-Za-z0-9\[])", *_SCHEME_NEEDLES, fold_needles=True)
#: A password with a blank inside it (`https://u:SEKa SEKtail@host`, `https://:TOK EN@host`, a tab or NBSP between):
#: the rules above stop at the blank, so `_URL_PORT_PASSWORD` masked the first word as a port-shaped password and the
#: words after it, up to the `@` a host follows, were printed (24th hostile pass (part A) P4: a recipe's `find_links`
#: refusal, which quotes the value because it holds a blank, showed `u:<redacted> SEKtail4@…`). Everything from the
#: `:` to that `@` is the password: the first word, then up to four more, each after blanks on the same line (no line
#: end, quote or `<>`). Not one (look-alikes kept in clear): a first word that is a port or a version
#: (`https://example.com:443 contact bob@example.com`, `http://proxy:3128 or ask ops@corp.com`), a URL with no `:`
#: in its authority (`https://u@host x y@z.org`), a path before the `:` (`https://h.org/a:b c@d.org`).
#: A first word that is all digits is a port only while the `@` ends a mail address: when the host after it goes on
#: as a URL's authority does (a `/`, a `:PORT`, a `?` or `#`), the digits were the password's first word
#: (`https://user:1234 secret@host/simple/`, a PIN-like password with a blank — known limit after pass 24: URL
#: password read as a port; both the digits and the words after them were printed).
_URL_SPACED_USERINFO = _Rule(
    rf"(?P<scheme>{_SCHEME})"
    r"(?P<userinfo>@{0,8}[^\s/@:\"'<>]{0,256}:(?:(?![0-9.]{1,5}(?:[/\s]|$))[^\s@\"'<>]{1,256}"
    r"(?:[^\S\n\r]{1,16}[^\s@\"'<>]{1,256}){1,4}[^\S\n\r]{0,16}(?=@)"
    r"|[0-9.]{1,5}(?:[^\S\n\r]{1,16}[^\s@\"'<>]{1,256}){1,4}[^\S\n\r]{0,16}"
    r"(?=@(?:[A-Za-z0-9][A-Za-z0-9.-]{0,253}|\[[0-9A-Fa-f:.]{1,64}\])(?:[/?#]|:[0-9]))))@"
    r"(?=[A-Za-z0-9\[])", *_SCHEME_NEEDLES, fold_needles=True)
#: What ends the plain rule's password: one holding any of these is the odd rule's to mask.
_ODD_PASSWORD = LazyPattern("[/\x0b\x0c\x1c-\x1f\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]")
#: A password that a parser took for the port, the `@` and host lost (split off at a blank, or cut by a paste):
#: `https://user:PASSWORD` — and pip's own words for it, "Port could not be cast to integer value as 'PASSWORD'"
#: (twenty-third hostile pass P1). Not a number (a real port), nor a version (`ubuntu:22.04`).
_URL_PORT_PASSWORD = _Rule(
    rf"(?P<head>{_SCHEME}@{{0,8}}[^\s/@:\"'<>]{{1,256}}:)"
    r"(?P<password>(?![0-9.]*(?:[/\s\"'<>]|$))[^\s/@:\"'<>]{1,512})(?=[/\s\"'<>]|$)", *_SCHEME_NEEDLES,
    fold_needles=True)
_PORT_CAST = _Rule(r"(?i)(port could not be cast to integer value as )(['\"]?)(?!<redacted>)[^'\"\s]+", 'port could not')
#: `user:password@host[:port]` without a scheme (a coordinator address, `JAX_COORDINATOR=me:pw@node1:1234`, an rsync
#: or proxy setting): a password all the same (eleventh hostile pass #41), whatever it holds — an `@` or a `:` of its
#: own, up to the `@` a host follows (twelfth pass #13/#14), an IPv6 host in brackets (#15); an empty one
#: (`TOKEN:@host`: the user name is the credential, twentieth pass P1). Not an image digest
#: (`jax:0.4@sha256:…`), nor a word after a path or another address's part.
_BARE_USERINFO = _Rule(
    r"(?<![\w.+/:@%-])(?!(?:[A-Za-z][A-Za-z0-9.-]*\+)?(?i:https?|wss?|ftp|file):)"  # a URL's scheme: `_SCHEME`'s
    r"(?P<user>[A-Za-z0-9._%+-]{1,64}):(?P<password>[^\s/\"'<>]*?)@"
    r"(?!sha[0-9]+:)(?=(?:[A-Za-z0-9][A-Za-z0-9.-]*|\[[0-9A-Fa-f:.]+\])(?::[0-9]+)?(?:[:/\s\"',;)]|$))", '@')
#: A line of a settings file quoted by an installer's parse error, after its number and gutter (uv's TOML errors:
#: `  3 |     SEKsplit6@127.0.0.1:9/simple/""" junk`, annotate-snippets style, `|` or `│`): its text is masked whole
#: when it holds what a credential's piece can (an `@`, a `://`, a line-ending `\\` that continues a string, or a
#: credential's word), the number, gutter and the carets and message after it kept. pip's INI twin, Python's
#: configparser quoting the line it could not parse (`\t[line  3]: 'SEKini8@pkgs.example/simple/\\n'`, a password
#: continued onto an unindented line of pip.conf), the same way.
#: The choice (24th hostile pass (part A) P6): a password continued onto the next line of a uv.toml with a syntax
#: error reached `install --json`, stderr, the log, history.json and the report through uv's quote of the broken
#: line — a piece cut out of its URL, which no shape rule knows (`SEKsplit6@host` reads as a mail address). The
#: wizard cannot learn the file's secrets from the file itself (it does not parse), so what is masked is the quote:
#: every channel runs this pass, and the line and column uv names, with the file's path, still say where to look.
_QUOTED_SOURCE = _Rule(
    r"^(?P<gutter>[ \t]{0,64}(?:[0-9]{1,9} {0,7} [|\u2502][ \t]?|\[line {0,8}[0-9]{1,9}\]: ))(?!<redacted>$)"
    r"(?P<text>[^\n]{1,8192})$", ' |', ' \u2502', '[line', flags=re.MULTILINE)
#: What in such a quoted line can be a credential's piece (searched once per quoted line, not per character).
_CREDENTIAL_PIECE = LazyPattern(r"(?i)@|://|\\[ \t\r]*$|pass|token|secret|key|auth|cred|login|netrc")
#: The lines of the installers' settings files that belong to an entry holding a credential's piece (see
#: `remember_settings_text`), stripped; a quoted line that is one of them is masked whatever it holds itself.
_SETTINGS_SECRET_LINES: frozenset[str] = frozenset()
#: What starts an entry of a settings file (TOML or INI): a section or table, a comment, a `key =` / `key:` (not a
#: URL's `scheme://`). Any other line goes on with the entry above it: an INI value's continuation, a piece of a
#: TOML string continued with `\\` or inside `"""`, a pasted password's tail.
_ENTRY_START = LazyPattern(r"^[ \t]*(?:\[|[#;]|[A-Za-z0-9_.\"'-]+[ \t]*(?:=|:(?!//)))")


def remember_settings_text(text: str) -> None:
    """Learn which lines of an installer's settings file an installer's parse error must not quote in clear: every
    line of an entry (a key and the lines its value goes on to) that holds a credential's piece or anything
    `redact_secrets` masks, judged on the whole entry.

    Why (known limit after pass 24: installer parse-error quotes): a quoted settings line was masked only when it
    held a credential's sign itself, so the middle of a password continued onto a line of its own
    (`index-url = https://u:` then `SEKmid`, which configparser quotes as `[line  3]: 'SEKmid\\n'`) was printed. The
    one rule now: a quoted line goes through the same judgement as the file it comes from — the entry it belongs to.
    `installer_settings.settings_text`, which every start of an installer reads each of its settings files through
    (`settings_problem`), tells this module; the quote rule in `redact_secrets` reads it."""
    global _SETTINGS_SECRET_LINES
    entries: list[list[str]] = []
    for line in text.splitlines():
        if not entries or _ENTRY_START.pattern.match(line):
            entries.append([line])
        else:
            entries[-1].append(line)
    secret = {line.strip() for entry in entries
              if _CREDENTIAL_PIECE.pattern.search(joined := "\n".join(entry)) or redact_secrets(joined) != joined
              for line in entry if line.strip()}
    if not secret <= _SETTINGS_SECRET_LINES:
        _SETTINGS_SECRET_LINES = _SETTINGS_SECRET_LINES | secret


def _quoted_settings_line(match: re.Match) -> str:
    """A settings line an installer quotes (`_QUOTED_SOURCE`), masked whole when it can hold a credential's piece or
    is a line of a remembered settings file's credential entry; else as it is."""
    text = match.group("text")
    if _CREDENTIAL_PIECE.pattern.search(text) or _remembered_secret_line(text):
        return f"{match.group('gutter')}{MASK}"
    return match.group(0)


def _remembered_secret_line(text: str) -> bool:
    if not _SETTINGS_SECRET_LINES:
        return False
    line = text.strip()
    if len(line) >= 2 and line[0] == line[-1] and line[0] in "'\"":  # configparser quotes the line as Python's repr
        import ast  # deferred: only a quoted line of a file that held a credential reads it

        try:
            line = str(ast.literal_eval(line)).strip()
        except (ValueError, SyntaxError):
            line = line[1:-1].removesuffix("\\n").strip()
    return line in _SETTINGS_SECRET_LINES
_AUTH_HEADER = _Rule(r"(?i)\b(authorization\s*[:=]\s*[\"']?)(bearer|basic|token|digest)?\s*"
                          r"(?:[^\s\"',;\\]|\\(?![\"']))+", 'authorization')
#: A Digest header's parameters (`username="u", realm=…, response="6629fae4…"`): the rest of the line goes, as the
#: header rule above stopped at the first comma and left `response=` in clear (eighteenth hostile pass).
_DIGEST_HEADER = _Rule(r"(?i)\b(authorization\s*[:=]\s*[\"']?digest\s+)(?!<redacted>)[^\r\n]+", 'authorization')
#: A header or setting whose name says it carries an API key without the word KEY or TOKEN (Artifactory's
#: `X-JFrog-Art-Api: …`, `X-Api: …`): its value goes when it looks generated (twenty-second hostile pass P3).
_API_HEADER = _Rule(r"(?i)(?<![A-Za-z0-9_-])(x-[a-z0-9-]{0,40}api[a-z0-9-]{0,40}\s*[:=]\s*[\"']?)(?!<redacted>)"
                    r"([A-Za-z0-9+/=_.~-]{16,})", 'api')
#: Any `X-…` header whose name ends in a credential's word (`X-JFrog-Art-Api`, `X-Vault-Token`, `X-Service-Auth`):
#: its value goes whatever its length when it is no plain word — a letter among digits or signs, or case mixed past
#: its first letter (28th hostile pass (part A) P1: `X-JFrog-Art-Api: SEK…` with no known key shape went out in
#: clear); `X-RateLimit-Api: unlimited` and `X-Api-Version: 2` stay.
_SECRET_HEADER = _Rule(r"(?i)(?<![A-Za-z0-9_-])(x-(?:[a-z0-9]+-){0,8}(?:api|token|key|auth|secret|pass|passwo?r?d"
                       r"|credentials?|session|signature)\s*[:=]\s*[\"']?)(?!<redacted>)([^\s\"',;]+)", 'x-')
#: A webhook's URL is its credential: Slack's `hooks.slack.com/services/T…/B…/SECRET`, Discord's
#: `discord.com/api/webhooks/ID/SECRET`, Teams' `….webhook.office.com/webhookb2/…` (twenty-third hostile pass P4).
_WEBHOOK = _Rule(r"(?i)(?P<head>hooks\.slack\.com/(?:services|workflows|triggers)/|discord(?:app)?\.com/api/webhooks/[0-9]+/"
                 r"|\.webhook\.office\.com/|\.logic\.azure\.com/workflows/)(?!<redacted>)[^\s\"'<>)]+",
                 'hooks.slack.com', '/api/webhooks/', '.webhook.office.com', '.logic.azure.com')
#: A secret after its name and a blank, no `=` or `:` (`DATABRICKS_TOKEN dapi…`, `… secret SEK…/xyz+abc=`): the next
#: word, when it looks generated (twenty-third hostile pass P4).
_NAMED_SPACED = _Rule(r"(?i)(?P<name>(?<![A-Za-z0-9])[A-Za-z0-9_.-]{0,64}(?:secret|token|passw(?:or)?d|api[_-]?key)"
                      r"(?:[_-]?(?:key|id))?\s+)(?!<redacted>)(?P<value>[A-Za-z0-9+/=_%.~-]{16,})(?![^\s])",
                      'secret', 'token', 'passw', 'api')
_BEARER = _Rule(r"(?i)\b(bearer\s+)[A-Za-z0-9._~+/=-]{8,}", 'bearer')
#: A cookie header sends the session itself (`Cookie: sessionid=…`, `Set-Cookie: token=…`): its whole value goes.
_COOKIE = _Rule(r"(?i)\b((?:set-)?cookie\s*:\s*)(?!<redacted>)[^\r\n]+", 'cookie')
#: A .netrc entry (`machine HOST login USER password PW`, on one line or as a pasted file): the password after
#: `password` and blanks, which the `password:`/`password=` rule does not see (fifteenth hostile pass R2).
_NETRC = _Rule(r"(?i)((?:\bmachine\s+\S+|\bdefault)\s+(?:login\s+\S+\s+)?password\s+|\blogin\s+\S+\s+password\s+)"
                    r"(?!<redacted>)(\S+)", 'password')
#: A login on a command line pasted into a log: `curl -u USER:PW`, `--user USER:PW`, `--proxy-user USER:PW`, and
#: the MySQL/MariaDB clients' `-pPW` (fifteenth hostile pass R4).
_COMMAND_LOGIN = _Rule(r"(?<![\w-])((?:-u[ =]*|--user[ =]+|--proxy-user[ =]+)[^\s:-][^\s:]*:)(?!<redacted>)(\S+)", '-u')
#: A password that a client takes as an option of its own, pasted with its command line: data, one pattern per
#: client family, each with the text kept (group 1) and the password (group 2). The MySQL/MariaDB clients' `-pPW`
#: (fifteenth hostile pass R4); `docker`/`podman`/`helm` … `login -p PW`, `sshpass -p PW`, `az login -p PW`,
#: `mongo -p PW`, `redis-cli -a PW`, `smbclient -U USER%PW`, `lftp -u USER,PW`, `7z -pPW`, `zip -P PW`,
#: `htpasswd -b FILE USER PW` (sixteenth hostile pass P1). The words between are bounded (160 characters each): an
#: unbounded lazy span made a line of repeated `docker login ` cost time in the cube of its length. A `-p` of another
#: program (`docker run -p 8080:80`, `mkdir -p`) is not one: each rule names the program, and a `login` where the program has others.
#: Each with the words one of which it needs (`_Rule`): the program's name, or `login` where the program is a
#: registry client with many names.
_CLIENT_PASSWORDS = tuple(_Rule(pattern, *needles) for pattern, needles in (
    (r"(\b(?:mysql|mysqldump|mysqladmin|mariadb)\b[^\n]{0,160}?\s-p)(?!<redacted>)(\S+)", ('mysql', 'mariadb')),
    (r"(\b(?:docker|podman|nerdctl|buildah|skopeo|helm|oras|crane|singularity|apptainer)\b[^\n]{0,160}?\slogin\b"
    r"[^\n]{0,160}?\s(?:-p[ =]?|--password[ =]))(?!<redacted>)(\S+)", ('login',)),
    (r"(\baz\b[^\n]{0,160}?\slogin\b[^\n]{0,160}?\s(?:-p[ =]?|--password[ =]))(?!<redacted>)(\S+)", ('login',)),
    (r"(\b(?:sshpass|mongo|mongosh|mongodump|mongorestore|mongoexport|mongoimport)\b[^\n]{0,160}?\s-p[ =]?)"
    r"(?!<redacted>)(\S+)", ('sshpass', 'mongo')),
    (r"(\bredis-cli\b[^\n]{0,160}?\s(?:-a|--pass)[ =]?)(?!<redacted>)(\S+)", ('redis-cli',)),
    (r"(\b(?:smbclient|rpcclient|smbmap|smbget|mount\.cifs)\b[^\n]{0,160}?\s(?:-U|--user(?:name)?)[ =]?[^\s%]+%)"
    r"(?!<redacted>)(\S+)", ('smbclient', 'rpcclient', 'smbmap', 'smbget', 'mount.cifs')),
    (r"(\blftp\b[^\n]{0,160}?\s-u[ =]?[^\s,]+,)(?!<redacted>)(\S+)", ('lftp',)),
    (r"(\b(?:7z|7za|7zr|unrar|rar)\b[^\n]{0,160}?\s-p)(?!<redacted>)(\S+)", ('7z', 'rar')),
    (r"(\btwine\b[^\n]{0,160}?\s(?:-p|--password)[ =]?)(?!<redacted>)(\S+)", ('twine',)),
    (r"(\b(?:zip|unzip|zipcloak)\b[^\n]{0,160}?\s-P[ =]?)(?!<redacted>)(\S+)", ('zip',)),
    (r"(\bhtpasswd\s+-[A-Za-z]*b[A-Za-z]*\s+(?:\S+\s+){2})(?!<redacted>)(\S+)", ('htpasswd',)),
    # eighteenth hostile pass: SQL Server's `sqlcmd`/`bcp -P PW`, OpenSSL's `enc -k PW`, `aws configure set
    # aws_secret_access_key PW`, and a password fed to `login --password-stdin` by a here-string or `echo PW |`
    (r"(\b(?:sqlcmd|bcp|osql|isql)\b[^\n]{0,160}?\s-P[ =]?)(?!<redacted>)(\S+)", ('sqlcmd', 'bcp', 'osql', 'isql')),
    (r"(\bopenssl\b[^\n]{0,160}?\s-k[ =]?)(?!<redacted>)(\S+)", ('openssl',)),
    (r"(\baws\s+configure\s+set\s+(?:[\w.-]*\.)?(?:aws_secret_access_key|aws_session_token|[\w-]*secret[\w-]*)\s+)"
    r"(?!<redacted>)(\S+)", ('aws',)),
    (r"(\blogin\b[^\n]{0,160}?--password-stdin\b[^\n]{0,160}?<<<\s*)(?!<redacted>)(\S+)", ('--password-stdin',)),
    (r"(\b(?:echo|printf)\s+(?:-n\s+)?)(?!<redacted>)([^\s|]+)(?=\s*\|[^\n]{0,160}?\blogin\b[^\n]{0,160}?--password-stdin)", ('--password-stdin',)),
))
_PASSWORD = _Rule(
    r"(?i)(?<![A-Za-z0-9/.])(pass(?:word|wd|phrase)?|pwd|secret)(\s*[:=]\s*)(?!<redacted>)(\"[^\"]*\"|'[^']*'|\S+)", 'pass', 'pwd', 'secret')
_PRIVATE_KEY = _Rule(
    r"-----BEGIN (?P<kind>[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?)-----.*?(?:-----END (?P=kind)-----|\Z)", 'PRIVATE KEY', flags=re.DOTALL)
#: A variable's name around the secret's word, at most 64 characters each side: no real name is longer, and unbounded
#: runs made a long line of name characters (`-----…`, `ab.ab.…`, `keykey…`) cost time in the square of its length
#: (20 000 dashes: 31 s).
#:
#: The secret words are matched anywhere in the name, not only as whole `_`-separated words: `SSHPASS` (what
#: `sshpass -e` reads), `REDISCLI_AUTH`, `OP_SESSION_my` (1Password's session token), `NPM_CONFIG__AUTH` (npm's base64
#: `user:password`) and `PGPASS` went out in clear through `diagnose` and `--srun-arg --export=…` while `DOCKER_PASS`
#: was masked (27th hostile pass (part A) P4). `PW` counts only as a word of its own (`X_PW`, not `PWM`). A name
#: that holds a word only inside a harmless one (`GIT_AUTHOR_NAME`, `XDG_SESSION_ID`, `KEYRING_PROVIDER`) is judged
#: by what is left (`_secret_word_in`), and one that names where a secret is kept (`PASSWD_FILE`, `SSH_AUTH_SOCK`)
#: keeps a path value (`_secret_var`). This is the one name rule: every channel masks through `redact_secrets`.
#:
#: 28th hostile pass (part A) P1 added the words of three more secrets: `MNEMONIC` (a wallet's recovery words),
#: `SEED` (`TOTP_SEED`, a one-time-password generator's key) and `LOGIN` (SonarQube's `SONAR_LOGIN` is its token).
#: The last two also name harmless settings (`RANDOM_SEED=42`, `DOCKER_LOGIN=alice`), so a name whose only secret
#: word is one of them masks a value that looks like one (`_weak_name_keeps`).
_SECRET_WORDS = r"TOKEN|KEY|SECRET|PASS|PWD|AUTH|SESSION|CRED|MNEMONIC|SEED|LOGIN"
_SECRET_NAME = (r"(?:[A-Za-z0-9_.-]{0,64}(?:" + _SECRET_WORDS + r")[A-Za-z0-9_.-]{0,64}"
                r"|(?:[A-Za-z0-9_.-]{0,64}_)?PW(?:_[A-Za-z0-9_.-]{0,64})?)")
#: The needles of every rule that finds a secret by its name: each secret word, `PW`.
_SECRET_NEEDLES = ('token', 'key', 'secret', 'pass', 'pw', 'auth', 'session', 'cred', 'mnemonic', 'seed', 'login')
_SECRET_VAR = _Rule(
    r"(?i)(?P<name>(?<![A-Za-z0-9_/])" + _SECRET_NAME + r")(?P<sep>\\?[\"']?\s*[:=]\s*)"
    r"(?P<value>\\\"[^\"\\\n]*\\\"|\"[^\"\n]*\"|'[^'\n]*'|[^\s\"',;\\]+)",
    *_SECRET_NEEDLES)
#: A secret word anywhere in a name, `PW` as a word of its own.
_SECRET_WORD = LazyPattern(r"(?i)" + _SECRET_WORDS + r"|(?:^|[_.-])PW(?:[_.-]|$)")
#: A word that says the value is a password, whatever its length (`SSHPASS=hunter`, as `DOCKER_PASS=hunter` is).
_PASSWORD_WORD = LazyPattern(r"(?i)PASS|PWD|(?:^|[_.-])PW(?:[_.-]|$)")
#: Harmless words and standard names that hold a secret word without being one: a name with only these is no
#: credential (`GIT_AUTHOR_EMAIL`, `XDG_SESSION_TYPE`, `DBUS_SESSION_BUS_ADDRESS`, `SESSION_MANAGER`,
#: `UV_KEYRING_PROVIDER`, `PASSTHROUGH`, XLA's compiler passes `--xla_dump_hlo_pass_re`); `KEYRING_PASSWORD` still
#: is, by what is left.
_LOOK_ALIKE_WORDS = LazyPattern(
    r"(?i)AUTHORS?|AUTHORITY|PASSTHRU|PASSTHROUGH|BYPASS|COMPASS|PASS(?:ED|ES|ING)(?![A-Za-z])|HLO_PASS"
    r"|PASS_RE(?![A-Za-z])|KEYRING|KEYBOARD|KEYMAP"
    r"|SSH_AUTH_SOCK|(?:XDG|DBUS|DESKTOP)_SESSION|SESSION_MANAGER")
#: A name that says where a secret is kept, not what it is (`PASSWD_FILE`, `SSH_AUTH_SOCK`, `KEY_DIR`), and a value
#: that is a path: the option rule keeps `--password-file pw` the same way.
_POINTER_NAME = LazyPattern(r"(?i)(?:FILE|FILENAME|PATH|DIR|SOCK|SOCKET)$")
_PATH_VALUE = LazyPattern(r"^(?:~|\$\{?\w+\}?)?/\S*$|^\.{1,2}/\S*$")
#: Python code quoted by a traceback, not a value: an attribute (`session=self.session`) or a call
#: (`ort_session = ort.InferenceSession(…`), which the wider name rule met in real logs.
_CODE_VALUE = LazyPattern(r"^(?:self|cls)\.[A-Za-z_][\w.]*$|^[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+\(")


def _secret_word_in(name: str) -> bool:
    """Whether `name` holds a secret word once its harmless look-alike words are taken out."""
    return bool(_SECRET_WORD.pattern.search(_LOOK_ALIKE_WORDS.pattern.sub(" ", name)))


#: The secret words that also name harmless settings: a seed for random numbers, a user's login name.
_WEAK_WORDS = LazyPattern(r"(?i)SEED|LOGIN")


def _weak_name_keeps(name: str, bare: str) -> bool:
    """Whether the value `bare` of a name whose only secret word is `SEED` or `LOGIN` is a setting, not a secret.

    Why: `TOTP_SEED=JBSWY3DPEHPK3PXP`, `SONAR_LOGIN=squ_…` are secrets, `RANDOM_SEED=42`, `PYTHONHASHSEED=0`,
    `DOCKER_LOGIN=alice` are not (28th hostile pass (part A) P1). A seed is kept when it is a number or a plain word; a
    login when it is a user name (no digit mixed with letters, shorter than a token); `LOGIN=user:password` is masked
    by `_user_password`."""
    left = _LOOK_ALIKE_WORDS.pattern.sub(" ", name)
    if not _WEAK_WORDS.pattern.search(left) or _SECRET_WORD.pattern.search(_WEAK_WORDS.pattern.sub(" ", left)):
        return False
    mixed = any(c in "0123456789" for c in bare) and any(c.isalpha() for c in bare)
    return not mixed and not (len(bare) >= 16 and not bare.isalpha())


#: The forms other than `NAME=value` and `NAME: value` that set a secret-named variable or key (28th hostile pass (part
#: A) P1: each went out in clear through `diagnose`, which quotes srun's and Lmod's argv and modulefile lines). Every
#: one takes its name from `_SECRET_NAME` — the one name rule — and its value is judged by `_secret_var`, so a form
#: masks what `NAME=value` masks and keeps what it keeps:
#:
#: - an XML element named by it, any case, with attributes: Maven's `<password>…</password>`, `<apiKey>`;
_SECRET_ELEMENT = _Rule(
    r"(?i)(?P<name><(?P<tag>" + _SECRET_NAME + r")(?:\s[^<>]{0,256})?>)(?P<sep>)(?P<value>[^<>\n]{1,4096})"
    r"(?=</(?P=tag)\s*>)", *_SECRET_NEEDLES)
#: - a command that sets it with a blank between name and value: csh and Tcl modulefiles' `setenv NAME X`, Lmod's
#:   `pushenv NAME X`, fish's `set -x NAME X` (`-gx`, `--export`, …), a Dockerfile's `ENV NAME X`, `export NAME X`,
#:   `declare -x`/`typeset -x NAME X`, `launchctl setenv NAME X`;
_SECRET_SETTER = _Rule(
    r"(?i)(?P<name>(?<![\w.-])(?:setenv|pushenv|ENV|export|(?:declare|typeset|local|readonly)(?:\s+-[A-Za-z]+)+"
    r"|set(?:\s+(?:-[A-Za-z]+|--[a-z]+))+)[ \t]+(?P<tag>" + _SECRET_NAME + r"))(?P<sep>[ \t]+)"
    r"(?!<redacted>|[=:])(?P<value>\"[^\"\n]*\"|'[^'\n]*'|[^\s\"',;\\)]+)",
    'setenv', 'pushenv', 'env', 'export', 'declare', 'typeset', 'local', 'readonly', 'set')
#: - a quoted name, then a comma or `] =` before a quoted value: Lmod's `setenv("NAME", "X")`, Python's
#:   `os.environ["NAME"] = "X"`, `os.putenv('NAME', 'X')`, `env.setdefault("NAME", "X")`, R's `Sys.setenv("NAME"="X")`
#:   is the `=` form already;
_SECRET_CALL = _Rule(
    r"(?i)(?P<name>(?P<q>[\"'])(?P<tag>" + _SECRET_NAME + r")(?P=q))(?P<sep>\s*(?:,|\]\s*=)\s*)"
    r"(?!<redacted>)(?P<value>\"[^\"\n]*\"|'[^'\n]*')", *_SECRET_NEEDLES)
#: - a bare `NAME value`: an upper-case variable's name, a blank, then a value that looks generated (a digit or a sign
#:   among letters, or case mixed past its first letter) — `GITHUB_TOKEN ghx…` in a pasted `env | column` — while
#:   `HF_TOKEN is not set` and `API_KEY Required` keep their words.
_SECRET_BARE = _Rule(
    r"(?P<name>(?<![\w./$-])[A-Z0-9_]{0,64}(?:" + _SECRET_WORDS + r"|(?<![A-Z0-9])PW(?![A-Z0-9]))[A-Z0-9_]{0,64})"
    r"(?P<sep>[ \t]+)(?!<redacted>)(?P<value>(?=[^\s\"',;]*[A-Za-z])[^\s\"',;]{4,})(?![^\s\"',;])",
    'TOKEN', 'KEY', 'SECRET', 'PASS', 'PWD', 'AUTH', 'SESSION', 'CRED', 'MNEMONIC', 'SEED', 'LOGIN', 'PW')

#: 29th hostile pass (part A) P1: more forms that name a secret and then give it, each masked through `_secret_var`
#: (the one judgement of a value) or, where the form leaves no doubt, whole:
#:
#: - an XML element whose `key=`/`name=` attribute holds a secret word, with its `value=` attribute (NuGet's
#:   `<add key="ClearTextPassword" value="…"/>`, Ant's `<property name="db.password" value="…"/>`) or its text
#:   (`<entry key="password">…</entry>`);
_SECRET_ATTRIBUTE = _Rule(
    r"(?i)(?P<name><[A-Za-z][\w:.-]{0,64}\s[^<>]{0,256}?\b(?:key|name)\s*=\s*(?P<q>[\"'])(?P<tag>" + _SECRET_NAME
    + r")(?P=q)[^<>]{0,256}?\bvalue\s*=\s*)(?P<sep>)(?P<value>\"[^\"\n]*\"|'[^'\n]*')", *_SECRET_NEEDLES)
_SECRET_KEYED_TEXT = _Rule(
    r"(?i)(?P<name><(?P<el>[A-Za-z][\w:.-]{0,64})\s[^<>]{0,256}?\b(?:key|name)\s*=\s*(?P<q>[\"'])(?P<tag>"
    + _SECRET_NAME + r")(?P=q)[^<>]{0,256}>)(?P<sep>)(?P<value>[^<>\n]{1,4096})(?=</(?P=el)\s*>)", *_SECRET_NEEDLES)
#: - a Ruby or Perl hash pair, `:password => "…"`, `"api_key" => '…'`; a Java-style setter, `setPassword("…")`;
_SECRET_ARROW = _Rule(
    r"(?i)(?P<name>(?<![\w.-]):?(?P<q>[\"']?)(?P<tag>" + _SECRET_NAME + r")(?P=q))(?P<sep>\s*=>\s*)"
    r"(?!<redacted>)(?P<value>\"[^\"\n]*\"|'[^'\n]*'|[^\s\"',;)]+)", '=>')
_SECRET_SETTER_CALL = _Rule(
    r"(?P<name>(?<![A-Za-z0-9_])set(?P<tag>[A-Z][A-Za-z0-9_]{0,64}))(?P<sep>\()"
    r"(?P<value>\"[^\"\n]*\"|'[^'\n]*')", '("', "('")
#: (Its needles are the call's opening with its quote, not `set`: `dataset`, `reset`, `offset` are on many lines, and
#: each would have sent its line through every rule.)
#: - an Oracle connect string's `user/password@host` (`jdbc:oracle:thin:scott/PW@db:1521/orcl`, `sqlplus scott/PW@orcl`);
_ORACLE_LOGIN = _Rule(
    r"(?i)(?P<head>\bjdbc:oracle:[a-z0-9]{1,16}:|\bsqlplus(?:\s+-[A-Za-z]+)*\s+)(?P<user>[^\s/@:\"']{1,128}/)"
    r"(?!<redacted>)(?P<password>[^\s@\"']{1,512})(?=@)", 'jdbc:oracle', 'sqlplus')
#: - an AWS secret access key (40 characters of base64) after its key id on the same line, whatever names it;
_AWS_PAIR = _Rule(
    r"(?P<head>(?<![A-Za-z0-9_])(?:AKIA|ASIA)[0-9A-Z]{16}(?![A-Za-z0-9_])[^A-Za-z0-9/+\n]{1,16}"
    r"(?:[A-Za-z_]{1,40}[^A-Za-z0-9/+\n]{1,8})?)(?P<secret>[A-Za-z0-9/+]{32,64})(?![A-Za-z0-9/+=])", 'AKIA', 'ASIA')
#: - the secret-taking commands and options whose next bare argument is the secret (data: a program or option, and
#:   what may stand between it and the secret). A value that is another option, a file (`<`, `@file`, a path), a
#:   variable or a metavar stays.
_NEXT_ARGUMENT_SECRETS = (
    (r"\b(?:wandb|vault)\s+login(?:\s+--?[\w-]+(?:=\S+)?)*\s+", ("login",)),
    (r"--with-token\s*(?:<<<\s*)?", ("--with-token",)),
    (r"(?<![\w-])-(?:src|dest|new)?(?:storepass|keypass)(?::env|:file)?\s+", ("storepass", "keypass")),
    (r"\bldap[a-z]{0,12}\b[^\n]{0,160}?\s-w\s+", ("ldap",)),
    (r"\bkaggle\b[^\n]{0,80}?\s-n\s+\S*(?i:key|token|secret|pass)\S*\s+-v\s+", ("kaggle",)),
    (r"\bconfig\s+(?:set|create|update|add)\b[^\n]{0,160}?\s\S*(?i:token|secret|passw|_auth|api[_-]?key|"
     r"access[_-]?key|credential)\S*\s+", ("config",)),
    (r"(?<![\w./-])(?:password|passwd|passphrase)\s+", ("pass",)),
)
_NEXT_ARGUMENT = tuple(_Rule(r"(?P<head>" + head + r")(?!<redacted>|[-$@<~/]|\.{1,2}/)(?P<value>[^\s\"',;]+)", *needles)
                       for head, needles in _NEXT_ARGUMENT_SECRETS)


def _next_argument(match: re.Match) -> str:
    """A secret-taking command's next argument masked, unless it is a harmless word or a metavar; the bare
    `password WORD` of prose (`password for alice`) only when the word looks generated."""
    value = match.group("value")
    if _HARMLESS.pattern.match(value) or _METAVAR.pattern.search(value):
        return match.group(0)
    head = match.group("head").lower()
    if head.startswith("pass") and not _generated_word(value):
        return match.group(0)
    if head.rstrip().endswith("login") and value.isalpha() and value.islower() and len(value) < 16:
        return match.group(0)  # `vault login failed`: a word of prose, not a token
    return f"{match.group('head')}{MASK}"


def _generated_word(value: str) -> bool:
    """Whether `value`, after a name that says it is a credential but no `=`, looks generated rather than a word of
    prose: a letter, and a digit or sign beside it or case mixed past its first letter (`SEKp1x`, `Q2xhc3N`; not
    `unlimited`, `Required`, `42`)."""
    if not any(c.isalpha() for c in value) or _HARMLESS.pattern.match(value):
        return False
    mixed_case = any(c.isupper() for c in value[1:]) and any(c.islower() for c in value)
    return mixed_case or any(not c.isalpha() for c in value)


def _bare_secret(match: re.Match) -> str:
    """`_SECRET_BARE`'s match masked as `_secret_var` masks `NAME=value`, when its value looks generated."""
    return _secret_var(match) if _generated_word(match.group("value")) else match.group(0)


_STANDALONE = _Rule(
    r"(?<![A-Za-z0-9_])("
    r"hf_[A-Za-z0-9]{20,}"
    r"|gh[pousr]_[A-Za-z0-9]{30,}"
    r"|github_pat_[A-Za-z0-9_]{20,}"
    r"|(?:AKIA|ASIA)[0-9A-Z]{16}"
    r"|xox[abprs]-[A-Za-z0-9-]{10,}"
    r"|sk-[A-Za-z0-9_-]{20,}"
    r"|gl(?:pat|ptt|dt|rt|cbt)-[A-Za-z0-9_-]{20,}"
    r"|pypi-[A-Za-z0-9_-]{40,}"
    r"|npm_[A-Za-z0-9]{30,}"
    r"|ya29\.[A-Za-z0-9_-]{20,}"
    r"|AIza[0-9A-Za-z_-]{30,}"  # Google API keys: 35 after the prefix, fewer where a paste was cut (22nd pass P3)
    r"|eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}"
    r"|(?:sk|rk)_live_[A-Za-z0-9]{20,}"
    # a vendor prefix, then the token's kind (personal, organisation, service access), then a generated token with a
    # digit in it (Docker Hub's `dckr_pat_…`/`dckr_oat_…`): fourteenth hostile pass Q4, one rule for the shape, narrow
    # enough that `test_pat_handles_paths` stays a test's name
    r"|[a-z]{2,10}_(?:pat|oat|sat|pak)_(?=[A-Za-z0-9_-]*[0-9])[A-Za-z0-9_-]{16,}"
    r"|(?:sk|rk|pk)_test_[A-Za-z0-9]{20,}"
    r"|glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}"
    r"|gl(?:soat|ft|imt|agent|oas)-[A-Za-z0-9_-]{20,}"  # GitLab's other token prefixes
    r"|xapp-[0-9]-[A-Za-z0-9-]{20,}"  # Slack app-level tokens
    r"|hv[sbr]\.[A-Za-z0-9_-]{24,}"  # HashiCorp Vault tokens
    r"|dapi[0-9a-f]{32}(?:-[0-9])?"  # Databricks personal access tokens
    r"|do[pro]_v1_[a-f0-9]{64}"  # DigitalOcean
    r"|SG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}"  # SendGrid
    r"|shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}"  # Shopify
    r"|ATATT[A-Za-z0-9_=-]{40,}"  # Atlassian API tokens
    r"|AccountKey=[A-Za-z0-9+/=]{40,}"
    r"|GOCSPX-[A-Za-z0-9_-]{20,}"  # Google OAuth client secrets (eighteenth hostile pass)
    r"|AKCp[A-Za-z0-9]{20,}"  # JFrog Artifactory API keys (twenty-second hostile pass P3)
    # twenty-third hostile pass P4: DigitalOcean, Tailscale, Postman, Linear, Shopify, Bitbucket app passwords,
    # New Relic, Grafana, Telegram bots
    r"|do[pro]_v1_[A-Za-z0-9]{20,}|tskey-(?:auth|api|client|scim|webhook)-[A-Za-z0-9-]{10,}|PMAK-[A-Za-z0-9-]{20,}"
    r"|lin_api_[A-Za-z0-9]{20,}|shp(?:at|ca|pa|ss)_[A-Za-z0-9]{20,}|ATBB[A-Za-z0-9]{20,}|NRAK-[A-Za-z0-9]{20,}"
    r"|glc_[A-Za-z0-9+/=_-]{20,}|[0-9]{8,10}:AA[A-Za-z0-9_-]{30,}"
    r"|cmVmdGtuOj[A-Za-z0-9+/=_-]{20,}"  # JFrog reference tokens (base64 of `reftkn:`)
    r")(?![A-Za-z0-9_])",
    # each token's fixed start, one of which every token above begins with
    'hf_', 'ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_', 'github_pat_', 'AKIA', 'ASIA', 'xox', 'sk-', 'glpat-', 'glptt-', 'gldt-', 'glrt-', 'glcbt-', 'pypi-', 'npm_', 'ya29.', 'AIza', 'eyJ', '_live_', '_pat_', '_oat_', '_sat_', '_pak_', '_test_', 'glsa_', 'glsoat-', 'glft-', 'glimt-', 'glagent-', 'gloas-', 'xapp-', 'hvs.', 'hvb.', 'hvr.', 'dapi', '_v1_', 'SG.', 'shp', 'ATATT', 'AccountKey=', 'GOCSPX-',
    'AKCp', 'cmVmdGtuOj', 'tskey-', 'PMAK-', 'lin_api_', 'ATBB', 'NRAK-', 'glc_', ':AA')
#: A URL's query string: each value is judged on its own (`_query_value`).
#: The part before the `?` never runs past another `://` (a line of `x://x://…` was scanned to its end from every
#: scheme, in the square of its length), nor past 4096 characters: the repeat of an alternation keeps a mark per
#: character, and `https://` + `a:`×4 M in an edited history.json took 140 times its size (eighteenth hostile pass
#: P8); a query after a longer path is still masked by `_BARE_QUERY`.
_URL_QUERY = _Rule(rf"(?P<head>{_SCHEME}(?:[^\s?#\"'<>:]|:(?!//)){{0,4096}}\?)"
                        r"(?P<query>[^\s#\"'<>)]+)", *_SCHEME_NEEDLES, fold_needles=True)
#: A query that follows a bare path, with no scheme or host before it: pip's retry line quotes only the
#: path of the URL it retries (`… Connection refused')': /graphcast-0.1.1.whl?X-Amz-Signature=…`). It starts
#: at the `?` itself (a character other than a space before it, a `name=` after it), so the search stays linear
#: on a long line with no `?`.
_BARE_QUERY = _Rule(r"(?<=[^\s?#\"'<>=&])\?(?P<query>[A-Za-z0-9_.~%-]+=[^\s#\"'<>)]*)", '?')
#: A URL's query percent-encoded once, as it reads inside another URL's query or in a logger's line
#: (`https%3A%2F%2Fhost%2Ff%3Ftoken%3DSECRET`): `%3F` (or `%26`, its query cut before) then `name%3Dvalue` pairs
#: joined by `%26`, each judged as a plain query's (`_query_value`; twentieth hostile pass P5).
_ENCODED_QUERY = _Rule(r"(?i)(?P<head>%3F|%26)(?P<query>[A-Za-z0-9_.~-]{1,128}%3D[^\s#\"'<>)&]*)", '%3f', '%26')
_ENCODED_SEPARATOR = LazyPattern(r"(?i)(%26)")
_ENCODED_EQUALS = LazyPattern(r"(?i)%3D")
#: A URL's userinfo percent-encoded once (`https%3A%2F%2Fuser%3Apw%40host`): masked whole, the user name too.
_ENCODED_USERINFO = _Rule(r"(?i)(?P<scheme>(?<![A-Za-z0-9+.-])[A-Za-z][A-Za-z0-9+.-]{0,30}%3A%2F%2F)"
                          r"(?P<userinfo>(?:[A-Za-z0-9._~!$&'()*+,;=-]|%(?!2F|40)[0-9A-F]{2}){1,256})%40(?=[A-Za-z0-9\[])",
                          '%3a%2f%2f')
#: A signature parameter that follows neither `?` nor `&` (`X-Goog-Signature=…` quoted by an error, a header, a
#: connection string's `SharedAccessSignature=…`; twentieth hostile pass P5): masked wherever its `name=` stands, as
#: a credential-named variable is (`_SECRET_VAR`), also with the `=` percent-encoded. A short word (`sig=SIGTERM`)
#: is not one.
_SIGNATURE_PARAM = _Rule(r"(?i)(?P<name>(?<![A-Za-z0-9_.-])[A-Za-z0-9_.-]{0,64}(?:signature|sig|hmac))"
                         r"(?P<sep>=|%3D)(?P<value>[A-Za-z0-9+/=_%.~-]+)", 'sig', 'hmac')
#: Query parameters that carry credentials by name: presigned-URL signatures (S3, GCS, Azure SAS), tokens,
#: keys, sessions.
_SECRET_PARAM = LazyPattern(r"(?i)(sig|signature|token|key|auth|credential|secret|passw|session|code$|jwt|bearer"
                           r"|otp|hmac|ticket|cred|^tok$|^pat$|^sas$|^pwd?$|^t$|^k$|^p$)")  # passes 12-13: `?tok=`…
#: A value that looks generated (a signature, a token), whatever its parameter's name: long, and mixing
#: letters with digits or symbols.
_TOKEN_LIKE = LazyPattern(r"^(?=.*[0-9])(?=.*[A-Za-z])[A-Za-z0-9+/=_%.~-]{16,}$")
#: An option naming a secret with its value after a space (`--api-key AkKey55…`, `--hf-token hf_…`): masked when
#: the value looks generated (letters with digits, 12 or more), so `--key-file path` or `--token-name build` stay.
_SECRET_OPTION = _Rule(
    r"(?i)(?<![\w-])(?P<option>--?[a-z0-9-]*(?:token|key|secret|password|passwd|credential)[a-z0-9-]*)(?P<space>[ \t]+)"
    r"(?P<value>(?=[A-Za-z0-9+/=_.~:-]*[0-9])(?=[A-Za-z0-9+/=_.~:-]*[A-Za-z])[A-Za-z0-9+/=_.~:-]{12,})", 'token', 'key', 'secret', 'passw', 'credential')
#: An option whose name ends in the secret itself (`--token X`, `--auth-token=X`, `--client-secret X`, `--api-key X`,
#: `vault --secret X`): its value is the secret whatever its shape, so it is masked even when short or a word
#: (seventeenth hostile pass P1: `curl --token X`, `gh --auth-token X`, `kaggle --api-key X` went out in clear,
#: as only a generated-looking value was). Not one: an option that only holds the word (`--token-name build`,
#: `--password-file f`, `--password-stdin`), a value that is another option, a variable (`$TOKEN`), a file or path
#: (`@file`, `/x`, `~/x`, `./x`), a placeholder (`<TOKEN>`, `[KEY]`, `{token}`) or a help text's metavar (`TOKEN`).
_NAMED_SECRET_OPTION = _Rule(
    r"(?i)(?<![\w-])(?P<option>--?(?:[a-z0-9]+[-_])*(?:token|secret|password|passwd|passphrase|api[-_]?key|"
    r"access[-_]?key|secret[-_]?key|auth[-_]?key|credentials?))(?P<sep>=|[ \t]+)"
    r"(?!<redacted>|[-$@/~<\[{]|\.{1,2}/)(?P<value>\\\"[^\"\\\n]*\\\"|\"[^\"\n]*\"|'[^'\n]*'|[^\s\"',;\\]+)", 'token', 'secret', 'pass', 'key', 'credential')
#: A help text's metavar (`--token TOKEN`, `--api-key API_KEY`): upper-case letters, no digit; or a file the option
#: reads the secret from (`--credentials creds.json`).
_METAVAR = LazyPattern(r"^[A-Z][A-Z_-]*$|\.(?:json|txt|pem|key|ya?ml|cfg|conf|ini|env|toml|netrc|crt|p12|gpg|asc)$")
_WANDB = _Rule(r"(?i)(wandb\s+login\s+(?:--\S+\s+)*|api[_-]?key\s*[:=]\s*[\"']?)([0-9a-f]{40})\b", 'wandb', 'api')
#: Values of secret-named variables that are not secrets (settings, placeholders, empty).
_HARMLESS = LazyPattern(r"(?i)^(|true|false|yes|no|on|off|none|null|0|1|\*+|<redacted>|\$\{?\w+\}?|x+)$")


def _spaced_secret(value: str) -> bool:
    """Whether the word after a secret's name and a blank looks generated: not a plain word — a digit, or base64's
    `/`, `+`, `=` in it (an AWS secret may hold no digit), or upper and lower case mixed past its first letter."""
    return len(value) >= 16 and (not value.isalpha() or (any(c.isupper() for c in value[1:])
                                                          and any(c.islower() for c in value)))


def holds_mask(text: str) -> bool:
    """Whether `text` carries the mask in a secret's place — `<redacted>` anywhere, or a URL's password as
    `user:***@` — so it is a value saved masked, not one that can be used: a URL sent as it is asks the server
    for `***` as the password (eleventh hostile pass #161: an answers file replayed so failed at the download)."""
    return MASK in text or ":***@" in text  # `user:***@`, whatever separates it from its scheme


def _userinfo(match: re.Match, keep_user: bool = False) -> str:
    info = match.group("userinfo")
    if info in ("", "git", MASK):  # `ssh://git@host` names no one
        return match.group(0)
    user, _, password = info.partition(":")
    if password == "***" and not _user_is_secret(user):  # masked already, the name kept
        return match.group(0)
    if keep_user and _shows_user(user, password):
        return f"{match.group('scheme')}{user}:***@"
    return f"{match.group('scheme')}{MASK}@"


#: What follows `name:@` when it is a host and not a word (`cc:@bob` in a note): a dotted name, a port, an IPv6 host.
_HOST_AFTER = LazyPattern(r"[A-Za-z0-9-]+\.[A-Za-z0-9]|[A-Za-z0-9][A-Za-z0-9.-]*:[0-9]|\[")


def _bare_userinfo(match: re.Match, keep_user: bool) -> str:
    user, password = match.group("user"), match.group("password")
    if password in ("***", MASK) and not _user_is_secret(user):
        return match.group(0)
    if not password and not _HOST_AFTER.pattern.match(match.string, match.end()):
        return match.group(0)
    return f"{user}:***@" if keep_user and _shows_user(user, password) else f"{MASK}@"


#: Names that hold KEY/TOKEN/… but are not variables: exception and warning classes (`KeyError: 'mesh_size'`
#: is in every Python traceback), `KeyboardInterrupt`, `TokenizerWarning`; and the plain plural words of a
#: sentence that introduces a list (`known keys: options.env, …`, `secrets: none`, `2 tokens: …`), which name
#: many things, never one value (the unknown-key messages lost their first known key to the mask, 1j).
_NOT_A_VARIABLE = LazyPattern(
    r"(?i)(?:error|exception|warning|interrupt)$|^keyboard"
    r"|^(?:keys|tokens|secrets|passwords|passwds|credentials|sessions|creds)$")
#: The plural words that are also the key of one secret (`credentials: SEK…`, a service's settings file): a list
#: only when a comma follows the first item (`Known credentials: netrc, keyring`); 28th hostile pass (part A) P1.
_ONE_SECRET_PLURAL = LazyPattern(r"(?i)^(?:credentials|creds)$")
_LIST_FOLLOWS = LazyPattern(r"[ \t]*,")


def _secret_var(match: re.Match) -> str:
    if _NOT_A_VARIABLE.pattern.search(match.group("name")) and not (
            _ONE_SECRET_PLURAL.pattern.match(match.group("name"))
            and not _LIST_FOLLOWS.pattern.match(match.string, match.end())):
        # `KeyError: api_key=…`: the exception's name is not a variable, but what it quotes may hold one (seventh
        # hostile pass 1c: the whole `api_key=…` was taken as KeyError's value and passed unmasked).
        return f"{match.group('name')}{match.group('sep')}{_SECRET_VAR.pattern.sub(_secret_var, match.group('value'))}"
    name = match.groupdict().get("tag") or match.group("name")  # a setter's or element's own name, without `<`
    if not _secret_word_in(name):  # `GIT_AUTHOR_EMAIL=…`, `XDG_SESSION_TYPE=x11`: a look-alike, not a credential
        return match.group(0)
    value = match.group("value")
    bare = value.strip("\"'")
    if bare.startswith((MASK, "***")):  # masked already (a URL's query value or password): what follows is kept
        return match.group(0)
    if _HARMLESS.pattern.match(bare) or "://" in bare:  # a URL value: its userinfo is masked on its own
        return match.group(0)
    if _CODE_VALUE.pattern.match(value):
        return match.group(0)
    quote = value[0] if value[:1] in "\"'" and value[-1:] == value[:1] and len(value) > 1 else ""
    if _weak_name_keeps(name, bare):
        user, colon, _password = bare.partition(":")
        if not colon or not _password or "/" in bare:
            return match.group(0)  # `RANDOM_SEED=42`, `DOCKER_LOGIN=alice`: a setting
        # `LOGIN=alice:hunter`: a user and a password, the user kept (28th hostile pass (part A) P1)
        return f"{match.group('name')}{match.group('sep')}{quote}{user}:{MASK}{quote}"
    if _POINTER_NAME.pattern.search(name) and _PATH_VALUE.pattern.match(bare):
        return match.group(0)  # `PASSWD_FILE=/etc/passwd`: where the secret is, not the secret
    if (len(bare) < 8 and not (any(c in "0123456789" for c in bare) and any(c.isalpha() for c in bare))
            and not _PASSWORD_WORD.pattern.search(_LOOK_ALIKE_WORDS.pattern.sub(" ", name))):
        return match.group(0)  # `KEY_PACKAGES=jax`: a setting, not a token
    return f"{match.group('name')}{match.group('sep')}{quote}{MASK}{quote}"


def _named_secret_option(match: re.Match) -> str:
    value = match.group("value")
    bare = value.strip("\\\"'")
    if _HARMLESS.pattern.match(bare) or _METAVAR.pattern.search(bare):
        return match.group(0)
    quote = value[: len(value) - len(value.lstrip("\\\"'"))]
    return f"{match.group('option')}{match.group('sep')}{quote}{MASK}{quote}"


def _password(match: re.Match) -> str:
    value = match.group(3)
    if _HARMLESS.pattern.match(value.strip("\"'")):
        return match.group(0)
    return f"{match.group(1)}{match.group(2)}{MASK}"


#: A URL with its path: a token some indexes put in the path (`https://pypi.fury.io/TOKEN/user/`) is a segment
#: that mixes upper- and lower-case letters with digits, 20 or more of them, and has no dot (a wheel's file name has
#: dots, a commit hash has no upper case) — on any host; on the hosts that take a credential as a path segment
#: (`_PATH_CREDENTIAL_HOSTS`) that segment is one by its place, whatever it looks like. The scheme in any case
#: (`HTTPS://`).
_URL_PATH = _Rule(r"(?P<head>https?:[/\\]{0,8}[^\s/\\\"'<>]+)(?P<path>/[^\s?#\"'<>)]*)", *_SCHEME_NEEDLES,
                  flags=re.IGNORECASE)
_PATH_TOKEN = LazyPattern(r"^(?=.*[a-z])(?=.*[A-Z])(?=.*[0-9])[A-Za-z0-9_-]{20,}$")

#: Package hosts that take a credential as a path segment, as their own documentation gives the URL: (the host, or a
#: domain it is under; the segments before the credential; words that stand there and are not one; whether another
#: segment must follow it). Why by place: the token is whatever the service issued — `pypi.fury.io/qWeRtYuIo…/org/`
#: had no digit and `pypi.fury.io/SEKfuryPath07abc/org/` was 16 characters, so the look-based rule printed both in
#: plan, history.json and a `--save-answers` file (twenty-first hostile pass P6). Only here: elsewhere a path's
#: words (`/simple/jax/`) are not secrets.
#:
#: - Gemfury (`pypi.fury.io`, `npm-proxy.fury.io`, …): `/TOKEN/ACCOUNT/`; `/ACCOUNT/` alone is the public form, and
#:   with the token as the user (`https://TOKEN:@pypi.fury.io/ACCOUNT/…`) the first segment is the account;
#: - Cloudsmith (`dl.cloudsmith.io`): `/TOKEN/OWNER/REPO/…`, except `/public/…` and `/basic/…`;
#: - Anaconda (`conda.anaconda.org`, `pypi.anaconda.org`, `repo.anaconda.cloud`): `/t/TOKEN/…`;
#: - packagecloud: `/priv/TOKEN/…`.
_PATH_CREDENTIAL_HOSTS = (
    ("fury.io", (), (), True),
    ("cloudsmith.io", (), ("public", "basic"), True),
    ("anaconda.org", ("t",), (), False),
    ("anaconda.cloud", ("t",), (), False),
    ("anaconda.com", ("t",), (), False),
    ("packagecloud.io", ("priv",), (), False),
)


def _credential_segment(head: str, segments: list[str]) -> int | None:
    """The index in `segments` (a URL's path split at `/`, the first one empty) of the segment that is a credential by
    its place on the URL's host (`_PATH_CREDENTIAL_HOSTS`), or None."""
    authority = re.split(r":[/\\]{0,8}", head, maxsplit=1)[-1]  # `https:/host` as uv reads it, as `_SCHEME` does
    userinfo, at, hostport = authority.rpartition("@")
    host = hostport.rsplit(":", 1)[0] if not hostport.endswith("]") else hostport
    host = host.lower().rstrip(".")
    for domain, before, not_one, followed in _PATH_CREDENTIAL_HOSTS:
        if host != domain and not host.endswith("." + domain):
            continue
        if at and userinfo and not before:
            return None  # the credential is the URL's user (Gemfury's `TOKEN:@`): the first segment is the account
        place = 1 + len(before)
        if [seg.lower() for seg in segments[1:place]] != list(before) or len(segments) <= place:
            return None
        word = segments[place]
        if not word or word == MASK or word.lower() in not_one:
            return None
        if followed and not any(segments[place + 1:]):
            return None  # `pypi.fury.io/ACCOUNT/`: the public form names an account, not a token
        return place
    return None


def _secret_segments(head: str, segments: list[str]) -> set[int]:
    """Which of a URL path's `segments` are credentials: the one its host puts there (`_credential_segment`) and any
    that reads as a token on its own. One rule for the plain and the percent-encoded URL."""
    by_place = _credential_segment(head, segments)
    return {i for i, seg in enumerate(segments) if i == by_place or _PATH_TOKEN.pattern.match(seg)}


def _path_tokens(match: re.Match) -> str:
    segments = match.group("path").split("/")
    secret = _secret_segments(match.group("head"), segments)
    return match.group("head") + "/".join(MASK if i in secret else seg for i, seg in enumerate(segments))


#: The same URL percent-encoded once, as it reads inside another URL's query or a logger's line
#: (`https%3A%2F%2Fpypi.fury.io%2FTOKEN%2Forg%2F`): its path's segments judged as a plain URL's.
_ENCODED_URL_PATH = _Rule(r"(?i)(?P<head>\bhttps?%3A%2F%2F[A-Za-z0-9.-]+(?:%3A[0-9]+)?)"
                          r"(?P<path>(?:%2F[A-Za-z0-9._~!$()*+,;=:@-]*)+)", 'http%3a%2f%2f', 'https%3a%2f%2f')
_ENCODED_SLASH = LazyPattern(r"(?i)(%2F)")


def _encoded_path_tokens(match: re.Match) -> str:
    parts = _ENCODED_SLASH.pattern.split(match.group("path"))  # segments, with each `%2F` as it was spelled
    segments = parts[0::2]
    head = match.group("head")
    host = head[head.lower().index("%2f%2f") + 6:].replace("%3A", ":").replace("%3a", ":")
    for i in _secret_segments("https://" + host, segments):
        parts[2 * i] = MASK
    return match.group("head") + "".join(parts)


def _query_value(pair: str) -> str:
    name, eq, value = pair.partition("=")
    # A sentence's punctuation after the URL (`…?sig=X, --no-deps`) is the sentence's, not the value's.
    tail = value[len(value.rstrip(",.;:")):]
    value = value[: len(value) - len(tail)]
    if not eq or not value or value == MASK or _HARMLESS.pattern.match(value):
        return pair
    if _SECRET_PARAM.pattern.search(name) or _TOKEN_LIKE.pattern.match(value):
        return f"{name}={MASK}{tail}"
    return pair


def _query(match: re.Match) -> str:
    """A URL's query with every credential-looking value masked: a private index's or bucket's presigned
    link signs with `sig=`, `X-Amz-Signature=`, `token=` or a value no person types."""
    return match.group("head") + "&".join(_query_value(pair) for pair in match.group("query").split("&"))


def _bare_query(match: re.Match) -> str:
    return "?" + "&".join(_query_value(pair) for pair in match.group("query").split("&"))


def _encoded_query(match: re.Match) -> str:
    """`_query` for a query percent-encoded once: `%26` between pairs, `%3D` in each."""
    parts = _ENCODED_SEPARATOR.pattern.split(match.group("query"))  # pairs, with each `%26` as it was spelled
    for i in range(0, len(parts), 2):
        equals = _ENCODED_EQUALS.pattern.search(parts[i])
        if equals is not None:
            name, value = parts[i][:equals.start()], parts[i][equals.end():]
            masked = _query_value(f"{name}={value}")
            parts[i] = f"{name}{equals.group()}{masked[len(name) + 1:]}"
    return match.group("head") + "".join(parts)


def _signature_param(match: re.Match) -> str:
    value = match.group("value")
    if _HARMLESS.pattern.match(value) or (len(value) < 8 and not (any(c in "0123456789" for c in value)
                                                                  and any(c.isalpha() for c in value))):
        return match.group(0)
    return f"{match.group('name')}{match.group('sep')}{MASK}"


#: Local paths this run wrote at the user's asking (`keep_local_path`) whose names merely look like a URL with a
#: password: shown as they are.
_LOCAL_PATHS: list[str] = []


def keep_local_path(path: str | os.PathLike[str]) -> None:
    """Show `path`, a file or folder this run has just written where the user asked (`wizard.outputs`), as it is
    from now on, though its name has a URL's shape (`./https:/u:PW@host/x/b`, from `--out https://u:PW@host/x/b`).

    Why: the next-step line masked it into a command that cannot run ("gc-wizard install tiny-a --bundle
    /tmp/https:/u:***@127.0.0.1:9/x/b"), and masking a local name the user typed, already on their disk, hides
    nothing (27th hostile pass (part A) N2). Only a path that exists, and only in this process."""
    text = os.fspath(path)
    if text and text not in _LOCAL_PATHS and os.path.lexists(text) and redact_secrets(text) != text:
        _LOCAL_PATHS.append(text)
        _LOCAL_PATHS.sort(key=len, reverse=True)  # the longest first: a folder's file before the folder


def redact_secrets(text: str, *, keep_user: bool = False) -> str:
    """`text` with every credential form above replaced by `<redacted>`; everything else unchanged.

    `keep_user=True` (logs) keeps a URL's user name, `https://me:***@host`: it says which account was
    used; the report, which goes to someone else, drops it too. A local path this run wrote at the user's asking
    (`keep_local_path`) is kept whole: the text around it is masked piece by piece.

    A line that holds an escape or a character past ASCII is masked a second time in its decoded spelling
    (`_mask_decoded`), the secret's own span in the original masked.
    """
    if not text:
        return text
    if _LOCAL_PATHS:
        for path in _LOCAL_PATHS:
            if path in text:
                return path.join(redact_secrets(piece, keep_user=keep_user) for piece in text.split(path))
    if CONTROL_RE.pattern.search(text):
        text = _mask_between_controls(text, keep_user)
    masked = _redact_plain(text, keep_user)
    if masked.isascii() and "%" not in masked and "&" not in masked and "\\" not in masked:
        return masked  # nearly every text: no spelling to decode (the cheap pre-check before the slow pass)
    return _mask_decoded(masked, keep_user)


#: A terminal's control sequence or a lone control byte, as a boundary between words: a CSI sequence (`ESC[36m`, the
#: one-byte CSI U+009B), any other escape's introducer (`ESC]` of an OSC 8 link, whose text goes on as a piece: the
#: URL inside is masked; `ESC\\`, `ESC(B`), or a C0/C1 control byte (tab, LF and CR are blanks already).
_CONTROL_BOUNDARY = LazyPattern(r"\x1b\[[0-?]*[ -/]*[@-~]|\x9b[0-?]*[ -/]*[@-~]|\x1b[ -/]*[0-~]?"
                                r"|[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")


def _mask_between_controls(text: str, keep_user: bool) -> str:
    """`text` with each piece between control sequences masked on its own, the sequences kept as they are; the whole
    text is masked after (a secret's name and value a colour code splits, `password=ESC[1mPW`, are found there).

    Why: 37th hostile pass (part B) P2 — `ESC[36mhttps://user:PW@host/ESC[39m`, as uv, pip and git colour a URL, read
    as the word `36mhttps://…` and its password was printed by `history --json` and the app's History screen. What
    the rules see must not depend on the terminal codes around a secret."""
    out = []
    at = 0
    for match in _CONTROL_BOUNDARY.pattern.finditer(text):
        out.append(_redact_plain(text[at:match.start()], keep_user) if match.start() > at else "")
        out.append(match.group())
        at = match.end()
    out.append(_redact_plain(text[at:], keep_user))
    return "".join(out)


#: What a line may spell a secret's name or separator with (29th hostile pass (part A) P1): a percent-escape
#: (`password%3DSEK…`), an HTML character reference (`password&#61;SEK…`, `&equals;`), a `\\uXXXX` or `\\xXX` escape
#: (`password\\u003dSEK…`), or a character NFKC folds to another (the fullwidth `PASSWORD＝SEK…`).
_ENCODED_PIECE = LazyPattern(r"%[0-9A-Fa-f]{2}|&#[0-9]{1,7};|&#[xX][0-9A-Fa-f]{1,6};|&[A-Za-z]{2,10};"
                             r"|\\u[0-9A-Fa-f]{4}|\\x[0-9A-Fa-f]{2}|[^\x00-\x7f]")
#: The HTML entities a separator or a quote is written with (the rest are never a secret's frame).
_ENTITIES = {"equals": "=", "colon": ":", "quot": '"', "apos": "'", "amp": "&", "lt": "<", "gt": ">", "sol": "/",
             "num": "#", "commat": "@", "nbsp": " ", "period": ".", "lowbar": "_", "hyphen": "-", "dash": "-"}
#: Lines longer than this are not decoded (bounded time on an endless line; diagnose quotes a window of one).
_DECODED_LINE_CHARS = 8192


def _decoded_piece(piece: str) -> str:
    """One `_ENCODED_PIECE` as the character it spells (itself when it spells nothing known)."""
    if piece[0] == "%":
        code = int(piece[1:], 16)
        return chr(code) if code < 0x80 else piece
    if piece.startswith("&#"):
        code = int(piece[3:-1], 16) if piece[2] in "xX" else int(piece[2:-1])
        return chr(code) if 0 < code < 0x110000 and not 0xD800 <= code < 0xE000 else piece
    if piece[0] == "&":
        return _ENTITIES.get(piece[1:-1].lower(), piece)
    if piece[0] == "\\":
        return chr(int(piece[2:], 16))
    import unicodedata  # deferred: only a line past ASCII gets here

    return unicodedata.normalize("NFKC", piece)


def _mask_decoded(text: str, keep_user: bool) -> str:
    """`text` with each line that spells something in escapes or compatibility characters masked as its decoded
    spelling is: the span the masker changed in the decoded line is masked in the original.

    Why: 29th hostile pass (part A) P1 — the masker keys on a secret's word and its separator as written, so
    `token%3DSEK…`, `password&#61;SEK…`, `password\\u003dSEK…` and `PASSWORD＝SEK…` went out in clear through
    `diagnose` (text and `--json`). Decoding first makes every spelling the one the rules know; the original span is
    what is masked, so the rest of the line stays as the log has it."""
    import unicodedata  # deferred: only text with an escape or a character past ASCII gets here

    out = []
    for line in text.split("\n"):
        if (len(line) <= _DECODED_LINE_CHARS and ("%" in line or "&" in line or "\\" in line
                                                  or not unicodedata.is_normalized("NFKC", line))
                and _ENCODED_PIECE.pattern.search(line)):
            # (a line past ASCII that NFKC leaves as it is, a progress bar's blocks, needs no character-wise pass)
            line = _mask_decoded_line(line, keep_user)
        out.append(line)
    return "\n".join(out)


def _mask_decoded_line(line: str, keep_user: bool) -> str:
    pieces: list[str] = []
    starts: list[int] = []  # for each decoded character, where its piece starts in `line`
    ends: list[int] = []  # and where it ends
    at = 0
    for match in _ENCODED_PIECE.pattern.finditer(line):
        if match.start() > at:
            pieces.append(line[at:match.start()])
            starts.extend(range(at, match.start()))
            ends.extend(range(at + 1, match.start() + 1))
        decoded = _decoded_piece(match.group())
        pieces.append(decoded)
        starts.extend([match.start()] * len(decoded))
        ends.extend([match.end()] * len(decoded))
        at = match.end()
    pieces.append(line[at:])
    starts.extend(range(at, len(line)))
    ends.extend(range(at + 1, len(line) + 1))
    decoded_line = "".join(pieces)
    if decoded_line == line:
        return line
    masked = _redact_plain(decoded_line, keep_user)
    if masked == decoded_line:
        return line
    head = 0
    while head < min(len(masked), len(decoded_line)) and masked[head] == decoded_line[head]:
        head += 1
    tail = 0
    while (tail < min(len(masked), len(decoded_line)) - head
           and masked[len(masked) - 1 - tail] == decoded_line[len(decoded_line) - 1 - tail]):
        tail += 1
    first = starts[head] if head < len(starts) else len(line)
    last = ends[len(decoded_line) - tail - 1] if len(decoded_line) - tail - 1 >= head else first
    return line[:first] + masked[head:len(masked) - tail] + line[last:]


def _redact_plain(text: str, keep_user: bool) -> str:
    """`redact_secrets`'s rules over `text` as it is spelled."""
    folded = _fold(text)
    if not _any_needle().search(folded):  # (a case-sensitive needle in the text is in its folded copy too)
        return text
    masking = _Masking(text, folded)
    masking.sub(_PRIVATE_KEY, f"-----BEGIN PRIVATE KEY----- {MASK} -----END PRIVATE KEY-----")
    # A settings file's line quoted by a parse error, whole, before the rules that would mask a piece of it.
    masking.sub(_QUOTED_SOURCE, _quoted_settings_line)
    # Before the query and path rules, which would read such a password as a host and a path.
    masking.sub(_URL_ODD_USERINFO, lambda m: _userinfo(m, keep_user) if _ODD_PASSWORD.pattern.search(
        m.group("userinfo")) else m.group(0))
    # A password with blanks inside, before the port rule, which would mask only its first word.
    masking.sub(_URL_SPACED_USERINFO, lambda m: _userinfo(m, keep_user))
    masking.sub(_URL_PORT_PASSWORD, lambda m: f"{m.group('head')}{MASK}")
    masking.sub(_PORT_CAST, lambda m: f"{m.group(1)}{m.group(2)}{MASK}")
    # A URL's query and path first: once its userinfo reads `<redacted>@`, the `<` ends the URL for them, and a
    # link with both a password and a signature kept its signature.
    masking.sub(_URL_QUERY, _query)
    masking.sub(_BARE_QUERY, _bare_query)
    masking.sub(_SIGNATURE_PARAM, _signature_param)  # before the encoded query: `…Signature=sr%3Dx%26sig%3DX` whole
    masking.sub(_ENCODED_QUERY, _encoded_query)
    masking.sub(_ENCODED_USERINFO, lambda m: f"{m.group('scheme')}{MASK}%40")
    masking.sub(_URL_PATH, _path_tokens)
    masking.sub(_ENCODED_URL_PATH, _encoded_path_tokens)
    masking.sub(_URL_USERINFO, lambda m: _userinfo(m, keep_user))
    masking.sub(_BARE_USERINFO, lambda m: _bare_userinfo(m, keep_user))
    masking.sub(_DIGEST_HEADER, lambda m: f"{m.group(1)}{MASK}")
    masking.sub(_AUTH_HEADER, lambda m: f"{m.group(1)}{(m.group(2) + ' ') if m.group(2) else ''}{MASK}")
    masking.sub(_BEARER, lambda m: f"{m.group(1)}{MASK}")
    masking.sub(_WEBHOOK, lambda m: f"{m.group('head')}{MASK}")
    masking.sub(_NAMED_SPACED, lambda m: f"{m.group('name')}{MASK}" if _spaced_secret(m.group('value'))
                and not _NOT_A_VARIABLE.pattern.search(m.group('name').strip()) else m.group(0))
    masking.sub(_SECRET_HEADER, lambda m: f"{m.group(1)}{MASK}" if _generated_word(m.group(2)) else m.group(0))
    masking.sub(_API_HEADER, lambda m: f"{m.group(1)}{MASK}" if _TOKEN_LIKE.pattern.match(m.group(2)) else m.group(0))
    masking.sub(_COOKIE, lambda m: f"{m.group(1)}{MASK}")
    masking.sub(_NETRC, lambda m: f"{m.group(1)}{MASK}")
    masking.sub(_COMMAND_LOGIN, lambda m: f"{m.group(1)}{MASK}")
    for client in _CLIENT_PASSWORDS:
        masking.sub(client, lambda m: f"{m.group(1)}{MASK}")
    masking.sub(_WANDB, lambda m: f"{m.group(1)}{MASK}")
    # 29th hostile pass (part A) P1: the forms below, before the key id rule masks an AWS pair's first half
    masking.sub(_ORACLE_LOGIN, lambda m: f"{m.group('head')}{m.group('user')}{MASK}")
    masking.sub(_AWS_PAIR, lambda m: f"{m.group('head')}{MASK}")
    for command in _NEXT_ARGUMENT:
        masking.sub(command, _next_argument)
    masking.sub(_SECRET_ARROW, _secret_var)
    masking.sub(_SECRET_SETTER_CALL, _secret_var)
    # before the `NAME=value` rule, which reads `key="password"` as a key's value and masks the name it needs
    masking.sub(_SECRET_ATTRIBUTE, _secret_var)
    masking.sub(_SECRET_KEYED_TEXT, _secret_var)
    masking.sub(_SECRET_VAR, _secret_var)
    # the other forms that set a secret-named variable (28th hostile pass (part A) P1), after `NAME=value`, so
    # `ENV NAME=X` and `set NAME=X` are masked once
    masking.sub(_SECRET_ELEMENT, _secret_var)
    masking.sub(_SECRET_SETTER, _secret_var)
    masking.sub(_SECRET_CALL, _secret_var)
    masking.sub(_SECRET_BARE, _bare_secret)
    masking.sub(_SECRET_OPTION, lambda m: f"{m.group('option')}{m.group('space')}{MASK}")
    masking.sub(_NAMED_SECRET_OPTION, _named_secret_option)
    masking.sub(_PASSWORD, _password)
    masking.sub(_STANDALONE, MASK)
    return masking.text


#: A URL's start, its scheme: a piece without one is not a URL an installer can use.
_SCHEME_START = LazyPattern(_SCHEME)
#: A scheme-less piece's `userinfo@host` (`SEKtail@127.0.0.1:9/simple/`, `TOKEN:@host`): everything before the `@`
#: a host follows, the blanks and separators of its value gone.
_PIECE_USERINFO = LazyPattern(r"^(?P<userinfo>[^\s/@\"'<>]{1,768})@(?=[A-Za-z0-9\[])")


def redact_url(url: str, *, keep_user: bool = True) -> str:
    """`url`, a value known to be one URL of a setting that can carry credentials (a piece of an index or find-links
    variable), masked as `redact_secrets` masks it — and, when the piece has no scheme, a `token@host` at its start
    masked as a URL's userinfo.

    Why: uv splits `UV_EXTRA_INDEX_URL` at blanks, so `https://u:SEKb SEKtail@host/simple/` reaches the plan as two
    "URLs", the second `SEKtail@host/simple/` — the password's tail, which in free text reads as a mail address and
    stays, and `plan --json` printed it (24th hostile pass (part A) P4). A piece of such a variable is no mail
    address: what stands before its `@` is a credential."""
    masked = redact_secrets(url, keep_user=keep_user)
    if _SCHEME_START.pattern.match(masked):
        return masked
    return _PIECE_USERINFO.pattern.sub(f"{MASK}@", masked, count=1)


def redact_value(value: Any, *, keep_user: bool = True) -> Any:
    """`value` (JSON-like data: strings, lists or tuples, dicts) with every string passed through `redact_secrets`,
    a mapping's keys as well as its values; other values as they are. For data written whole — every `--json` line
    (`emit_json`), an answers file made to be copied around."""
    if isinstance(value, str):
        return redact_secrets(value, keep_user=keep_user)
    if isinstance(value, (list, tuple)):
        return [redact_value(v, keep_user=keep_user) for v in value]
    if isinstance(value, dict):
        return {(redact_secrets(k, keep_user=keep_user) if isinstance(k, str) else k): redact_value(v, keep_user=keep_user)
                for k, v in value.items()}
    return value


def redact_output(text: str) -> str:
    """`text` as an output stream writes it: a line that is a JSON document (a `--json` line) masked value by value,
    any other text with `redact_secrets` (`keep_user=True`).

    Why: masking the serialised JSON as text could eat the `\\` of an escaped quote (`\\"Bearer X\\"` became
    `Bearer <redacted>"`) or run a `Cookie:` value to the line's end, and the last stdout line, the one scripts
    parse, was no longer JSON (seventeenth hostile pass P2). A line whose values need no mask is written as it
    came; one that changed is serialised again (`json_text`)."""
    if "{" not in text and "[" not in text:
        return redact_secrets(text, keep_user=True)
    out: list[str] = []
    prose: list[str] = []  # lines of other text, masked together: a private key's block spans lines
    for line in text.splitlines(keepends=True):
        body = line.rstrip("\r\n")
        data = None
        if body[:1] in "{[" and body[-1:] in "}]":
            try:
                data = bounded.loads_json(body)
            except ValueError:
                pass
        if not isinstance(data, (dict, list)):
            prose.append(line)
            continue
        out.append(redact_secrets("".join(prose), keep_user=True))
        prose.clear()
        masked = redact_value(data)
        out.append(line if masked == data else json_text(masked) + line[len(body):])
    out.append(redact_secrets("".join(prose), keep_user=True))
    return "".join(out)


def cut(text: str, limit: int) -> str:
    """`text` masked (as every output channel masks it), then cut to `limit` characters with "…".

    Why mask first: a secret cut in the middle (`https://al:AlPasswordVeryLon…`, `xoxb-12345678…`) no
    longer has the shape the redaction knows, so the channel's own masking would pass what is left of it.
    Every place that shortens free text (an error, a log line, a row) cuts through this."""
    # Only the part that can be kept is masked (with room for a secret that straddles the cut): masking all of an
    # endless line's pieces made `diagnose - < endless` run for ever (eighteenth hostile pass fix, found by the suite).
    text = redact_secrets(text[: 2 * limit + 256], keep_user=True) if len(text) > limit else redact_secrets(
        text, keep_user=True)
    return text if len(text) <= limit else text[: max(1, limit - 1)] + "…"


_KEY_BEGIN = LazyPattern(r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----")
_KEY_END = LazyPattern(r"-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----")


class LineRedactor:
    """`redact_secrets` for text that arrives line by line (a log being written): a private-key block
    spans lines, so whether a line is inside one is remembered from line to line."""

    def __init__(self, *, keep_user: bool = False) -> None:
        self.keep_user = keep_user
        self.in_key = False

    def __call__(self, line: str) -> str:
        if self.in_key:
            end = _KEY_END.pattern.search(line)
            if end is None:
                return MASK
            self.in_key = False
            return f"-----END PRIVATE KEY-----{redact_secrets(line[end.end():], keep_user=self.keep_user)}"
        begin = _KEY_BEGIN.pattern.search(line)
        if begin is not None and _KEY_END.pattern.search(line, begin.end()) is None:
            self.in_key = True
            return f"{redact_secrets(line[:begin.start()], keep_user=self.keep_user)}-----BEGIN PRIVATE KEY----- {MASK}"
        return redact_secrets(line, keep_user=self.keep_user)


#: A local URL as uv (the WHATWG URL standard), pip and the masking rule (`_SCHEME`, the same pieces) read one:
#: an optional VCS prefix, `file:` in any case, then any run of `/` or `\`, or none.
_LOCAL_URL = re.compile(rf"^(?P<vcs>{_VCS_PREFIX})(?i:file):(?P<rest>.*)\Z", re.DOTALL)
#: The remote addresses an installer reads a package source from: `http(s):` behind an optional VCS prefix, with
#: any separators after it (`https:/host` is read as `https://host`, as `_SCHEME` reads it), or a VCS URL
#: (`git+ssh://…`) for a GraphCast source.
_REMOTE_URL = re.compile(rf"^(?:{_VCS_PREFIX}(?i:https?):|[A-Za-z][A-Za-z0-9.-]*\+[A-Za-z][A-Za-z0-9+.-]*://)")
#: Any other `scheme://` (or `scheme:\\`): no path on this machine, and no address the wizard knows as remote.
_OTHER_URL = re.compile(rf"^[A-Za-z][A-Za-z0-9+.-]*:{_LOOSE_SEPARATORS}{{2}}")


def local_url(text: str) -> tuple[str, str, str] | None:
    """(the VCS prefix such as `git+`, or '', the path it names on this machine, what follows the path — a `?query`,
    a `#fragment`) for a `file:` URL in any of the forms uv and pip read as a local place, else None; ValueError
    for a `file:` URL on another host, which names no place here.

    The forms: `file:///DIR`, `file:/DIR`, `file:DIR`, `file:\\DIR` (a backslash is a slash), `file:////DIR`,
    `file://localhost/DIR`, the scheme in any case, the path percent-decoded. Why one parser: the swap check read
    only `file://`, so `UV_FIND_LINKS=file:/DIR` (one slash), `file:DIR` and `file:\\DIR`, which uv and pip read
    as the folder, passed another user's wheelhouse unchecked and its `.pth` ran as root, while `--find-links
    file:/DIR` was called "no such folder" (28th hostile pass (part B) P4). Every reader of a package source
    (`source_place`, `install.source_places`, `installer_files`) goes through this one."""
    from urllib.parse import unquote  # deferred: only a source that names a local URL reads it

    found = _LOCAL_URL.match(text.strip())
    if found is None:
        return None
    rest = found.group("rest").replace("\\", "/")
    rest, hash_mark, fragment = rest.partition("#")
    rest, question, query = rest.partition("?")
    tail = f"{question}{query}{hash_mark}{fragment}"
    body = rest.lstrip("/")
    if len(rest) - len(body) == 2:  # `file://HOST/…`: only this machine's name is a place here
        host, _, body = body.partition("/")
        if unquote(host).lower() not in ("", "localhost"):
            raise ValueError(f"it names the host {host!r}, not this machine")
    return found.group("vcs"), "/" + unquote(body), tail


def source_place(text: str) -> Path | None:
    """The place on this machine a package source names (a path, `~` expanded, relative ones as they are; any
    `file:` form, `local_url`), or None for a remote address (`http(s)`, with any separators, or a VCS URL);
    ValueError for anything else, which names neither: an installer would read it some way the wizard cannot
    check (28th hostile pass (part B) P4)."""
    text = text.strip()
    if not text:
        return None
    found = local_url(text)
    if found is not None:
        return Path(found[1])
    if _REMOTE_URL.match(text):
        return None
    if _OTHER_URL.match(text):
        raise ValueError("it is neither a folder on this machine nor an http(s) address")
    return Path(expand_home(text))


#: An account as the wizard's sentences name one (`children.owner_words`, `group_words`, `source_trust`'s ACL fixes):
#: `user NAME (uid N)`, `NAME (gid N)`, a bare `uid N`/`gid N`, and `setfacl`'s `u:NAME`/`g:NAME` entries.
_ACCOUNT_NAMED_RE = LazyPattern(r"(?<![A-Za-z0-9._-])([A-Za-z_][A-Za-z0-9._$-]*) \((uid|gid) ([0-9]+)\)")
_ACCOUNT_NUMBER_RE = LazyPattern(r"(?<![A-Za-z0-9_-])(uid|gid) ([0-9]+)(?![0-9])")
_ACL_ENTRY_RE = LazyPattern(r"(setfacl (?:-[A-Za-z]+ )*)([ug]):([^\s:`]+)")


def mask_accounts(text: str) -> str:
    """`text` with the user and group accounts the wizard's sentences name replaced: `user <user> (uid <uid>)`,
    `<group> (gid <gid>)`, `setfacl -x u:<user>`; root (uid and gid 0) is left as it is, no one's in particular.

    Why: 30th hostile pass (part B) P9 — the support report masked another user's home as /home/<user> while the
    same sentence ("…a folder that user t30v (uid 1004) owns…", from the swap and state-owner rules) named them and
    their uid in clear. The report promises user names replaced by <user>; this masks them the way the homes are."""
    if "id " not in text and "setfacl" not in text:
        return text

    def named(match: re.Match[str]) -> str:
        kind, number = match.group(2), match.group(3)
        if number == "0":
            return match.group(0)
        return f"{'<user>' if kind == 'uid' else '<group>'} ({kind} <{kind}>)"

    def number(match: re.Match[str]) -> str:
        return match.group(0) if match.group(2) == "0" else f"{match.group(1)} <{match.group(1)}>"

    def acl(match: re.Match[str]) -> str:
        if match.group(3) == "root":
            return match.group(0)
        return f"{match.group(1)}{match.group(2)}:<{'user' if match.group(2) == 'u' else 'group'}>"

    return _ACL_ENTRY_RE.sub(acl, _ACCOUNT_NUMBER_RE.sub(number, _ACCOUNT_NAMED_RE.sub(named, text)))
