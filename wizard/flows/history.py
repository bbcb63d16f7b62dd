"""The history as both faces read it: the store, the environment current now, what is installed already,
and the recording of a check run on its own.

Why here: the CLI, the plain flow and four app screens each read the history for "which environment is
current" and each guarded an unreadable file in its own way; the answers and their words are built once here.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path
from typing import Any

from wizard import paths
from wizard.history.store import History, load_history, now, record_verify
from wizard.install import envs
from wizard.security import one_line, shell_word
from wizard.verify.check import VerifyResult
from wizard.verify.protocol import TIER_TITLES

__all__ = ["attempt_words", "current_env", "current_env_text", "disk_total_words", "disk_words", "entry_traits",
           "env_status", "error_words", "FAILED_CHECK_MARK", "forecast_env", "history_once", "history_rows", "HistoryRead", "in_sentence", "installed_fields", "installed_recipes",
           "installed_words", "installers_of", "last_failed_checks", "last_local_graphcast", "log_words", "no_installs_words",
           "now", "read_history", "record_check", "remembered_bundle", "remembered_graphcast", "size_words", "status_cell",
           "unchecked_install", "unchecked_words"]


def read_history() -> History:
    """Every install, check and rollback this user's wizard recorded (a WizardError names a broken file)."""
    return load_history()


#: The history as one read of it left it (`history_once`): what was read, or what reading it raised.
HistoryRead = History | Exception


def history_once() -> HistoryRead:
    """The history read once, for a screen that shows several things from it, or the exception reading it raised: each
    reader below given it (`history=`) reads no file and says that exception as its own (`_loaded`).

    Why: the Machine screen's render read history.json five times (the current environment's row, the returning
    user's line, the forecast key, the installed mark, the failed-check mark), each a parse of the whole file and
    a look at its markers (leftovers of the 30th hostile pass, item 4)."""
    try:
        return load_history()
    except Exception as exc:  # each reader says it as its own
        return exc


def _loaded(history: HistoryRead | None) -> History:
    """`history` as read (`history_once`), its exception raised again; None: read it now."""
    if history is None:
        return load_history()
    if isinstance(history, Exception):
        raise history
    return history


def current_install() -> tuple[str, str] | None:
    """(environment, recipe) of the current entry, or None (none, or the history cannot be read)."""
    try:
        current = load_history().current()
    except Exception:
        return None
    return (current.env, current.recipe) if current is not None and current.env else None


def current_env() -> str | None:
    """The environment current now (None: there is none, or the history cannot be read: an unreadable
    history must not hide an outcome)."""
    try:
        current = load_history().current()
    except Exception:
        return None
    return getattr(current, "env", None) if current is not None else None


def current_env_text(history: HistoryRead | None = None) -> str:
    """The GraphCast environment the wizard made current (its recipe and status below), or that there is none.
    `history`: as read already (`history_once`); None reads it."""
    try:
        current = _loaded(history).current()
    except Exception as exc:  # an unreadable history is said, never a crash
        return f"unknown (the history cannot be read: {exc})"
    if current is None:
        return "none yet (the wizard builds one in a new folder)"
    return f"{current.env}\n  {current.recipe} · {env_status(current)}"


def returning_user_line(history: HistoryRead | None = None) -> str | None:
    """For the first screen of a user who has one: their current GraphCast environment in one line, and where to go
    from it; None when there is none (or the history cannot be read: the facts' own row says so). Walk 20 #6: a
    returning user saw the same "choose a recipe" as a new one, the working environment below the fold.
    `history`: as read already (`history_once`); None reads it."""
    try:
        current = _loaded(history).current()
    except Exception:  # the row in the facts says the history cannot be read
        return None
    if current is None:
        return None
    forecast = "f: a forecast with it; " if _forecast_env_of(current) else ""
    return (f"Your GraphCast environment: {current.recipe} ({env_status(current)}), current. "
            f"{forecast}h: History and rollback; Enter: install another beside it.")


def forecast_env(history: HistoryRead | None = None) -> str | None:
    """The current environment a forecast can run in (installed, or verified since; its folder there), else None.

    Why: walk 28 #16 — after a CLI install, the app offered its forecast only on the Done screen of an install made
    in the app: the first screen of the next start had no f, so the app's forecast was out of reach.
    `history`: as read already (`history_once`); None reads it."""
    try:
        current = _loaded(history).current()
    except Exception:  # the facts' own row says the history cannot be read
        return None
    return _forecast_env_of(current)


def _forecast_env_of(current) -> str | None:
    """`forecast_env` for an entry already read (`returning_user_line` has it: the history is not read again)."""
    if current is None or not current.env or current.status not in ("installed", "verified"):
        return None
    return current.env if Path(current.env).is_dir() else None


def status_cell(entry_status: str, environment_status: str) -> str:
    """The one word a history table's status column shows: the environment's state when a later check verified
    it (`env_status`), "not run" for a check that never started on a node, else the entry's own status."""
    if environment_status.startswith("verified"):
        return "verified"
    return "not run" if environment_status.startswith("not run") else entry_status


NEVER_STARTED = ("slurm_queue_timeout", "srun_failed")
"""The findings of a check that never started on a node: no tier ran, so nothing was found wrong with the
environment (walk 24 #8: a `--slurm-wait` queue timeout read as "verify failed")."""


def error_words(entry, environment_status: str) -> str | None:
    """The first line of an entry's error as History shows it, in both faces — or, for an install kept unchecked
    that a later check verified, that it was verified since and what happened at install, without the stale "stays
    at …, not checked; `verify --env` checks it" (walk 24 #8: the list said "verified", the detail "error: the
    GraphCast check was stopped by you")."""
    error = getattr(entry, "error", None) if not isinstance(entry, dict) else entry.get("error")
    if not error:
        return None
    first = str(error).splitlines()[0]
    if environment_status.startswith("verified"):
        when = environment_status.split()[1] if len(environment_status.split()) > 1 else ""
        return f"verified since{f' ({when})' if when else ''} by a later check; at install, {first.split('; ')[0]}."
    return first


def env_status(entry) -> str:
    """An install entry's environment as it stands now: the install's own status, or "verified" (with the date)
    once a later GraphCast check passed on it (`verify --env`, a rollback's check) — its marker keeps that date.
    Walk 19 #2: an install kept unchecked, then checked by the rollback to it, was still called "installed"."""
    if entry.kind == "verify" and entry.status == "failed" and entry.verify is not None \
            and not entry.verify.failed_tier and any(f in NEVER_STARTED for f in entry.verify.findings):
        return "not run (the check never started on a node)"
    if entry.kind != "install" or entry.status != "installed":
        return entry.status
    marker = envs.read_marker(entry.env) if entry.env else None
    verified = getattr(marker, "verified", None)
    return f"verified {verified[:10]} (checked since)" if verified else entry.status


def installed_recipes(history: HistoryRead | None = None) -> dict[str, str]:
    """recipe id -> "current" or "installed", from history (good installs whose folder is still there):
    so a list of recipes says what the user already has before they build a second copy of it. `history`: as read
    already (`history_once`); None reads it."""
    try:
        read = _loaded(history)
    except Exception:  # an unreadable history only means nothing is marked
        return {}
    found: dict[str, str] = {}
    for entry in read.good_installs():
        if entry.removed is None and Path(entry.env).is_dir():
            found[entry.recipe] = "current" if entry.current or found.get(entry.recipe) == "current" else "installed"
    return found


def unreachable_page_seen(recipe, history: HistoryRead | None = None) -> str | None:
    """The host of `recipe`'s own wheel page that its newest failed install here could not reach
    ("This server cannot reach storage.googleapis.com"), when the recipe has an alternative source that needs no
    page; else None. Walk 24 #1: after two such failures the machine screen still recommended the recipe as it was,
    with no word of the PyPI source that had installed on the same server. `history`: as read already
    (`history_once`); None reads it."""
    if not recipe.alternatives:
        return None
    from urllib.parse import urlsplit  # deferred: only the machine screen's recommendation asks

    hosts = {urlsplit(link).hostname for link in recipe.find_links if "://" in link}
    try:
        entries = [e for e in _loaded(history).entries if e.recipe == recipe.id and e.status != "running"]
    except Exception:  # an unreadable history only means nothing is known
        return None
    last = entries[-1] if entries else None
    if last is None or last.status != "failed" or not last.error:
        return None
    return next((host for host in sorted(h for h in hosts if h) if f"cannot reach {host}" in last.error), None)


def installed_fields(installed: dict[str, str] | None, recipe_id: str) -> dict[str, bool | None]:
    """`recipes --json`'s "installed" (a good install of it whose folder is there) and "current" (that one is the
    current environment) for `recipe_id`, from `installed_recipes`; both null when `installed` is None (saved
    facts: another machine's). Walk 25 #8: the JSON had neither, so the current recipe read as never installed."""
    if installed is None:
        return {"installed": None, "current": None}
    state = installed.get(recipe_id)
    return {"installed": state is not None, "current": state == "current"}


#: A recipe list row's word for a recipe whose newest install failed its check (`last_failed_checks`), before its verdict.
FAILED_CHECK_MARK = "last check failed"


def failed_check_words(entry, command: str = "gc-wizard") -> str:
    """What a recipe list says of a recipe whose newest install failed its GraphCast check: where, why (the first
    finding's title), which history entry, and what to do before building it again (diagnose its log, with `command`:
    the recipe lists pass `paths.wizard_command()` through `last_failed_checks(named=True)`, the program the Next lines
    name, walk 33 #4; the first screen keeps the bare name, as its paragraph must fit 80×24 with its 'Press Enter'
    line, walk 29 N2, and it names the app's own way too)."""
    check = entry.verify
    node = f" on node {check.node}" if check.node else ""
    first = check.finding_details[0] if check.finding_details else {}
    why = str(first.get("title") or (check.findings[0] if check.findings else "")).rstrip(".")
    where = f"at {TIER_TITLES.get(check.failed_tier, check.failed_tier)}" if check.failed_tier else ""
    cause = ": ".join(part for part in (where, why) if part)
    log = check.log or entry.log
    diagnose = f"`{command} diagnose {shell_word(log)}`" if log else f"`{command} diagnose LOG`"
    return (f"Your last install of it failed its GraphCast check{node}{f' ({cause})' if cause else ''}, history "
            f"{entry.id}. Installing it again will likely fail the same way: {diagnose} names the cause and its fix "
            "(in the app: History, d).")


def last_failed_checks(history: HistoryRead | None = None, *, named: bool = False) -> dict[str, str]:
    """recipe id -> `failed_check_words`, for each recipe whose newest finished install failed its GraphCast check
    (not stopped; none good since). Why: walk 28 #8 — after a GPU recipe's check failed on a node, both recipe lists
    recommended it again as if untroubled, and a newcomer repeated a 3-minute, 2 GB install in a loop. `history`: as
    read already (`history_once`); None reads it. `named`: the words name the program as a new shell runs it
    (`paths.wizard_command()`, asked only when a check failed), else bare (`failed_check_words`)."""
    try:
        entries = _loaded(history).entries
    except Exception:  # an unreadable history only means nothing is marked
        return {}
    newest: dict[str, object] = {}
    for entry in entries:
        if entry.kind == "install" and entry.status not in ("running", "cancelled"):
            newest[entry.recipe] = entry
    failed = {recipe: entry for recipe, entry in newest.items()
              if entry.status == "failed" and entry.verify is not None and entry.verify.ok is False
              and not entry.verify.stopped and (entry.verify.failed_tier or entry.verify.findings)}
    command = paths.wizard_command() if named and failed else "gc-wizard"
    return {recipe: failed_check_words(entry, command) for recipe, entry in failed.items()}


def installed_words(state: str) -> str:
    """How a recipe list marks a recipe `installed_recipes` found ("current" or "installed"): both faces' words."""
    return "Already installed and current" if state == "current" else "Already installed (not current)"


def remembered_bundle(recipe: str) -> tuple[str, str] | None:
    """The bundle the newest install of `recipe` came from, if still there (walk 26 #7), and the words that name that
    install (`attempt_words`: "Your last install of R", or the attempt that failed, was stopped or is still running);
    None when there is none (or the history cannot be read). Why the words: the plan, the failed step's advice and the
    app said "your last install of R came from the bundle" of an install that had failed or been stopped (leftovers
    of the 30th hostile pass, item 3; walk 28 #15's problem)."""
    try:
        found = load_history().last_bundle_entry(recipe)
    except Exception:  # an unreadable history only means nothing is remembered
        return None
    if found is None:
        return None
    path, entry = found
    return path, attempt_words(entry, recipe)


def in_sentence(words: str) -> str:
    """`attempt_words` inside a sentence: "your last install of …" (its first letter small)."""
    return words[:1].lower() + words[1:]


def unchecked_install(recipe_id: str) -> tuple[str, str, int] | None:
    """The newest install of `recipe_id` that is on disk, installed but never checked and not current (the app's
    "Stop, keep it unchecked", `install --keep-unchecked`): its folder, history id and disk use; None when there is
    none or the history is unreadable. Walk 26 #9: the next plan of the same recipe built a third environment
    without a word of the 917 MiB one kept, which a three-minute check would have made usable."""
    try:
        history = load_history()
    except Exception:  # an unreadable history only means nothing is known
        return None
    for entry in history.good_installs():
        if entry.recipe != recipe_id or entry.status != "installed" or entry.current or entry.removed is not None:
            continue
        if not entry.env or not Path(entry.env).is_dir() or env_status(entry) != "installed":
            continue  # gone, or checked since (its marker's `verified`)
        return entry.env, entry.id, envs.usage([entry.env]).sizes.get(entry.env, 0)
    return None


def unchecked_words(recipe_id: str, found: tuple[str, str, int], command: str = "gc-wizard") -> str:
    """Both faces' sentence on `unchecked_install`'s find, in the plan (app and CLI) and before `install` runs: where
    it is, its size, and the check that makes it usable instead of building another (walk 26 #9)."""
    env, entry_id, size = found
    return (f"You already have an unchecked install of {recipe_id}: {env} ({size_words(size)}, history {entry_id}). "
            f"Checking it may be all you need: `{command} verify --env {shell_word(env)}`; "
            "this plan builds another beside it.")


def last_local_graphcast(version: str) -> str | None:
    """The local GraphCast an earlier install of this version used, if still there (None if unreadable): the app's
    plan starts from it, and the CLI's install lines give it (`remembered_graphcast`, the one choice of it)."""
    found = remembered_graphcast(version)
    return found[0] if found else None


#: How an install that did not finish is named where what it used is offered again (`attempt_words`).
_UNFINISHED = {"failed": "failed", "cancelled": "stopped before it finished", "running": "still running"}


def attempt_words(entry, what: str) -> str:
    """The install `entry` as the subject of a sentence about what it used ("Your last install of GraphCast 0.1.1"),
    named as what the history says it was: an attempt that failed, was stopped or is still running is never "your
    last install". Why: walk 28 #15 — the plan said "Your last install of GraphCast 0.1.1 used …" while the only
    earlier install had been stopped with Ctrl-C."""
    state = _UNFINISHED.get(entry.status)
    if state is None:
        return f"Your last install of {what}"
    return f"Your last attempt to install {what} ({state}, history {entry.id})"


def remembered_graphcast(version: str) -> tuple[str, str] | None:
    """The local GraphCast an earlier install of this version used, if still there, and the words that name that
    install (`attempt_words`); None when there is none (or the history cannot be read)."""
    try:
        found = load_history().last_local_graphcast_entry(version)
    except Exception:  # an unreadable history only means nothing is remembered
        return None
    if found is None:
        return None
    path, entry = found
    return path, attempt_words(entry, f"GraphCast {version}")


def record_check(env: Path, result: VerifyResult, *, started: str | None = None) -> bool:
    """A history entry for a check run on its own, and the marker's `verified` date when it passed. False
    when another wizard holds the state lock (the check is then not in the history). OSError/WizardError
    go to the caller: a finished check is still worth its result, so it only warns. `started`: when the
    check began (`now()` before it ran), else the end less the check's own measured seconds, so the entry
    never says it began when it finished (walk 23 #11)."""
    if started is None:
        started = time.strftime("%Y-%m-%dT%H:%M:%S", time.localtime(time.time() - max(result.seconds or 0.0, 0.0)))
    recorded = record_verify(env, result.summary(), log=result.log, started=started) is not None
    marker = envs.read_marker(env)
    if result.ok and marker:
        envs.write_marker(env, replace(marker, verified=now()))
    return recorded


def size_words(size: int) -> str:
    """Bytes as a person reads a folder's size: GiB from one GiB up, MiB below."""
    if size >= 2**30:
        return f"{size / 2**30:.2f} GiB"
    return f"{size / 2**20:.1f} MiB"


def disk_words(row: dict[str, Any]) -> str:
    """One `history_rows` row's disk use in a word or a size: what its folder takes, or why there is none
    ("removed" by `remove`, "-" for an install that never finished, "gone" when it vanished otherwise).
    "" for a check or a rollback, which have no folder of their own. Both faces show this same cell."""
    if row["kind"] != "install":
        return ""
    if not row["env_exists"]:
        return "removed" if row.get("removed") else ("-" if row["status"] in ("failed", "cancelled") else "gone")
    return size_words(row["disk_bytes"])


def disk_total_words(total: int, installers: Iterable[str | None] = ("uv",)) -> str:
    """The line under the history that says what all environments take together; uv's cache is named only for the
    environments made with uv (`installers`: the installers of the environments still there; walk 21 #11 read
    "hardlinked from uv's cache" under a pip install, and walk 25 #8 under a pip one beside uv ones)."""
    used = set(installers)
    if used == {"uv"}:
        why = "files they share, hardlinked from uv's cache, counted once"
    elif "uv" in used:
        why = "a file they share counted once; the uv-made ones hardlink theirs from uv's cache, the others copy"
    else:
        why = "a file they share counted once"
    return f"Disk: {size_words(total)} for all environments together ({why})."


def installers_of(rows: Iterable[dict[str, Any]]) -> set[str | None]:
    """The installers that made the environments still there (`history_rows`' rows), for `disk_total_words`: a
    failed uv try whose folder was removed shares nothing (walk 25 #8: uv's TLS failure, then pip, read as uv's)."""
    return {row.get("installer") for row in rows if row.get("kind") == "install" and row.get("env_exists")}


def entry_traits(entry: Any, *, when: bool = True) -> str | None:
    """What tells two environments of one recipe apart, in one row both faces show (History, `history`, the
    rollback question, `remove`'s question): made with the notebook's packages or not, the GraphCast version and
    the local source it came from, and (`when`) when it was installed. None when nothing is known.

    Why: a plain install and a `--with-notebook` one of `jax0.4.23-cpu` read the same everywhere ("jax0.4.23-cpu
    (uv) … GraphCast from /tmp/walk23/graphcast"), so the walker could not tell which to keep or roll back to
    (walk 23 #2). `entry`: a history Entry or its `to_dict()` row."""
    data = entry if isinstance(entry, dict) else entry.to_dict()
    marker = data.get("marker") if isinstance(data.get("marker"), dict) else {}
    parts = []
    notebook = marker.get("notebook")
    if notebook is True:
        parts.append("+ notebook packages")
    elif notebook is False:
        parts.append("no notebook packages")
    version = marker.get("graphcast_version")
    given = data.get("graphcast_given")
    graphcast = "GraphCast" + (f" {version}" if isinstance(version, str) and version else "")
    if isinstance(given, str) and given:
        parts.append(f"{graphcast} from {given}")
    elif graphcast != "GraphCast":
        parts.append(graphcast)
    started = data.get("started")
    if when and data.get("kind") == "install" and isinstance(started, str) and started:
        parts.append(f"installed {started[:16].replace('T', ' ')}")
    return " · ".join(parts) or None


def log_words(log: str | None) -> str | None:
    """An entry's log as a row says it, `log: PATH`, and that it is gone when it is (None: the entry has none).
    Walk 38 #4: plain `history` named no log, where `--json` and the app did; the user told to `diagnose` it had to
    look for it under the state folder."""
    if not log:
        return None
    shown = one_line(log)  # as the row's other paths: a newline in an edited history.json makes no row of its own
    return f"log: {shown}" if Path(log).is_file() else f"log: {shown} (no longer there)"


def no_installs_words() -> str:
    """Both faces' sentence for an empty history, naming the state folder read and whether GC_WIZARD_HOME is set
    (walk 25 #4: a shell that skipped `.bashrc` read the default folder and said only "No installs yet")."""
    return (f"No installs yet in {paths.state_words()}. Start with `gc-wizard` or "
            "`gc-wizard install RECIPE`.")


def history_rows() -> tuple[list[dict[str, Any]], int, list[str]]:
    """history --json's list (every entry's fields plus whether its folder exists and its disk use),
    the disk use of all environments together, and the history's warnings."""
    history = load_history()
    usage = envs.usage(entry.env for entry in history.entries if entry.kind == "install")
    rows = []
    for entry in history.entries:
        data = entry.to_dict()
        data["env_exists"] = Path(entry.env).is_dir()
        data["disk_bytes"] = usage.sizes.get(entry.env, 0) if entry.kind == "install" else 0
        data["env_status"] = env_status(entry)
        rows.append(data)
    return rows, usage.total, list(history.warnings)
