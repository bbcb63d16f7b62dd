"""Installer arguments that hold a secret travel in a private file, never on the child's command line.

Why: a process's command line is readable by every local user (`/proc/PID/cmdline`, `ps aux`) for as long as it
runs. On a shared GPU server a find-links password, an index token or a signed GraphCast URL given through the
environment, an answers file or a flag was there for the whole download (eleventh hostile pass #162-#164, #205),
though every channel the wizard writes masks it. A process's environment is its owner's alone
(`/proc/PID/environ` is 0400), so:
- an option holding a secret (`--find-links`, `--index-url`, `--extra-index-url`) goes with every other value of
  that option into the installer's own variable for it (`UV_FIND_LINKS`, `PIP_EXTRA_INDEX_URL`, …), which it
  reads only when the option is not on the command line. Not a requirements file: uv refuses any beside a
  `pylock.toml` (twelfth hostile pass #11);
- a requirement by URL holding one (a signed GraphCast wheel URL) moves into a requirements file, made 0600 in a
  folder only the user can enter (`tempfile.mkdtemp`), removed once the child is done (or, when the wizard was
  killed outright, by the next wizard's `sweep_left_behind`).
Arguments without a secret stay where they were, so the command a log shows is the one that ran.

A `git+https://user:token@host/…` requirement is the one a file cannot hide: uv runs `git fetch URL` with it, and
git's own children repeat it. Its login leaves the URL instead, and git asks for it through `GIT_ASKPASS`: a
script in the same private folder that answers git's "Username for 'https://host'" and "Password for
'https://user@host'" for that host only (`env` holds the variables to add to the child's environment).
"""

from __future__ import annotations

import os
import re
import shlex
import tempfile
import urllib.parse
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from wizard import bounded, paths
from wizard.install.cache_trust import unusable_folder
from wizard.security import redact_secrets, strip_acls
from wizard.source_trust import swap_risk
from wizard.tree_walk import remove_tree

#: Options whose value may carry a credential, by their spellings, and each installer's variable for them with the
#: character that joins several values (None: one value only).
OPTIONS = {"--find-links": "find_links", "-f": "find_links", "--index-url": "index_url", "-i": "index_url",
           "--extra-index-url": "extra_index_url"}
_VARIABLES = {
    "uv": {"find_links": ("UV_FIND_LINKS", ","), "index_url": ("UV_INDEX_URL", None),
           "extra_index_url": ("UV_EXTRA_INDEX_URL", " ")},
    "pip": {"find_links": ("PIP_FIND_LINKS", " "), "index_url": ("PIP_INDEX_URL", None),
            "extra_index_url": ("PIP_EXTRA_INDEX_URL", " ")},
}
#: The installer commands whose requirements files are positional (`uv pip compile a.in b.in`, `uv pip sync`);
#: `install` and `download` take them after `-r`.
_POSITIONAL_FILES = frozenset({"compile", "sync"})


#: A git requirement's login: `[name @ ]git+http(s)://user[:password]@host[:port]/…`.
_GIT_LOGIN = re.compile(r"(?P<head>(?:^|\s)git\+https?://)(?P<user>[^\s/@:]+)(?::(?P<password>[^\s/@]*))?@"
                        r"(?P<host>[A-Za-z0-9.-]+(?::[0-9]+)?)(?=/)")


def holds_secret(value: str) -> bool:
    """Whether the output channels would mask part of `value` (the one rule for what a secret looks like), or it is
    a URL with a login or a query: on a command line every user reads, a query's value no rule knows as a secret
    (`?tok=…`, a service's own name for its token) is kept off too, since nothing is lost by carrying it privately."""
    if redact_secrets(value) != value:
        return True
    try:
        parts = urllib.parse.urlsplit(value.split(" @ ", 1)[-1].strip())
    except ValueError:
        return False
    return bool(parts.scheme and parts.netloc and (parts.query or "@" in parts.netloc))


def _file_line(value: str) -> bool:
    """Whether `value` can be one line of a requirements file and be read back as itself: no line break, and no
    `${…}`, which both installers expand from the environment."""
    return "\n" not in value and "\r" not in value and "${" not in value


class PrivateArguments:
    """`argv` with its secret-holding options and URL requirements moved into a private requirements file.

    `argv` is the command to start; `close()` removes the file (a `with` block does it). Nothing moves, and no
    file is made, when no argument holds a secret."""

    def __init__(self, argv: list[str] | tuple[str, ...]) -> None:
        self.folder: Path | None = None
        self.env: dict[str, str] = {}
        logins: dict[str, tuple[str, str]] = {}
        argv = [_git_without_login(word, logins) if i else word for i, word in enumerate(argv)]
        argv, self.env = _options_to_environment(argv)
        kept, moved = _split(argv)
        if not moved and not logins:
            self.argv = kept
            return
        self.folder = new_temporary_folder("private")
        if logins:
            self.env["GIT_ASKPASS"] = str(_askpass(self.folder, logins))
        if not moved:
            self.argv = kept
            return
        path = self.folder / "arguments.txt"
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8", errors="surrogateescape") as out:
            out.write("".join(line + "\n" for line in moved))
        positional = any(word in _POSITIONAL_FILES for word in kept[1:4])
        self.argv = [*kept, str(path)] if positional else [*kept, "-r", str(path)]

    def environ(self, base: dict[str, str] | None) -> dict[str, str] | None:
        """The child's environment: `base` (None: this process's) with `env` added; None when nothing is added and
        `base` was None, as `subprocess.run` takes it."""
        if not self.env:
            return base
        return {**(os.environ if base is None else base), **self.env}

    def close(self) -> None:
        if self.folder is not None:
            remove_tree(self.folder)
            self.folder = None

    def __enter__(self) -> PrivateArguments:
        return self

    def __exit__(self, *exc) -> None:
        self.close()




def sweep_left_behind(where: str | None = None) -> list[Path]:
    """Removes the temporary folders (`gc-wizard-<kind>-<pid>-…`: private arguments, source copies, syncs, locks,
    a step's scratch) of wizards that are gone (killed outright: SIGKILL, the OOM killer, a Slurm time limit,
    before `close` could run) and returns them; only this user's, only when that pid is not alive.

    Why: such a folder holds a requirements file with a signed URL or a git login script, 0600 but on disk for as
    long as /tmp is kept (twelfth hostile pass #11), or a whole copy of the user's checkout (fifteenth hostile pass
    P4). Nothing can run when a process is killed outright, so the next wizard that makes one of its folders clears
    what an earlier one left, whatever kind; a pid reused by another process keeps its folder (it may be a running
    wizard's) until a later sweep."""
    gone: list[Path] = []
    root = Path(where or tempfile.gettempdir())
    try:
        entries = list(os.scandir(root))
    except OSError:
        return gone
    for entry in entries:
        ours = _OURS.match(entry.name)
        if ours is None or int(ours.group(1)) == os.getpid():
            continue
        try:
            if not entry.is_dir(follow_symlinks=False) or entry.stat(follow_symlinks=False).st_uid != os.getuid():
                continue
            os.kill(int(ours.group(1)), 0)
        except ProcessLookupError:
            remove_tree(entry.path)
            gone.append(Path(entry.path))
        except (OSError, OverflowError):  # alive under another user (EPERM), the entry went away, no such pid
            continue
    return gone


#: Every temporary folder of the wizard's: its kind, then the pid of the wizard that made it.
_OURS = re.compile(r"^gc-wizard-[a-z]+-([0-9]+)-")


#: What the temporary folder's refusals say was left undone, in an install's own words.
DONE = "nothing was done"


def temporary_root_problem(root: str, done: str = DONE) -> str | None:
    """Why the temporary folder `root` cannot hold the wizard's scratch files, as one sentence naming TMPDIR, or None.

    Why: a TMPDIR whose name holds a byte that is not UTF-8 (`/tmp/t\\xff`) reached uv as the path of the lock's
    requirements file ("uv could not resolve recipe tiny-a: invalid UTF-8 … in one or more arguments") and pip's
    environment step as its TMPDIR ("ensurepip … exit status 1"), and neither failure named TMPDIR (24th hostile
    pass (part A) P5). Every scratch folder of the wizard's, and every step's TMPDIR, is made here, so the one check
    refuses before anything runs, in the words the other non-UTF-8 paths get (`paths.not_utf8`)."""
    shown = paths.not_utf8(root)
    if shown is None:
        return None
    variable = paths.temporary_variable()
    return (f"{paths.temporary_words(shown)} holds a byte that is not UTF-8, which uv and pip cannot be given "
            f"as a path, so {done}. Point {variable or 'the temporary folder'} at a folder whose name is UTF-8 "
            f"(`export {variable or 'TMPDIR'}=$HOME/tmp`, after `mkdir -p` it).")


def check_temporary_root() -> str:
    """The temporary folder (`tempfile.gettempdir()`), or `paths.UnusableTemporaryFolder` saying why it cannot be
    used (`temporary_root_problem`), or `paths.ForeignFolder` when another user could swap what is put there
    (`temporary_root_risk`). An install asks first, before its environment is begun."""
    root = tempfile.gettempdir()
    found = temporary_root_refusal(root)
    if found is not None:
        words, foreign = found
        raise paths.ForeignFolder(words) if foreign else paths.UnusableTemporaryFolder(words)
    return root


def temporary_root_refusal(root: str | None = None, done: str = DONE) -> tuple[str, bool] | None:
    """(why `check_temporary_root` refuses the temporary folder, whether it is because another user could swap what
    is put there), or None: the checks in the order the install makes them. `done`: what the sentence says was left
    undone ("nothing was done"; the plan's "`install` would stop before its first step").

    Why one function: the plan was silent about a TMPDIR that `install` refused at once — missing, read-only, with a
    non-UTF-8 name, another user's (31st hostile pass (part A) P7, (part B) P9); the plan asks this, and says the
    install's own sentence."""
    root = tempfile.gettempdir() if root is None else root
    unusable = temporary_root_problem(root, done)
    if unusable is not None:
        return unusable, False
    foreign = temporary_root_risk(root, done)
    if foreign is not None:
        return foreign, True
    no_room = temporary_room_problem(root, done) or installers_temporary_problem(done)
    return None if no_room is None else (no_room, False)


def temporary_room_problem(root: str, done: str = DONE) -> str | None:
    """Why installers cannot write their temporary files in the temporary folder, as one sentence naming TMPDIR and
    the fix, or None: the probe the installer caches get (`cache_trust.unusable_folder`: read-only, not writable by
    you, no free inodes, full), on TMPDIR as set — Python's `tempfile` passes over a folder it cannot write in and
    uses /tmp, while uv and pip write where TMPDIR says.

    Why: 29th hostile pass (part A) P2 — with TMPDIR full, out of inodes or read-only, every install ran all its
    steps, then failed at listing the packages with uv's "No space left on device … .tmpXXXX" and threw the finished
    environment away; rollback the same; nothing named TMPDIR. Asked before the environment is begun."""
    variable = paths.temporary_variable()
    place = Path(os.path.abspath(os.environ[variable] if variable else root))
    why = bounded.not_a_folder(place) if not place.is_dir() else unusable_folder(place)
    if why is None:
        return None
    return (f"{paths.temporary_words(place)} cannot be used: {why}; uv and pip write their temporary files "
            f"there, so {done}. Point {variable or 'the temporary folder'} at a folder you can write on a disk with "
            f"room (`export {variable or 'TMPDIR'}=$HOME/tmp`, after `mkdir -p` it).")


#: Where uv writes its temporary files when TMPDIR is not set (Rust's `std::env::temp_dir()`: TMPDIR, else /tmp).
INSTALLERS_DEFAULT_TEMPORARY = "/tmp"


def installers_temporary_folder() -> str:
    """The folder uv writes its temporary files in when the wizard does not give it one: TMPDIR as set, else /tmp.
    uv reads only TMPDIR (not TEMP or TMP), and never passes over an unusable /tmp; pip, a Python program, does
    (`tempfile`), so uv's rule is the one both installers keep."""
    return os.environ.get("TMPDIR") or INSTALLERS_DEFAULT_TEMPORARY


def installers_temporary_problem(done: str = DONE) -> str | None:
    """Why uv cannot write its temporary files where it will with TMPDIR unset (/tmp read-only, full, out of inodes,
    not yours to write), as one sentence naming /tmp and TMPDIR, or None (TMPDIR set: `temporary_room_problem` asks).

    Why: 33rd hostile pass (part A) P4 — with TMPDIR, TEMP and TMP unset and /tmp read-only or full, the check asked
    Python's `tempfile.gettempdir()`, which passes over /tmp to /var/tmp; the plan was silent, and `install` ran every
    step, then failed at listing the packages ("Read-only file system … /tmp/.tmpXXXX", uv's) and threw the finished
    environment away. The check now tests the folder the installer itself will use."""
    if os.environ.get("TMPDIR"):
        return None
    place = Path(installers_temporary_folder())
    why = bounded.not_a_folder(place) if not place.is_dir() else unusable_folder(place)
    if why is None:
        return None
    return (f"{place}, where uv writes its temporary files when TMPDIR is not set, cannot be used: {why}; so {done}. "
            "Point TMPDIR at a folder you can write on a disk with room (`export TMPDIR=$HOME/tmp`, after "
            "`mkdir -p` it).")


def temporary_root_risk(root: str, done: str = DONE) -> str | None:
    """Why another local user could swap what the wizard puts in the temporary folder `root`, as one sentence naming
    TMPDIR and the fix, or None: the swap rule every source and cache passes (`source_trust.swap_risk`: the owner,
    group and ACL writers of `root` and of every folder on its way from /), with `root` judged as the folder the
    private folders are made in (a sticky /tmp excuses it).

    Why: 29th hostile pass (part B) P1 — only "writable by every user" was refused. A TMPDIR that another user owned,
    could write through an ACL, or sat in (a root folder inside their home) held root's copy of the GraphCast
    checkout while it was built: they renamed it away, put their own setup.py in its place, and it ran as root,
    while the plan called the checkout identical to its release. Every scratch folder of the wizard's (build copies,
    lock inputs, frozen sets, each step's TMPDIR, uv's temporary cache under it) is made under this root, so the one
    check covers install, rollback, bundle, lock and plan."""
    shared = paths.swappable_ancestor(Path(root) / "x")
    if shared is not None:
        # Sixteenth hostile pass P4: under such a folder another user renamed the private folder away and put one
        # of their own there, whose `askpass` git then ran as the owner.
        where = f"{root}" if Path(root) == shared[0] else f"{root}, in {shared[0]}, which"
        why = shared[1]
    else:
        found = swap_risk(Path(root), inside=False, above=True)
        if found is None:
            return None
        where = f"{root}" if Path(os.path.abspath(root)) == found[0] else f"{root}, in {found[0]}, which"
        why = found[1]
    variable = paths.temporary_variable() or "TMPDIR"
    return (f"{paths.temporary_words(where)} {why}, so another user could swap the private files gc-wizard "
            f"puts there (a copy of GraphCast it builds, a login helper git runs, a requirements file); {done}. "
            f"Point {variable} at a folder only you can write (`export {variable}=$HOME/tmp`, after `mkdir -p` it).")


def new_temporary_folder(kind: str) -> Path:
    """A new folder only the user can enter (0700, whatever the umask) for this wizard's `kind` of scratch work,
    named so that a later wizard can clear it if this one is killed outright; what dead wizards left goes first."""
    check_temporary_root()
    sweep_left_behind()
    made = Path(tempfile.mkdtemp(prefix=f"gc-wizard-{kind}-{os.getpid()}-"))
    strip_acls(made)  # no ACL TMPDIR hands down (27th hostile pass (part B) P1)
    return made


@contextmanager
def temporary_folder(kind: str) -> Iterator[Path]:
    """`new_temporary_folder(kind)`, removed when the block ends, however it ends."""
    folder = new_temporary_folder(kind)
    try:
        yield folder
    finally:
        remove_tree(folder)


def _git_without_login(word: str, logins: dict[str, tuple[str, str]]) -> str:
    """`word` with a git URL's login taken out (recorded in `logins` by host, decoded as git decodes it); a word
    whose login cannot be answered for its host alone (two logins for one host) stays as it was."""
    if "git+" not in word or not holds_secret(word):
        return word

    def strip(match: re.Match) -> str:
        host = match.group("host")
        login = (urllib.parse.unquote(match.group("user")), urllib.parse.unquote(match.group("password") or ""))
        if logins.setdefault(host, login) != login:
            return match.group(0)
        return match.group("head") + host

    return _GIT_LOGIN.sub(strip, word)


def _askpass(folder: Path, logins: dict[str, tuple[str, str]]) -> Path:
    """A script git runs with its prompt as the argument, printing the login for that host and nothing for any
    other (git then fails as it would without one). 0700; every value single-quoted for the shell."""
    cases = []
    for host, (user, password) in logins.items():
        # The character after the host is not one a host name has (git quotes it, or a path follows): a login
        # for `lab.example` is never given to `lab.example.evil`. Host names hold no character the shell or the
        # pattern reads (`_GIT_LOGIN`), and the values are single-quoted.
        cases.append(f"  *//{host}[!A-Za-z0-9.:-]*) printf '%s\\n' {shlex.quote(user)} ;;")
        cases.append(f"  *@{host}[!A-Za-z0-9.:-]*) printf '%s\\n' {shlex.quote(password)} ;;")
    script = folder / "askpass"
    fd = os.open(script, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o700)
    with os.fdopen(fd, "w", encoding="utf-8", errors="surrogateescape") as out:
        out.write("#!/bin/sh\ncase \"$1\" in\n" + "\n".join(cases) + "\n  *) exit 1 ;;\nesac\n")
    return script


def _installer(argv: list[str]) -> str | None:
    """"uv" or "pip" for an installer command (`uv pip …`, `python -m pip …`), else None."""
    if os.path.basename(argv[0]).startswith("uv") and argv[1:2] == ["pip"]:
        return "uv"
    if argv[1:3] == ["-m", "pip"] or os.path.basename(argv[0]).startswith("pip"):
        return "pip"
    return None


def _options(argv: list[str]) -> list[tuple[int, int, str, str]]:
    """(first index, how many words, the option as spelt, value) for each credential-carrying option in `argv`."""
    found, i = [], 1
    while i < len(argv):
        word = argv[i]
        name, eq, value = word.partition("=")
        if word in OPTIONS and i + 1 < len(argv):
            found.append((i, 2, word, argv[i + 1]))
            i += 2
            continue
        if eq and name in OPTIONS:
            found.append((i, 1, name, value))
        i += 1
    return found


def _options_to_environment(argv: list[str]) -> tuple[list[str], dict[str, str]]:
    """`argv` without the options of each kind that has a value holding a secret, and the variables that carry
    them all instead (all: the installer ignores its variable when the option is on the command line). A kind whose
    values cannot be joined (a value holding the joining character) stays for the requirements file."""
    installer = _installer(argv)
    if installer is None:
        return argv, {}
    found = _options(argv)
    env: dict[str, str] = {}
    drop: set[int] = set()
    for key, (variable, joiner) in _VARIABLES[installer].items():
        mine = [(start, count, value) for start, count, name, value in found if OPTIONS[name] == key]
        values = [value for _, _, value in mine]
        if not any(holds_secret(v) for v in values):
            continue
        if (joiner is None and len(values) > 1) or any(joiner and joiner in v or not _file_line(v) for v in values):
            continue
        env[variable] = (joiner or "").join(values)
        drop.update(i for start, count, _ in mine for i in range(start, start + count))
    return [word for i, word in enumerate(argv) if i not in drop], env


def _split(argv: list[str]) -> tuple[list[str], list[str]]:
    """(the arguments that stay, the requirements-file lines that hold a secret): requirements by URL, and options
    the environment could not carry."""
    spans = {start: (count, name, value) for start, count, name, value in _options(argv)}
    kept, moved = argv[:1], []
    i = 1
    while i < len(argv):
        if i in spans:
            count, name, value = spans[i]
            if holds_secret(value) and _file_line(value):
                moved.append(f"{name} {value}")
            else:
                kept += argv[i:i + count]
            i += count
            continue
        word = argv[i]
        if not word.startswith("-") and "://" in word and holds_secret(word) and _file_line(word):
            moved.append(word)  # a requirement by URL: `graphcast @ https://…?X-Amz-Signature=…`
        else:
            kept.append(word)
        i += 1
    return kept, moved
