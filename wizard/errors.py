"""Provides the error types the faces turn into exit codes.

Everything the user can get wrong (a recipe id, a malformed file, an option) raises `UserError`,
which the CLI prints as one or two plain sentences and exits 2 — never a traceback.
"""

from __future__ import annotations

import errno
import os
import signal
import sys
from enum import IntEnum

from wizard.patterns import LazyPattern
from wizard.security import redact_secrets, reveal_format_characters


class ExitCode(IntEnum):
    """The exit statuses of docs/interface.md ("Exit status"), by name."""

    OK = 0
    FAILED = 1
    BAD_INPUT = 2
    HANGUP = 129  # SIGHUP: the SSH connection dropped
    CANCELLED = 130  # SIGINT: Ctrl-C
    TERMINATED = 143  # SIGTERM: scancel, timeout, systemd


#: Every signal whose default action ends the process, and which a user, a scheduler or a limit sends to stop
#: the wizard: each must end it the same clean way (the run cancelled and recorded, its half-built env removed, an
#: in-place env put back), exit status 128 + its number. Beyond Ctrl-C, SIGTERM and a hang-up: Ctrl-\ (SIGQUIT),
#: Slurm's warning before a job's time limit (`--signal=USR1@T`, also USR2 or ALRM), CPU- and file-size limits
#: (`ulimit -t`/`-f`: XCPU, XFSZ) and the interval timers (VTALRM, PROF). Left at their default they killed the
#: wizard with no word and no clean-up (eleventh hostile pass #130/#132). The faces read this one list: the CLI's
#: guard (`wizard.commands.guard`), the install command's cancel handler and the app's signal handler.
STOP_SIGNALS: tuple[signal.Signals, ...] = tuple(
    getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT", "SIGUSR1", "SIGUSR2", "SIGALRM",
                                       "SIGXCPU", "SIGXFSZ", "SIGVTALRM", "SIGPROF", "SIGPWR", "SIGIO")
    if hasattr(signal, name))


def signal_words(signum: int) -> str:
    """The signal as a sentence names it: "Ctrl-C (SIGINT)", "SIGUSR1 (Slurm's warning before a time limit)"."""
    try:
        name = signal.Signals(signum).name
    except ValueError:
        return f"signal {signum}"
    return _SIGNAL_WORDS.get(name, name)


def note_left(stop: BaseException, words: str) -> None:
    """Note on a stop (a signal's `KeyboardInterrupt`) what it leaves on disk on purpose ("kept to resume: PATH, N MB"),
    for the face that says the stop (`left_words`). Why: the CLI said "nothing was left half-done" beside a 4.8 GB
    download it kept to resume (38th hostile pass (part A) P1). An attribute, as Python 3.10 has no `add_note`."""
    stop.gc_wizard_left = [*getattr(stop, "gc_wizard_left", []), words]  # type: ignore[attr-defined]


def left_words(stop: BaseException) -> str:
    """What a stop left on purpose (`note_left`), as one clause ("" when nothing)."""
    return "; ".join(getattr(stop, "gc_wizard_left", []))


def signal_fix(signum: int) -> str:
    """What to do about a child killed by `signum`, as a clause to follow its name ("" when there is nothing to add).

    Why: a file-size limit that killed uv mid-step was said as "exit status None (the installer was killed by SIGXFSZ
    (the file-size limit))", a Python null and no way out (27th hostile pass (part A) P3)."""
    if signum == getattr(signal, "SIGXFSZ", None):
        import resource  # deferred: only a child killed so asks

        soft = resource.getrlimit(resource.RLIMIT_FSIZE)[0]
        now = "" if soft == resource.RLIM_INFINITY else f", now {soft // 1024} KB"
        return (f": a file-size limit (`ulimit -f`{now}) stopped it; raise it with `ulimit -f unlimited`, or ask your "
                "admin for a larger one")
    if signum == getattr(signal, "SIGKILL", None):
        return ": most often the machine ran out of memory (`dmesg` or `journalctl -k` says), or a job's time ran out"
    return ""


def child_end_words(exit_status: int | None, signum: int | None) -> str:
    """How a child ended, for a sentence, from the signal when one killed it, never from the return code a killed
    child does not have: "killed by SIGXFSZ (the file-size limit): …", "exit status 2". One wording wherever a
    child's end is reported (27th hostile pass (part A) P3)."""
    if signum is not None:
        return f"killed by {signal_words(signum)}{signal_fix(signum)}"
    if exit_status is not None and exit_status < 0:  # subprocess's way of saying a signal
        return child_end_words(None, -exit_status)
    return f"exit status {exit_status}" if exit_status is not None else "it did not start"


_SIGNAL_WORDS = {"SIGINT": "Ctrl-C (SIGINT)",
                 "SIGHUP": "a hang-up (SIGHUP: the SSH session or the terminal was closed)",
                 "SIGTERM": "SIGTERM (a request to stop: scancel, timeout, kill or a shutdown)",
                 "SIGQUIT": "Ctrl-\\ (SIGQUIT)",
                 "SIGUSR1": "SIGUSR1 (a job scheduler's warning, e.g. Slurm's before a time limit)",
                 "SIGUSR2": "SIGUSR2 (a job scheduler's warning, e.g. Slurm's before a time limit)",
                 "SIGALRM": "SIGALRM (a timer ran out: a time limit, e.g. Slurm's --signal=ALRM)",
                 "SIGXCPU": "SIGXCPU (the CPU-time limit)", "SIGXFSZ": "SIGXFSZ (the file-size limit)",
                 "SIGKILL": "SIGKILL (what the kernel's out-of-memory killer sends, as do `kill -9` and a job's end)"}


def stop_words(signum: int | None) -> str:
    """How a stopped run is said by every command and the app (a history entry's `error`, the `--json` line's, the
    last sentence): "cancelled by the user" for Ctrl-C (SIGINT) or a stop asked for in the app; for any other signal,
    which one and what it usually means — a Slurm time-limit warning or a dropped SSH session is not the user's
    doing, and was said to be (fourteenth hostile pass Q8)."""
    if signum is None or signum == signal.SIGINT:
        return "cancelled by the user"
    return f"stopped by {signal_words(signum)}"


def stop_for_signal(cancel, signum: int) -> None:
    """Set a run's cancel event (a `threading.Event`) for a stop signal, keeping the first signal on it so the
    core's record names it (`stop_words(stop_signal(cancel))`)."""
    if getattr(cancel, "signum", None) is None:
        cancel.signum = signum
    cancel.set()


def stop_keeping_install(cancel) -> None:
    """Stop a run's GraphCast check but keep what it installed: the app's "Stop, keep it unchecked". A check
    can take minutes on a busy node and the install before it longer; stopping it used to delete the new
    environment with it (walk 17). The transaction reads the wish with `keeps_install`."""
    cancel.keep_install = True
    cancel.set()


def keeps_install(cancel) -> bool:
    """Whether `cancel` was set by `stop_keeping_install` (a signal's stop never keeps: nobody chose to)."""
    return getattr(cancel, "keep_install", False) is True and stop_signal(cancel) is None


def stop_signal(cancel) -> int | None:
    """The signal that set `cancel` (`stop_for_signal`), or None: a stop asked for by the user, or no stop."""
    signum = getattr(cancel, "signum", None)
    return signum if isinstance(signum, int) else None


class WizardError(Exception):
    """Base class; `exit_code` is what the CLI returns for it.

    Its text is masked (`wizard.security.redact_secrets`) when it is made: an error quotes what it met — an
    installer's last lines, a `--find-links` URL with a token in its query — and every face shows it (a
    sentence on stderr, the `--json` "error", a dialog in the app), so the mask is applied once, here."""

    exit_code = ExitCode.FAILED

    def __init__(self, *args: object) -> None:
        super().__init__(*(_name_limits(_one_spelling(redact_secrets(a, keep_user=True))) if isinstance(a, str)
                           else a for a in args))


#: An OSError of a limit spelled as Python spells it (`[Errno 24] Too many open files`), with its file name if any.
_RAW_LIMIT = LazyPattern(r"\[Errno (23|24)\] Too many open files(?: in system)?(?:: '[^'\n]*')?")
#: A child's words for the same limits (uv: `Too many open files (os error 24)`; Python: `[Errno 24]`; C: strerror).
_CHILD_LIMIT = LazyPattern(r"Too many open files in system|os error 23|Errno 23|(Too many open files|os error 24|"
                           r"Errno 24)")


def _name_limits(text: str) -> str:
    """`text` with a raw `[Errno 24]` (an OSError put in a sentence as it is) written as the limit it is, and a
    child's quoted "Too many open files (os error 24)" followed by that limit's sentence.

    Why in every WizardError (24th hostile pass (part A) P9): the OSErrors that become sentences are formatted in
    dozens of places (`cannot run uv: {exc}`, `cannot list the packages of …: {exc}`), and each said a bare
    "[Errno 24] Too many open files" under a low `ulimit -n`, while `limit_sentence` named the limit and its fix."""
    if "open files" not in text and "os error 2" not in text or "`ulimit -n`" in text or "fs.file-max" in text:
        return text
    raw = _RAW_LIMIT.search(text)
    if raw:
        return text.replace(raw.group(0), limit_sentence(int(raw.group(1))) or raw.group(0), 1)
    advice = open_files_advice(text, low=False)
    return f"{text.rstrip()}\n{advice}" if advice else text


#: A byte that is not UTF-8 as Python's `repr` spells the lone surrogate holding it (`'k\udcffn'`).
_REPR_BYTE = LazyPattern(r"\\udc([89a-f][0-9a-f])")


def _one_spelling(text: str) -> str:
    """`text` with each not-UTF-8 byte that a quoted value (`{name!r}`) spelled `\\udcff` written `\\xff`, as
    `paths.not_utf8` writes it in every other sentence: one case had two spellings (fifteenth hostile pass P10)."""
    return _REPR_BYTE.sub(r"\\x\1", text) if "\\udc" in text else text


class UserError(WizardError):
    """Bad input: unknown recipe, malformed recipe file, bad option value (exit 2)."""

    exit_code = ExitCode.BAD_INPUT


class OperationFailed(WizardError):
    """The operation ran and failed (exit 1)."""

    exit_code = ExitCode.FAILED


class LockHeld(WizardError):
    """Another wizard holds the state folder's lock."""

    exit_code = ExitCode.FAILED


#: The OSError's numbers in words, and what to do; the one wording every face shows (`describe_os_error`).
def open_files_limit() -> tuple[int | None, int | None]:
    """(soft, hard) `ulimit -n` of this process; None for a limit that is unlimited or cannot be read."""
    try:
        import resource  # deferred: only an error about open files needs it

        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    except (ImportError, OSError, ValueError):
        return None, None
    unlimited = getattr(resource, "RLIM_INFINITY", -1)
    return (None if soft == unlimited else soft), (None if hard == unlimited else hard)


def memory_limit_sentence() -> str:
    """Why Python could not get memory, and how to lift it: this process's address-space or data limit (`ulimit -v`,
    `ulimit -d`, which login nodes and Slurm jobs set) when one is set, else the machine's memory.

    Why: a MemoryError is the user's limit, not gc-wizard's bug — under `ulimit -v` 250000 `install` ended as "an
    error of its own (MemoryError:); this is a bug" (24th hostile pass (part A) P3). Nothing here allocates much: it
    is said after memory ran out."""
    limits = []
    try:
        import resource  # deferred: only a MemoryError needs it

        for what, flag, kind in ((resource.RLIMIT_AS, "-v", "address-space"),
                                 (resource.RLIMIT_DATA, "-d", "data")):
            soft, _hard = resource.getrlimit(what)
            if soft != resource.RLIM_INFINITY:
                limits.append(f"its {kind} limit, `ulimit {flag}`, is {soft // 1024} KB")
    except (ImportError, OSError, ValueError):
        pass
    if limits:
        return (f"gc-wizard ran out of memory under this process's limit ({'; '.join(limits)}). Raise it in the shell "
                "that runs gc-wizard (`ulimit -v unlimited`, or a larger value), or run it where more memory is "
                "allowed; then run it again.")
    return ("gc-wizard ran out of memory: this machine has no more free for it (no `ulimit -v` limit is set). Close "
            "what uses much memory, or run it on another machine; then run it again.")


def limit_sentence(number: int | None) -> str | None:
    """What an errno that is a *limit* (not a fault of a file) means and how to lift it, or None for any other errno.

    Why one place: EMFILE ("Too many open files") reached the user as "out of pty devices" (the `pty` module's
    fallback hides the errno, hostile pass P9), as "too many files are open" and as a bare strerror. It is this
    process's open-files limit, `ulimit -n`, which the user can raise; ENFILE is the whole system's table, which
    only an admin can; neither is the pseudo-terminal limit (`pty_sentence`)."""
    if number == errno.EMFILE:
        soft, hard = open_files_limit()
        now = f"`ulimit -n` is {soft}" if soft is not None else "see `ulimit -n`"
        return f"this process reached its limit of open files ({now}). {open_files_fix(soft, hard)}; then run it again"
    if number == errno.ENFILE:
        return ("the whole system ran out of open files (the kernel's table, `sysctl fs.file-max`; "
                "`cat /proc/sys/fs/file-nr` shows its use). Ask an admin to raise fs.file-max or to find what holds "
                "so many files open; then run it again")
    return None


#: Below this `ulimit -n` a child (uv, pip, Python) may fail with words that name something else: uv at 12 says
#: "Could not detect either glibc version nor musl libc version" (24th hostile pass (part A) P9).
LOW_OPEN_FILES = 64


def open_files_advice(output: str, *, low: bool = True) -> str | None:
    """The sentence for a child's failure that is the open-files limit's: its output (`output`) quotes "Too many open
    files" (`os error 24`, `[Errno 24]`; ENFILE's too), or, with `low`, this process's `ulimit -n` is below
    `LOW_OPEN_FILES`, where the child's own words may name anything else; None otherwise.

    Why (24th hostile pass (part A) P9): `lock`, `rollback` and `install` quoted a raw "[Errno 24]" or uv's
    misleading glibc message under a low `ulimit -n`, while the wizard's own sentence (`limit_sentence`) named it."""
    quoted = _CHILD_LIMIT.search(output)
    if quoted:
        sentence = limit_sentence(errno.EMFILE if quoted.group(1) else errno.ENFILE)
        return f"It stopped there because {sentence}." if sentence else None
    soft, hard = open_files_limit()
    if not low or soft is None or soft >= LOW_OPEN_FILES:
        return None
    return (f"It ran under a very low limit of open files (`ulimit -n` is {soft}), with which uv and pip fail in "
            f"words that name something else; that is the likely cause. {open_files_fix(soft, hard)}; then run it "
            "again.")


def open_files_fix(soft: int | None, hard: int | None) -> str:
    """How to lift the open-files limit `soft` (`ulimit -n`) under the hard limit `hard` (None: unlimited or not
    read): the user raises it up to the hard limit; at the hard limit, only an admin can.

    Why built from the limits: `limit_sentence` and `open_files_advice` both give this fix, and the advice took it
    out of `limit_sentence`'s text (split at its first ". "), so a new wording of that sentence would have cut the
    fix in the wrong place; and each read the limits on its own."""
    if hard is not None and soft is not None and hard <= soft:
        return (f"It is also the hard limit (`ulimit -Hn` is {hard}), so only an admin can raise it "
                "(/etc/security/limits.conf, or the job's or container's settings)")
    most = f" (the hard limit, `ulimit -Hn`, is {hard})" if hard is not None else ""
    return f"Raise it in the shell that runs gc-wizard, e.g. `ulimit -n {min(4096, hard or 4096)}`{most}"


def pty_sentence(exc: OSError) -> str:
    """Why a pseudo-terminal could not be opened, decided by the errno: the open-files limit (EMFILE, ENFILE) or the
    kernel's pty limit (ENOSPC and the like from /dev/ptmx).

    Why the errno is asked again: Python's `pty.fork`/`openpty`, which pexpect uses, swallow `os.openpty`'s error
    and fall back to BSD pty names, ending in `OSError('out of pty devices')` with no errno at all — on a machine
    with plenty of ptys and a low `ulimit -n`. Opening one pair here gives the real errno."""
    number = exc.errno
    if number is None:
        try:
            master, slave = os.openpty()
        except OSError as real:
            number = real.errno
        else:  # a pair opens now: the failure was a pty or two short of a limit that a step's closing freed
            os.close(master)
            os.close(slave)
            number = errno.EMFILE if _near_open_files_limit() else None
    limit = limit_sentence(number)
    if limit is not None:
        return limit
    if number in (errno.ENOSPC, errno.EAGAIN, errno.ENXIO, errno.EIO):
        return ("no pseudo-terminal is free: every pty behind /dev/ptmx is in use (the kernel's limit, "
                "`sysctl kernel.pty.max`; `cat /proc/sys/kernel/pty/nr` shows how many are open). Close some "
                "terminal sessions (tmux, screen, stale ssh logins), or ask an admin to raise kernel.pty.max")
    return exc.strerror or str(exc)


#: Where a standard stream's descriptor points when it is a terminal (`/proc/self/fd/N`).
_TERMINALS = ("/dev/pts/", "/dev/tty", "/dev/console")
_STREAM_WORDS = {0: "standard input", 1: "standard output", 2: "standard error"}


def vanished_terminal(fd: int) -> str | None:
    """Where descriptor `fd` pointed (`/dev/pts/0 (deleted)`) when it is a terminal that went away (its SSH connection
    dropped, its tmux or screen session killed: the pty is hung up, so a read or write there fails with EIO); None
    for anything else, a live terminal included."""
    try:
        target = os.readlink(f"/proc/self/fd/{fd}")
    except OSError:
        return None
    if not target.startswith(_TERMINALS):
        return None
    if target.endswith(" (deleted)"):
        return target
    try:
        import termios  # deferred: only an error on a stream needs it

        termios.tcgetattr(fd)  # a hung-up terminal answers EIO
    except termios.error as exc:
        return target if exc.args and exc.args[0] in (errno.EIO, errno.ENXIO) else None
    except (ImportError, OSError):
        return None
    return None


def terminal_gone_sentence(exc: BaseException, fd: int | None = None) -> str | None:
    """The sentence for an error that is the terminal going away, or None: EIO or ENXIO on descriptor `fd` (the
    stream that was read or written), or, when the caller does not know which file failed, with no file name and
    one of the standard descriptors a terminal that went away.

    Why one rule, decided by which file failed and not by the errno alone (24th hostile pass (part A) P1): a tmux
    session killed under the app, or under `remove`'s `[y/N]` question, ended on "the disk reported an input/output
    error … point GC_WIZARD_HOME at another one" — the EIO was the vanished terminal's, not the state disk's, while
    the CLI's output layer (`wizard.commands.streams`) already named the terminal; both now say this."""
    if not isinstance(exc, OSError) or exc.errno not in (errno.EIO, errno.ENXIO):
        return None
    if fd is None and exc.filename:
        return None  # a named file failed: that file's error, not the terminal's
    for one in ((fd,) if fd is not None else (0, 1, 2)):
        target = vanished_terminal(one)
        if target is not None:
            name = _STREAM_WORDS.get(one, f"descriptor {one}")
            return (f"the terminal went away ({name} was {target}: an SSH connection dropped, or a tmux or screen "
                    "session was killed). Nothing in the state folder is at fault; run gc-wizard again from a terminal "
                    "(tmux or screen keep one through a dropped connection)")
    return None


def current_folder_gone(absolute_paths: bool, undone: str = "") -> str | None:
    """The sentence for a current folder that no longer exists (deleted, or moved away, after the shell went into it),
    or None while it is there (or it cannot be told). Python's `os.getcwd()` then fails, and so does every relative
    path, `Path.absolute()` and a child that looks at its folder (uv: "Current directory does not exist").

    Why one check (34th hostile pass (part A) P1): `report --out r.txt` there said "a file system error: it does not
    exist … point GC_WIZARD_HOME at another one", which names nothing and blames the state folder, and `plan` said
    nothing, so `install` built the whole environment before uv's freeze failed on it. The OSError sentence
    (`error_sentences.describe_os_error`) and the plan (`plan.plan_install`, before anything is built) both say this.

    Why told: the one sentence said "or give absolute paths" and "Nothing was built" everywhere, and `plan` refused
    with every path absolute and builds nothing (walk 37 #5). `absolute_paths`: whether the command can go on from
    here with absolute paths (a relative `--out` can be made one; an install's tools need a current folder whatever
    the paths); `undone`: what the command would have done, said as not done ("nothing was built"), or "". The exit
    status is one for the condition, whichever command meets it: bad input (`error_exit`)."""
    try:
        os.getcwd()
    except FileNotFoundError:
        fix = ("`cd` to a folder that exists, or give absolute paths" if absolute_paths
               else "`cd` to a folder that exists (absolute paths are not enough here)")
        sentence = (f"the current folder no longer exists (it was deleted or moved away after you went into it). To "
                    f"go on, {fix}")
        return f"{sentence}. {undone[:1].upper()}{undone[1:]}" if undone else sentence
    except OSError:
        return None
    return None


def cwd_gone_sentence(exc: BaseException) -> str | None:
    """`current_folder_gone`'s sentence for an error that is the current folder being gone: ENOENT with no file name
    (`os.getcwd()`, `Path.absolute()`) or a relative one (`open("r.txt")`, which an absolute name would mend), while
    the current folder is gone; else None (a missing file with an absolute name is that file's error)."""
    if not isinstance(exc, OSError) or exc.errno != errno.ENOENT:
        return None
    if exc.filename and os.path.isabs(os.fsdecode(exc.filename)):
        return None
    return current_folder_gone(absolute_paths=True)


def _near_open_files_limit(headroom: int = 8) -> bool:
    """Does this process hold nearly as many files open as `ulimit -n` allows? (False when it cannot tell.)"""
    soft, _ = open_files_limit()
    try:
        return soft is not None and len(os.listdir("/proc/self/fd")) + headroom >= soft
    except OSError as exc:
        return exc.errno == errno.EMFILE


def os_error_words(exc: OSError) -> str:
    """An OSError's cause in words for a sentence that names the program or path itself: the limit it hit
    (`limit_sentence`) or, for anything else, the system's own words."""
    return limit_sentence(exc.errno) or exc.strerror or str(exc)


def say_on_stderr(message: str, prog: str = "gc-wizard") -> None:
    """An error's sentence on stderr as `gc-wizard: …`: the one way both faces end on an error. A control or
    format character in it (from a file or an option the message quotes) is shown as its escape, as every output
    shows them, not dropped or sent to the terminal (tenth hostile pass T1/T2). On a terminal it is wrapped to its
    width between words (walk 21 #6/#7: `recommended her` / `e)` where the terminal broke the line); into a pipe or a
    file it stays one line per line, for scripts. A failing stderr is passed over: there is nowhere left to tell."""
    try:
        text = f"{prog}: {reveal_format_characters(message)}"
        sys.stderr.write(for_terminal(text) + "\n")
        sys.stderr.flush()
    except (OSError, ValueError, WizardError):
        pass


def for_terminal(text: str, stream=None) -> str:
    """`text` wrapped to the width of the terminal `stream` (default stderr) is, between words, each of its lines
    under its own indent; as it is when `stream` is a pipe or a file (scripts read one line per line)."""
    stream = sys.stderr if stream is None else stream
    try:
        if not stream.isatty():
            return text
        columns = os.get_terminal_size(stream.fileno()).columns
    except (AttributeError, OSError, ValueError):
        return text
    from wizard.wrap import wrap  # deferred: only an error on a terminal needs it

    out: list[str] = []
    for line in text.split("\n"):
        indent = line[:len(line) - len(line.lstrip(" "))]
        out += wrap(line, columns, indent, indent + "  ") if len(line) > columns else [line]
    return "\n".join(out)


def error_exit(exc: BaseException) -> int:
    """The exit status that goes with `describe_error`'s sentence (a WizardError's own; a current folder that is gone,
    bad input as when the plan refuses it (walk 37 #5: `report` exited 1 where `plan` exited 2); else 1)."""
    if isinstance(exc, WizardError):
        return int(exc.exit_code)
    return int(ExitCode.BAD_INPUT if cwd_gone_sentence(exc) is not None else ExitCode.FAILED)
