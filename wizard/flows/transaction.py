"""The install transaction, shared by the CLI and the TUI: plan → run → freeze → verify → current.

The plan the user was shown is the plan that runs: `run_install` takes that `Plan` and re-checks only
what can change between showing it and running it — the free disk and the state lock.

The promise: a failure, a crash, Ctrl-C or a dropped SSH session never touches the environment the
user had. So:

- the new environment is built beside the others, under the state lock, and recorded as "running"
  first (a wizard that dies is found by the next one, see `wizard.history.store`);
- its folder is claimed atomically under the lock (`mkdir`: it must not exist yet). When the planned
  managed folder was taken meanwhile — a second install planned in the same second — the next free
  name (`…-2`) is used and the plan is retargeted there, so two installs never share a folder;
- it becomes current only at the very end, after it installed and — unless verification is off —
  passed the GraphCast check;
- a new environment whose install steps failed or were cancelled is deleted again (it is unusable,
  can be gigabytes, and the log keeps every line); one that installed but failed the GraphCast check
  is kept, not current, for diagnosis (`gc-wizard verify --env DIR`, `gc-wizard remove ID`). Only a
  folder this transaction created is ever deleted; a user's empty `--env` folder is emptied again;
- in-place mode (`--env` naming an existing venv/conda env) first freezes the environment's package
  set; if the install then fails or is cancelled, that set is restored at once, and `gc-wizard
  rollback` can restore it later too. Nothing here ever deletes another environment.
"""

from __future__ import annotations

import os
import re
import threading
import time
from collections.abc import Callable
from contextlib import nullcontext
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from wizard import paths
from wizard.after.follow import follow_current
from wizard.detect.chain import detect
from wizard.detect.srun_job import DEFAULT_WAIT, JobState
from wizard.error_sentences import stopped_words
from wizard.errors import (
    OperationFailed,
    UserError,
    child_end_words,
    keeps_install,
    open_files_advice,
    stop_signal,
    stop_words,
)
from wizard.flows.check_place import record_slurm
from wizard.flows.install_line import install_command
from wizard.flows.results import InstallResult, kept_unchecked, untouched_words, what_was_undone
from wizard.full_disk import no_room_advice
from wizard.history.store import Entry, History, load_history, now, other_state_refusal
from wizard.install import envs
from wizard.install.bundle import bundle_assets_extra
from wizard.install.installed_check import missing_packages
from wizard.install.lockfile import lock_format
from wizard.install.options import InstallOptions
from wizard.install.package_files import unreadable_package_entries
from wizard.install.plan import Plan
from wizard.install.private_args import check_temporary_root

# The install's overall counters (packages, bytes) that a face draws from the step lines.
from wizard.install.progress import InstallProgress as InstallProgress
from wizard.install.progress import quiet_stretch_words as quiet_stretch_words
from wizard.install.reach import unreachable_advice
from wizard.install.recorded_set import graphcast_source_record
from wizard.install.remote_wheelhouse import refuse_endless_pages
from wizard.install.resolution_settings import resolution_advice
from wizard.install.runner import (
    RunnerEvents,
    StepLog,
    StepRefusal,
    inactivity_limit,
    run_plan,
    step_installer,
)

# The one wait for a face's answer to an installer's question (the CLI's prompt and the app's dialog).
from wizard.install.runner import await_answer as await_answer
from wizard.install.source_copy import building_from_a_copy, local_source
from wizard.install.source_spelling import local_source_path
from wizard.install.sources import SourceMismatch, check_graphcast_source, clone_command, look_at_wheelhouse
from wizard.install.tree_copy import check_copyable
from wizard.install.tree_digest import file_sha256
from wizard.installer_files import placement_problem, requirement_problem, settings_problem
from wizard.lock import StateLock, TargetLock
from wizard.paths import unused_path
from wizard.recipes.match import match_recipes
from wizard.security import known_home, make_folders, strip_acls
from wizard.tree_walk import remove_tree
from wizard.uv_tool import uv_bin
from wizard.venv_config import python_version
from wizard.verify.check import verify_env
from wizard.verify.diagnose import AGAIN_NOTE, STOP_NOTE

if TYPE_CHECKING:
    from wizard.verify.check import VerifyResult
    from wizard.verify.protocol import Tier

__all__ = ["InstallEvents", "InstallOptions", "InstallResult", "RecipeDoesNotFit", "check_before_install",
           "run_install", "unfit_reasons"]

#: How many numbered alternatives (`…-2`, `…-3`) are tried when a planned managed folder is taken.
MAX_FOLDER_TRIES = 100


class InstallEvents(RunnerEvents):
    """The runner's callbacks plus the install's own milestones (all called on the worker thread)."""

    def announce(self, plan) -> None:
        """The install begins: every refusal is behind it (walk 19 #10: "==> Installing" came first, then the
        refusal of an unreachable source)."""

    def verify_started(self) -> None: ...

    def verify_tier(self, tier: Tier) -> None: ...

    def verify_tier_start(self, words: str) -> None:
        """A slow tier of the check began, in the core's words (`describe_check.tier_start_words`): the CLI prints
        it (walk 26 #8); the app's Verify screen has its own clock, so the default says nothing."""

    def message(self, text: str) -> None: ...

    def job_state(self, state: JobState) -> None:
        """The Slurm job of the GraphCast check changed (queued with its reason and time waited, running
        on a node); called about once a second while it waits (the log has each new phase already)."""


def tier_start_reporter(events: InstallEvents, backend: str | None) -> Callable[[str], None]:
    """The check's `on_tier_start` for an install and a rollback alike: a slow tier is announced to `events` with its
    usual time (`describe_check.tier_start_words`; walk 26 #8). Why shared: walk 27 (rollback's check time) — rollback's check ran with no
    expected time while install's said it."""

    def started(name: str) -> None:  # the reader thread
        from wizard.flows.describe_check import tier_start_words  # deferred: only a check reaches here

        words = tier_start_words(name, backend)
        if words:  # the log has the probe's own start line already; the faces say it
            events.verify_tier_start(words)

    return started


def _log_tail(log: Path, limit: int = 400_000) -> str:
    try:
        with open(log, "rb") as handle:
            handle.seek(0, 2)
            handle.seek(max(0, handle.tell() - limit))
            return handle.read().decode("utf-8", "replace")
    except OSError:
        return ""


def installing_words(plan) -> str:
    """"Installing RECIPE into ENV (uv, new environment)": the words the CLI prints and the log's first line holds
    (`verify.diagnose.LOG_RECIPE` reads them back)."""
    return f"Installing {plan.recipe.id} into {plan.env_dir} ({plan.installer}, {plan.mode} environment)"


#: git's advice to trust a repository another user owns, in each of its wordings: never passed on.
_GIT_EXCEPTION = re.compile(r"safe\.directory|To add an exception for this directory", re.IGNORECASE)
#: git's refusal, naming the repository (`fatal: detected dubious ownership in repository at '/path'`).
_DUBIOUS_AT = re.compile(r"dubious ownership in repository at '(?P<repo>[^']+)'")


def _dubious_owner_words(lines: list[str]) -> str:
    """The wizard's sentence in place of git's safe.directory advice: a copy of one's own, by the one clone
    command the checkout refusals give too (`sources.clone_command`: a clone, never `cp`, which would carry the
    repository's config — and the commands it names — into a folder git then trusts)."""
    found = next((match for line in lines if (match := _DUBIOUS_AT.search(line))), None)
    if found is None:
        return ("(git refused the repository because another user owns it; gc-wizard does not build another "
                "user's repository: clone it to a folder of your own and give that.)")
    repo = found.group("repo")
    name = Path(repo.rstrip("/").removesuffix("/.git")).name or "graphcast"
    home = known_home()
    copy = str(unused_path(home, name, "")) if home is not None else f"~/{name}"
    return (f"(git refused {repo} because another user owns it; gc-wizard does not build another user's repository: "
            f"clone it to a folder of your own, `{clone_command(repo, copy, others_own_it=True)}`, and give {copy}.)")


def _failure_message(step, result, log: Path, recipe=None, python_version: str = "3.11",
                     graphcast_url: bool = False, installer: str | None = None, bundled: bool = False) -> str:
    """The step's own last lines, then — when a host could not be reached — which one and the fix. `bundled`: this
    install is from a bundle; else the bundle the last install of this recipe came from, if still here, is offered
    as it is (walk 26 #7: the advice said to make one elsewhere and copy it here)."""
    lines = [line for line in result.tail if line.strip()][-8:]
    if any(_GIT_EXCEPTION.search(line) for line in lines):
        # 27th hostile pass (part B) P7: git's "detected dubious ownership … call: git config --global --add
        # safe.directory DIR" was passed on; following it has root build another user's repository. The wizard's
        # own owner sentence stands in its place.
        lines = [line for line in lines if not _GIT_EXCEPTION.search(line)] + [_dubious_owner_words(lines)]
    if result.error:
        lines.append(result.error)
    if result.signal is not None:
        # The installer was killed, so its last lines say nothing of why (seventeenth hostile pass 6.1: under `ulimit
        # -f` uv died of SIGXFSZ and the message quoted only "Creating virtual environment at …"); said from the
        # signal, with its fix, never from the return code a killed child has none of (27th pass (part A) P3).
        lines.append(f"(the installer was {child_end_words(None, result.signal)})")
    detail = "\n  ".join(lines) if lines else child_end_words(result.exit_status, result.signal)
    said = "\n".join(result.tail) + "\n" + _log_tail(log)
    from wizard.flows.history import in_sentence, remembered_bundle  # deferred: read only when a step failed

    here = remembered_bundle(recipe.id) if recipe is not None and not bundled else None
    advice = unreachable_advice(said, recipe, python_version, installer=installer,
                                bundle_here=here[0] if here else None,
                                bundle_install=in_sentence(here[1]) if here else None,
                                graphcast_url=graphcast_url and step.name == "install-graphcast") or no_room_advice(said) \
        or open_files_advice(said) \
        or resolution_advice(installer, said, os.environ, getattr(step, "cwd", None))  # UV_REQUIRE_HASHES (32nd (B) P2)
    # The fix first: at 80×24 the installer's own lines would push it off the screen.
    return (f"step '{step.title}' failed." + (f" {advice}" if advice else "") + f"\nThe installer said:\n  {detail}"
            f"\nFull log: {log}")


def _note(log: Path, text: str) -> None:
    """A line of our own in the run's log (after the runner closed it), by the runner's one log writer."""
    with StepLog(log) as writer:
        writer.note(text)


class _Transaction:
    """One install attempt under the state lock: its history entry, log, and how to undo it."""

    def __init__(self, plan: Plan, options: InstallOptions, events: InstallEvents,
                 cancel: threading.Event) -> None:
        self.plan, self.options, self.events, self.cancel = plan, options, events, cancel
        self.started = time.monotonic()
        self.recipe = plan.recipe
        self.env = Path(plan.env_dir)
        self.created = False
        """Whether this transaction made the environment's folder (the only kind it may delete)."""
        self.history: History | None = None
        self.entry: Entry | None = None
        self.log = paths.new_log("install")
        self.kept = True

    def say(self, text: str) -> None:
        _note(self.log, text)
        self.events.message(text)

    def _job_state(self, state: JobState) -> None:
        """The check's Slurm job: each new phase into the log, every update to the faces (which say it)."""
        if state.phase != getattr(self, "_job_phase", None):
            self._job_phase = state.phase
            _note(self.log, f"the GraphCast check's Slurm job: {state.describe()}")
        self.events.job_state(state)

    # --- the steps -------------------------------------------------------------------------------
    def claim(self) -> None:
        """Under the state lock: make the new environment's folder, which must not exist yet.

        A planned managed folder that is taken (another install planned in the same second) gives way
        to the next free numbered name, and the plan is retargeted there; a folder the user named must
        still be missing or empty, as it was when planned.
        """
        if self.plan.mode == "in-place":
            return
        if self.options.env is None:
            planned = self.env
            paths.ensure_state_dir()
            make_folders(self.env.parent)
            for n in range(1, MAX_FOLDER_TRIES + 1):
                candidate = planned if n == 1 else planned.with_name(f"{planned.name}-{n}")
                try:
                    os.mkdir(candidate)
                    strip_acls(candidate)
                except FileExistsError:
                    continue
                self.created = True
                if candidate != planned:
                    self.plan, self.env = self.plan.retarget(candidate), candidate
                    self.events.message(f"{planned} was taken meanwhile; building in {candidate} instead")
                return
            raise OperationFailed(f"could not claim a new folder next to {planned}: {MAX_FOLDER_TRIES} names are "
                                  "taken; remove old environments with `gc-wizard remove ID`.")
        try:
            make_folders(self.env.parent)
            os.mkdir(self.env)
            strip_acls(self.env)
            self.created = True
        except FileExistsError:
            if not self.env.is_dir() or any(self.env.iterdir()):
                raise OperationFailed(f"--env {self.env} is no longer an empty folder (something was put there "
                                      "after the plan was made); give a new folder and plan again.") from None

    def begin(self) -> None:
        self.history = load_history(locked=True)
        for warning in self.history.warnings:
            self.events.message(warning)
        if self.plan.mode == "in-place":  # asked again under the lock: the app's plan may be minutes old (P6)
            refusal = other_state_refusal(self.history, self.env)
            if refusal:
                raise UserError(refusal)
        self.claim()
        entry = Entry(id=self.history.new_entry_id(str(self.env) if self.plan.mode == "new" else None), kind="install", recipe=self.recipe.id, env=str(self.env),
                      installer=self.plan.installer,
                      mode=self.plan.mode, python=self.plan.python.executable,
                      python_version=self.plan.python.version or None,
                      find_links=[str(link) for link in self.plan.find_links],
                      graphcast_given=_local_source(self.plan.graphcast_src))
        if self.plan.lock:
            entry.lock = {"path": self.plan.lock, "sha256": file_sha256(Path(self.plan.lock)),
                          "format": lock_format(Path(self.plan.lock))}
        entry.bundle = self.plan.bundle
        entry.offline = bool(self.plan.offline)
        record_slurm(entry, self.options.slurm)  # where its check runs: a rollback to it checks there too (walk 28 #9)
        folder = Path(self.recipe.path).parent
        if folder not in (paths.builtin_recipes_dir(), paths.user_recipes_dir()):  # a --recipes-dir recipe
            entry.recipes_dir = str(folder)
        self.log = paths.new_log("install", entry.id)
        entry.log = str(self.log)
        self.entry = self.history.add(entry)
        # Saved as running before the log says anything: a wizard killed once its log has begun is always found
        # and marked on the next start (a kill between the two left no entry: one CI failure).
        self.history.save()
        # The log's first line names the recipe and its GraphCast, in the CLI's "==> Installing" words: `diagnose` on
        # the log reads them back, so its fix names this recipe and version, not a fixed CUDA one (walk 25 #2/#3).
        given = _local_source(self.plan.graphcast_src)
        # The local source is named so a diagnosis of this log gives it again (`verify.diagnose.LOG_GRAPHCAST_GIVEN`).
        _note(self.log, f"{installing_words(self.plan)}; GraphCast v{self.recipe.graphcast.version}"
                        + (f" from {given}" if given else ""))
        # Then how to run it again, every option it took, by the plan's one builder: `diagnose` on a stopped run's log
        # gives this line back (walk 33 #3: its own line dropped `--alternative`, so pasted it was refused). Its program
        # as a new login shell runs it (walk 37 #6: a bare `gc-wizard` that was not on PATH).
        _note(self.log, AGAIN_NOTE + install_command(self.plan, paths.wizard_command(), self.options.slurm,
                                                     self.options))
        if self.plan.mode == "in-place":
            # Before anything changes: what is there now, so it can be restored exactly.
            previous = envs.read_marker(self.env)
            entry.previous_marker = previous.to_dict() if previous else None
            try:
                entry.snapshot = envs.freeze(self.env)
            except OperationFailed as exc:
                entry.status, entry.finished, entry.error = "failed", now(), f"{exc}; nothing was changed."
                self.history.save()
                raise
            self.say(f"in-place: saved the package set of {self.env} ({len(entry.snapshot)} packages) so it can "
                     "be restored")
        self.history.save()

    def run(self) -> InstallResult:
        self.begin()
        with building_from_a_copy(self.plan, say=self.say) as plan:  # the user's checkout is never built in
            results = run_plan(plan, log_path=self.log, events=self.events, cancel=self.cancel,
                               no_input=self.options.assume_yes)
        last = results[-1] if results else None
        if self.cancel.is_set() or (last is not None and last.cancelled):
            return self.finish("cancelled", error=stop_words(stop_signal(self.cancel)))
        if last is not None and last.refusal:
            # the wizard's own rule refused the step (`runner.StepRefused`): its refusal, exit 2, as said before the
            # install, never "The installer said" (28th hostile pass (part B) P9); what ran before it is undone first
            undone = self.finish("failed", error=last.refusal)
            raise StepRefusal(last.refusal + ("" if len(results) == 1 else
                                              " The steps before it were undone: "
                                              + what_was_undone(undone.env, undone.mode, undone.kept)))
        if last is None or not last.ok:
            step = self.plan.steps[len(results) - 1] if results else None
            error = (_failure_message(step, last, self.log, self.recipe, self.plan.python.version or "3.11",
                                      graphcast_url="://" in self.plan.graphcast_src, installer=self.plan.installer,
                                      bundled=bool(self.plan.bundle))
                     if step else f"nothing ran. Full log: {self.log}")
            return self.finish("failed", error=error)

        entry = self.entry
        try:
            entry.packages = envs.freeze(self.env)  # a copy of the user's checkout recorded as the checkout
        except OperationFailed as exc:
            return self.finish("failed", error=f"installed, but {exc}. Full log: {self.log}")
        missing = missing_packages(self.plan, entry.packages)
        if missing:  # the installer ended 0 but installed nothing (35th hostile pass (part A) P5): never recorded so
            return self.finish("failed", error=f"the installer ended without an error, but {', '.join(missing)} "
                               f"{'is' if len(missing) == 1 else 'are'} not in {self.env}, so nothing was recorded "
                               f"as installed. The installer's own output is in the full log: {self.log}")
        entry.graphcast_source = graphcast_source_record(entry.packages)
        frozen = envs.hashed_requirements(self.env, entry.packages, envs.frozen_dir() / f"{entry.id}.txt",
                                          find_links=entry.find_links)
        entry.requirements_file = str(frozen) if frozen else None
        self.say(f"froze {len(entry.packages)} packages" + (f" with hashes in {frozen}" if frozen else ""))
        # what the env runs, from its own pyvenv.cfg: the plan's word was taken before it existed (32nd (B) P4)
        entry.python_version = python_version(self.env) or entry.python_version
        marker = envs.EnvMarker(recipe=self.recipe.id, title=self.recipe.title, backend=self.recipe.backend,
                                runtime_env=dict(self.recipe.runtime_env), created=now(), entry_id=entry.id,
                                python=entry.python_version or self.plan.python.version,
                                extra={"graphcast_version": self.recipe.graphcast.version,
                                       "notebook": bool(self.options.with_notebook),
                                       # read by `inspect_env` for the fixes' install lines (walk 27: rerun lines)
                                       **({"graphcast_given": entry.graphcast_given} if entry.graphcast_given else {}),
                                       **bundle_assets_extra(self.plan.bundle)})
        envs.write_marker(self.env, marker)
        entry.marker = marker.to_dict()
        if not self.options.verify:
            return self.finish("installed", make_current=True)

        self.events.verify_started()
        launcher: list[str] = []
        if self.options.slurm is not None:
            launcher = self.options.slurm.srun("gc-wizard-verify")
            self.say("the GraphCast check runs on a GPU node: " + " ".join(launcher))
        result = verify_env(self.env, backend=self.recipe.backend, level=self.options.level, graphcast_src=None,
                            log_path=self.log, runtime_env=dict(self.recipe.runtime_env), cancel=self.cancel,
                            on_tier=self.events.verify_tier,
                            on_tier_start=tier_start_reporter(self.events, self.recipe.backend),
                            launcher=launcher, on_job=self._job_state,
                            job_wait=self.options.slurm.wait if self.options.slurm is not None else DEFAULT_WAIT)
        if self.cancel.is_set():
            if keeps_install(self.cancel) and self.plan.mode != "in-place":
                # "Stop, keep it unchecked": installed and recorded (rollback can make it current, checking it
                # first), never current now. In place there is no such choice: the user's env is put back.
                kept = kept_unchecked(str(self.env), self.entry.id, paths.wizard_command(), self.options.slurm)
                return self.finish("installed", verify=result, stopped=True,
                                   error=f"the GraphCast check was stopped by you; {kept[0].lower()}{kept[1:]}")
            return self.finish("cancelled", error="cancelled during the GraphCast check", verify=result)
        if not result.ok:
            first = result.findings[0] if result.findings else None
            why = first.title if first is not None and first.title else "the GraphCast check failed"
            if why.startswith("The "):  # it continues a sentence: "installed, but the GraphCast check never started…"
                why = "t" + why[1:]
            # the fix's `gc-wizard …` as a new shell runs it, as the Next lines say it (walk 33 #4)
            fix = f" Fix: {paths.runnable(first.fix)}" if first is not None and first.fix else ""
            return self.finish("failed", verify=result, keep=True,
                               error=f"installed, but {why}.{fix}\nFull log: {self.log}")
        marker = replace(marker, verified=now())
        envs.write_marker(self.env, marker)
        entry.marker = marker.to_dict()
        return self.finish("verified", verify=result, make_current=True)

    # --- the end ---------------------------------------------------------------------------------
    def undo(self) -> None:
        """After a failure: delete a new environment we created; restore an in-place one's packages."""
        entry = self.entry
        if self.plan.mode == "in-place":
            if entry is None or entry.snapshot is None:
                return
            try:
                # Not through self.cancel: after a Ctrl-C the restore must still run (a second
                # Ctrl-C in the CLI interrupts it; the runner then stops uv's whole tree).
                how = envs.sync(self.env, entry.snapshot, find_links=entry.find_links, log_path=self.log,
                                events=self.events, what="the package set it had before")
                envs.restore_marker(self.env, entry.previous_marker)
                self.say(f"restored the package set {self.env} had before ({how})")
            except OperationFailed as exc:
                self.say(f"could not restore {self.env}: {exc}. Restore it later with "
                         f"`gc-wizard rollback {entry.id}`.")
            return
        if self.created:
            remove_tree(self.env)
        elif self.env.is_dir():  # the user's --env DIR was an empty folder: empty it again, keep the folder
            for child in self.env.iterdir():
                if child.is_dir() and not child.is_symlink():
                    remove_tree(child)
                else:
                    child.unlink(missing_ok=True)
        self.kept = self.env.exists() and any(self.env.iterdir())
        self.say(f"removed the unfinished environment {self.env}")

    def finish(self, status: str, *, error: str | None = None, verify: VerifyResult | None = None,
               make_current: bool = False, keep: bool = False, stopped: bool = False) -> InstallResult:
        """Record how the install ended. `stopped`: the user stopped the check and kept the environment
        (status "installed", not current): a stop for the faces and the exit status, not a success."""
        entry = self.entry
        if status in ("failed", "cancelled") and not keep:
            self.undo()
        elif status == "failed" and self.plan.mode == "in-place":
            self.undo()  # in place, "kept for diagnosis" would mean leaving the user's env broken
        if status == "cancelled":  # say what the stop did to the new environment (history, both faces)
            # The log says it was a stop, and whose, in its own line: `diagnose` reads it back (walk 28 #14).
            _note(self.log, f"{STOP_NOTE}{error or 'cancelled'}")
            undone = what_was_undone(str(self.env), self.plan.mode, self.kept)
            # Walk 22 #10: a first install's stop said "the current environment is untouched" where there was none.
            rest = untouched_words(self.history.current() is not None, whose="the")
            error = f"{error}; {undone[0].lower()}{undone[1:-1]}, and {rest}"
        entry.status, entry.error, entry.finished = status, error, now()
        entry.verify = verify.summary() if verify is not None else None
        if make_current:
            self.history.make_current(entry)
        self.history.save()
        moved: list[str] = []
        if make_current:
            self.say(f"{self.env} is now the current environment (entry {entry.id})")
            # The default-named kernel and module file follow the recipe's current environment, as documented; a
            # user who pointed them elsewhere with `--env` is told so in the outcome (walk 24 #7).
            moved = follow_current(self.env)
            for line in moved:
                self.say(line)
        return InstallResult(ok=status in ("verified", "installed") and not stopped, recipe=self.recipe.id,
                             env=str(self.env), log=str(self.log), entry_id=entry.id,
                             seconds=time.monotonic() - self.started, verify=verify, error=error,
                             cancelled=status == "cancelled" or stopped, status=status,
                             mode=self.plan.mode, kept=self.kept, moved=moved,
                             added_packages=[a.to_dict() for a in self.plan.added_packages],
                             slurm=self.options.slurm)

    def crashed(self, exc: BaseException) -> None:
        """Our own code failed mid-way (or the thread was interrupted): record it, undo, never current."""
        if self.entry is None or self.entry.status != "running":
            if self.created:  # claimed, but the history entry was never written: nothing else knows of it
                remove_tree(self.env)
            return
        try:
            self.undo()
        except Exception:  # recording the crash matters more than the clean-up
            pass
        self.entry.status, self.entry.finished = "failed", now()
        self.entry.error = f"{stopped_words(exc).rstrip('.')}. Full log: {self.log}"
        try:
            self.history.save()
        except OSError:
            pass


def refuse_unreachable_source(plan, *, force: bool, despite: bool, say) -> None:
    """Refuse a plan whose GraphCast source's host does not answer from here (exit 2), unless --force or the user
    chose it knowingly (`despite`: the app's "Install anyway?"). Walk 18: `install --yes` downloaded all 84
    packages (237 MB cold) and then failed at the GraphCast step, as the plan had said it would. Every source the plan
    found out of reach counts, the recipe's wheel pages too (walk 24 #1: storage.googleapis.com failed 15 s in)."""
    reasons = " ".join(plan.unreachable_reasons())
    if not reasons:
        return
    if not (force or despite):
        # The plan's words name the local source the history remembers, when there is one (`flows.session`).
        raise SourceUnreachable(f"{reasons} Nothing was downloaded; pass --force to try anyway.")
    say(f"{'--force: ' if force else ''}{reasons} Installing anyway, as asked.")


class SourceUnreachable(UserError):
    """`install` of a plan whose GraphCast source's host does not answer from here, without --force (exit 2)."""


class RecipeDoesNotFit(UserError):
    """`install` of a recipe that does not fit this machine, without --force (exit 2)."""


def unfit_reasons(recipe, facts=None) -> list[str]:
    """Why `recipe` does not fit this machine (empty when it does): the verdict `recipes` shows on the
    platform and the GPU. The Python question is left out: the plan already chose an interpreter that
    fits (or refused), and asking every interpreter on PATH again would only repeat that — and wait
    again on one that hangs (a Python on a dead NFS mount)."""

    return list(match_recipes([recipe], facts if facts is not None else detect(), pythons=(),
                              python_downloads=True)[0].reasons)


def check_before_install(recipe, plan, *, force: bool, say=None, check_fit: bool = True,
                         cancel: threading.Event | None = None) -> None:
    """Refuse, before anything installs, a recipe that does not fit this machine and a GraphCast source that is
    not the recipe's GraphCast (docs/interface.md: exit 2 unless --force). With --force, say so.
    `check_fit`: False when the machine that matters is another one (a Slurm GPU node, checked there)."""
    say = say or (lambda _text: None)
    inactivity_limit()  # a malformed GC_WIZARD_INACTIVITY_TIMEOUT is refused before anything runs
    # uv freezes and hashes the new environment whichever installer builds it: without it a pip install ran to the
    # end and was then removed (eighteenth hostile pass P18), so its absence is said before anything runs.
    uv_bin()
    for step in plan.steps:  # uv also reads the settings above the folder its steps run in (the state folder's)
        if os.path.basename(str(step.argv[0])) == "uv" and step.cwd:
            problem = settings_problem("uv", os.environ, step.cwd)
            if problem:
                raise UserError(problem)
        installer = step_installer(step.argv)
        if installer == "pip":  # pip's settings files and what they name, as uv's (24th hostile pass (part B) P5)
            problem = settings_problem("pip", os.environ, step.cwd)
            if problem:
                raise UserError(problem)
        if installer is not None:  # the runner checks it again for each step (rollbacks too)
            problem = (placement_problem(installer, os.environ, step.cwd)
                       or requirement_problem(installer, os.environ, step.cwd))  # 25th pass (part B) P4
            if problem:
                raise UserError(problem)
    reasons = unfit_reasons(recipe) if check_fit else []
    if reasons:
        text = f"recipe {recipe.id} does not fit this machine: " + "; ".join(reasons)
        if not force:
            raise RecipeDoesNotFit(f"{text}. Choose another (`gc-wizard recipes`), or pass --force to install it "
                                   "anyway.")
        say(f"--force: {text}; installing anyway")
    noexec = plan.noexec_sentence()  # before the download, not at the check after it (31st hostile pass (A) P2)
    if noexec:
        if not force:
            raise UserError(noexec)
        say(f"--force: {noexec}")
    verdict = check_graphcast_source(recipe, plan.graphcast_src, plan.find_links)
    if not verdict.ok:
        if not force:
            raise SourceMismatch(f"GraphCast source refused: {verdict.problem}")
        say(f"--force: {verdict.problem}")
    elif verdict.note:
        say(verdict.note)
    if verdict.caution:
        say(verdict.caution)
    # An endless page grew the installer unbounded (12g); a slow one is read for a bounded time, a Ctrl-C heard.
    refuse_endless_pages(plan.find_links, offline=plan.offline, cancel=cancel, say=say)
    for folder in plan.find_links:
        if not os.path.isdir(folder):
            continue
        odd = unreadable_package_entries(folder)
        if odd:
            raise UserError(f"--find-links {folder}: {', '.join(odd[:3])}{' …' if len(odd) > 3 else ''} "
                            f"{'is' if len(odd) == 1 else 'are'} named like a package but "
                            f"{'is' if len(odd) == 1 else 'are'} no file (a FIFO, a socket or a device), which the "
                            "installer would wait on for ever; remove or replace "
                            f"{'it' if len(odd) == 1 else 'them'}. Nothing was installed.")
        try:  # a local wheelhouse: a pin it has only as source is built, its setup.py run
            caution = look_at_wheelhouse(folder, recipe).caution()
        except UserError:
            caution = None
        if caution:
            say(f"wheelhouse {folder}: {caution}")


def refuse_before_node(plan: Plan, options: InstallOptions, cancel: threading.Event | None = None) -> None:
    """Every refusal of `run_install` that this machine can make on its own — the installer's settings, the GraphCast
    source, a wheelhouse, the free disk, the temporary folder, a source whose host does not answer here — made before
    a `--slurm` install asks Slurm for a node to detect on. Walk 28 #11: `install --slurm` waited for a node (up to
    `--slurm-wait`, 600 s by default, on a busy cluster) only to be told github.com does not answer here; walk 29 N1:
    or that another gc-wizard was working in the state folder. Silent: `run_install` says the same checks' notes once,
    when it runs them again (and takes the state lock for the whole install)."""
    with StateLock(f"install {plan.recipe.id}"):  # LockHeld, naming the other run, before any job is queued
        pass
    check_before_install(plan.recipe, plan, force=options.force, check_fit=False, cancel=cancel)
    envs.check_free_disk(plan.env_dir, plan.disk_gib, f"recipe {plan.recipe.id}")
    check_temporary_root()
    refuse_unreachable_source(plan, force=options.force, despite=options.despite_unreachable, say=lambda _text: None)


def run_install(plan: Plan, options: InstallOptions, events: InstallEvents | None = None,
                cancel: threading.Event | None = None) -> InstallResult:
    """Run `plan` — the one the user was shown — as a transaction; the result says how it went.

    Between planning and running only the free disk and the state lock can have changed, so only they
    are checked again (besides the fit and GraphCast-source refusals of `check_before_install`, which
    `--force` overrides). Raises LockHeld when another wizard works in the state folder,
    OperationFailed when there is no room, UserError for a refused recipe or source.
    """
    events = events or InstallEvents()
    cancel = cancel or threading.Event()
    # With --slurm the recipe must fit the GPU node, which the command checked there (not this login node).
    check_before_install(plan.recipe, plan, force=options.force, say=events.message,
                         check_fit=options.slurm is None, cancel=cancel)
    envs.check_free_disk(plan.env_dir, plan.disk_gib, f"recipe {plan.recipe.id}")
    check_temporary_root()  # a TMPDIR no installer can be given, said before the environment is begun
    check_copyable(local_source(plan))  # a checkout whose build copy cannot be made (31st pass (A) P1), said as early
    transaction = _Transaction(plan, options, events, cancel)
    # A --env folder may be another state folder's target at the same time: lock it too.
    target = TargetLock(plan.env_dir, f"install {plan.recipe.id}") if options.env else nullcontext()
    with StateLock(f"install {plan.recipe.id}"), target:
        # After the state folder is known good (its own problems are said first), before anything is recorded.
        refuse_unreachable_source(plan, force=options.force, despite=options.despite_unreachable, say=events.message)
        events.announce(plan)
        try:
            return transaction.run()
        except BaseException as exc:
            transaction.crashed(exc)
            raise


def _local_source(graphcast_arg: str) -> str | None:
    """The local folder or file GraphCast's step installs from (a path, or a `file:` URL in any form), else None:
    what the next plan may offer again (`History.last_local_graphcast`). A remote source is the recipe's to name.
    Read by `source_spelling`, the one reading of a GraphCast source (31st hostile pass (part B) P5)."""
    path = local_source_path(graphcast_arg) if graphcast_arg else None
    return str(path) if path is not None else None
