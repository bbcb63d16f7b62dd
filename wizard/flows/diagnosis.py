"""Diagnosing a failure for `gc-wizard diagnose`: read a log of any size (keeping its last lines), read an
environment from its files, and summarise a failure nothing in the catalogue names.

The findings themselves come from `flows.session.findings_for` (the machine detected only when a finding
can use it); this module is the rest of the use case, so the face imports no stage.
"""

from __future__ import annotations

import io
import os
from collections.abc import Callable
from dataclasses import dataclass, field

from wizard.after.target import resolve_env
from wizard.children import owner_words
from wizard.errors import UserError
from wizard.flows.describe_check import finding_lines
from wizard.flows.session import findings_for
from wizard.security import one_line
from wizard.verify.diagnose import LogTail as LogTail
from wizard.verify.diagnose import Stopped, Unrecognised, stopped_run
from wizard.verify.diagnose import scan_stream as scan_stream
from wizard.verify.diagnose import unrecognised as unrecognised
from wizard.verify.inspect_env import EnvReport, inspect_env
from wizard.verify.log_text import UnpackLimit as UnpackLimit
from wizard.verify.log_text import open_log_text as open_log_text
from wizard.wrap import hanging, wrap


def inspect_env_folder(env: str) -> EnvReport:
    """What an environment folder holds (its Python need not run): the packages, their CUDA builds, the
    libraries they would load; its `context()` sharpens the log's findings."""
    return inspect_env(resolve_env(env, need_python=False).path)


#: Above this size a log's reading time is announced.
BIG_LOG_BYTES = 200_000_000
#: The most of a pasted log that is read (a paste is kilobytes; a terminal fed by a program could be endless).
PASTE_CHARS = 64 * 1024 * 1024


def _duration(seconds: float) -> str:
    """`seconds` as people say it: "8 s", "2 min"."""
    return f"{max(1, round(seconds))} s" if seconds < 90 else f"{round(seconds / 60)} min"


@dataclass(frozen=True)
class LogDiagnosis:
    """What `gc-wizard diagnose LOG` found in a log, for both faces (walk 26 #12: the app had no way to read a
    lab-mate's log): the findings (root cause first), else the failure nothing in the catalogue names, and what was
    not read (`partial`, a sentence, or None)."""

    name: str
    findings: list = field(default_factory=list)
    unknown: Unrecognised | None = None
    partial: str | None = None
    stopped: Stopped | None = None
    """A run that was stopped (Ctrl-C, the app's stop, a signal) with nothing failed in it: said as such, never as a
    clean log (walk 28 #14)."""

    @property
    def found(self) -> bool:
        """Whether the log shows a failure: a finding or an unrecognised one (exit 1, docs/interface.md). A stopped run
        is not one: nothing in it failed, and its own words say it was stopped (`Stopped`), so it is exit 0 like the
        user's own Ctrl-C it records (walk 33 #3: exit 1 beside "nothing in it failed" read as a failure)."""
        return bool(self.findings) or self.unknown is not None

    def lines(self, width: int) -> list[str]:
        """The findings in the words `diagnose` prints (and the app shows)."""
        shown = one_line(self.name)  # a newline in the file's name must not end a line of the sentence (15th pass P11)
        if self.findings:
            count = len(self.findings)
            return [*hanging(f"Found {count} problem{'s' if count != 1 else ''} in {shown} (root cause first):", width),
                    "", *finding_lines(self.findings, width)]
        unknown = self.unknown
        if unknown is None and self.stopped is not None:
            stop = self.stopped
            return [*hanging(f"{shown} is a run that was stopped, not one that failed [stopped]:", width),
                    *wrap(f"It was stopped{f' in {stop.step}' if stop.step else ''}: {stop.why}.", width, "  ", "  "),
                    *wrap("Next: " + stop.next_step, width, "  ", "  ")]
        if unknown is None:
            return hanging(f"No known problem found in {shown}.", width)
        out = [f"No known problem found in {shown}, but it shows a failure [unrecognised]:"]
        out += [f"  It failed in {unknown.step}."] if unknown.step else []
        out.append(f"  Last error: {unknown.last_error}")
        if len(unknown.lines) > 1:
            out += ["  The failing lines it saw:", *(f"    > {line}" for line in unknown.lines)]
        # Each quoted line's further rows under its "> ", the last error's under its value (walk 28 #18).
        return hanging(out, width) + wrap("Next: " + unknown.next_step, width, "  ", "  ")

    def to_dict(self) -> dict:
        data: dict = {"findings": [f.to_dict() for f in self.findings], "log": self.name}
        if self.unknown is not None:
            data["unrecognised"] = self.unknown.to_dict()
        if self.stopped is not None:
            data["stopped"] = self.stopped.to_dict()
        if self.partial:
            data["partial"] = f"{self.partial}."
        return data


def judge(scan, tail: str, said: str, limit: UnpackLimit, context=None, name: str | None = None) -> LogDiagnosis:
    """The findings of a scanned log (`findings_for`), the unrecognised failure when there is none, and what was not
    read; an empty log, or one read only in part with nothing found, is a UserError naming it (never a clean bill)."""
    findings = findings_for(scan, context=context)
    unknown = unrecognised(tail) if not findings else None
    stopped = (stopped_run(tail, next(iter(scan.named_recipes), None), scan.graphcast_given, scan.again)
               if not findings and unknown is None else None)
    # What was not read: a packing's bound or break, and the middles of overlong lines (24th hostile pass (part A) P2).
    partial = "; and ".join(part for part in (limit.partial, scan.cuts.sentence(said)) if part) or None
    if not tail and not findings and not partial:
        # Nothing at all: a clean bill for an empty file (a job whose output went elsewhere, a paste that did not take)
        # sent the user away from the cause (twenty-second hostile pass, case l3-empty).
        raise UserError(f"{said} is empty, so there is nothing to diagnose; give the log the failing run printed "
                        "(a job's output file, a notebook cell's output, or `gc-wizard report`'s file).")
    if partial and not findings and unknown is None and stopped is None:  # a log read only in part: never a clean bill for the rest
        raise UserError(f"{partial}. No known problem was found in the part read.")
    return LogDiagnosis(name=name or said, findings=findings, unknown=unknown, partial=partial, stopped=stopped)


def diagnose_file(source: str, *, context=None, on_note: Callable[[str], None] | None = None) -> LogDiagnosis:
    """`diagnose LOGFILE` and the app's "Diagnose a log": the file streamed in bounded pieces (any size; a packed one
    unpacked within `UnpackLimit`), its findings judged. A file that cannot be read is one UserError naming it;
    `on_note` hears the reading time of a big log."""
    limit, tail = UnpackLimit(), LogTail()
    try:
        with open(source, "rb") as raw:
            size = os.fstat(raw.fileno()).st_size
            handle = open_log_text(raw, source, limit)  # UTF-16, a BOM, gzip/xz/bzip2: decoded; binary: a sentence
            if size > BIG_LOG_BYTES and on_note is not None:
                # A big log takes a while, and how long depends on the machine's load and the log's shape (bench/
                # diagnose.py: 7 to 45 MB/s on an idle 2-core server; a tester's one-line 250 MB log took 130 s, 2 MB/s,
                # on a busy one, where one number said 25 s): a range, so the wait is not a mystery.
                on_note(f"reading {source} ({size / 1e6:,.0f} MB) in pieces; this takes {_duration(size / 40e6)} to "
                        f"{_duration(size / 2e6)} (longer on a busy machine)")
            scan = scan_stream(handle, tail=tail)
    except FileNotFoundError:
        if " " in source.strip():  # the error text itself, given where a file name goes
            raise UserError("LOGFILE is a file name, and no file is called that. To diagnose pasted text, "
                            "run `gc-wizard diagnose` and paste it (then Ctrl-D), or pipe it: "
                            "echo '<the error>' | gc-wizard diagnose -") from None
        raise UserError(f"cannot read the log file {one_line(source)}: there is no such file.") from None
    except IsADirectoryError:
        raise UserError(f"cannot read the log file {one_line(source)}: it is a folder; give the log file in it.") \
            from None
    except PermissionError:
        raise UserError(unreadable_log(source)) from None
    except OSError as exc:
        raise UserError(f"cannot read the log file {one_line(source)}: {exc.strerror or exc}.") from None
    return judge(scan, "".join(tail), one_line(source), limit, context, name=source)


def unreadable_log(source: str) -> str:
    """The refusal for a log this user may not read, with the two ways on: its owner sends the text, or it is pasted.

    Why: walk 27 #9 — a lab-mate's log in their own folder got "Permission denied." and nothing more; a normal user
    cannot change that, and `diagnose` reads pasted text as well as a file."""
    try:
        owner = f", which {owner_words(os.stat(source).st_uid)} owns"
    except OSError:
        owner = ""
    return (f"cannot read the log file {one_line(source)}: you may not read it{owner}. Ask its owner for the text and "
            "paste it: `gc-wizard diagnose`, paste, then Ctrl-D (in the app: d, then paste), or pipe it: "
            "`… | gc-wizard diagnose -`.")


def diagnose_pasted(text: str, *, context=None, name: str = "the pasted text") -> LogDiagnosis:
    """The same judgement for a log given as text (pasted into the app), bounded at PASTE_CHARS."""
    tail = LogTail()
    scan = scan_stream(io.StringIO(text[:PASTE_CHARS]), tail=tail)
    return judge(scan, "".join(tail), name, UnpackLimit(), context)
