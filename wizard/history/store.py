"""Keeps `history.json`: every install, verify and rollback, and which environment is current.

Why it is boring on purpose: a user must always be able to get back to what worked.

- Written atomically (temp file, fsync, rename) by callers holding the state lock
  (`wizard.lock.StateLock`): a reader sees the old file or the new one, never half of either.
- A file that cannot be read at all (not JSON, not a history, unreadable) is moved aside to
  `history.json.corrupt-<timestamp>` with a warning and a fresh history starts — never a traceback,
  never silently emptied. If it cannot even be moved, saving is refused rather than overwriting it.
- A single entry that cannot be read is kept in the file byte-for-byte (and named in a warning);
  fields written by a newer wizard are kept too. Nothing in the file is ever dropped by a rewrite.
- "Current" flips only when an install or rollback succeeded; at most one entry is current.

Interrupted runs: every run holds the state lock while its entry says "running". So when the next
wizard finds a "running" entry while it holds (or can take) the lock, that run is dead: the wizard
was killed, the machine rebooted or the SSH session dropped. Without the lock (another wizard is
working right now) a "running" entry of this host is judged by its pid and boot id. A dead run is
marked `status: "failed"` with `interrupted: true` and an error saying so — "failed" and not
"cancelled", because nobody chose to stop it, and the environment it was building must not be used.
It is never made current.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import socket
import time
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

from wizard import bounded, paths
from wizard.errors import LockHeld, OperationFailed, UserError
from wizard.install import envs
from wizard.install.sources import read_identity
from wizard.lock import StateLock
from wizard.security import cut, make_folders, redact_secrets
from wizard.source_trust import swap_risk
from wizard.tree_walk import remove_tree

STATUSES = ("verified", "installed", "failed", "cancelled", "running")
GOOD = ("verified", "installed")
KINDS = ("install", "verify", "rollback")
def _shown(value: str) -> str:
    """An edited field quoted in a warning: repr escapes a newline or a control, and a long one is masked and cut."""
    return repr(cut(value, 60))


#: The fields that name a path: each is refused on read when it cannot be one at all (`paths.unholdable_path`), so
#: an edited entry is named with its field, not met later as Python's ValueError or an ENAMETOOLONG blamed on the
#: state folder (twenty-first hostile pass P4).
_PATH_FIELDS = ("env", "log", "requirements_file", "python", "bundle", "graphcast_given")
#: An entry id as the wizard writes them, and any a person would type.
_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:-]{0,79}")
INTERRUPTED = "interrupted: the wizard stopped before finishing (killed, rebooted, or the SSH session dropped)"


def shown_id(value: str) -> str:
    """An entry id read from a file (a marker, another state's history) as it may be printed: as it is when it is
    one the wizard writes, else escaped (`_shown`)."""
    return value if _ID.fullmatch(value) else _shown(value)


def now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S")


def new_id(stamp: str | None = None) -> str:
    """`YYYYmmdd-HHMMSS-xxxx`: now, or `stamp` (an environment folder's own, so the two name one moment)."""
    return (stamp or time.strftime("%Y%m%d-%H%M%S")) + "-" + secrets.token_hex(2)


def _id_stamp(started: str | None) -> str | None:
    """`now()`'s `2026-11-28T02:44:53` as an id's `20261128-024453` (None for anything else)."""
    match = re.fullmatch(r"([0-9]{4})-([0-9]{2})-([0-9]{2})T([0-9]{2}):([0-9]{2}):([0-9]{2})", started or "")
    return "{}{}{}-{}{}{}".format(*match.groups()) if match else None


#: The time stamp a new managed environment's folder ends with (`install.plan.default_env_dir`).
_FOLDER_STAMP = re.compile(r"-([0-9]{8}-[0-9]{6})(?:-[0-9]+)?$")  # `-2` …: a second install that second


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _number(value: Any) -> float | None:
    return value if isinstance(value, (int, float)) and not isinstance(value, bool) else None


@dataclass(frozen=True)
class VerifySummary:
    """What history keeps of a GraphCast check (the full result is in its log).

    Made from the typed result by `wizard.verify.check.VerifyResult.summary()`; stored as the small
    JSON object `to_dict()` writes. `from_dict` also reads what older versions stored: summaries
    without the newer keys, and a whole verify result (its `tiers` as dicts).
    """

    ok: bool | None
    backend: str | None = None
    failed_tier: str | None = None
    """The first tier that failed or was stopped (`Tier.status` "failed" or "cancelled")."""
    param_count: int | None = None
    init_seconds: float | None = None
    findings: tuple[str, ...] = ()
    """The finding ids, root cause first."""
    log: str | None = None
    node: str | None = None
    """The cluster node the check ran on through srun (None: here)."""
    finding_details: tuple[Mapping[str, Any], ...] = ()
    """Up to five findings' {"id", "title", "fix"}: what the support report shows of the last check."""
    gencast_param_count: int | None = None
    gencast_init_seconds: float | None = None
    gencast: bool = False
    """Whether the check had a GenCast tier (GraphCast v0.2 and later)."""
    stopped: bool = False
    """The check was stopped (Ctrl-C, the app's stop question) at `failed_tier`, not failed there: walk 19 #2, a
    check the user stopped and kept unchecked read "check: failed at GraphCast jit init" in History."""

    def reason(self) -> str:
        """Why the check failed, in one line: the first finding's title and fix (history keeps it)."""
        first = self.finding_details[0] if self.finding_details else {}
        title = str(first.get("title") or (self.findings[0] if self.findings else "") or "the GraphCast check failed")
        fix = f" Fix: {first['fix']}" if first.get("fix") else ""
        return f"{title}.{fix}"

    def to_dict(self) -> dict[str, Any]:
        extra = {} if not self.gencast else {"gencast_param_count": self.gencast_param_count,
                                             "gencast_init_seconds": self.gencast_init_seconds}
        if self.stopped:
            extra["stopped"] = True
        return {**extra, "ok": self.ok, "backend": self.backend, "failed_tier": self.failed_tier,
                "param_count": self.param_count, "init_seconds": self.init_seconds,
                "findings": list(self.findings), "log": self.log, "node": self.node,
                "finding_details": [dict(d) for d in self.finding_details]}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> VerifySummary:
        """A stored summary; a value of the wrong type reads as unknown (None), never an error."""
        if isinstance(data.get("tiers"), list):
            return cls._from_verify_json(data)
        findings = data.get("findings") if isinstance(data.get("findings"), list) else []
        details = data.get("finding_details") if isinstance(data.get("finding_details"), list) else []
        ok = data.get("ok")
        return cls(ok=ok if isinstance(ok, bool) else None, backend=_text(data.get("backend")),
                   failed_tier=_text(data.get("failed_tier")), param_count=_number(data.get("param_count")),
                   init_seconds=_number(data.get("init_seconds")),
                   findings=tuple(str(f) for f in findings if isinstance(f, str)), log=_text(data.get("log")),
                   node=_text(data.get("node")),
                   finding_details=tuple(dict(d) for d in details if isinstance(d, Mapping)),
                   gencast_param_count=_number(data.get("gencast_param_count")),
                   gencast_init_seconds=_number(data.get("gencast_init_seconds")),
                   gencast="gencast_param_count" in data or "gencast_init_seconds" in data,
                   stopped=data.get("stopped") is True)

    @classmethod
    def _from_verify_json(cls, verify: Mapping[str, Any]) -> VerifySummary:
        """An older version's whole verify result (dict tiers), summarised as the typed result would be."""
        tiers = [t for t in verify["tiers"] if isinstance(t, Mapping)]
        failed = next((t.get("name") for t in tiers if t.get("status") == "failed"
                       or (not t.get("ok") and t.get("status") not in ("skipped", "not_run"))), None)
        init = next((t for t in tiers if t.get("name") == "graphcast_jit_init"), {})
        gencast = next((t for t in tiers if t.get("name") == "gencast_jit_init"), None)
        findings = [f for f in verify.get("findings") or [] if isinstance(f, Mapping)]
        where = verify.get("where") if isinstance(verify.get("where"), Mapping) else {}
        return cls.from_dict({
            "ok": verify.get("ok"), "backend": verify.get("backend"), "failed_tier": failed,
            "param_count": init.get("param_count"), "init_seconds": init.get("init_seconds"),
            "findings": [f.get("id") for f in findings], "log": verify.get("log"), "node": where.get("node"),
            "finding_details": [{"id": f.get("id"), "title": f.get("title"), "fix": f.get("fix")}
                                for f in findings][:5],
            **({} if gencast is None else {"gencast_param_count": gencast.get("param_count"),
                                           "gencast_init_seconds": gencast.get("init_seconds")})})


def boot_id() -> str:
    """This boot's id (Linux); a pid from another boot says nothing about a process now."""
    try:
        return Path("/proc/sys/kernel/random/boot_id").read_text().strip()
    except OSError:
        return ""


@dataclass
class Entry:
    id: str
    kind: str
    """"install", "verify" or "rollback"."""
    recipe: str
    env: str
    status: str = "running"
    current: bool = False
    started: str = field(default_factory=now)
    finished: str | None = None
    log: str | None = None
    packages: list[str] = field(default_factory=list)
    """The environment's exact package set (a frozen requirements list) once installed."""
    requirements_file: str | None = None
    """The same set with sha256 hashes where the installer's cache knows them (state/frozen/<id>.txt)."""
    verify: VerifySummary | None = None
    """What the GraphCast check found: ok, backend, failed tier, param_count, finding ids."""
    mode: str = "new"
    """"new" (a fresh environment) or "in-place" (an existing one changed)."""
    snapshot: list[str] | None = None
    """In-place installs: the environment's package set before the wizard changed it."""
    previous_marker: dict | None = None
    """In-place installs: the env marker that was there before (None: there was none)."""
    error: str | None = None
    pid: int = field(default_factory=os.getpid)
    host: str = field(default_factory=socket.gethostname)
    boot: str = field(default_factory=boot_id)
    interrupted: bool = False
    target: str | None = None
    """Rollbacks: the entry rolled back to."""
    find_links: list[str] = field(default_factory=list)
    """Where the install found packages besides the index (a rebuild looks there again)."""
    python: str | None = None
    """The interpreter the environment was built with (to rebuild it if its folder is deleted)."""
    python_version: str | None = None
    marker: dict | None = None
    """The env marker the install wrote (a rebuild writes it again)."""
    removed: str | None = None
    """When `gc-wizard remove` deleted the environment's folder."""
    lock: dict | None = None
    """The hashed lock the environment was built from: {"path", "sha256", "format"} (`--lock`/`--bundle`)."""
    bundle: str | None = None
    """The offline bundle folder the environment was installed from (`--bundle DIR`)."""
    installer: str | None = None
    """uv or pip: two installs of one recipe differ by it (both history views show it)."""
    previous_current: str | None = None
    """The install entry that was current just before this one became current: where a plain
    `gc-wizard rollback` goes back to."""
    graphcast_source: dict | None = None
    """GraphCast's direct reference as frozen (`graphcast @ file:///…`) and, for a file, its sha256: the one
    local source a rebuild of this entry may install from outside the state (`wizard.install.recorded_set`)."""
    graphcast_given: str | None = None
    """The local GraphCast source (a folder or file path) the plan of this install named, recorded when it began:
    the next plan offers it again even when this install was stopped or failed before anything was frozen."""
    recipes_dir: str | None = None
    """The `--recipes-dir` folder the recipe came from (None: a built-in or the user's own recipe folder), and
    `offline`: whether the install used no index. With `find_links`, `bundle`, `lock` and `installer` they are the
    sources an advised `install` line is built from (24th hostile pass (part B) P2: rollback's advice dropped
    them, and the line it printed failed with "unknown recipe")."""
    offline: bool = False
    extra: dict[str, Any] = field(default_factory=dict)
    """Fields this version does not know (written by a newer wizard): kept and written back."""

    def __post_init__(self) -> None:
        # One spelling per folder, from the start: an entry read as `//tmp//st/envs/x` (or `envs/./x/`) was copied
        # as it was into the entries a rollback to it wrote (22nd hostile pass P9); comparisons go through
        # `envs.same_env` whatever the spelling.
        if isinstance(self.env, str):
            self.env = envs.spelled_plainly(self.env)

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        extra = data.pop("extra")
        data["verify"] = self.verify.to_dict() if self.verify is not None else None
        _paths_as(data, paths.path_for_json)  # their bytes as UTF-8, whatever this shell's locale (28th pass (A) P3)
        return {**extra, **data}

    @classmethod
    def from_dict(cls, data: Any) -> Entry:
        """An entry from its JSON object; ValueError naming what is wrong."""
        if not isinstance(data, dict):
            raise ValueError("it is not an object")
        data = _paths_as(dict(data), paths.path_from_json)
        for key in ("id", "kind", "recipe", "env"):
            if not isinstance(data.get(key), str) or not data.get(key):
                raise ValueError(f"'{key}' is missing or not text")
        if not _ID.fullmatch(data["id"]):
            # The wizard writes `20261127-021832-023e`: an id is a file name (logs/, frozen/) and a table cell, so a
            # `/` or a newline in an edited one could reach outside the state or print rows of its own (ninth
            # hostile pass H6: `../../x\nINJECTED line` came out as a line of the history table).
            raise ValueError(f"its id {_shown(data['id'])} is not one the wizard writes (letters, digits, '.', '_', "
                             "':' and '-')")
        if data["kind"] not in KINDS:
            raise ValueError(f"its kind {_shown(data['kind'])} is not one of {', '.join(KINDS)}")
        if data.get("status", "running") not in STATUSES:
            raise ValueError(f"status {data.get('status')!r} is not one of {', '.join(STATUSES)}")
        if not isinstance(data.get("current", False), bool):
            raise ValueError("'current' is not true/false")
        for key in ("packages", "find_links"):
            if not isinstance(data.get(key, []), list):
                raise ValueError(f"'{key}' is not a list")
            if not all(isinstance(item, str) for item in data.get(key, [])):
                raise ValueError(f"'{key}' holds something that is not text")
        for key in _PATH_FIELDS:
            value = data.get(key)
            problem = paths.unholdable_path(value) if isinstance(value, str) and value else None
            if problem:
                raise ValueError(f"'{key}' {problem}")
        lock = data.get("lock")
        lock_path = lock.get("path") if isinstance(lock, dict) else None
        problem = paths.unholdable_path(lock_path) if isinstance(lock_path, str) and lock_path else None
        if problem:
            raise ValueError(f"'lock.path' {problem}")
        for link in data.get("find_links", []):
            problem = paths.unholdable_text(link)
            if problem:
                raise ValueError(f"'find_links' has an item that {problem}")
            if not link.strip() or link.lstrip().startswith("-"):
                # A value an installer would read as an option (`--index-url=http://elsewhere/`): the wizard
                # never records one (twelfth hostile pass #62: it reached uv's argv after `--find-links`).
                raise ValueError(f"'find_links' holds {_shown(link)}, which is not a folder or URL")
        for f in fields(cls):  # history.json is data: every known field must have its own type
            if f.name not in data or f.name == "extra":
                continue
            value, kind = data[f.name], str(f.type)
            expected = (str if kind.startswith("str") else bool if kind.startswith("bool")
                        else int if kind.startswith("int") else dict if kind.startswith("dict")
                        else list if kind.startswith("list") else None)
            if expected is None or (value is None and "None" in kind):
                continue
            if not isinstance(value, expected) or (expected is int and isinstance(value, bool)):
                raise ValueError(f"'{f.name}' is not {expected.__name__}")
        verify = data.get("verify")
        if verify is not None and not isinstance(verify, dict):
            raise ValueError("'verify' is not an object")
        known = {f.name for f in fields(cls)} - {"extra", "verify"}
        entry = cls(**{k: v for k, v in data.items() if k in known},
                    verify=VerifySummary.from_dict(verify) if verify is not None else None)
        entry.extra = {k: v for k, v in data.items() if k not in known}
        return entry


def _paths_as(data: dict[str, Any], spell: Any) -> dict[str, Any]:
    """`data`, an entry's JSON object, with its path fields (and its lock's path) spelled by `spell`: history.json
    holds a path's bytes as UTF-8 text, this process may spell them otherwise (`paths.path_from_json`)."""
    for key in _PATH_FIELDS:
        if isinstance(data.get(key), str):
            data[key] = spell(data[key])
    lock = data.get("lock")
    if isinstance(lock, dict) and isinstance(lock.get("path"), str):
        data["lock"] = {**lock, "path": spell(lock["path"])}
    return data


def _pid_alive(pid: Any) -> bool:
    if not isinstance(pid, int) or pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:  # a zombie is dead for our purposes
        with open(f"/proc/{pid}/stat") as handle:
            return handle.read().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return True


#: The format of history.json this gc-wizard reads and writes (its top-level "version").
HISTORY_VERSION = 1


class History:
    """The entries of history.json in file order, plus the warnings met while reading it."""

    def __init__(self, path: Path, entries: list[Entry], warnings: list[str], *,
                 unreadable: list[tuple[int, Any]] | None = None, save_refused: str | None = None,
                 top: Mapping[str, Any] | None = None) -> None:
        self.path = path
        self.entries = entries
        self.warnings = warnings
        self._unreadable = unreadable or []  # (position in the file, raw value): written back verbatim
        self._save_refused = save_refused
        self._top = dict(top or {})  # the file's other top-level fields (a newer wizard's): written back as read
        seen: set[str] = set()
        self._shared_ids = {e.id for e in entries if e.id in seen or seen.add(e.id)}
        for entry_id in sorted(self._shared_ids):
            self.warnings.append(f"{self._shared_id_words(entry_id)}; `rollback` and `remove` refuse that id until "
                                 "one of them is given another id or removed.")

    def _shared_id_words(self, entry_id: str) -> str:
        lines = self.lines_of(entry_id)
        where = f" (lines {', '.join(map(str, lines))})" if len(lines) > 1 else ""
        count = sum(e.id == entry_id for e in self.entries)
        return (f"{self.path}: {count} entries{where} have the same id {entry_id!r}, which the wizard never writes: "
                "the history was edited by hand")

    def current(self) -> Entry | None:
        return next((e for e in self.entries if e.current), None)

    def get(self, entry_id: str) -> Entry | None:
        """The entry `entry_id` names, None if none. An id two entries share is refused (`UserError`): which one
        it names cannot be told, and picking the first silently rolled back to an environment the user did not
        choose (eleventh hostile pass #73). Every lookup by id — `rollback ID`, `remove ID`, a rollback's way
        back to `previous_current` — comes here."""
        if entry_id in self._shared_ids:
            raise UserError(f"{self._shared_id_words(entry_id)}, so which one it names cannot be told. Give one of "
                            "them another id or remove one in that file (see `gc-wizard history`), then run again.")
        return next((e for e in self.entries if e.id == entry_id), None)

    def require(self, entry_id: str) -> Entry:
        """The entry `entry_id`, or one UserError sentence: there is none, or there is one that cannot be used
        and why (an edited entry whose `lock` is a string said "There is no history entry", fifth hostile pass
        10c)."""
        entry = self.get(entry_id)
        if entry is not None:
            return entry
        for position, raw in self._unreadable:
            if isinstance(raw, Mapping) and raw.get("id") == entry_id:
                try:
                    Entry.from_dict(raw)
                    why = "it could not be read"
                except (ValueError, TypeError) as exc:
                    why = str(exc)
                line = self.line_of(entry_id)
                raise UserError(f"History entry {entry_id!r} ({self.path.name} entry {position + 1}"
                                f"{f', line {line}' if line else ''}) cannot be used: {why}; it was edited by hand. "
                                "Fix or remove that entry, or pick another in `gc-wizard history`.")
        meant = self.meant_ids(entry_id)
        guess = f"did you mean {' or '.join(meant)}? " if meant else ""
        raise UserError(f"There is no history entry {entry_id!r}; {guess}see `gc-wizard history`.")

    def meant_ids(self, entry_id: str) -> list[str]:
        """The ids `entry_id` was probably meant to be: those it begins (`20261128-0231` → `20261128-023131-6a16`),
        else one near spelling. walk 23 #10: a unique prefix got no suggestion. It is suggested,
        not taken: `remove ID --yes` deletes an environment, and an id finished by guessing must not choose which
        one; every lookup by id (`rollback`, `remove`, the app's History) comes through `require`, so all of them
        say it."""
        ids = [e.id for e in self.entries]
        wanted = str(entry_id).strip()
        begun = [i for i in ids if wanted and i.startswith(wanted)]
        if begun:
            return begun[:3]
        import difflib  # deferred: only a refusal needs it
        return difflib.get_close_matches(wanted, ids, n=1, cutoff=0.8)

    def lines_of(self, entry_id: str) -> list[int]:
        """Every line of history.json on which an entry with id `entry_id` starts ([] when it cannot be read)."""
        try:
            text = bounded.read_text(self.path, bounded.HISTORY_BYTES)
        except (OSError, ValueError):
            return []
        key = f'"id": {json.dumps(entry_id)}'
        found, at = [], text.find(key)
        while at >= 0:
            found.append(text.count("\n", 0, at) + 1)
            at = text.find(key, at + 1)
        return found

    def line_of(self, entry_id: str, value: str | None = None) -> int | None:
        """The line of history.json on which entry `entry_id` starts, or, with `value`, on which that string
        value of the entry is written (the first such after the entry's id); None when it cannot be found.
        A refusal names the line a user opens the file at, not the position in a list."""
        try:
            text = bounded.read_text(self.path, bounded.HISTORY_BYTES)
        except (OSError, ValueError):
            return None
        start = text.find(f'"id": {json.dumps(entry_id)}')
        if start < 0:
            return None
        at = start if value is None else text.find(json.dumps(value), start)
        if value is not None and at < 0:  # saved masked (`save`): a refusal still names its line (27th pass (B) P9)
            at = text.find(json.dumps(redact_secrets(value)), start)
        return text.count("\n", 0, at) + 1 if at >= 0 else None

    def add(self, entry: Entry) -> Entry:
        self.entries.append(entry)
        return entry

    def make_current(self, entry: Entry) -> None:
        before = self.current()
        if before is not None and before is not entry and before.kind == "install":
            entry.previous_current = before.id
        for other in self.entries:
            other.current = other is entry

    def new_entry_id(self, env: str | None = None, *, started: str | None = None) -> str:
        """A new entry's id; for an install into a new managed folder (`envs/<recipe>-<stamp>`), with the folder's
        stamp, so the entry and its folder name one moment (walk 21 #11: `…-20261127-183400` against
        `20261127-183409-467d` read as two installs); else with `started` (a `now()` stamp), so a verify's id
        names when it began, as its log's name does (walk 23 #11)."""
        match = _FOLDER_STAMP.search(env or "")
        stamp = match.group(1) if match else _id_stamp(started)
        while True:
            candidate = new_id(stamp)
            if all(e.id != candidate for e in self.entries):
                return candidate

    def good_installs(self) -> list[Entry]:
        """Install entries that finished well and whose environment was not removed, newest first."""
        return [e for e in reversed(self.entries) if e.kind == "install" and e.status in GOOD]

    def last_bundle(self, recipe: str) -> str | None:
        """The path of `last_bundle_entry`, or None."""
        found = self.last_bundle_entry(recipe)
        return found[0] if found else None

    def last_bundle_entry(self, recipe: str) -> tuple[str, Entry] | None:
        """The offline bundle folder the newest install of `recipe` came from (`--bundle DIR`), when it is still a
        bundle there (its manifest.json), with that install's entry: whether it finished is for the words that offer
        it (walk 28 #15). Walk 26 #7: on the offline machine the plan offered that bundle's GraphCast wheel as
        `--graphcast-src`, and the failure that followed said to make a bundle elsewhere and copy it here — while the
        bundle was here."""
        for entry in reversed(self.entries):
            if entry.kind == "install" and entry.recipe == recipe and entry.bundle \
                    and (Path(entry.bundle) / "manifest.json").is_file() and _still_yours(entry.bundle):
                return entry.bundle, entry
        return None

    def last_local_graphcast(self, version: str) -> str | None:
        """The path of `last_local_graphcast_entry`, or None."""
        found = self.last_local_graphcast_entry(version)
        return found[0] if found else None

    def last_local_graphcast_entry(self, version: str) -> tuple[str, Entry] | None:
        """The local GraphCast source (checkout, wheel or sdist) the newest good install of GraphCast
        `version` was built from — else the one the newest other install's plan named — when it is still there
        and still that version, so a user on a server without GitHub gives the path once, not at every start
        of the app. Read from the frozen package set (`graphcast @ file:///…`) or the recorded path, never run. With
        the entry that used it: whether that install finished is for the words that offer it (walk 28 #15)."""
        # deferred: only the app's first plan asks (start-up time)
        from wizard.install.recorded_set import file_path
        from wizard.install.source_spelling import local_source_path

        good = self.good_installs()
        # Then any other install of it, newest first: a source given for an install the user stopped or that
        # failed is offered again too (the seventeenth walk's fifth problem: it had to be typed again after Ctrl-C).
        others = [e for e in reversed(self.entries) if e.kind == "install" and e not in good and e.graphcast_given]
        for entry in (*good, *others):
            if entry.bundle:  # its wheel installs nothing without the bundle's wheels: `last_bundle` (walk 26 #7)
                continue
            # The frozen line's `file:` URL in any form, read by the one parser (review: this split it itself)
            frozen = next((file_path(ref.strip()) for name, sep, ref in (p.partition("@") for p in entry.packages)
                           if sep and name.strip().lower() == "graphcast"), None)
            if frozen is not None:
                path = str(frozen)
            elif entry.graphcast_given and local_source_path(entry.graphcast_given) is not None:
                path = str(local_source_path(entry.graphcast_given))  # any spelling (31st pass (part B) P5)
            else:
                continue
            if not path or not Path(path).exists() or not _still_yours(path):
                continue
            try:
                found = read_identity(path)
            except (OSError, ValueError):
                continue
            if found.version and found.version.split("+")[0] == version:
                return path, entry
        return None

    def save(self) -> None:
        """Atomic write (callers hold the state lock): readers see the old file or the new one."""
        if self._save_refused:
            raise OperationFailed(self._save_refused)
        make_folders(self.path.parent)
        raw: list[Any] = [e.to_dict() for e in self.entries]
        for position, value in self._unreadable:
            raw.insert(min(position, len(raw)), value)
        kept = {key: value for key, value in self._top.items() if key not in ("version", "entries")}
        text = json.dumps({"version": HISTORY_VERSION, **_without_credentials(kept), "entries": _without_credentials(raw)},
                          indent=1, default=str) + "\n"
        # 0600 from the start, whatever the umask (the history names folders and logs); readers see the
        # old file or the new one, never half of it.
        from wizard.security import write_private_file

        write_private_file(self.path, text)


def _without_credentials(value: Any) -> Any:
    """Every string with URL credentials and tokens masked: history.json is never a place for a secret
    (a find-links URL with a password, an installer's error quoting one)."""
    if isinstance(value, str):
        return redact_secrets(value)
    if isinstance(value, list):
        return [_without_credentials(v) for v in value]
    if isinstance(value, dict):
        return {k: _without_credentials(v) for k, v in value.items()}
    return value


def rebuild_from_markers() -> list[Entry]:
    """Install entries for the managed environments in `envs/`, read from their markers.

    Used when history.json could not be read and was set aside: the environments are still there and
    each describes itself (`gc-wizard-env.json`), so rollback targets survive. Each comes back as an
    install of its recipe, "verified" when its marker says it passed the check, with no package set
    (a rollback to it then takes the set it has, see `wizard.flows.rollback`); none is current.
    """
    found: list[Entry] = []
    root = paths.envs_dir()
    try:
        folders = sorted(p for p in root.iterdir() if p.is_dir() and not p.is_symlink())
    except OSError:
        return []
    for folder in folders:
        marker = _marker_data(folder)
        recipe = marker.get("recipe")
        if not isinstance(recipe, str) or not recipe or not envs.env_python(folder).exists():
            continue
        entry_id = marker.get("entry_id")
        if not isinstance(entry_id, str) or not entry_id or any(e.id == entry_id for e in found):
            entry_id = new_id()
        created = marker.get("created") if isinstance(marker.get("created"), str) else None
        entry = Entry(id=entry_id, kind="install", recipe=recipe, env=str(folder),
                      status="verified" if marker.get("verified") else "installed", current=False,
                      started=created or now(), finished=created or now(), marker=marker,
                      python_version=marker.get("python") if isinstance(marker.get("python"), str) else None)
        entry.extra["rebuilt_from_marker"] = True
        found.append(entry)
    return found


def _marker_data(env: Path) -> dict[str, Any]:
    """An environment's marker as data, {} when it has none (or it cannot be read)."""
    marker = envs.read_marker(env)
    return marker.to_dict() if marker else {}


def newer_format(path: Path, data: Mapping[str, Any]) -> str | None:
    """The one sentence for a history.json this gc-wizard does not know the format of, or None.

    The one reader of the top-level "version": only the int `HISTORY_VERSION` (or no "version" at all: the bare
    list and the files written before it) is this format. Anything else — a newer int, or 2.0, "2", 1.5, null —
    is a format this gc-wizard does not know: read as far as it understands it, and never rewritten, since a save
    would lower its version and drop what the other one recorded (33rd hostile pass (part B) P7: "version": 99;
    35th hostile pass (part B) P7: 2.0, "2" and 1.5 were still rewritten as 1 without a word)."""
    if "version" not in data:
        return None
    version = data["version"]
    if isinstance(version, int) and not isinstance(version, bool) and version == HISTORY_VERSION:
        return None
    if isinstance(version, int) and not isinstance(version, bool) and version > HISTORY_VERSION:
        return (f"{path} is history format version {version}, written by a newer gc-wizard (this one knows version "
                f"{HISTORY_VERSION}), so this gc-wizard only reads it and changes nothing in this state; run the "
                "newer gc-wizard here, or set GC_WIZARD_HOME to another folder.")
    shown = json.dumps(version, default=str)
    shown = shown if len(shown) <= 40 else shown[:37] + "..."
    return (f"{path} has history format version {shown}, which this gc-wizard does not know (it knows version "
            f"{HISTORY_VERSION}, a whole number), so this gc-wizard only reads it and changes nothing in this state; "
            "run the gc-wizard that wrote it, or set GC_WIZARD_HOME to another folder.")


def _read(path: Path) -> tuple[list[Entry], list[tuple[int, Any]], list[str], str | None, dict[str, Any]]:
    """(entries, unreadable raw entries, warnings, save_refused, the parsed file's top level or {}) from `path`."""
    if not path.exists() and not path.is_symlink():
        return [], [], [], None, {}
    try:
        data = bounded.loads_json(bounded.read_text(path, bounded.HISTORY_BYTES))
        if isinstance(data, list):  # a bare list of entries is accepted
            data = {"entries": data}
        if not isinstance(data, dict) or not isinstance(data.get("entries"), list):
            raise ValueError("it is not a gc-wizard history (no list of entries)")
    except (OSError, ValueError, UnicodeDecodeError, RecursionError) as exc:
        aside = path.with_name(f"{path.name}.corrupt-{time.strftime('%Y%m%d-%H%M%S')}")
        try:
            os.replace(path, aside)
        except OSError as move_error:
            why = (f"{path} could not be read ({exc}) nor moved aside ({move_error.strerror}); fix or remove it "
                   "by hand. Until then gc-wizard will not write a history there.")
            return [], [], [why], why, {}
        kept = _salvage(aside)
        if kept is not None:
            entries, unreadable, warnings = _entries(path, kept[0])
            current = next((e for e in entries if e.current), None)
            still = f"; {current.env} is still the current environment" if current else ""
            return entries, unreadable, [
                f"{path} could not be read ({exc}); it was moved to {aside}, and the {len(entries)} "
                f"entr{'ies' if len(entries) != 1 else 'y'} before the damage (its first {kept[1]} bytes, a "
                f"complete history) were kept{still}. Your environments are untouched.", *warnings], None, kept[0]
        rebuilt = rebuild_from_markers()
        again = (f" {len(rebuilt)} environment{'s' if len(rebuilt) != 1 else ''} found in "
                 f"{paths.envs_dir()} {'were' if len(rebuilt) != 1 else 'was'} entered again from "
                 f"{'their markers' if len(rebuilt) != 1 else 'its marker'}, so rollback can still reach "
                 f"{'them' if len(rebuilt) != 1 else 'it'}; none of them is current now (which one was cannot be "
                 "told): make one current with `gc-wizard rollback ENTRY_ID` (ids in `gc-wizard history`)."
                 if rebuilt else "")
        return rebuilt, [], [f"{path} could not be read ({exc}); it was moved to {aside} and a fresh history "
                             f"started.{again} Your environments are untouched."], None, {}
    entries, unreadable, warnings = _entries(path, data)
    return entries, unreadable, warnings, None, data


def _salvage(path: Path) -> tuple[dict[str, Any], int] | None:
    """(the history, its length in bytes) when the file at `path` starts with a whole, valid history and only
    what follows it is damaged (a stray byte appended, a second write's tail); None otherwise.

    Why: one byte appended to a valid history.json set the whole file aside; entries were rebuilt from the
    env markers with none current, so `activate` then said "no current environment yet" (fifth hostile pass
    5b). The bytes before the damage still say which environment is current, and every entry's fields."""
    try:
        raw = bounded.read_head(path, bounded.HISTORY_BYTES)  # a link to /dev/zero was read whole (7th pass 3f)
        text = raw.decode("utf-8", "surrogateescape")
        data, end = json.JSONDecoder().raw_decode(text, len(text) - len(text.lstrip()))
        if isinstance(data, list):
            data = {"entries": data}
        if not isinstance(data, dict) or not isinstance(data.get("entries"), list):
            return None
        bounded.loads_json(text[:end])  # the same depth and duplicate checks as any history
    except (OSError, ValueError, RecursionError):
        return None
    if any(0xDC80 <= ord(ch) <= 0xDCFF for ch in text[:end]):
        return None  # a byte that is not UTF-8 inside the history itself: not a damage after its end
    return data, len(text[:end].encode("utf-8", "surrogateescape"))


def _entries(path: Path, data: Mapping[str, Any]) -> tuple[list[Entry], list[tuple[int, Any]], list[str]]:
    """The entries of a parsed history, each unreadable one kept aside (and named) instead of stopping."""
    entries: list[Entry] = []
    unreadable: list[tuple[int, Any]] = []
    warnings: list[str] = []
    for position, raw in enumerate(data["entries"]):
        try:
            entries.append(Entry.from_dict(raw))
        except (ValueError, TypeError) as exc:
            unreadable.append((position, raw))
            warnings.append(f"{path}: entry {position + 1} could not be read ({exc}); it is left in the file "
                            "untouched.")
    return entries, unreadable, warnings


def _in_place_note(entry: Entry) -> str:
    """For an interrupted in-place install: the user's own env may be half-changed, and nothing else says so.
    A run killed outright (SIGKILL, a reboot, a signal no handler could catch) never put it back, so the next
    start names the env and the way back: `rollback <id>` restores the package set saved before the first
    change (eleventh hostile pass #132: the note said only "marked failed", with pkg-a left at the new
    version). Without a saved set the install stopped before changing anything."""
    if entry.kind != "install" or entry.mode != "in-place":
        return ""
    if entry.snapshot is None:
        return f" It stopped before changing {entry.env}."
    return (f" It was changing {entry.env} in place and may have left it half-changed; `gc-wizard rollback "
            f"{entry.id}` puts back the {len(entry.snapshot)} packages it had before (saved when the install began).")


def _stale(entry: Entry, *, have_lock: bool, host: str, boot: str) -> bool:
    """Whether a "running" entry's run is over. Another host's run is never judged from here, first of all: the
    state lock says nothing about it where the shared state folder's `flock` is not seen across machines (NFS mounted
    with `local_lock=flock|all` or `nolock`, common on clusters), so holding the lock here proved it dead, and a
    read-only `history` marked node17's live install failed and deleted the env it was building (31st hostile pass
    (part B) P4)."""
    if entry.status != "running" or entry.host != host:
        return False  # another machine sharing this state folder may still be working: `_elsewhere_note` says so
    mine = entry.pid == os.getpid() and entry.boot == boot
    if have_lock:
        return not mine  # every run on this host holds the lock while it is running; we hold it now
    if entry.boot and boot and entry.boot != boot:
        return True
    return not _pid_alive(entry.pid)


def _elsewhere_note(entry: Entry) -> str:
    """The words for a "running" entry of another host, which this host leaves as it is (`_stale`)."""
    host = shown_id(entry.host) if entry.host else "''"
    return (f"{entry.kind} {entry.id} ({entry.recipe}) is running on host {host} (pid {entry.pid}, since "
            f"{shown_id(entry.started)}), which shares this state folder; gc-wizard on this host "
            f"({shown_id(socket.gethostname())}) leaves it and its environment {entry.env} as they are. If that run "
            f"has ended, any gc-wizard command on {host} marks it failed.")


def _half_built_left(entry: Entry) -> bool:
    """Whether an interrupted run left a folder `_remove_half_built` may delete: marked by a command that only
    reads (which deletes nothing), it is deleted by the next one that holds the state lock for a change."""
    return (entry.status == "failed" and entry.interrupted and bool(entry.env)
            and ((entry.kind == "install" and entry.mode == "new") or bool(entry.extra.get("rebuilding")))
            and Path(entry.env).is_dir())


def _remove_half_built(history: History, entry: Entry) -> str | None:
    """Delete the folder an interrupted install was building, when it is safe to: a new managed
    environment that never got its marker from this install (its steps never finished) and that no
    other entry uses. Returns the folder deleted, or None. The caller holds the state lock."""

    if entry.kind == "rollback" and entry.env:
        return _remove_half_rebuilt(entry)
    if entry.kind != "install" or entry.mode != "new" or not entry.env:
        return None
    env = Path(entry.env)
    if not env.is_dir() or env.is_symlink() or not envs.is_managed(env):
        return None
    if any(other is not entry and envs.same_env(other.env, entry.env) and other.status != "running" for other in history.entries):
        return None
    marker = _marker_data(env)
    if marker and marker.get("entry_id") != entry.id:
        return None  # another install's environment
    if marker.get("entry_id") == entry.id:
        return None  # installed completely; killed during the check: kept for diagnosis like a failed check
    remove_tree(env)
    return None if env.exists() else str(env)


def _remove_half_rebuilt(entry: Entry) -> str | None:
    """Delete the folder an interrupted rollback was rebuilding from nothing. Its `rebuilding` flag is
    saved before the rebuild's first step (only when the folder did not exist) and cleared once the
    rebuild is complete, so a flagged folder is the rollback's own; one that already has its marker
    (written at the very end of a rebuild) is left alone."""

    if not entry.extra.pop("rebuilding", False):
        return None
    env = Path(entry.env)
    if not env.is_dir() or env.is_symlink() or _marker_data(env):
        return None
    remove_tree(env)
    return None if env.exists() else str(env)


def other_state_refusal(history: History, env: str | os.PathLike[str]) -> str | None:
    """Why an install may not change environment `env` in place for `history`'s state (one sentence), or None.

    Why: an install with state B and `--env` naming state A's current environment changed it in place — its
    marker then named B's entry and recipe while A's history still called it the old one, A's `activate` exported
    B's variables, and A's `remove` later deleted the folder B's history records (28th hostile pass (part B) P6).
    `remove` already refused B's env in A ("not a managed environment"); the install did not ask. The env's
    marker (`envs.read_marker`) names the entry that made it; one this history does not hold is another state's.
    That state is named when the env sits in its `envs/` (read there, never written: no lock, no repair), and
    whether the env is current there."""
    marker = envs.read_marker(env)
    if marker is None or not marker.entry_id or any(e.id == marker.entry_id for e in history.entries):
        return None
    ours = os.path.realpath(history.path.parent)
    if os.path.dirname(os.path.realpath(env)) == os.path.join(ours, "envs"):
        return None  # in this state's own envs/ (its history lost or reset): this state's, whatever the marker says
    entry_id = marker.entry_id if _ID.fullmatch(marker.entry_id) else _shown(marker.entry_id)
    for folder in dict.fromkeys((os.path.dirname(os.path.abspath(env)), os.path.dirname(os.path.realpath(env)))):
        state = os.path.dirname(folder)
        if os.path.basename(folder) != "envs" or os.path.realpath(state) == ours:
            continue
        current = _entry_current(Path(state) / "history.json", marker.entry_id)
        if current is None:
            continue
        how = "the current environment" if current else "an environment (not the current one)"
        return (f"--env {env} is {how} of another gc-wizard state, {state} (its marker names that state's entry "
                f"{entry_id}), so installing into it from this state ({history.path.parent}) would change it behind "
                f"that state's history; give a new folder, or run with GC_WIZARD_HOME={state}; nothing changed.")
    return (f"--env {env} was made by another gc-wizard state: its marker ({Path(env) / envs.MARKER}) names entry "
            f"{entry_id}, which this state's history ({history.path}) does not hold; give a new folder, or run with "
            "that state's GC_WIZARD_HOME; nothing changed.")


def _entry_current(path: Path, entry_id: str) -> bool | None:
    """Whether entry `entry_id` of the history at `path` (another state's) is current; None when that history cannot
    be read or holds no such entry. Read only: nothing is moved aside or repaired there, as `_read` would."""
    try:
        data = bounded.loads_json(bounded.read_text(path, bounded.HISTORY_BYTES))
    except (OSError, ValueError, UnicodeDecodeError, RecursionError):
        return None
    entries = data.get("entries") if isinstance(data, dict) else data
    for raw in entries if isinstance(entries, list) else ():
        if isinstance(raw, dict) and raw.get("id") == entry_id:
            return raw.get("current") is True
    return None


def load_history(path: Path | None = None, *, locked: bool = False) -> History:
    """Read history.json: set a corrupt file aside (with a warning) and mark interrupted runs.

    `locked=True` says the caller holds the state lock (then repairs are saved at once). Without it,
    repairs are saved only if the lock can be taken for a moment; otherwise they stay in memory.
    """
    path = path or paths.history_path()
    entries, unreadable, warnings, refused, top = _read(path)
    newer = newer_format(path, top)
    if newer is not None and locked:  # the caller is about to change the state: refused before anything is done
        raise OperationFailed(newer)
    if newer is not None:
        warnings, refused = [newer, *warnings], refused or newer
    top = {key: value for key, value in top.items() if key != "entries"}
    history = History(path, entries, warnings, unreadable=unreadable, save_refused=refused, top=top)
    host = socket.gethostname()
    history.warnings.extend(_elsewhere_note(e) for e in history.entries if e.status == "running" and e.host != host)
    running = [e for e in history.entries if e.status == "running" and e.host == host]
    left = [e for e in history.entries if _half_built_left(e)] if locked else []
    too_many_current = sum(e.current for e in history.entries) > 1
    rebuilt = bool(entries) and not path.exists()  # set aside and entered again from the env markers
    if not running and not left and not too_many_current and not rebuilt:
        return history

    lock = None
    have_lock = locked
    if not locked:
        lock = StateLock("reading the history", path.parent / "wizard.lock")
        try:
            lock.acquire()
            have_lock = True
        except (LockHeld, OSError):
            lock = None
    try:
        boot = boot_id()
        changed = rebuilt
        for entry in running:
            if _stale(entry, have_lock=have_lock, host=host, boot=boot):
                entry.status, entry.interrupted, entry.error = "failed", True, INTERRUPTED
                entry.current = False
                entry.finished = entry.finished or now()
                changed = True
                history.warnings.append(f"{entry.kind} {entry.id} ({entry.recipe}) was interrupted; it is marked "
                                        "failed and was not made current." + _in_place_note(entry))
                if not locked and _half_built_left(entry):
                    # A command that only reads (`history`, `detect`, `plan`) deletes nothing (P4): the folder waits
                    # for the next command that holds the lock for a change of its own.
                    history.warnings.append(f"{entry.env}, the environment it was building, is left for now; the next "
                                            "install, rollback, remove or verify deletes it if it is half built.")
                elif locked:
                    left.append(entry)
        for entry in left:
            flags = dict(entry.extra)
            removed = _remove_half_built(history, entry)
            changed = changed or bool(removed) or entry.extra != flags
            if removed:
                history.warnings.append(f"removed {removed}, the environment {entry.kind} {entry.id} had half built.")
        if sum(e.current for e in history.entries) > 1:  # never more than one current: keep the newest
            for entry in [e for e in history.entries if e.current][:-1]:
                entry.current = False
            changed = True
        if changed and have_lock and not refused:
            try:
                history.save()
            except OSError as exc:
                history.warnings.append(f"could not save the repaired history to {path}: {exc.strerror}")
    finally:
        if lock is not None:
            lock.release()
    return history


def record_verify(env: str | os.PathLike[str], summary: VerifySummary, *, log: str | None = None,
                  recipe: str | None = None, started: str | None = None) -> Entry | None:
    """Add a finished `verify` entry for `env` (for `gc-wizard verify`); None if another wizard is busy.

    A verify entry is never current; the env marker's `verified` date is the other record of success.
    `started` (a `now()` stamp) is when the check began: the entry is written only once it has finished, so
    without it started = finished = the end (walk 23 #11: a 55 s verify read as 0 s).
    """
    try:
        with StateLock("recording a verify"):
            history = load_history(locked=True)
            recipe = recipe or _marker_data(Path(env)).get("recipe") or "(unknown)"
            finished = now()
            started = started if _id_stamp(started) and started <= finished else finished
            entry = history.add(Entry(id=history.new_entry_id(started=started), kind="verify", recipe=str(recipe),
                                      env=str(env), started=started,
                                      status="verified" if summary.ok else "failed", finished=finished,
                                      log=log, verify=summary, error=None if summary.ok else summary.reason()))
            history.save()
            return entry
    except LockHeld:
        return None


def _still_yours(place: str) -> bool:
    """Whether a remembered source (the bundle an install came from, the local GraphCast it used) still passes the
    swap rule `install` holds a given one to (`source_trust.swap_risk`: nothing on its way or in it another user could
    change), so it may be offered again. Why: 30th hostile pass (part B) P4 — a bundle and a GraphCast wheel another
    user had since deleted and made again were still offered (`recipes`, `plan`, the plain walk-through's Next:
    lines), each leading only into install's refusal; read as a given one is, nothing in it is run."""
    return swap_risk(Path(os.path.abspath(place))) is None
