"""`gc-wizard install`: the install transaction with live lines on the terminal.

The install runs in a worker thread; the main thread waits and turns Ctrl-C into the runner's
cancel event (SIGINT → SIGTERM → SIGKILL to the installer's process group), then exits 130.
With `--json` the live lines go to stderr so the last stdout line stays the JSON object.
"""

from __future__ import annotations

import argparse
import signal
import sys
import threading
from pathlib import Path

from wizard.commands.output import emit_json, warn
from wizard.errors import UserError
from wizard.install import InstallEvents, InstallOptions, run_install


class TerminalEvents(InstallEvents):
    def __init__(self, out, *, assume_yes: bool) -> None:
        self.out = out
        self.assume_yes = assume_yes

    def _say(self, text: str) -> None:
        self.out.write(text + "\n")
        self.out.flush()

    def plan_ready(self, plan) -> None:
        self._say(f"==> Installing {plan.recipe.id} into {plan.env_dir} ({plan.installer}, {plan.mode} environment)")
        for note in plan.notes:
            self._say(f"    note: {note}")

    def step_started(self, step) -> None:
        self._say(f"==> {step.title}")

    def line(self, step, text: str) -> None:
        self._say(f"    {text}")

    def step_finished(self, step, result) -> None:
        state = "done" if result.ok else ("stopped" if result.cancelled else "FAILED")
        self._say(f"    [{state} in {result.seconds:.1f} s]")

    def prompt(self, step, text: str) -> str | None:
        if self.assume_yes or not sys.stdin.isatty():
            warn(f"the installer asks {text!r} and no rule answers it; run without --yes on a terminal to "
                 "answer it yourself.")
            return None
        try:
            return input(f"    {text} ")
        except EOFError:
            return None

    def verify_started(self) -> None:
        self._say("==> Checking that GraphCast runs (a real jit init)")

    def verify_tier(self, tier: dict) -> None:
        mark = "skip" if tier.get("skipped") else ("ok" if tier.get("ok") else "FAILED")
        extra = f", {tier['param_count']:,} parameters" if tier.get("param_count") else ""
        self._say(f"    {tier['name']}: {mark} ({tier.get('seconds', 0):.1f} s{extra})")

    def message(self, text: str) -> None:
        self._say(f"    {text}")


def _options(args: argparse.Namespace) -> InstallOptions:
    if not args.recipe:
        raise UserError("Which recipe? Give one (see `gc-wizard recipes`) or --answers FILE.")
    return InstallOptions(
        recipe_id=args.recipe, env=Path(args.env) if args.env else None, installer=args.installer,
        find_links=list(args.find_links or []), offline=args.offline, graphcast_src=args.graphcast_src,
        verify=not args.no_verify, level=args.level, assume_yes=args.yes,
        recipes_dirs=list(args.recipes_dir or []))


def run(args: argparse.Namespace) -> int:
    if getattr(args, "answers", None):
        from wizard.answers import replay_args
        from wizard.recipes import load_recipes

        args = replay_args(args, load_recipes(args.recipes_dir))
    options = _options(args)
    if getattr(args, "save_answers", None):
        from wizard.answers import save_args

        save_args(args.save_answers, args, recipe=options.recipe_id)

    events = TerminalEvents(sys.stderr if args.json else sys.stdout, assume_yes=args.yes)
    cancel = threading.Event()
    outcome: dict = {}

    def work() -> None:
        try:
            outcome["result"] = run_install(options, events, cancel)
        except BaseException as exc:  # handed to the main thread, which knows how to report it
            outcome["error"] = exc

    worker = threading.Thread(target=work, name="install", daemon=True)
    previous = signal.signal(signal.SIGINT, lambda *_: cancel.set())
    previous_hup = signal.signal(signal.SIGHUP, lambda *_: cancel.set())
    try:
        worker.start()
        while worker.is_alive():
            worker.join(0.2)
    finally:
        signal.signal(signal.SIGINT, previous)
        signal.signal(signal.SIGHUP, previous_hup)
    if "error" in outcome:
        raise outcome["error"]
    result = outcome["result"]
    if args.json:
        emit_json(result.to_dict())
    elif result.ok:
        print(f"\n{result.status.capitalize()}: {result.recipe} in {result.env} ({result.seconds:.0f} s); it is "
              "now the current environment.")
        print('Next: eval "$(gc-wizard activate)"    # use it in this shell')
        print("      gc-wizard kernel install         # use it in Jupyter")
        print(f"Log: {result.log}")
    elif result.cancelled:
        print(f"\nCancelled. Your current environment is untouched. Log: {result.log}", file=sys.stderr)
    else:
        print(f"\nInstall failed: {result.error}\nYour current environment is untouched.", file=sys.stderr)
    if result.cancelled:
        return 130
    return 0 if result.ok else 1
