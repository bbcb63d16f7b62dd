"""Guided rollback: make a previous working environment current again, re-checked, deleting nothing.

Why it is a switch and not conda-style revision surgery: managed environments live side by side, so
going back is flipping which one is current. Only when the target's folder was deleted is it rebuilt,
from its frozen package set (hash-pinned when the install could record hashes): offline from uv's
cache first, then online. A rebuilt or re-synced target is verified *before* it becomes current, so a
rollback that fails leaves the current environment as it was. Nothing is deleted by a rollback but a
folder it was itself rebuilding from nothing when it failed or was stopped; `remove` is the one
explicit, confirmed way to delete an environment, and never the current one.

In-place installs (`install --env EXISTING`) saved the environment's package set before changing it.
Rolling back *that* install ("undo") syncs the environment back to exactly that set — the frozen
versions reinstalled, what the recipe added uninstalled — and puts back the env marker it had. An
undo is not verified: it restores what the user had, which gc-wizard never checked either.

Which target without an id: the undo of the current install when it was made in place, else the
install that was current just before the current one (what "previous" means to the user), else the
newest verified install that is not current (in another folder), else the newest installed one.

A rollback is a transaction with the install's shape (`wizard.flows.transaction`): `_Rollback`
prepares (the one eligibility rule `check_target`, the question, its history entry and log), restores
the target's folder (rebuild, re-sync or undo — `uv venv` and `uv pip sync` as plan steps run by the
runner: live lines to the caller's events, every line in the rollback's log, stopped by the cancel
event), verifies (the exact frozen set, then the GraphCast check), commits (makes it current), puts a
re-synced folder back when that fails, and records a crash or a signal (`crashed`).
"""

from __future__ import annotations

import json
import os
import re
import threading
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from wizard import bounded, paths
from wizard.after.follow import follow_current, follow_preview
from wizard.after.kernel import gc_wizard_kernels, kernel_remove
from wizard.after.module import module_env
from wizard.after.next_steps import modules_dir
from wizard.error_sentences import stopped_words
from wizard.errors import OperationFailed, UserError, WizardError, child_end_words, stop_signal, stop_words
from wizard.flows.check_place import check_slurm, check_where_words, record_slurm
from wizard.flows.describe_plan import install_line
from wizard.flows.history import entry_traits, size_words
from wizard.flows.results import RollbackResult
from wizard.flows.transaction import InstallEvents, tier_start_reporter
from wizard.history.belongs import not_its_env, recorded_at
from wizard.history.store import GOOD, Entry, History, load_history, now
from wizard.install import envs
from wizard.install.choices import DEFAULT_INSTALLER
from wizard.install.plan import NO_REPLACE, Step
from wizard.install.private_args import temporary_folder
from wizard.install.recorded_set import (
    changed_source,
    changed_wheelhouse_files,
    file_path,
    foreign_requirement,
    local_folders,
    unhashed_pins,
    unmasked_links,
)
from wizard.install.runner import StepLog, StepRefusal, inactivity_limit, run_step
from wizard.install.source_copy import as_recorded
from wizard.install.source_places import _located, local_path
from wizard.install.source_spelling import source_spelling
from wizard.lock import StateLock
from wizard.recipes.pythons import find_pythons
from wizard.security import holds_mask, redact_secrets, shell_word
from wizard.source_trust import refuse_swappable_source, swap_risk
from wizard.tree_walk import remove_tree
from wizard.uv_tool import uv_bin
from wizard.venv_config import python_version
from wizard.verify.check import verify_env

if TYPE_CHECKING:
    from wizard.detect.slurm import SlurmTarget
    from wizard.verify.check import VerifyResult

_LABELS = {"nvidia-cudnn-cu12": "cuDNN", "nvidia-cudnn-cu11": "cuDNN"}


class RollbackEvents(InstallEvents):
    """The install's callbacks (steps, lines, the check's tiers, messages), so a face shows a rollback
    on the same live screen as an install. All are called on the rollback's thread."""


@dataclass
class Target:
    entry: Entry
    undo: bool = False
    """Restore the package set `entry` found before it changed the environment (in-place installs)."""

    @property
    def packages(self) -> list[str]:
        return list(self.entry.snapshot or []) if self.undo else list(self.entry.packages)


def _undoable(entry: Entry) -> bool:
    return entry.kind == "install" and entry.mode == "in-place" and entry.snapshot is not None


def check_target(history: History, entry_id: str | None) -> Target:
    """What a rollback goes back to — the entry named, else the previous good one (see the module
    docstring) — or one UserError sentence saying why it cannot. The one eligibility rule: the CLI's
    rollback and the terminal app (before it asks the user to confirm) both ask it."""
    target = _eligible_target(history, entry_id)
    why = target_path_problem(target.entry, history) or recorded_set_problem(target.entry, history, undo=target.undo)
    if not why and target.undo:
        why = recorded_links_problem(target.entry)
    if not why and not target.undo and not envs.env_python(target.entry.env).exists():
        # a rebuild: said before anything is asked or made
        why = (saved_list_problem(target.entry) or recorded_links_problem(target.entry)
               or wheelhouse_problem(target.entry) or masked_links_problem(target.entry)
               or changed_source_problem(target.entry))
    if why:
        raise UserError(why)
    return target


def not_a_target(history: History, entry_id: str) -> str | None:
    """Why `entry_id` is no rollback target by its kind and status alone (a check, a stopped or failed install, the
    current one), or None: the quick half of `check_target`, read from the history only, so the app can say it
    while a row is highlighted instead of offering a rollback it then refuses (walk 17). The folder and source
    checks stay in `check_target`, asked when the user presses r."""
    try:
        _eligible_target(history, entry_id)
    except UserError as exc:
        return str(exc)
    return None


def masked_links_problem(entry: Entry) -> str | None:
    """Why `entry`'s packages cannot be fetched again, or None: a find-links URL it saved with its password or
    token masked, which the user has not given again (`recorded_set.unmasked_links`)."""
    masked = unmasked_links(list(entry.find_links))[1]
    if not masked:
        return None
    return (f"entry {entry.id} installs from {masked[0]}, saved with its secret masked (history keeps none); "
            f"nothing changed. Give the full URL again to rebuild: `GC_WIZARD_FIND_LINKS='…' gc-wizard rollback "
            f"{entry.id}`.")


def saved_list_problem(entry: Entry) -> str | None:
    """Why the package list an entry saved (frozen/ID.txt, with each wheel's sha256) cannot be read for a rebuild
    or re-sync, or None: a link that leads nowhere or loops, or something other than a file in its place. A list
    that is simply absent is left to the rules that need it (`wheelhouse_problem`)."""
    if not entry.requirements_file:
        return None
    saved = Path(entry.requirements_file)
    what = paths.link_trouble(saved)
    if what is None and os.path.lexists(saved) and not saved.is_file():
        what = "a folder, not a file" if saved.is_dir() else "not a regular file (a FIFO, a socket or a device)"
    if what is None:
        return _saved_list_lines_problem(entry, saved)
    return (f"the package list entry {entry.id} saved, {saved}, is {what}, so the sha256 of each package it records "
            f"cannot be read; nothing changed. Put the file back (from a backup of the state folder), or install "
            f"the recipe again: `{install_advice(entry)}`.")


def _saved_list_lines_problem(entry: Entry, saved: Path) -> str | None:
    """Why the lines of the package list an entry saved may not be synced, or None: the list's own reader
    (`envs.check_requirement_lines`: only pins with their hashes and the entry's own GraphCast source), asked before
    anything is made, not only when the sync reads the file (31st hostile pass (part B) P6). A list that cannot be
    read is left to the sync, which names it."""
    try:
        recorded = Path(os.path.realpath(saved))
        if envs.frozen_dir().resolve() not in recorded.parents:
            return None  # named by the sync's own rule (`envs.requirements_source`)
        text = bounded.read_regular_text(recorded, bounded.LOCK_BYTES)
    except (OSError, ValueError):
        return None
    try:
        envs.check_requirement_lines(text.splitlines(), f"the recorded lock {saved}", sources=entry.packages)
    except UserError as exc:
        return f"{exc} Roll back to another entry, or install the recipe again: `{install_advice(entry)}`."
    return None


def wheelhouse_problem(entry: Entry) -> str | None:
    """Why a rebuild or re-sync of `entry` may not install from the local wheelhouses it names, or None: a
    package the entry records with no sha256 (in its hash-pinned file in frozen/) would be installed from
    whatever those folders hold now.

    Why: an install from a `--find-links` folder records each wheel's sha256 there (`envs.hashed_requirements`),
    and uv then installs no other file; without that record the rebuild took any file with the pinned name and
    version — a wheel swapped in since, or one in a folder the history entry was edited to name first (eleventh
    hostile pass #85: an edited `find_links` put a wheel carrying a `.pth` into the rebuilt env). The sync's one
    door for rebuilds and re-syncs; an in-place install's undo restores the user's own earlier set, which the
    wizard never installed and so never hashed."""
    folders = local_folders(list(entry.find_links))
    if not folders or not entry.packages:
        return None
    text = None
    if entry.requirements_file:
        try:
            recorded = Path(os.path.realpath(entry.requirements_file))
            if envs.frozen_dir().resolve() in recorded.parents:
                text = bounded.read_regular_text(recorded, bounded.LOCK_BYTES)
        except (OSError, ValueError):
            text = None
    loose = unhashed_pins(list(entry.packages), text)
    if loose and text is None and entry.requirements_file and not os.path.lexists(entry.requirements_file):
        # the sha256s were recorded, in a file that is gone since: say that, not "no sha256 was recorded"
        return (f"entry {entry.id} would be installed from the wheelhouse{'s' if len(folders) > 1 else ''} it names, "
                f"but the package list it saved with each wheel's sha256, {entry.requirements_file}, is gone (no "
                "such file), so whatever file those folders hold now would be installed; nothing changed. Put the "
                f"file back (from a backup of the state folder), or install the recipe again "
                f"(`{install_advice(entry)}`).")
    if not loose:
        changed = changed_wheelhouse_files(list(entry.packages), text, list(entry.find_links))
        if not changed:
            return None
        named = ", ".join(str(p) for p in changed[:3]) + (f" and {len(changed) - 3} more" if len(changed) > 3 else "")
        return (f"entry {entry.id} would be installed from the wheelhouses it names, but {named} "
                f"{'is' if len(changed) == 1 else 'are'} not the file recorded when it was installed (its sha256 "
                "differs), so the wheelhouse changed since, or the history was edited to name another; nothing "
                "changed. Put the recorded wheel back or move that file away, or install the recipe again "
                f"(`{install_advice(entry)}`).")
    named = ", ".join(loose[:3]) + (f" and {len(loose) - 3} more" if len(loose) > 3 else "")
    houses = ", ".join(str(f) for f in folders)
    return (f"entry {entry.id} would be installed from the wheelhouse{'s' if len(folders) > 1 else ''} it names "
            f"({houses}), but no sha256 was recorded for {named}, so whatever file those folders hold now would be "
            f"installed (one changed since, or a folder the history was edited to name); nothing changed. Install "
            f"the recipe again (`{install_advice(entry)}`): a new install records each "
            "wheel's sha256, so it can be rebuilt later.")


def recorded_links_problem(entry: Entry) -> str | None:
    """Why the local `find_links` folders an entry recorded may not be installed from, or None: one another user
    could swap (`source_trust`'s rule, the one `--find-links` meets), named with history.json.

    Why: 27th hostile pass (part B) P4 — an interrupted in-place entry's `find_links` edited to another user's
    wheelhouse, and the undo's `uv pip sync` took their `pkg_a` (a `.pth` that ran at the env's next start). Every
    read-back of an entry's sources goes through this, as the user's own `--find-links` does."""
    try:
        recorded_links(entry)
    except UserError as exc:
        return str(exc)
    return None


def recorded_links(entry: Entry) -> list[str]:
    """The entry's find-links for a sync: a masked URL replaced by the user's own (`unmasked_links`), and each local
    folder held to the swap rule and given where its links lead (UserError naming history.json when refused)."""
    links = []
    for link in unmasked_links(list(entry.find_links))[0]:
        where = local_path(link)
        if where is not None and os.path.lexists(where):
            link = _located(link, where, refuse_swappable_source(
                f"{paths.history_path()}: entry {entry.id}'s find_links {where}", where, "the wheelhouse",
                untouched="nothing changed"))
        links.append(link)
    return links


def _wizards_own_source(entry: Entry, history: History | None, *, undo: bool) -> dict | None:
    """The GraphCast source record that vouches for a direct reference in `packages`: the entry's own, or, for the set
    an in-place install found (its snapshot), the record of the install that put that GraphCast there — a line
    gc-wizard wrote, which `changed_source` still compares with the file."""
    if not undo or not entry.snapshot or history is None:
        return entry.graphcast_source
    lines = {line.strip() for line in entry.snapshot}
    for other in history.entries:
        record = other.graphcast_source
        if isinstance(record, dict) and record.get("requirement") in lines:
            return record
    return None


def recorded_set_problem(entry: Entry, history: History | None = None, *, undo: bool = False) -> str | None:
    """Why the package set an entry recorded may not be installed by a rollback, or None: a line the wizard
    never records (`wizard.install.recorded_set`), named by entry and by its line in history.json; a direct
    reference the wizard recorded whose file changed since or sits where another user could swap it.

    `undo`: the set an in-place install found (its `snapshot`), read back from history.json like any other set —
    27th hostile pass (part B) P4: `evilpkg @ file:///home/tuser/…whl` appended to it was installed by the undo
    as root, with neither the option-line rule nor an owner rule. It may hold only pins and a GraphCast source
    an install of this history recorded (`_wizards_own_source`)."""
    packages = list(entry.snapshot or []) if undo else list(entry.packages)
    recorded = _wizards_own_source(entry, history, undo=undo)
    roots = [paths.state_dir()] if undo else [
        paths.state_dir(), *([Path(entry.bundle)] if entry.bundle else []),
        *(Path(link) for link in entry.find_links if "://" not in link and os.path.isabs(link))]
    foreign = foreign_requirement(packages, roots=roots, recorded=recorded)
    if foreign is None:
        return _own_source_problem(entry, packages, recorded) if undo else None
    number, line, why = foreign
    at = _history_line(entry.id, line)
    where = f"{paths.history_path()}, line {at}" if at else f"{paths.history_path()}, package {number}"
    if holds_mask(line):
        # The wizard's own record of a source whose URL held a secret, which history keeps masked: not an edit
        # (thirteenth hostile pass #29), but nothing a rebuild can fetch.
        return (f"{where}: entry {entry.id} got {line.split(' @ ', 1)[0]} from a URL holding a secret, which the "
                "history keeps masked, so its environment cannot be rebuilt from the record; nothing changed. Roll "
                f"back to another entry, or install again (`{install_advice(entry, graphcast_src='URL')}`).")
    return (f"{where}: entry {entry.id} records the package {line!r}, which gc-wizard never records ({why}); "
            "the entry was edited, so nothing is installed from it and nothing changed. Roll back to another "
            "entry, or install again.")


def _own_source_problem(entry: Entry, packages: list[str], recorded: dict | None) -> str | None:
    """Why the GraphCast file or checkout a put-back set names (one an install recorded) may not be installed
    again: changed since (its sha256), or where another user could swap it (the swap rule)."""
    if not isinstance(recorded, dict) or recorded.get("requirement") not in {p.strip() for p in packages}:
        return None
    path = changed_source(packages, recorded)
    if path is not None:
        return (f"entry {entry.id} would put back GraphCast from {path}, which has changed since it was installed "
                "(its sha256 differs from the one recorded, or it is gone), so something else would be installed "
                "under that name; nothing changed. Put it back as it was, or install the recipe again.")
    where = file_path(str(recorded["requirement"]).partition(" @ ")[2].strip())
    if where is None or not os.path.lexists(where):
        return None
    try:
        refuse_swappable_source(f"{paths.history_path()}: entry {entry.id}'s GraphCast source {where}", where,
                                "the GraphCast source", untouched="nothing changed")
    except UserError as exc:
        return str(exc)
    return None


def changed_source_problem(entry: Entry) -> str | None:
    """Why an entry whose GraphCast file or checkout changed since its install is not rebuilt from it, or None: which
    case holds (changed, or gone), and an `install` line from the entry's recorded sources that runs — from the
    changed source as it is now, or, where it is gone, with a word to fill in for a source the user has (24th
    hostile pass (part B) P2: the advice named a gone bundle's wheel, and dropped every other recorded source)."""
    path = changed_source(list(entry.packages), entry.graphcast_source)
    if path is None:
        return None
    folder = path.is_dir()
    what = f"the checkout {path}" if folder else f"{path}"
    if not os.path.lexists(path):
        moved = (f"; the bundle folder it came from, {entry.bundle}, is gone too (moved?)" if entry.bundle
                 and not os.path.isdir(entry.bundle) else "")
        source = "a bundle folder" if entry.bundle else "a GraphCast source"
        return (f"entry {entry.id} installed GraphCast from {what}, which is gone (no such file or folder now{moved}), "
                "so its environment cannot be rebuilt as it was; nothing changed. Put it back where it was, or "
                f"install the recipe again from {source} you have, in place of the word in capitals: "
                f"`{install_advice(entry, graphcast_src='FILE', gone=True)}`.")
    look = f" (`git -C {shell_word(str(path))} status` shows what changed, if it is a git checkout)" if folder else ""
    return (f"entry {entry.id} installed GraphCast from {what}, which has changed since the install (its sha256 "
            "differs from the one recorded, or it cannot be read), so a rebuild would install something else under "
            f"the entry's name; nothing changed. Put it back as it was{look}, or install the recipe again from it as "
            f"it is now: `{install_advice(entry, graphcast_src=str(path))}`.")


def install_advice(entry: Entry, *, graphcast_src: str | None = None, gone: bool = False) -> str:
    """`gc-wizard install …` for `entry`'s recipe from the sources it recorded (its recipe folder, find-links,
    offline, bundle, lock, installer), through the plan's own builder (`describe_plan.install_line`); `graphcast_src`
    in place of the recorded local GraphCast source. A recorded folder or file that is gone is never named as a
    source: a word in capitals (DIR, FILE) stands in its place, for the user to fill in. With `gone`, the bundle's
    own GraphCast wheel is gone too, so its folder is asked for again."""
    left_out: list[str] = []

    def there(value: str | None, word: str) -> str | None:
        if not value or value.isupper():
            return value
        # The place a recorded source names in any spelling — a path, `file:///DIR`, `file:/DIR`, `graphcast @
        # file://…`, `git+file:///repo` — read as plan/install read it (`source_spelling`): a `file://` spelling was
        # taken for remote here and offered unchecked (fixers' leftover after the 34th hostile pass).
        try:
            place = source_spelling(value).place
        except ValueError:  # a `file:` URL of another host names no place here; the install says so itself
            return value
        if place is None:  # a remote source: the index's business, not a folder's modes
            return value
        if not os.path.exists(place):
            return word
        # 34th hostile pass (part B) P2: a recorded place now in another user's folder was offered here, and the
        # very line was refused by plan/install's swap rule; the same rule leaves it out, saying why.
        risk = swap_risk(Path(place))
        if risk is not None:
            left_out.append(f"{word} not {value}: {risk[0]} {risk[1]}".replace("\n", " "))
            return word
        return value

    given = graphcast_src if graphcast_src is not None else entry.graphcast_given
    lock = entry.lock.get("path") if isinstance(entry.lock, dict) and isinstance(entry.lock.get("path"), str) else None
    line = install_line(
        "gc-wizard", entry.recipe, recipes_dir=there(entry.recipes_dir, "DIR"),
        installer=entry.installer if entry.installer and entry.installer != DEFAULT_INSTALLER else None,
        bundle="DIR" if gone and entry.bundle else there(entry.bundle, "DIR"), lock=there(lock, "FILE"),
        graphcast_src=there(given, "DIR" if given and not re.search(r"\.(whl|zip|tar\.gz|tgz)$", given) else "FILE"),
        find_links=[there(link, "DIR") or link for link in entry.find_links if not holds_mask(link)],
        offline=entry.offline)
    # The why as a shell comment: the line stays one the user can paste and run once DIR/FILE is filled in.
    return line + "".join(f"  # {words}" for words in left_out[:1]) + (
        "".join(f"; {words}" for words in left_out[1:]))


def _history_line(entry_id: str, value: str) -> int | None:
    """The line of history.json where entry `entry_id` holds the string `value` (for the sentence), or None."""
    try:
        text = bounded.read_regular_text(paths.history_path(), bounded.HISTORY_BYTES)
    except (OSError, ValueError):
        return None
    start = text.find(json.dumps(entry_id))
    found = -1
    for form in (value, redact_secrets(value)):  # history.json keeps a secret masked (`store.save`)
        found = text.find(json.dumps(form), max(start, 0)) if start >= 0 else -1
        if found >= 0:
            break
    return text.count("\n", 0, found) + 1 if found >= 0 else None


def _broken(env: Path) -> bool:
    """A folder with files in it but no working `bin/python`: not gone (a rebuild would meet uv's "already
    exists"), not usable either."""
    try:
        return env.is_dir() and not (env / "bin" / "python").exists() and any(env.iterdir())
    except OSError:
        return False


def target_path_problem(entry: Entry, history: History | None = None) -> str | None:
    """Why the environment path a history entry names may not be rolled back to, or None.

    history.json is a file (0600, but editable): a path that climbs with `..` was never written by the
    wizard, and a folder that is gone is rebuilt only where the wizard creates environments (envs/) —
    otherwise an edited entry (`envs/../../etc`, `/`) would have a venv made anywhere and made current."""
    env = Path(entry.env) if entry.env else None
    edited = envs.edited_env_path(entry.env)
    if env is None or edited:  # the rule remove and activate ask too (33rd hostile pass (part B) P4)
        return f"history entry {entry.id} names its environment as {entry.env!r}, which is {edited}. Nothing changed."
    link = paths.link_trouble(env)
    if link:
        return (f"{env} (entry {entry.id}) is {link}, so no environment can be used or rebuilt there; nothing "
                f"changed. Remove the link (`rm {shell_word(str(env))}`; where it points is not touched), then roll "
                f"back again to rebuild the environment, or install the recipe anew: `{install_advice(entry)}`.")
    if os.path.exists(env) and not env.is_dir():
        # Sixteenth hostile pass P7: a FIFO at the env's path made `uv venv` wait on it for the 30-minute limit.
        return (f"{env} (entry {entry.id}) is not an environment: {bounded.not_a_folder(env)}; nothing changed. Move "
                "it aside, then roll back again to rebuild the environment there, or install the recipe anew: "
                f"`{install_advice(entry)}`.")
    if _broken(env):
        # The folder is there, its interpreter is not (removed, or a link to a Python since uninstalled): a
        # rebuild would meet "already exists" (sixth pass 11e), and a wipe is the user's call, not ours.
        broken = (f"{env} (entry {entry.id}) is broken: its folder is there but its Python "
                  f"({env / 'bin' / 'python'}) is missing, so it cannot be used or rebuilt in place; nothing changed.")
        if remove_refusal(history.current() if history else None, entry, history) is None:
            return f"{broken} Remove it (`gc-wizard remove {entry.id}`), then roll back again to rebuild it, or install anew."
        # Never advise a `remove` that `remove` refuses (fourth pass H4: an entry naming `/` or the state folder).
        return (f"{broken} gc-wizard deletes only the environments it made, so this entry cannot be rolled back to "
                f"(`gc-wizard history` keeps it); to have recipe {entry.recipe} again, install it anew: "
                f"`{install_advice(entry)}`.")
    if not (env / "bin" / "python").exists() and not envs.in_envs_folder(env):
        return (f"{env} (entry {entry.id}) holds no environment now, and it is outside {paths.envs_dir()}, where the wizard rebuilds "
                f"environments; nothing changed. To have that recipe again, install it anew: "
                f"`{install_advice(entry)}`.")
    foreign = not_its_env(history, entry) if history is not None else None
    if foreign is not None:  # 31st hostile pass (part B) P7, P11: the one check remove and activate ask too
        return (f"{env} (entry {entry.id}) is not that entry's environment in this state: {foreign}. A rollback "
                "will neither change it nor make it current; nothing changed.")
    if (env / "bin" / "python").exists() and not _made_for(env, entry, history):
        # Sixteenth hostile pass P3: an edited entry naming the user's own venv (or `/`, or one reached through a
        # link in envs/) had `uv pip sync` uninstall its packages and a marker written into it.
        return (f"{env} (entry {entry.id}) is an environment gc-wizard did not make for this history: it has no "
                f"{envs.MARKER} naming one of the history's entries for that folder, so a rollback will neither change "
                "it nor make it current (the entry was edited, or the folder was replaced since). Nothing changed. "
                f"Roll back to another entry, or install the recipe anew: `{install_advice(entry)}`.")
    unbuildable = None if (env / "bin" / "python").exists() else paths.uncreatable_env_path(str(env))
    if unbuildable:  # said before anything runs: uv refused it only at the rebuild, with its bare error
        return f"entry {entry.id} cannot be rebuilt: {unbuildable}. Nothing changed."
    return None


def _made_for(env: Path, entry: Entry, history: History | None) -> bool:
    """Whether the environment at `env` is one this history's installs made or were given: an in-place install's
    folder (the user's own env, given with `--env`), or one carrying the marker gc-wizard writes into every
    environment it makes, naming an entry of this history for that folder (or, from a marker older than entry ids,
    the entry's own recipe). A rollback changes or makes current only such a folder."""
    same = recorded_at(history, env) if history is not None else [entry]  # by its own name: a link is not its target
    if any(other.mode == "in-place" for other in same):
        return True  # the user's own environment, given with --env: an undo takes its marker away with the install
    marker = envs.read_marker(env)
    if marker is None:
        return False
    if marker.entry_id is None:
        return marker.recipe == entry.recipe
    return marker.entry_id in {other.id for other in same} | {entry.id}


def can_go_back(history: History) -> bool:
    """Whether `rollback` without an id has an entry to go back to (by kind and status, as `not_a_target`): the
    history's "Go back" line is offered only then (walk 22 #10: it was offered where `rollback` then said "There is
    no previous working environment")."""
    try:
        _eligible_target(history, None)
    except UserError:
        return False
    return True


def _eligible_target(history: History, entry_id: str | None) -> Target:
    current = history.current()
    if entry_id:
        entry = history.require(entry_id)
        if entry.kind != "install":
            raise UserError(f"Entry {entry_id} is a {entry.kind}, not an install; pick an install entry.")
        if entry.current:
            if _undoable(entry):
                return Target(entry, undo=True)
            raise UserError(f"Entry {entry_id} is already the current environment; nothing to roll back.")
        if entry.status in GOOD:
            return Target(entry)
        if _undoable(entry):  # a failed or interrupted in-place install: put its environment back
            return Target(entry, undo=True)
        raise UserError(f"Entry {entry_id} {entry.status}; only an installed or verified environment can be "
                        "rolled back to.")
    if current is not None and _undoable(current):
        return Target(current, undo=True)
    # The environment that was current before this one, when it is still there and good.
    before = history.get(current.previous_current) if current is not None and current.previous_current else None
    if before is not None and before.kind == "install" and before.status in GOOD and not before.removed \
            and not envs.same_env(before.env, current.env) and Path(before.env).is_dir():
        return Target(before)
    others = [e for e in history.good_installs() if not e.current and (current is None or not envs.same_env(e.env, current.env))]
    best = next((e for e in others if e.status == "verified"), None) or next(iter(others), None)
    if best is None:
        raise UserError("There is no previous working environment to roll back to (see `gc-wizard history`).")
    return Target(best)


def _versions(packages: list[str]) -> str:
    found = envs.key_versions(packages)
    shown = [f"{_LABELS.get(name, name)} {version}" for name, version in found.items() if name != "graphcast"]
    return ", ".join(shown) or "versions unknown"


def _traits_line(entry: Entry) -> list[str]:
    """The row that tells an env from another of its recipe (`entry_traits`), under its path in the question: two
    `jax0.4.23-cpu` envs read the same, jax, jaxlib and numpy alike (walk 23 #2)."""
    traits = entry_traits(entry)
    return [f"         {traits}"] if traits else []


def describe_change(current: Entry | None, target: Entry | Target, *, undo: bool = False) -> list[str]:
    """What a rollback will change (current and target: recipe, key versions, path), for the question."""
    if isinstance(target, Target):
        target, undo = target.entry, target.undo
    lines = []
    if current is None:
        lines.append("current: (none)")
    else:
        lines += [f"current: {current.recipe} [{current.id}] — {_versions(current.packages)}",
                  f"         {current.env}", *_traits_line(current)]
    if undo:
        lines += [f"target : {target.env} as it was before {target.recipe} [{target.id}] — "
                  f"{_versions(target.snapshot or [])}",
                  f"         {target.env}",
                  f"This reinstalls the {len(target.snapshot or [])} packages it had and removes what the "
                  "install added."]
    else:
        lines += [f"target : {target.recipe} [{target.id}] — {_versions(target.packages)}", f"         {target.env}",
                  *_traits_line(target)]
        if not envs.env_python(target.env).exists():
            lines.append(f"Its folder is {'empty' if os.path.lexists(target.env) else 'gone'}: it will be rebuilt from its frozen package set (offline from the "
                         "installer's cache when possible).")
        else:
            # The kernel and module file follow the env that becomes current: said before (walk 23
            # #1), with the same checks `follow_current` makes afterwards.
            lines += follow_preview(target.env, command=paths.wizard_command())
    lines.append("Nothing is deleted; the current environment stays on disk.")
    return lines


def _known_interpreter(path: str) -> str | None:
    """The version `path` runs now when it is an interpreter this machine has anyway (the wizard's own, one on PATH
    or pyenv's), else None.

    history.json is data, not code: an entry naming `/tmp/x/python` must not make a rollback run it.
    The interpreters found the usual way are the only ones a rebuild runs; any other falls back to the
    entry's version number, which uv resolves itself.
    """
    import platform
    import sys

    try:
        wanted = Path(path).resolve()
    except (OSError, ValueError):
        return None
    if not wanted.is_file():
        return None
    if wanted == Path(sys.executable).resolve():
        return platform.python_version()
    return next((choice.version for choice in find_pythons() if Path(choice.executable).resolve() == wanted), None)


def _rebuild_python(target: Entry) -> tuple[str, str | None]:
    """(the `--python` a rebuild gives `uv venv`, the version it runs now): the entry's interpreter when this
    machine has it anyway, else its version number (uv finds or fetches one); OperationFailed when neither is
    usable, or when the interpreter at the entry's path now runs another X.Y than the env was built with (its
    frozen set's compiled wheels are for that one; 32nd hostile pass (part B) P4)."""
    runs = _known_interpreter(target.python) if target.python else None
    if runs:
        refuse_other_minor(target, target.python, runs)
        return target.python, runs
    if target.python_version and re.fullmatch(r"3\.[0-9]{1,2}(\.[0-9]{1,3})?", target.python_version):
        return target.python_version, target.python_version
    raise OperationFailed(f"cannot rebuild {target.env}: the Python it was built with ({target.python}) is gone.")


def refuse_other_minor(target: Entry, python: str, runs: str) -> None:
    """OperationFailed when `python` runs another Python X.Y (`runs`) than `target` was built with."""
    recorded = target.python_version or ""
    if recorded and runs.split(".")[:2] != recorded.split(".")[:2]:
        raise OperationFailed(
            f"cannot rebuild {target.env} on {python}: it now runs Python {runs}, and the environment was built with "
            f"Python {recorded}, whose compiled packages do not fit another version. Install the recipe again "
            f"(`gc-wizard install {target.recipe}`), which picks its packages for the Python it gets.")


def create_env_step(env: Path, python: str, version: str | None = None):
    """`uv venv` for a rebuild, as a runner step (the install's create-env step, without --offline:
    the Python may have to be fetched). `version`: what `python` runs now, never the recorded one."""
    return Step(name="create-env", title=f"Recreate the environment (Python {version or python})", kind="create_env",
                argv=(uv_bin(), "venv", "--python", python, str(env)),
                env={"UV_NO_PROGRESS": "1", "NO_COLOR": "1"}, prompts=(NO_REPLACE,))


def _same_set(found: list[str], frozen: list[str]) -> bool:
    def norm(lines: list[str]) -> list[str]:
        return sorted(line.strip().lower().replace("_", "-") for line in lines if line.strip())

    return norm(found) == norm(frozen)


def restore_kind(target: Target) -> str:
    """What the target's folder needs before it may become current: "undo" (an in-place install's
    previous set), "rebuild" (the folder is gone), "adopt" (entered again from its marker after
    history.json was lost: its set is the one it has), "resync" (changed since: the frozen set back),
    or "switch" (nothing: flip which one is current)."""
    entry = target.entry
    if target.undo:
        return "undo"
    if not envs.env_python(entry.env).exists():
        return "rebuild"
    if not entry.packages and entry.extra.get("rebuilt_from_marker"):
        return "adopt"
    return "switch" if _same_set(as_recorded(envs.freeze(entry.env), entry.packages), entry.packages) else "resync"


class _Stopped(Exception):
    """A restore step was cancelled through the cancel event."""


class _Rollback:
    """One rollback under the state lock: its history entry, its log, and how to put things back.

    The same shape as the install's `_Transaction`: `prepare`, `restore`, `verify`, `commit`,
    `put_back`, `finish`, and `crashed` for our own errors and signals (see the module docstring).
    """

    def __init__(self, entry_id: str | None, *, verify: bool, level: str, events: InstallEvents,
                 cancel: threading.Event, confirm: Callable[[list[str]], bool] | None,
                 slurm: SlurmTarget | None = None) -> None:
        self.entry_id, self.check, self.level = entry_id, verify, level
        self.slurm = slurm
        """The Slurm target given now (--slurm, the app's GPU node); None: the target entry's own (`check_place`)."""
        self.events, self.cancel, self.confirm = events, cancel, confirm
        self.history: History | None = None
        self.current: Entry | None = None
        self.target: Target | None = None
        self.record: Entry | None = None
        self.log: StepLog | None = None
        self.changes: list[str] = []
        self.kind = "switch"
        self.rebuilt = self.restored = False
        self.rebuilding = False
        """The target's folder is being made from nothing by this rollback (removed if it does not finish)."""
        self.before: tuple[list[str], envs.EnvMarker | None] | None = None
        """A re-synced folder's package set and marker before this rollback changed it."""
        self.checked: VerifyResult | None = None
        """The GraphCast check's result, when it ran."""
        self.place: tuple[SlurmTarget | None, list[str]] = (None, [])
        """Where the check runs: the Slurm target and its srun argv, or (None, []) for here."""

    @property
    def entry(self) -> Entry:
        return self.target.entry

    @property
    def env(self) -> Path:
        return Path(self.entry.env)

    def say(self, text: str) -> None:
        if self.log is not None:
            self.log.note(text)
            self.log.flush()
        self.events.message(text)

    # --- the phases ------------------------------------------------------------------------------
    def prepare(self) -> None:
        """Ask the one eligibility rule, show the change, record the entry ("running") and open its log."""
        self.history = load_history(locked=True)
        self.current = self.history.current()
        self.target = check_target(self.history, self.entry_id)
        entry = self.entry
        self.changes = describe_change(self.current, self.target)
        if self.check and not self.target.undo:
            # Where the check will run, refused now if it cannot (no srun here, a bad recorded target): before the
            # question, and before anything changes.
            slurm = check_slurm(entry, self.slurm)
            self.place = (slurm, slurm.srun("gc-wizard-verify") if slurm is not None else [])
            if slurm is not None:
                self.changes.append(f"The GraphCast check runs{check_where_words(slurm, self.slurm is not None)}.")
        if self.confirm is not None and not self.confirm(self.changes):
            raise UserError("Rollback not confirmed; nothing changed.")
        self.record = self.history.add(Entry(
            id=self.history.new_entry_id(), kind="rollback", env=entry.env, target=entry.id, mode=entry.mode,
            recipe=f"(before {entry.recipe})" if self.target.undo else entry.recipe,
            python=entry.python, python_version=entry.python_version, find_links=list(entry.find_links)))
        log = paths.new_log("rollback", self.record.id)
        self.record.log = str(log)
        self.history.save()
        self.log = StepLog(log)
        for line in self.changes:
            self.log.note(line)

    def restore(self) -> None:
        """Bring the target's folder to its frozen set: rebuild, re-sync or undo (runner steps)."""
        entry, env = self.entry, self.env
        self.kind = restore_kind(self.target)
        if self.kind == "undo":
            self.say(f"restoring the package set {env} had before {entry.recipe}")
            self._sync(self.target.packages, what="the package set it had before", recorded=True)
            envs.restore_marker(env, entry.previous_marker)
            self.restored = True
        elif self.kind == "rebuild":
            self._rebuild()
        elif self.kind == "adopt":
            entry.packages = envs.freeze(env)
        elif self.kind == "resync":
            problem = (saved_list_problem(entry) or recorded_links_problem(entry) or wheelhouse_problem(entry)
                       or masked_links_problem(entry) or changed_source_problem(entry))
            if problem:
                raise OperationFailed(problem.removesuffix(".").replace("; nothing changed", ""))
            self.say(f"{env} has changed since {entry.id}; putting its package set back")
            self.before = (envs.freeze(env), envs.read_marker(env))
            self._sync(entry.packages, requirements_file=entry.requirements_file, recorded=True)
            if entry.marker:
                envs.write_marker(env, entry.marker)
            self.restored = True

    def _history_place(self, number: int, item: str) -> str:
        """Where item `number` of this entry's package set is written in history.json: the line a user opens."""
        line = self.history.line_of(self.entry.id, item) if self.history is not None else None
        where = f"{self.history.path} line {line}" if line else str(self.history.path)
        return f"package {number} of entry {self.entry.id}'s recorded set ({where})"

    def _rebuild(self) -> None:
        entry, env = self.entry, self.env
        if not entry.packages:
            raise OperationFailed(f"{env} is gone and history holds no package set to rebuild it from")
        self.say(f"{env} is gone; rebuilding it from its {len(entry.packages)} frozen packages")
        python, runs = _rebuild_python(entry)
        self._rebuilding(not env.exists())
        step = create_env_step(env, python, runs)
        result = run_step(step, log=self.log, events=self.events, cancel=self.cancel)
        if result.cancelled:
            raise _Stopped()
        if result.refusal:  # the wizard's own rule refused the step: its refusal (28th pass (part B) P9)
            raise StepRefusal(result.refusal)
        if not result.ok:
            said = " ".join(line.strip() for line in result.tail[-3:] if line.strip()) or result.error
            raise OperationFailed(f"could not recreate {env}: {said or child_end_words(result.exit_status, result.signal)}")
        built = python_version(env) or runs  # what the env runs, from its own pyvenv.cfg (32nd pass (part B) P4)
        if built:
            refuse_other_minor(entry, python, built)
            if entry.python_version and built != entry.python_version:
                self.say(f"{env} now runs Python {built} ({python}); it was built with Python {entry.python_version}")
        how = self._sync(entry.packages, requirements_file=entry.requirements_file, recorded=True)
        if built:  # the record says what the env runs now: its marker, its entry and this rollback's
            entry.python_version = self.record.python_version = built
            if entry.marker:
                entry.marker = {**entry.marker, "python": built}
        if entry.marker:
            envs.write_marker(env, entry.marker)
        self._rebuilding(False)
        self.rebuilt = True
        self.say(f"rebuilt {env} ({how})")

    def _rebuilding(self, flag: bool) -> None:
        """Whether the target's folder is being made from nothing by this rollback, saved in its entry
        as well: a wizard killed outright (SIGKILL, a reboot) runs no clean-up, so the next one removes
        the half-rebuilt folder itself (`wizard.history.store`)."""
        self.rebuilding = flag
        if flag:
            self.record.extra["rebuilding"] = True
        elif self.record.extra.pop("rebuilding", None) is None:
            return
        self.history.save()

    def _sync(self, packages: list[str], *, requirements_file: str | None = None, cancel: bool = True,
              what: str = "the frozen package set", recorded: bool = False) -> str:
        """`uv pip sync` to `packages`, offline then online, as runner steps into this rollback's log.
        `recorded`: the packages are the entry's, from history.json (a refusal then names its line there)."""
        with temporary_folder("sync") as tmp:
            source = envs.requirements_source(packages, requirements_file, tmp,
                                              self._history_place if recorded else None)
            links = recorded_links(self.entry)  # the user's own, given again; local ones by the swap rule
            steps = envs.sync_steps(self.env, source, find_links=links, allow_empty=not packages,
                                    what=what)
            try:
                return envs.run_sync(self.env, steps, log=self.log, events=self.events,
                                     cancel=self.cancel if cancel else None)
            except envs.SyncCancelled:
                raise _Stopped() from None

    def verify(self) -> str | None:
        """None when the folder may become current, else why not (and `self.checked` says more).

        Never current with a package set other than the frozen one: a rebuild or re-sync that did not
        land exactly (an index serving other files, a partial sync) fails here, before any check.
        """
        env, entry = self.env, self.entry
        try:
            self.record.packages = as_recorded(envs.freeze(env), self.target.packages)
        except OperationFailed as exc:
            return f"{exc}; the current environment is unchanged."
        if not _same_set(self.record.packages, self.target.packages):
            missing = sorted(set(self.target.packages) - set(self.record.packages))[:3]
            extra = sorted(set(self.record.packages) - set(self.target.packages))[:3]
            return (f"{env} does not hold the package set frozen for {entry.id} (missing "
                    f"{', '.join(missing) or 'nothing'}; extra {', '.join(extra) or 'nothing'}), so it was not made "
                    "current; the current environment is unchanged.")
        if not self.check or self.target.undo:
            return None
        marker = envs.read_marker(env)
        slurm, launcher = self.place
        record_slurm(self.record, slurm)
        self.say(f"checking {env} (GraphCast {self.level} check){check_where_words(slurm, self.slurm is not None)}")
        self.log.flush()
        self.events.verify_started()
        result = verify_env(env, backend=marker.backend if marker else "auto", level=self.level,
                            runtime_env=dict(marker.runtime_env) if marker else {}, cancel=self.cancel,
                            log_path=Path(self.record.log), on_tier=self.events.verify_tier,
                            on_tier_start=tier_start_reporter(self.events, marker.backend if marker else None),
                            launcher=launcher, on_job=self.events.job_state,
                            **({"job_wait": slurm.wait} if slurm is not None else {}))
        self.checked = result
        if self.cancel.is_set():
            return "cancelled during the GraphCast check; the current environment is unchanged."
        if not result.ok:
            first = result.findings[0] if result.findings else None
            why = f" ({first.title})" if first is not None and first.title else ""
            # the fix's `gc-wizard …` as a new shell runs it, as the Next lines say it (walk 33 #4)
            fix = f" Fix: {paths.runnable(first.fix)}" if first is not None and first.fix else ""
            return (f"the target environment failed its GraphCast check{why}; the current one is unchanged.{fix} "
                    f"Log: {self.record.log}")
        if marker:
            envs.write_marker(env, replace(marker, verified=now()))
        return None

    def commit(self) -> RollbackResult:
        """Make the target current (an undo only when its folder was current) and record it."""
        entry, current = self.entry, self.current
        made_current = True
        if self.target.undo:
            # The environment is the user's own again. It becomes current only if it was (or was
            # its folder) — restoring some other env must not change which one the user works in.
            made_current = current is None or current is entry or envs.same_env(current.env, entry.env)
            if made_current:
                self.history.make_current(self.record)
        else:
            self.history.make_current(entry)
        verified = self.checked is not None and self.checked.ok
        result = self.finish("verified" if verified else "installed")
        self.say(f"{self.env} is the current environment now (rollback {self.record.id})" if made_current
                 else f"{self.env} is as it was before {entry.recipe}; the current environment did not change")
        if made_current:
            for line in follow_current(self.env):
                self.say(line)
        return result

    def put_back(self) -> None:
        """A re-synced folder that may not become current gets the package set it had before the rollback
        (never cancelled: after a Ctrl-C this is the clean-up); a folder rebuilt from nothing goes again."""
        if self.rebuilding:
            remove_tree(self.env)
            self.rebuilding = False
            self.record.extra.pop("rebuilding", None)  # saved by finish
            self.say(f"removed the unfinished rebuild of {self.env}")
        if self.before is not None:
            packages, marker = self.before
            self.before = None
            try:
                self._sync(packages, cancel=False, what="the package set it had before the rollback")
                envs.restore_marker(self.env, marker)
                self.say(f"put {self.env} back as it was before the rollback")
            except (OperationFailed, StepRefusal, _Stopped) as exc:
                self.say(f"could not put {self.env} back as it was: {exc}")

    def finish(self, status: str, *, error: str | None = None) -> RollbackResult:
        if status in ("failed", "cancelled"):
            self.put_back()
        record = self.record
        record.status, record.error, record.finished = status, error, now()
        record.verify = self.checked.summary() if self.checked is not None else None
        self.history.save()
        if error:
            self.say(f"rollback {status}: {error}")
        return RollbackResult(
            ok=status in GOOD, from_id=self.current.id if self.current else None, to_id=self.entry.id,
            env=self.entry.env, verify=self.checked, rebuilt=self.rebuilt, restored=self.restored, error=error,
            cancelled=status == "cancelled", entry_id=record.id, changes=self.changes, log=record.log, status=status)

    def crashed(self, exc: BaseException) -> None:
        """Our own code failed, or a signal arrived (Ctrl-C, SIGTERM, SIGHUP: KeyboardInterrupt in the CLI):
        the current environment stays current, a folder being rebuilt from nothing is removed again, and
        the entry says what happened."""
        if self.record is None or self.record.status != "running":
            return
        if self.rebuilding:
            remove_tree(self.env)
            self.rebuilding = False
            self.record.extra.pop("rebuilding", None)
        record = self.record
        record.finished = now()
        if isinstance(exc, KeyboardInterrupt):
            signum = getattr(exc, "signum", None)  # the CLI's guard raises its `Stopped` with the signal on it
            record.status = "cancelled"
            record.error = f"{stop_words(signum if isinstance(signum, int) else None)}; the current environment is unchanged."
        else:
            record.status = "failed"
            record.error = f"{stopped_words(exc).rstrip('.')}; the current environment is unchanged."
        try:
            self.history.save()
            self.say(record.error)
        except OSError:
            pass

    def close(self) -> None:
        if self.log is not None:
            self.log.close()
            self.log = None

    def run(self) -> RollbackResult:
        self.prepare()
        try:
            self.restore()
        except _Stopped:
            return self.finish("cancelled", error=f"{stop_words(stop_signal(self.cancel))}; the current environment is "
                                                    "unchanged.")
        except OperationFailed as exc:
            return self.finish("failed", error=f"{exc}; the current environment is unchanged.")
        except StepRefusal as exc:  # a step the wizard's own rule refused (`runner.StepRefused`): recorded, then said
            # as the wizard's refusal, exit 2, not as the installer's failure (28th hostile pass (part B) P9)
            self.finish("failed", error=str(exc))
            raise
        problem = self.verify()
        if problem is not None:
            return self.finish("cancelled" if self.cancel.is_set() else "failed", error=problem)
        return self.commit()


def rollback(entry_id: str | None = None, *, verify: bool = True, level: str = "notebook",
             cancel: threading.Event | None = None,
             confirm: Callable[[list[str]], bool] | None = None,
             events: InstallEvents | None = None, slurm: SlurmTarget | None = None) -> RollbackResult:
    """Go back to `entry_id` (default: the previous good one). `confirm(lines) -> bool` may veto;
    `events` get the restore steps' lines, the check's tiers and messages; `cancel` stops it (the
    current environment stays current). A signal (KeyboardInterrupt) is recorded and raised again.
    `slurm`: check on a GPU node through this target; None: where the target's own check ran (`check_place`)."""
    inactivity_limit()  # a malformed GC_WIZARD_INACTIVITY_TIMEOUT is refused before anything runs
    transaction = _Rollback(entry_id, verify=verify, level=level, events=events or RollbackEvents(),
                            cancel=cancel or threading.Event(), confirm=confirm, slurm=slurm)
    with StateLock("rollback"):
        try:
            return transaction.run()
        except BaseException as exc:
            transaction.crashed(exc)
            raise
        finally:
            transaction.close()


def remove_question(env: Path, size: int, freed: int, traits: str | None = None) -> str:
    """`remove`'s question: what deleting `env` truly gives back, said before it happens. Files hard-linked from
    uv's cache (or another environment) free nothing: the walker was asked to delete "(0.78 GiB)" and was told
    "0.00 GiB freed" afterwards (walk 23 #9). `traits` (`entry_traits`) say which env of its
    recipe this is (P2: "Delete …-023542 (0.81 GiB)?" did not say it was the notebook-ready one)."""
    if traits:
        env = f"{env} ({traits})"
    if size - freed < 2**20:
        return f"Delete {env}? This frees {size_words(freed)}."
    return (f"Delete {env}? This frees {size_words(freed)}: {size_words(size - freed)} of its {size_words(size)} "
            "are files shared with uv's cache or another environment (hard links), which keeps them.")


def remove(entry_id: str, *, confirm: Callable[[str], bool] | None = None,
           progress: Callable[[str], None] | None = None) -> dict[str, Any]:
    """Delete a managed, non-current environment's folder; its history entries stay, marked removed.
    `progress` gets one line as the deleting starts: a big env takes seconds to delete, which the walker
    saw as silence (walk 23 #9)."""
    with StateLock("remove"):
        history = load_history(locked=True)
        entry = history.require(entry_id)
        current = history.current()
        env = Path(entry.env)
        refusal = remove_refusal(current, entry, history)
        if refusal is not None:
            raise refusal
        if env.is_symlink() and envs.in_envs_folder(env):
            # A link in envs/ (dangling, or to someone's folder): the link goes, never what it points to.
            where = os.readlink(env)
            if confirm is not None and not confirm(f"Delete the link {env} (to {where}; that stays as it is)?"):
                raise UserError("Not confirmed; nothing deleted.")
            env.unlink()
            _mark_removed(history, env)
            return {"ok": True, "entry_id": entry.id, "env": str(env), "freed_bytes": 0,
                    "note": f"removed the link {env}; {where} was left as it is"}
        envs.check_removable(env)
        kernels, modules = _env_users(env)
        users = " and ".join(part for part in (
            (f"the Jupyter kernel{'s' if len(kernels) > 1 else ''} {', '.join(k['name'] for k in kernels)}"
             if kernels else ""),
            f"the module file{'s' if len(modules) > 1 else ''} {', '.join(str(m) for m in modules)}" if modules else "",
        ) if part)
        question = remove_question(env, envs.disk_usage(env), envs.freed_by_removing(env), entry_traits(entry))
        if users:
            question += f" It also removes {users}, which gc-wizard wrote for it."
        if confirm is not None and not confirm(question):
            raise UserError("Not confirmed; nothing deleted.")
        if progress is not None:
            progress(f"Deleting {env} …")
        freed = envs.remove_env(env, entry_id=entry.id)
        _mark_removed(history, env)
        return {"ok": True, "entry_id": entry.id, "env": str(env), "freed_bytes": freed,
                "also": _remove_env_users(env, kernels, modules)}


def _env_users(env: Path) -> tuple[list[dict[str, Any]], list[Path]]:
    """The Jupyter kernels and the state's Lmod module files gc-wizard wrote (they carry its mark) that run `env`."""
    kernels = [k for k in gc_wizard_kernels() if envs.same_env(k.get("env"), env)]
    try:
        files = sorted(modules_dir().glob("*/*.lua"))
    except OSError:
        files = []
    return kernels, [path for path in files if envs.same_env(module_env(path), env)]


def _remove_env_users(env: Path, kernels: list[dict[str, Any]], modules: list[Path]) -> list[str]:
    """Remove the kernels and module files of gc-wizard's that ran the environment just deleted, one line each (a
    kernel or a module file that is left names the exact line that removes it).

    Why: `remove` deleted an env that a gc-wizard kernel and module file still pointed at, without a word: Jupyter
    listed a kernel that could not start, and `module load` put a gone bin/ on PATH (24th hostile pass (part B)
    P4). They are the wizard's own, and of no use without the env, as `follow` re-points them when it can."""
    lines = []
    for kernel in kernels:
        try:
            kernel_remove(None, kernel["name"])
        except WizardError as exc:
            lines.append(f"The Jupyter kernel {kernel['name']} ({kernel['path']}) still runs {env}: {exc} Remove it "
                         f"with `gc-wizard kernel remove --name {shell_word(kernel['name'])}`.")
        else:
            lines.append(f"Removed the Jupyter kernel {kernel['name']} ({kernel['path']}), which ran it.")
    for path in modules:
        try:
            path.unlink()
        except OSError as exc:
            lines.append(f"The module file {path} still loads {env}: {exc.strerror or exc}. Remove it with "
                         f"`rm {shell_word(str(path))}`.")
        else:
            lines.append(f"Removed the module file {path}, which loaded it.")
    return lines


def remove_refusal(current: Entry | None, entry: Entry, history: History | None = None) -> WizardError | None:
    """The error `remove ENTRY` raises for `entry`'s environment (`current` is the current entry), or None when
    remove would delete it: the one list of remove's rules, which `remove` raises and a rollback's advice asks
    before it says "Remove it" (fourth hostile pass H4: a rollback to an entry naming `/` advised a remove that
    remove then refused). With `history`, a folder that is not the entry's environment (`belongs.not_its_env`: its
    marker names another entry, or it lies in another state's envs/) is refused, as rollback refuses it (31st
    hostile pass (part B) P7: with two folders swapped, remove deleted the one holding the current environment)."""
    env = Path(entry.env)
    if entry.current or (current is not None and envs.same_env(current.env, env)):
        return OperationFailed(f"{env} is the current environment; roll back to another one first, then remove "
                               "this one.")
    edited = envs.edited_env_path(entry.env)
    if edited is not None:  # rollback's rule: `ENV/lib/..` was deleted part-way (33rd hostile pass (part B) P4)
        return OperationFailed(f"history entry {entry.id} names its environment as {entry.env!r}, which is {edited}, "
                               "so gc-wizard deletes nothing through it; nothing deleted.")
    if env.is_symlink() and envs.in_envs_folder(env):
        return None  # a link in envs/: remove deletes the link, never what it points to
    foreign = not_its_env(history, entry) if history is not None else None
    if foreign is not None:
        return OperationFailed(f"{env} (entry {entry.id}) is not that entry's environment in this state: {foreign}. "
                               "gc-wizard deletes nothing it cannot tell is that entry's; nothing deleted.")
    if not envs.is_managed(env):
        return OperationFailed(f"{env} is not a managed environment (not a folder in {paths.envs_dir()}); "
                               "gc-wizard only deletes environments it created.")
    if not env.exists():
        return UserError(f"{env} is already gone (entry {entry.id}).")
    if not env.is_dir() or not ((env / "pyvenv.cfg").is_file() or (env / envs.MARKER).is_file()):
        # History is a file anyone with write access could edit, and envs/ may be a link to a user's own
        # disk: only a folder that is an environment (a venv's pyvenv.cfg, or the wizard's marker) is deleted.
        return OperationFailed(f"{env} is not an environment (it has neither a pyvenv.cfg nor gc-wizard's "
                               f"{envs.MARKER}), so gc-wizard deletes nothing there; remove it by hand if you are "
                               "sure.")
    return None


def _mark_removed(history: History, env: Path) -> None:
    """Every entry of the folder just deleted is marked removed (kept: history deletes nothing), and saved."""
    stamp = now()
    for other in history.entries:
        if envs.same_env(other.env, env) and other.removed is None:
            other.removed = stamp
    history.save()
