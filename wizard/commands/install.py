"""`gc-wizard install`: the install transaction with live lines on the terminal.

The install runs in a worker thread; the main thread waits, asks the installer's unforeseen questions
on the terminal (there Ctrl-C can interrupt them), and turns Ctrl-C or a hang-up into the runner's
cancel event (SIGINT → SIGTERM → SIGKILL to the installer's process group), then exits 130.
With `--json` the live lines go to stderr so the last stdout line stays the JSON object.
"""

from __future__ import annotations

import argparse
import getpass
import queue
import signal
import sys
import threading
import time
from typing import TYPE_CHECKING

from wizard.children import stop_all
from wizard.commands import guard, options
from wizard.commands.cluster_options import job_reporter, where_line
from wizard.commands.options import install_options
from wizard.commands.output import ask_line, emit_json, warn, width, wrapped
from wizard.errors import (
    UserError,
    WizardError,
    stop_for_signal,
    stop_keeping_install,
    stop_signal,
    stop_words,
    terminal_gone_sentence,
)
from wizard.flows.after_install import replay_answers, save_answers
from wizard.flows.describe_check import CHECK_TITLE, check_ran_words, stopping_words
from wizard.flows.history import current_env
from wizard.flows.machine import machine_facts
from wizard.flows.next_lines import next_lines
from wizard.flows.options import InstallOptions
from wizard.flows.results import untouched_words
from wizard.flows.session import plan_for, survey
from wizard.flows.transaction import (
    InstallEvents,
    await_answer,
    quiet_stretch_words,
    refuse_before_node,
    run_install,
)
from wizard.security import is_secret_question, redact_secrets, strip_terminal_escapes

if TYPE_CHECKING:
    from wizard.flows.types import Tier


class TerminalEvents(InstallEvents):
    def __init__(self, out, *, assume_yes: bool, cancel: threading.Event | None = None, as_json: bool = False) -> None:
        self.out = out
        self.assume_yes = assume_yes
        self.cancel = cancel or threading.Event()
        self.questions: queue.Queue = queue.Queue()
        self.in_check = False
        # a queued check's wait, redrawn in place on a terminal (not beside --json): walk 28 #10
        self._job_reporter = job_reporter(out, "    ", as_json=as_json)

    def _say(self, text: str) -> None:
        self.out.write(redact_secrets(text, keep_user=True) + "\n")
        self.out.flush()

    def _prose(self, text: str, indent: str = "    ") -> None:
        """The wizard's own sentence, wrapped between words to the terminal (`output.wrapped`, the core's one wrap).
        Why: walk 33 #5 — written as one line, the terminal cut it at column 80 mid-word ("nothing is s" / "tuck.").
        The installer's own lines (`line`) stay as it printed them, for the log and for copying."""
        for row in wrapped(text, width(), indent):
            self._say(row)

    def announce(self, plan) -> None:
        """The plan about to run (the one `gc-wizard plan` prints for the same options), once nothing refused it."""
        self._say(f"==> Installing {plan.recipe.id} into {plan.env_dir} ({plan.installer}, {plan.mode} environment)")
        if plan.unchecked:  # walk 26 #9: a kept, unchecked install of this recipe that a check could make usable
            self._prose(f"! {plan.unchecked}", "    ")
        for note in plan.notes:
            self._prose(f"note: {note}", "    ")

    def step_started(self, step) -> None:
        self._say(f"==> {step.title}")

    def job_state(self, state) -> None:
        """The check's Slurm job, as `detect --slurm` says it: each change, and the wait once a minute."""
        self._job_reporter(state)

    def line(self, step, text: str) -> None:
        self._say(f"    {text}")
        quiet = quiet_stretch_words(text)
        if quiet:
            self._prose(f"({quiet})")

    def step_finished(self, step, result) -> None:
        # Walk 28 #13: "[stopped in 5.9 s]" read as how long stopping took; it is how long the step had run.
        state = "done in" if result.ok else ("stopped after" if result.cancelled else "FAILED in")
        self._say(f"    [{state} {result.seconds:.1f} s]")

    def prompt(self, step, text: str) -> str | None:
        if self.assume_yes or not sys.stdin.isatty():
            warn(f"the installer asks {text!r} and no rule answers it; run without --yes on a terminal to "
                 "answer it yourself.")
            return None
        # Asked on the main thread (see `run`), where Ctrl-C can interrupt the question.
        reply: queue.Queue = queue.Queue()
        self.questions.put((text, reply))
        return await_answer(reply, self.cancel)

    def verify_started(self) -> None:
        self.in_check = True  # a Ctrl-C from now on stops the check, and `--keep-unchecked` may keep the env
        self._say(f"==> {CHECK_TITLE}")

    def verify_tier(self, tier: Tier) -> None:
        mark = {"passed": "ok", "failed": "FAILED", "not_run": "not run"}.get(tier.status, tier.status)
        count = tier.details.get("param_count")
        extra = f", {count:,} parameters" if count else ""
        if tier.status in ("skipped", "not_run") and tier.reason:
            extra += f"; {tier.reason}"
        self._prose(f"{tier.name}: {mark} ({tier.seconds or 0:.1f} s{extra})")

    def verify_tier_start(self, words: str) -> None:
        self._prose(words)

    def message(self, text: str) -> None:
        self._prose(text)


def _ask(text: str, asking: threading.Event) -> str | None:
    """Ask the installer's question on the terminal; None when the user presses Ctrl-C or Ctrl-D."""
    asking.set()
    text = strip_terminal_escapes(text)
    try:
        if is_secret_question(text):
            return getpass.getpass(f"    {text} ")  # not echoed; the runner keeps secrets out of the log
        return ask_line(f"    {text} ")  # never on stdout: `install --json`'s last line stays JSON (walk 27 #1)
    except (EOFError, KeyboardInterrupt):
        return None
    except OSError as exc:
        # The terminal went away while the question waited (24th hostile pass (part A) P1): no answer, as Ctrl-D
        # gives, so the install ends the way a declined question ends it, its own clean-up run — not an EIO that
        # left the worker waiting and was said as the state disk's.
        if terminal_gone_sentence(exc, 0) or terminal_gone_sentence(exc):
            return None
        raise
    finally:
        asking.clear()


def check_on_node(options: InstallOptions, out, cancel: threading.Event | None = None, as_json: bool = False) -> None:
    """`--slurm`: detect on a GPU node (before the install, after the refusals this machine can make on its own,
    `refuse_before_node`), say what it has, and refuse a recipe that cannot run there."""
    target = options.slurm
    out.write(f"==> Detecting the GPU node through srun ({' '.join(target.srun('gc-wizard-detect')[1:])})\n")
    facts = machine_facts(target, on_line=lambda line: out.write(f"    {line}\n"), cancel=cancel,
                          on_state=job_reporter(out, "    ", as_json=as_json))
    out.write(f"    {where_line(facts)}\n")
    gpus = ", ".join(sorted({g.name for g in facts.gpus})) or "no GPU"
    driver = (f"driver {facts.driver.version} (CUDA {facts.driver.cuda_driver_version})" if facts.driver
              else "no NVIDIA driver")
    out.write(f"    {driver}; {gpus}\n")
    out.flush()
    matches = survey(options.recipes_dirs, facts=facts, local=False).matches  # the node's, not this machine's Pythons
    match = next((m for m in matches if m.recipe.id == options.recipe_id), None)
    if match is not None and not match.compatible:
        raise UserError(f"recipe {options.recipe_id} does not fit node {facts.host or '?'}: "
                        + "; ".join(match.reasons[:3]) + ". See `gc-wizard recipes --slurm`.")


#: How long after a stop signal a second one still waits for the install to end; past it, the second leaves at once.
STOP_GRACE_SECONDS = 10.0


def run(args: argparse.Namespace) -> int:
    options = install_options(args)
    if getattr(args, "answers", None):
        options = replay_answers(options, args.answers)
    if not options.recipe_id:
        raise UserError("Which recipe? Give one (see `gc-wizard recipes`) or --answers FILE.")
    if getattr(args, "save_answers", None):
        masked = save_answers(args.save_answers, options)
        if masked:
            warn(masked)

    # Asked while the install runs, for the "Next:" lines' forecast (walk 21 #4); --json prints none.
    from wizard.flows.forecast_reach import AssetsReach

    reach = None if args.json else AssetsReach()
    cancel = threading.Event()
    events = TerminalEvents(sys.stderr if args.json else sys.stdout, assume_yes=args.yes, cancel=cancel,
                            as_json=args.json)
    outcome: dict = {}
    asking = threading.Event()

    keep = bool(getattr(args, "keep_unchecked", False))

    stopped_at: list[float] = []  # when the first stop signal set `cancel`

    def on_signal(signum: int, _frame: object) -> None:
        if stopped_at and time.monotonic() - stopped_at[0] >= STOP_GRACE_SECONDS and worker.is_alive():
            # Asked again, and the install has not ended since the first signal: a worker blocked in a call that
            # never returns (35th hostile pass (part A) P6: open() on a FIFO) must not keep the process alive.
            print(f"gc-wizard: the install did not end within {STOP_GRACE_SECONDS:.0f} s of the first stop; "
                  "leaving it now (what it was doing is left unfinished)", file=sys.stderr, flush=True)
            raise KeyboardInterrupt  # "cancelled.", exit 128 + the first signal's number (`guard.signal_exit`)
        in_check = events.in_check
        if not cancel.is_set():  # said at once, before the processes are ended (walk 26 #8)
            print(f"gc-wizard: {stopping_words(in_check, keep and signum == signal.SIGINT)}", file=sys.stderr,
                  flush=True)
        if keep and in_check and signum == signal.SIGINT and not cancel.is_set():
            stop_keeping_install(cancel)  # the app's "Stop, keep it unchecked": the one decision, `keeps_install`
            stop_all()
            return
        guard.note_signal(signum)  # the exit status says which: 128 + its number (130, 143, 129, 138, …)
        stop_for_signal(cancel, signum)  # and the record and the last sentence name it (`stop_words`)
        stopped_at[:1] = stopped_at[:1] or [time.monotonic()]
        stop_all()  # planning may be waiting on a hung interpreter's version probe
        if asking.is_set():  # break out of input(): the question is moot now
            raise KeyboardInterrupt

    def work() -> None:
        try:
            # Planned here, in the worker, so a signal can stop a hung interpreter probe; the plan
            # announced is the plan that runs.
            plan = plan_for(options)
            if options.slurm is not None:  # a node is asked for only once nothing here refuses (walk 28 #11)
                refuse_before_node(plan, options, cancel)
                check_on_node(options, sys.stderr if args.json else sys.stdout, cancel, as_json=args.json)
            outcome["result"] = run_install(plan, options, events, cancel)
        except BaseException as exc:  # handed to the main thread, which knows how to report it
            outcome["error"] = exc

    worker = threading.Thread(target=work, name="install", daemon=True)
    previous = {sig: signal.signal(sig, on_signal) for sig in guard.SIGNALS}
    try:
        worker.start()
        while worker.is_alive():
            try:
                text, reply = events.questions.get(timeout=0.2)
            except queue.Empty:
                continue
            reply.put(_ask(text, asking))
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    if "error" in outcome and guard.received() is not None and isinstance(outcome["error"], Exception):
        # Stopped while planning: the interpreter probes were killed, so planning failed; that is the
        # signal's doing, not the user's input.
        raise guard.Stopped(guard.received())
    if "error" in outcome:
        exc = outcome["error"]
        if args.json and isinstance(exc, WizardError) and not isinstance(exc, UserError):
            # Fleet scripts read `tail -n 1 | jq .ok`: a refused install still ends with one JSON value.
            warn(str(exc))
            emit_json({"ok": False, "recipe": options.recipe_id, "env": None, "log": None, "entry_id": None,
                       "seconds": 0, "verify": None, "error": str(exc), "cancelled": False, "status": "refused",
                       "exit": exc.exit_code})
            return exc.exit_code
        raise exc
    result = outcome["result"]
    code = guard.signal_exit() if result.cancelled else (0 if result.ok else 1)
    if args.json:
        emit_json({**result.to_dict(), "exit": code})
    elif result.ok:
        node = result.verify.node if result.verify is not None else None
        done = (f"{result.status.capitalize()}: {result.recipe} in {result.env} ({result.seconds:.0f} s)"
                + (f", checked on node {node} through srun" if node else "") + "; it is now the current environment.")
        print("\n" + "\n".join(wrapped(done, width())))  # between words, not at the terminal's edge (walk 33 #5)
        print("\n".join(next_lines(result, unreachable=reach.host() if reach is not None else None)))
        print(f"Log: {result.log}")
    else:
        untouched = untouched_words(current_env() is not None)
        untouched = f"{untouched[0].upper()}{untouched[1:]}."
        if result.mode == "in-place":
            after = f"{result.env} was put back as it was before (or see `gc-wizard rollback {result.entry_id}`)."
        elif result.kept:
            after = (f"The new environment stays at {result.env}, not current (`gc-wizard remove "
                     f"{result.entry_id}` deletes it). {untouched}")
        else:
            after = f"The unfinished environment was removed. {untouched}"
        if result.cancelled:
            said = stop_words(stop_signal(cancel))
            stopped = "\n".join(wrapped(f"{said[:1].upper()}{said[1:]}. {after}", width()))
            print(f"\n{stopped}\nLog: {result.log}", file=sys.stderr)
        else:
            ran = check_ran_words(result.verify)  # which node and job the check failed on (walk 28 #7)
            print(f"\nInstall failed: {result.error}\n" + (f"{ran}\n" if ran else "") + after, file=sys.stderr)
            if "Hash mismatch for" in (result.error or "") or "DO NOT MATCH THE HASHES" in (result.error or ""):
                print("A package file has other bytes than the one the lock was made with, so it was refused "
                      "(re-uploaded, a different build in a mirror or wheelhouse, or tampered with). Check where it "
                      f"comes from; if the change is expected, make a new lock (`gc-wizard lock {result.recipe}`).",
                      file=sys.stderr)
    return code


def configure(sub) -> list[argparse.ArgumentParser]:
    p = options.add_command(sub, "install", "install a recipe into a new environment; it becomes current once verified",
                            "gc-wizard install jax0.4.23-cuda12-cudnn89 --graphcast-src ~/graphcast-v0.1.1", run)
    p.add_argument("recipe", metavar="RECIPE", nargs="?", help="a recipe id (see `gc-wizard recipes`); "
                   "not needed with --answers")
    options.env_option(p, "build here instead of a new managed environment")
    options.yes_option(p, "answer yes; fail on any question no rule answers")
    p.add_argument("--no-verify", action="store_true", help="skip the GraphCast check (the env stays unverified)")
    p.add_argument("--keep-unchecked", action="store_true",
                   help="when Ctrl-C stops the GraphCast check, keep the installed environment, unchecked and not "
                        "current (the app's \"k\"), instead of removing it")
    p.add_argument("--force", action="store_true",
                   help="install even a recipe that does not fit this machine, or a GraphCast source that is not "
                        "the recipe's (otherwise both are refused with exit 2)")
    options.installer_option(p)
    options.source_options(p)
    options.alternative_option(p)
    options.notebook_option(p)
    options.level_option(p)
    options.graphcast_version_option(p, "install the recipe recommended for this GraphCast (0.1.1 or 0.2), or check "
                                        "that RECIPE runs it")
    p.add_argument("--answers", metavar="FILE", help="replay a saved answers file (see --save-answers)")
    p.add_argument("--save-answers", metavar="FILE", help="save this run's answers for replay on other servers")
    options.lock_option(p)
    options.slurm_options(p)
    options.json_option(p)
    return [p]
