"""`gc-wizard history`, `rollback` and `remove`: the record, the way back, and explicit clean-up.

Handlers only render: the decisions live in `wizard.history.store` and `wizard.flows.rollback`.
"""

from __future__ import annotations

import argparse
import sys
import threading
from typing import Any

from wizard.commands import options
from wizard.commands.cluster_options import slurm_target
from wizard.commands.install import TerminalEvents
from wizard.commands.output import confirm, emit_json, fit, say, warn, width, wrapped
from wizard.errors import ExitCode, UserError, WizardError
from wizard.flows.describe import rollback_lines
from wizard.flows.history import (
    disk_total_words,
    disk_words,
    entry_traits,
    error_words,
    history_rows,
    installers_of,
    log_words,
    no_installs_words,
    read_history,
    size_words,
    status_cell,
)
from wizard.flows.rollback import can_go_back, remove, rollback
from wizard.paths import wizard_command
from wizard.security import one_line
from wizard.wrap import hanging

#: rollback's `--slurm`: where its GraphCast check runs, and what it does without it (walk 28 #9).
ROLLBACK_SLURM_HELP = ("run the GraphCast check on a GPU node through srun (the cluster's default partition, or "
                       "PARTITION); default: where the target's install was checked (through the same srun options "
                       "when that was on a node), else here")


def run_history(args: argparse.Namespace) -> int:
    rows, total, warnings = history_rows()
    for text in warnings:
        warn(text)
    if args.json:
        emit_json(rows)
        return 0
    if not rows:
        say(no_installs_words())
        return 0
    for line in history_table(rows, total, width()):
        say(line)
    return 0


def _one_line_fields(row: dict[str, Any]) -> dict[str, Any]:
    """The row's text fields (and its lock's) as one line each: a newline in an edited history.json's `started` or
    `lock` made rows of its own (tenth hostile pass T10, L33). The error keeps its lines: its first is shown."""
    out = {k: one_line(v) if isinstance(v, str) and k != "error" else v for k, v in row.items()}
    if isinstance(row.get("lock"), dict):
        out["lock"] = {k: one_line(v) if isinstance(v, str) else v for k, v in row["lock"].items()}
    if isinstance(row.get("error"), str) and row["error"]:
        out["error"] = one_line(row["error"].splitlines()[0])
    return out


def history_table(rows: list[dict[str, Any]], total: int, columns: int) -> list[str]:
    """The human history: one row of short fixed columns per entry (fits 80 columns), then its recipe
    and environment, and why it failed, indented below. Ids and paths are never cut: they are for copying."""
    id_width = max(2, *(len(row["id"]) for row in rows))
    out = [f"  {'id':{id_width}}  {'kind':8}  {'status':10}  {'disk':>9}  started"]
    for original in rows:
        row = _one_line_fields(original)
        mark = "●" if row["current"] else " "
        status = status_cell(row["status"], row.get("env_status") or "") + ("*" if row.get("interrupted") else "")
        started = (row.get("started") or "")[:16].replace("T", " ")
        out.append(f"{mark} {row['id']:{id_width}}  {row['kind']:8}  {status:10}  {disk_words(row):>9}  {started}")
        what = row["recipe"] + (f" ({row['installer']})" if row.get("installer") else "")
        if len(f"    {what}  {row['env']}") <= columns:
            out.append(f"    {what}  {row['env']}")
        else:
            out += [f"    {what}", f"    {row['env']}"]
        built = [f"from the lock {row['lock']['path']}" if isinstance(row.get("lock"), dict) else "",
                 f"from the bundle {row['bundle']}" if row.get("bundle") else "",
                 f"checked on node {(row.get('verify') or {}).get('node')}"
                 if (row.get("verify") or {}).get("node") else "",
                 entry_traits(row, when=False) or ""]
        if row.get("bundle"):
            built[0] = ""  # a bundle's lock is part of it
        # one row each, wrapped between words: a path is not broken, and one longer than a row has a row of its own
        out += [row for b in built if b for row in wrapped(b, columns, "    ", "    ")]
        error = error_words(row, row.get("env_status") or "")  # verified since: said so (walk 24 #8)
        if error and not row["current"]:  # up to three rows: a stop's last words say what was removed
            mark = "" if (row.get("env_status") or "").startswith("verified") else "! "
            why = wrapped(f"{mark}{error}", columns, "    ", "      ")
            rest = " ".join(line.strip() for line in why[2:])  # the third row holds the rest, cut to fit
            out += why[:2] + ([fit(f"      {rest}", columns)] if rest else [])
        log = log_words(original.get("log"))  # walk 38 #4: as --json and the app name it; a path is never broken
        out += wrapped(log, columns, "    ", "    ") if log else []
    out.append("")
    # Each legend and command only where it has something to act on (walk 37 #7: with only a cancelled entry the
    # "● current" legend and "Delete an old one" were printed for nothing current or deletable).
    legend = [*(["● current"] if any(r["current"] for r in rows) else []),
              *(["* interrupted (a wizard stopped mid-way)"] if any(r.get("interrupted") for r in rows) else [])]
    out += ["   ".join(legend)] if legend else []
    out += wrapped(disk_total_words(total, installers_of(rows)), columns)
    me = wizard_command()
    try:
        back = can_go_back(read_history())
    except WizardError:
        back = False
    # `rollback` without an id goes back to the previous working environment (`can_go_back` says there is one) and
    # asks first: a line that runs as pasted (walk 37 #7: `rollback [ID]` pasted said "no history entry '[ID]'").
    out += [f"Go back:           {me} rollback"] if back else []
    if any(r["kind"] == "install" and not r["current"] and r.get("env_exists") for r in rows):
        out += [f"Delete an old one: {me} remove ID"]
    return out


def run_rollback(args: argparse.Namespace) -> int:
    cancel = threading.Event()
    out = sys.stderr if args.json else sys.stdout

    def ask(lines: list[str]) -> bool:
        # Laid out by the core's wrap, each row under its value ("target : …"), not cut at the terminal's edge
        # mid-word ("· insta" / "lled", walk 33 #5).
        for line in hanging(lines, width()):
            out.write(line + "\n")
        out.flush()
        # Ctrl-C, SIGTERM and SIGHUP raise in this thread (wizard.commands.guard): the rollback records
        # itself as cancelled, stops what it runs and leaves the current environment current.
        return confirm("Roll back to the target environment?", assume_yes=args.yes)

    # The restore steps' lines, the check's tiers and the rollback's messages, as `install` shows them.
    events = TerminalEvents(out, assume_yes=True, cancel=cancel, as_json=args.json)
    if args.entry_id is not None and not args.entry_id.strip():
        # `rollback ''` (an empty variable in a script) must not mean "the previous one" (seventh hostile pass 11c)
        raise UserError("ENTRY_ID is empty; give an id from `gc-wizard history`, or leave it out to roll back to "
                        "the previous working environment.")
    result = rollback(args.entry_id, verify=not args.no_verify, level=getattr(args, "level", None) or "notebook",
                      cancel=cancel, confirm=ask, events=events, slurm=slurm_target(args))
    if args.json:
        emit_json(result.to_dict())
    elif result.ok:
        say("\n".join(rollback_lines(result)))
    else:
        warn("\n".join(rollback_lines(result)))
    if result.cancelled:
        return ExitCode.CANCELLED
    return 0 if result.ok else 1


def run_remove(args: argparse.Namespace) -> int:
    result = remove(args.entry_id, confirm=lambda q: confirm(q, assume_yes=args.yes),
                    progress=warn if args.json else say)
    if args.json:
        emit_json(result)
    else:
        if result.get("note"):
            say(f"Removed: {result['note']}. Its history entry stays.")
        else:
            say(f"Removed {result['env']} ({size_words(result['freed_bytes'])} freed). Its history entry stays.")
        for line in result.get("also", []):  # the kernels and module files that ran it (24th pass B P4)
            say(line)
    return 0


def configure(sub) -> list[argparse.ArgumentParser]:
    history = options.add_command(sub, "history", "every install, verify and rollback, with the current "
                                  "environment marked", "gc-wizard history --json", run_history)
    options.json_option(history)
    back = options.add_command(sub, "rollback", "make a previous working environment current again, then verify it",
                               "gc-wizard rollback", run_rollback)
    back.add_argument("entry_id", metavar="ENTRY_ID", nargs="?",
                      help="the history entry to go back to (default: the environment current before this one)")
    options.yes_option(back)
    back.add_argument("--no-verify", action="store_true", help="skip the GraphCast check after rolling back")
    options.level_option(back)
    options.slurm_options(back, what=ROLLBACK_SLURM_HELP)
    options.json_option(back)
    remove = options.add_command(sub, "remove", "delete a managed environment that is not current (asks first)",
                                 "gc-wizard remove 20261121-101500-cpu", run_remove)
    remove.add_argument("entry_id", metavar="ENTRY_ID", help="the history entry whose environment to delete")
    options.yes_option(remove)
    options.json_option(remove)
    return [history, back, remove]
