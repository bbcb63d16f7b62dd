"""The one or two sentences for an error the faces end on: an OSError's path, what is wrong with it and what to do
(`describe_os_error`), a WizardError's own text, and gc-wizard's own bug with its traceback kept in a crash log
(`internal_error`). Both faces say them (`describe_error`), so the words are built once.

Why apart from `wizard.errors`: these sentences name the state folder (`paths`) and a full disk's file system
(`full_disk`), while every module, `paths` among them, raises the errors defined there; kept together they made a
circle of imports at the bottom of the package.
"""

from __future__ import annotations

import errno
import os

from wizard import paths
from wizard.errors import (
    WizardError,
    cwd_gone_sentence,
    limit_sentence,
    memory_limit_sentence,
    terminal_gone_sentence,
)
from wizard.security import cut, make_folders, redact_secrets, shown_path, write_private_file

_FAULTS = {
    errno.ENOSPC: "the disk is full",
    errno.EDQUOT: "your disk quota is used up",
    errno.EROFS: "it is on a read-only file system",
    errno.EACCES: "you do not have permission to write there",
    errno.EPERM: "the system does not let you change it (its owner or permissions, or an immutable flag, which "
                 "`lsattr` shows)",
    errno.ENOTDIR: "a part of that path is a file, not a folder",
    errno.EEXIST: "something that is not a folder is already there",
    errno.EISDIR: "it is a folder where a file was expected",
    errno.ENOENT: "it does not exist",
    errno.ELOOP: "it is a loop of symbolic links",
    errno.ENAMETOOLONG: "the path is too long",
    errno.EIO: "the disk reported an input/output error",
}
#: The fixes for a path in the state folder: GC_WIZARD_HOME moves the whole state elsewhere.
_FIXES = {
    errno.ENOSPC: "free some space there, or point GC_WIZARD_HOME at another disk",
    errno.EDQUOT: "free some space there, or point GC_WIZARD_HOME at another disk",
    errno.EROFS: "point GC_WIZARD_HOME at a writable folder",
    # Every folder of the state is yours (`ensure_state_dir` refuses another user's), so `chmod u+w` is yours to run;
    # never "fix its owner", which needs root (walk 27 #5).
    errno.EACCES: "give yourself write there (chmod u+w), or point GC_WIZARD_HOME at a folder of your own",
    errno.EPERM: "give yourself write there (chmod u+w), or point GC_WIZARD_HOME at a folder of your own",
    errno.ENOTDIR: "move that file away, or point GC_WIZARD_HOME elsewhere",
    errno.EEXIST: "move it away, or point GC_WIZARD_HOME elsewhere",
}
#: The fixes for any other path (an --out, a source, a wheelhouse): GC_WIZARD_HOME moves none of those, so it is
#: never offered for them (fourth hostile pass L2: a read-only `lock --out` was told to move GC_WIZARD_HOME).
_OTHER_FIXES = {
    errno.ENOSPC: "free some space there, or choose a folder on another disk",
    errno.EDQUOT: "free some space there, or choose a folder on another disk",
    errno.EROFS: "choose a folder on a writable disk",
    errno.EACCES: "fix its owner or permissions, or choose a folder of your own",
    errno.EPERM: "fix its owner or permissions, or choose a folder of your own",
    errno.ENOTDIR: "move that file away, or choose another path",
    errno.EEXIST: "move it away, or choose another path",
}


def describe_os_error(exc: OSError) -> str:
    """One or two sentences for an OSError: which path, what is wrong with it, what to do (the state folder's
    fix only for a path in the state folder)."""
    gone = terminal_gone_sentence(exc)
    if gone is not None:  # the terminal's EIO, not the disk's (24th hostile pass (part A) P1)
        return f"{gone[0].upper()}{gone[1:]}."
    cwd_gone = cwd_gone_sentence(exc)
    if cwd_gone is not None:  # the current folder's, not the state folder's (34th hostile pass (part A) P1)
        return f"{cwd_gone}."
    limit = limit_sentence(exc.errno)
    if limit is not None:  # not the file's fault: the same limit whatever path was being opened
        return f"cannot open {shown_path(exc.filename)}: {limit}." if exc.filename else f"{limit[0].upper()}{limit[1:]}."
    where = exc.filename or ""
    if exc.errno in (errno.ENOSPC, errno.EDQUOT) and exc.filename2:
        # a copy's `sendfile` names its source first and the file it was writing second: the full disk is the
        # second's (38th hostile pass (part A) P4)
        where = exc.filename2
    what = _FAULTS.get(exc.errno or 0, exc.strerror or str(exc))
    if exc.errno in (errno.EEXIST, errno.ENOTDIR) and where and os.path.isfile(where):
        what = "it is a file, not a folder"
    state = str(paths.state_dir())
    fix_files = None
    if exc.errno == errno.ENOSPC and where:
        from wizard.full_disk import (  # deferred: only a full disk needs it
            NO_FILES,
            NO_FILES_FIX,
            out_of_files,
        )

        if out_of_files(os.path.dirname(str(where).rstrip("/")) or "/"):  # room, but no inode left (22nd pass P5)
            what, fix_files = NO_FILES, NO_FILES_FIX
        else:
            from wizard.full_disk import rewrite_needs  # deferred: only a full disk needs it

            what = rewrite_needs(str(where)) or what
    if exc.errno in (errno.ENOSPC, errno.EDQUOT) and where and str(where).startswith(state):
        from wizard.full_disk import through_a_link  # deferred: only a full disk needs it

        linked = through_a_link(str(where), state)
        if linked:  # `logs -> /scratch/…`: the disk that is full is the link's, not the state folder's
            return f"cannot write {shown_path(where)}: {what} — {linked}. To go on, free some space there, or point that link " \
                   "at a folder on another disk."
    if where and str(where).startswith(state):
        fix = _FIXES.get(exc.errno or 0, "check the folder, or point GC_WIZARD_HOME at another one")
        fix = f"{fix_files}, or point GC_WIZARD_HOME at another disk" if fix_files else fix
        inside = "" if str(where).rstrip("/") == state.rstrip("/") else f" ({shown_path(where)})"
        return f"cannot use the state folder {shown_path(state)}: {what}{inside}. To go on, {fix}."
    if where:
        fix = f"{fix_files}, or choose a folder on another disk" if fix_files else _OTHER_FIXES.get(exc.errno or 0,
                                                                                                   "check that path")
        if exc.errno in (errno.ENOSPC, errno.EDQUOT):
            from wizard.full_disk import disk_words  # deferred: only a full disk needs it

            what = f"{what} — {disk_words(where)}"  # the disk of the file being written (38th pass (A) P4)
        return f"cannot use {shown_path(where)}: {what}. To go on, {fix}."
    fix = _FIXES.get(exc.errno or 0, "check the folder, or point GC_WIZARD_HOME at another one")
    if exc.errno in (errno.ENOSPC, errno.EDQUOT):
        # A write through an open file names no path (sixteenth hostile pass P8): the places it can only have gone
        # to are looked at where they really are (a state folder's `logs` may be a link to another disk,
        # twenty-first pass P8), and the full one is named.
        from wizard.full_disk import full_disk_words  # deferred: only a full disk needs it

        where_full, fix = full_disk_words(what)
        return f"a file system error: {where_full}. To go on, {fix}."
    return f"a file system error: {what}. To go on, {fix}."


def describe_error(exc: BaseException) -> str:
    """The sentence every face shows for an error the product can name: a WizardError's own text, an OSError's
    path and fix (`describe_os_error`), a MemoryError's limit (`memory_limit_sentence`: the user's `ulimit -v`, not a
    bug; 24th hostile pass (part A) P3); anything else is gc-wizard's own bug (`internal_error`)."""
    if isinstance(exc, WizardError):
        return str(exc)
    if isinstance(exc, OSError):
        return describe_os_error(exc)
    if isinstance(exc, MemoryError):
        return memory_limit_sentence()
    return internal_error(exc)


def stopped_words(exc: BaseException) -> str:
    """What a history entry and its closing line say of an error that stopped a transaction (install, rollback):
    a refusal's or an OSError's own sentence, with no exception class in it; only gc-wizard's own bug is named as
    one ("an error of its own (KeyError: …)"), as `internal_error` names it.

    Why: 27th hostile pass (part B) P9 — a rollback's refusal of an edited package set was recorded and printed as
    "the wizard stopped with an error (UserError: package 3 of entry …)", an internal name worded as a crash."""
    if isinstance(exc, WizardError):
        return f"refused: {str(exc).strip()}"
    return error_words(exc, lead="the wizard stopped on ")


def error_words(exc: BaseException, *, lead: str = "") -> str:
    """An error in words for a line that goes on (a report's section, a stopped step): a WizardError's own text, an
    OSError's path and fix, a MemoryError's limit; only gc-wizard's own bug is named by its class, as one
    (`lead` + "an error of its own (KeyError: …), a bug"). 27th hostile pass (part B) P9: no internal class name
    in a line about the user's input or the machine."""
    if isinstance(exc, WizardError):
        return str(exc).strip()
    if isinstance(exc, OSError):
        return describe_os_error(exc)
    if isinstance(exc, MemoryError):
        return memory_limit_sentence()
    return f"{lead}an error of its own ({cut(f'{type(exc).__name__}: {exc}'.strip(), 300)}), a bug"


def internal_error(exc: BaseException) -> str:
    """The sentence for an error gc-wizard did not expect (its own bug), with the traceback kept in a log
    (`logs/crash-….log`): the CLI's last word and the app's alike, never a traceback on the terminal."""
    import traceback  # deferred: only a crash needs it, and this module is read at every start

    what = f"{type(exc).__name__}: {exc}".strip()
    try:
        log = paths.new_log("crash")
        make_folders(log.parent)
        # 0600 as every log the wizard writes (fifteenth hostile pass M1: the crash log alone was 0644)
        write_private_file(log, redact_secrets("".join(traceback.format_exception(exc))))
        where = f" The details are in {log}."
    except Exception:  # no crash log (no state folder, no home): the sentence still comes (32nd pass (part A) P2)
        where = ""
    return (f"gc-wizard stopped on an error of its own ({cut(what, 300)}); this is a bug, nothing was "
            f"changed by it.{where} `gc-wizard report` gathers what a maintainer needs.")
