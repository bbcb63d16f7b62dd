"""`gc-wizard history`, `rollback` and `remove`: the record, the way back, and explicit clean-up."""

from __future__ import annotations

import argparse
from pathlib import Path

from wizard.commands.output import confirm, emit_json, say, warn


def run_history(args: argparse.Namespace) -> int:
    from wizard.envs import disk_usage
    from wizard.history import load_history

    history = load_history()
    for text in history.warnings:
        warn(text)
    rows = []
    for entry in history.entries:
        data = entry.to_dict()
        env = Path(entry.env)
        data["env_exists"] = env.is_dir()
        data["disk_bytes"] = disk_usage(env) if entry.kind == "install" and env.is_dir() else 0
        rows.append(data)
    if args.json:
        emit_json(rows)
        return 0
    if not rows:
        say("No installs yet. Start with `gc-wizard` or `gc-wizard install RECIPE`.")
        return 0
    say(f"  {'id':22} {'kind':8} {'status':9} {'disk':>8}  recipe / environment")
    for row in rows:
        mark = "●" if row["current"] else " "
        disk = f"{row['disk_bytes'] / 2**30:.2f}G" if row["disk_bytes"] else ("gone" if not row["env_exists"] else "-")
        say(f"{mark} {row['id']:22} {row['kind']:8} {row['status']:9} {disk:>8}  {row['recipe']}")
        say(f"  {'':22} {'':8} {'':9} {'':>8}  {row['env']}")
        if row.get("error"):
            say(f"  {'':22} {'':8} {'':9} {'':>8}  ! {row['error'].splitlines()[0]}")
    say("\n● current. Go back with `gc-wizard rollback [ID]`; delete an old one with `gc-wizard remove ID`.")
    return 0


def run_rollback(args: argparse.Namespace) -> int:
    from wizard.rollback import rollback

    def ask(lines: list[str]) -> bool:
        for line in lines:
            print(line)
        return confirm("Roll back to the target environment?", assume_yes=args.yes)

    result = rollback(args.entry_id, verify=not args.no_verify, confirm=ask)
    if args.json:
        emit_json(result.to_dict())
    elif result.ok:
        say(f"Rolled back: {result.env} is current again"
            + (" (rebuilt from its frozen package set)" if result.rebuilt else "")
            + (" (packages restored)" if result.restored else "") + ".")
    else:
        warn(f"Rollback failed: {result.error}")
    return 0 if result.ok else 1


def run_remove(args: argparse.Namespace) -> int:
    from wizard.rollback import remove

    result = remove(args.entry_id, confirm=lambda q: confirm(q, assume_yes=args.yes))
    if args.json:
        emit_json(result)
    else:
        say(f"Removed {result['env']} ({result['freed_bytes'] / 2**30:.2f} GiB freed).")
    return 0
