"""Provides where things live (docs/interface.md, "Where things live").

State: `$GC_WIZARD_HOME`, else `$XDG_DATA_HOME/gc-wizard`, else `~/.local/share/gc-wizard`.
Recipes: built-in, then `$XDG_CONFIG_HOME/gc-wizard/recipes/`, then each `--recipes-dir`.
"""

from __future__ import annotations

import errno
import os
import re
import stat
import sys
import time
from collections.abc import Callable, Mapping
from pathlib import Path

from wizard import venv_config
from wizard.children import program_risk, run_capture
from wizard.errors import OperationFailed, UserError
from wizard.patterns import LazyPattern
from wizard.security import (
    ACL_ACCESS,
    expand_home,
    known_home,
    make_folders,
    shell_word,
    shown_path,
    strip_acls,
    write_beside,
)


def state_dir() -> Path:
    """The state folder, always absolute: a relative `GC_WIZARD_HOME` is read against the folder gc-wizard
    started in, so the history, the logs it names and the envs' markers stay right when read from
    another folder (a relative one recorded `state/logs/…`, which led nowhere from anywhere else).
    A relative `XDG_DATA_HOME` is ignored, as the XDG base-directory spec says."""
    explicit = os.environ.get("GC_WIZARD_HOME")
    if explicit:
        return Path(os.path.abspath(Path(expand_home(explicit))))
    data_home = os.environ.get("XDG_DATA_HOME", "")
    if not os.path.isabs(expand_home(data_home)):
        data_home = str(home_folder("the state folder", "GC_WIZARD_HOME=DIR") / ".local" / "share")
    return Path(expand_home(data_home)) / "gc-wizard"


def home_folder(what: str, other_fix: str, environ: Mapping[str, str] | None = None) -> Path:
    """The user's home folder (`security.known_home`), for `what` to be put under; UserError (exit 2) with
    `home_problem`'s sentence when there is none to use."""
    environ = os.environ if environ is None else environ
    problem = home_problem(environ, what, other_fix)
    home = known_home(environ)
    if problem or home is None:
        raise UserError(problem or f"there is no home folder for {what}; set HOME to a folder of yours or {other_fix}.")
    return home


def home_problem(environ: Mapping[str, str], what: str, other_fix: str) -> str | None:
    """The refusal for a `HOME` that is set but empty or relative, when `what` (the state folder, an installer's cache)
    would be put under it, or unset on an account the password database does not know (then there is no home at all:
    32nd hostile pass (part A) P2); None when HOME is absolute, or unset and the password database's home is used, as
    Python's `expanduser` does.

    Why: the XDG rule — a relative value is invalid — was applied to XDG_DATA_HOME but not to HOME, so `HOME=` put the
    state at `/.local/share/gc-wizard` (as root, at the root of the file system) and uv's cache at `/.cache/uv`, and
    `HOME=rel` under whatever folder the command ran in, where no later run looks (28th hostile pass (part A) P4)."""
    home = environ.get("HOME")
    if home is None and known_home(environ) is None:
        return (f"HOME is not set and this account (uid {os.getuid()}) has no entry in the password database, so "
                f"there is no home folder for {what}; set HOME to a folder of yours (export HOME=/home/$USER) or "
                f"{other_fix}. Nothing was changed.")
    if home is None or os.path.isabs(home):
        return None
    shown = "empty" if not home else f"{ascii(home) if not home.isprintable() else home!r}, a relative path"
    return (f"HOME is {shown}, so {what} would be made where no later run looks (under / or the working folder); "
            f"set HOME to your home folder (export HOME=/home/$USER) or {other_fix}. Nothing was changed.")


def state_words() -> str:
    """The state folder this run reads and where that choice came from, for every sentence that says nothing is
    installed or current: "the state folder /s (GC_WIZARD_HOME is not set)". Why (walk 25 #4): a lab script run
    from `su - user -c`, cron or `ssh host cmd` skips the `.bashrc` that exports GC_WIZARD_HOME, so it read the
    default folder and said "No installs yet" beside two verified environments, naming neither folder nor cause."""
    folder = state_dir()
    if os.environ.get("GC_WIZARD_HOME"):
        why = "set by GC_WIZARD_HOME"
    elif os.path.isabs(expand_home(os.environ.get("XDG_DATA_HOME", ""))):
        why = "from XDG_DATA_HOME; GC_WIZARD_HOME is not set"
    else:
        why = "GC_WIZARD_HOME is not set"
    return f"the state folder {shown_path(folder)} ({why})"  # on one line (38th hostile pass (part A) P5)


class StateNotWritable(OperationFailed):
    """The state folder cannot be made (or written) by this user; the message is `state_write_problem`'s. Exit 1, as
    for any state folder the wizard cannot use."""


def _creatable(folder: Path) -> Path | None:
    """The folder in the way when this user could not make `folder` (or write in it, when it is there): the nearest
    folder that exists on its way, when it is not one this user may write in (`os.access`, so a read-only file system
    counts and root passes); None when it can be made. A file on the way is `refuse_state_not_folder`'s to name."""
    probe = Path(os.path.abspath(folder))
    while not os.path.lexists(probe) and probe != probe.parent:
        probe = probe.parent
    if not os.path.isdir(probe):
        return None
    return None if os.access(probe, os.W_OK | os.X_OK) and pseudo_words(probe) is None else probe


#: File systems the kernel makes up (its processes, devices and settings as files), mounted read-write, where no
#: folder or file of a user's can be made: their statvfs says 0 blocks, 0 free.
PSEUDO_FILE_SYSTEMS = frozenset({
    "proc", "sysfs", "cgroup", "cgroup2", "debugfs", "tracefs", "securityfs", "pstore", "configfs", "bpf", "devpts",
    "mqueue", "fusectl", "efivarfs", "binfmt_misc", "nsfs", "selinuxfs", "rpc_pipefs", "nfsd", "autofs"})


def pseudo_words(folder: str | os.PathLike[str]) -> str | None:
    """Words for a sentence when `folder` (or the nearest folder above it that exists) is on such a file system
    ("/proc is the kernel's proc file system (not a disk), where no file or folder can be made"), else None.

    Why one wording, asked by every write check (`write_block_words`, the installer caches' and TMPDIR's
    `cache_trust.unusable_folder`): such a file system reads as a disk with 0 bytes free, so `--env /proc/x`,
    `TMPDIR=/proc` and `UV_CACHE_DIR=/proc/uvc` were refused as "the disk is full", with "free some space" as the
    fix (32nd hostile pass (part A) P5)."""
    probe = Path(os.path.abspath(folder))
    while not os.path.lexists(probe) and probe != probe.parent:
        probe = probe.parent
    try:
        if os.statvfs(probe).f_blocks:  # a size: a disk (the one call most folders cost)
            return None
    except OSError:
        return None
    mount = mount_of(probe)
    if mount is None or mount[1] not in PSEUDO_FILE_SYSTEMS:
        return None
    return f"{shown_path(mount[0])} is the kernel's {mount[1]} file system (not a disk), where no file or folder can be made"


def process_relative(path: str | os.PathLike[str]) -> str | None:
    """The folder on the kernel's proc file system that `path` (absolute, as given) leads through, itself or by a
    link on its way — `/proc/self/exe`, `/proc/1234/root/…`, `/dev/fd/3` and `/dev/stdin` (links to
    `/proc/self/fd/…`) — or None. There a name means whatever the process that opens it has: its own program, its
    own descriptors, its own folder. Nothing is run or opened; the links are read one by one as the kernel follows
    them, each folder judged by its file system (`_proc_devices`), not by its spelling.

    Why: 37th hostile pass (part B) P4 — `--python /proc/self/exe` was probed as "Python 3.11.7" (the wizard's own
    Python, in the probe), then handed to uv, for which it was uv: the plan approved a step that could not run."""
    devices = _proc_devices()
    if not devices:
        return None
    pending = list(reversed(Path(path).parts[1:]))
    here, hops = "/", 0
    while pending:
        part = pending.pop()
        if part in ("", "."):
            continue
        if part == "..":
            here = os.path.dirname(here)
            continue
        try:  # a name looked up in a folder of proc: what it means is the opener's
            if os.stat(here).st_dev in devices:
                return here
        except (OSError, ValueError):  # ValueError: a name this locale cannot encode, so no file's name either
            return None
        step = os.path.join(here, part)
        if not os.path.islink(step):
            here = step
            continue
        hops += 1
        try:
            target = os.readlink(step)
        except (OSError, ValueError):
            return None
        if hops > 40:  # the kernel's own limit: it would not open it either
            return None
        if os.path.isabs(target):
            here = "/"
        pending.extend(reversed(Path(target).parts[1 if os.path.isabs(target) else 0:]))
    return None


#: `_proc_devices`' answer, found once a process (as `program_command`'s `_PROGRAMS`): keyed by the reader of the
#: mount table, so a test (or a caller) that puts another `_mount_table` in its place gets a fresh answer, never the
#: last one's. Why: every `process_relative` (each interpreter a search probes) read /proc/self/mounts again.
_PROC_DEVICES: dict[object, frozenset[int]] = {}


def _proc_devices() -> frozenset[int]:
    """The device numbers of every proc file system mounted here (/proc, and any other mount of one); read once a
    process (`_PROC_DEVICES`)."""
    reader = _mount_table
    known = _PROC_DEVICES.get(reader)
    if known is None:
        _PROC_DEVICES[reader] = known = _find_proc_devices(reader)
    return known


def _find_proc_devices(reader: Callable[[], list[tuple[str, str]] | None]) -> frozenset[int]:
    """`_proc_devices`, found afresh from the mount table `reader` returns."""
    devices: set[int] = set()
    table = reader()
    points = ["/proc"] if table is None else [point for point, kind in table if kind == "proc"]
    for point in points:
        try:
            devices.add(os.stat(point).st_dev)
        except OSError:
            continue
    return frozenset(devices)


def write_block_words(folder: Path) -> str | None:
    """Why this user could not make `folder` or write in it, in words for a sentence ("/mnt/ro is on a read-only file
    system", "you cannot write in /opt/lab"), or None. Why: `plan --env` on a read-only disk said nothing, and showed
    "0 GiB free there", while `install` refused at once (30th hostile pass (part A) P7)."""
    blocked = _creatable(folder)
    return None if blocked is None else _blocked_words(blocked)


def _read_only(folder: Path) -> bool:
    """Whether `folder` is on a file system mounted read-only (False when that cannot be told)."""
    try:
        return bool(os.statvfs(folder).f_flag & os.ST_RDONLY)
    except OSError:
        return False


def _blocked_words(blocked: Path) -> str:
    """`blocked` (`_creatable`'s answer) in words: on the kernel's own file system (`pseudo_words`) or a read-only
    one — which no permission change fixes — or not writable by you."""
    pseudo = pseudo_words(blocked)
    if pseudo is not None:
        return pseudo
    shown = shown_path(blocked)
    return f"{shown} is on a read-only file system" if _read_only(blocked) else f"you cannot write in {shown}"


#: The mount options under which no environment works, each with what it breaks: the one check of a mount's
#: options (`env_mount_block`), said by the plan and refused by the install (`Plan.noexec_sentence`).
#: Why: 31st hostile pass (part A) P2 (noexec: jaxlib's libraries could not load, after the whole install) and 34th
#: hostile pass (part A) P4 (nosymfollow: a venv's `bin/python` is a link, so uv failed with "Too many levels of
#: symbolic links" after the build, and the plan had said nothing).
BREAKING_MOUNT_OPTIONS: dict[str, str] = {
    "noexec": "the compiled libraries the environment installs (jaxlib's, NumPy's) cannot be loaded from there, so its "
              "check would fail after the whole download",
    "nosymfollow": "the environment's python is a symbolic link, which cannot be followed there, so the install would "
                   "fail once the environment is made",
}


#: Where an environment works instead, for each of `BREAKING_MOUNT_OPTIONS`: the way out names what the option takes
#: away. Why apart: the nosymfollow sentence said "a disk that allows programs", noexec's words, though programs ran
#: there and only its links could not be followed (fixers' leftover after the 34th hostile pass).
WORKING_PLACES: dict[str, str] = {
    "noexec": "a disk that allows programs",
    "nosymfollow": "a file system that follows symbolic links (one not mounted nosymfollow)",
}


def env_mount_block(folder: Path) -> tuple[str, str, str] | None:
    """(words, what it breaks, where it would work) when `folder` (made or to be made) is on a file system mounted
    with an option of `BREAKING_MOUNT_OPTIONS` ("/mnt/nx/envs is on a file system mounted noexec (/mnt/nx)", …,
    "a disk that allows programs": `WORKING_PLACES`), or None: the neighbour of `write_block_words` for the mount's
    other options."""
    mount = noexec_mount(folder)
    if mount is not None:
        return (f"{folder} is on a file system mounted noexec ({mount})", BREAKING_MOUNT_OPTIONS["noexec"],
                WORKING_PLACES["noexec"])
    probe = _existing(folder)
    found = mount_of(probe)
    if found is None:
        return None
    for option in mount_options(found[0]):
        if option in BREAKING_MOUNT_OPTIONS and option != "noexec":
            return (f"{folder} is on a file system mounted {option} ({found[0]})", BREAKING_MOUNT_OPTIONS[option],
                    WORKING_PLACES[option])
    return None


def mount_options(point: str) -> list[str]:
    """The options of the mount at `point` (its per-mount options and its file system's), from
    /proc/self/mountinfo; [] when unknown. The last line for a point wins: it is the mount on top."""
    options: list[str] = []
    try:
        with open("/proc/self/mountinfo", encoding="utf-8", errors="replace") as handle:
            for line in handle:
                fields = line.split()
                if len(fields) < 6 or fields[4].replace("\\040", " ") != point:
                    continue
                rest = fields[fields.index("-") + 1:] if "-" in fields else []
                options = fields[5].split(",") + (rest[2].split(",") if len(rest) > 2 else [])
    except OSError:
        return []
    return options


def _existing(path: str | os.PathLike[str]) -> Path:
    """`path`, or the nearest folder above it that exists."""
    probe = Path(os.path.abspath(path))
    while not os.path.lexists(probe) and probe != probe.parent:
        probe = probe.parent
    return probe


def noexec_mount(path: str | os.PathLike[str]) -> Path | None:
    """Where the noexec file system `path` (or the nearest folder above it that exists) is on is mounted, or None
    when programs may run there (or it cannot be told)."""
    probe = Path(os.path.abspath(path))
    while not os.path.lexists(probe) and probe != probe.parent:
        probe = probe.parent
    try:
        if not os.statvfs(probe).f_flag & os.ST_NOEXEC:
            return None
    except OSError:
        return None
    mount = mount_of(probe)
    return Path(mount[0]) if mount else probe


def mount_of(folder: Path) -> tuple[str, str] | None:
    """(mount point, file system type) of the file system `folder` is on, from /proc/self/mounts; None if unknown
    (here, below `full_disk`, which names a full one by it, as `env_mount_block` names a noexec one)."""
    try:
        device = os.stat(folder).st_dev
    except OSError:
        return None
    table = _mount_table()
    if table is None:
        return None
    best: tuple[str, str] | None = None
    for point, kind in table:
        try:
            same = os.stat(point).st_dev == device
        except OSError:
            continue
        if same and (folder == Path(point) or Path(point) in folder.parents or point == "/"):
            if best is None or len(point) > len(best[0]):
                best = (point, kind)
    return best


def _mount_table() -> list[tuple[str, str]] | None:
    """(mount point, file system type) of every line of /proc/self/mounts, a space in a point unescaped (`\\040`);
    None when it cannot be read. The one reader of that file for `mount_of` and `_proc_devices`."""
    try:
        with open("/proc/self/mounts", encoding="utf-8", errors="replace") as handle:
            return [(fields[1].replace("\\040", " "), fields[2]) for fields in (line.split() for line in handle)
                    if len(fields) >= 3]
    except OSError:
        return None


def _default_state() -> Path | None:
    """The state folder this user would have without `GC_WIZARD_HOME` (None when HOME is unusable)."""
    data_home = os.environ.get("XDG_DATA_HOME", "")
    if os.path.isabs(expand_home(data_home)):
        return Path(expand_home(data_home)) / "gc-wizard"
    home = known_home()
    return None if home is None else home / ".local" / "share" / "gc-wizard"


def own_state_advice(folder: Path) -> str:
    """The way to a state folder this user can make, as lines to paste: `unset GC_WIZARD_HOME` when the default is
    makeable, and an exact `export GC_WIZARD_HOME=…` under their home (or `$SCRATCH`) that is — never a step that
    needs root (walk 27 #5: "fix its owner or permissions" of a folder only root could change)."""
    ways = []
    default = _default_state()
    if os.environ.get("GC_WIZARD_HOME") and default is not None and default != folder and _creatable(default) is None:
        ways.append(f"`unset GC_WIZARD_HOME` (the default state folder, {default})")
    for base in (os.environ.get("SCRATCH", ""), str(known_home() or "")):
        own = Path(base) / "gc-wizard" if os.path.isabs(base) and base != "/" else None
        if own is not None and own not in (folder, default) and _creatable(own) is None \
                and swappable_ancestor(own) is None:

            ways.append(f"`export GC_WIZARD_HOME={shell_word(str(own))}`")
            break
    if not ways:
        return "Point GC_WIZARD_HOME at a folder you can write (export GC_WIZARD_HOME=DIR, on your home or a scratch disk)."
    return f"Use a folder of your own: {' or '.join(ways)}."


def state_write_problem(outcome: str, folder: Path | None = None) -> str | None:
    """The one or two sentences for a state folder this user cannot make or write in, with `outcome` (what it means
    for this run) between what is wrong and the way out (`own_state_advice`); None when it can be used.

    Why one: walk 27 #5 — with GC_WIZARD_HOME under a root-owned folder, `plan`, the Plan screen and `detect` said
    nothing and only `install` refused, with advice that needed root. The plan, the machine summary and the
    install's refusal (`ensure_state_dir`) all say this now."""
    folder = folder or state_dir()
    blocked = _creatable(folder)
    if blocked is None:
        return None
    # a read-only file system named as `--env`'s is (`write_block_words`), not as a permission of yours (leftovers of
    # the 30th hostile pass, item 5: root read "you cannot write in /mnt/ro")
    if blocked == Path(os.path.abspath(folder)):
        what = f"{state_words()} is {'on a read-only file system' if _read_only(blocked) else 'not writable by you'}"
    else:
        what = f"{state_words()} cannot be made: {_blocked_words(blocked)}"
    return f"{what}, so {outcome}. {own_state_advice(folder)}"


#: What a state folder that cannot be made or written means for a command that needs it (`state_write_problem`'s
#: outcome): `ensure_state_dir`'s refusal and the install's disk check (`envs.check_free_disk`) say the same.
NOWHERE_TO_KEEP = "gc-wizard has nowhere to keep its environments, logs and history; nothing was changed"


def state_warning() -> str | None:
    """`state_write_problem` as the plan, the Plan screen and the machine summary say it, before anything runs."""
    problem = state_write_problem("`install` would stop before its first step")
    return f"{problem[0].upper()}{problem[1:]}" if problem else None


def ensure_state_dir(folder: Path | None = None, *, tighten: bool = True, locked: bool = False) -> Path:
    """Create the state folder (mode 0700: it holds logs, history and environments of one user) if
    it is not there, and make sure nobody else can change what the wizard later runs from it.

    Every folder of the state, and every folder one level inside those (`envs/<env>`, `modules/graphcast`,
    `assets/params`, …), must be this user's and loses write for group and others: anyone who can write
    there can plant a link at the lock's name, a `.pth` in an env, an env of their own under the current
    one's name, or a Lua module file — which the owner's next run, `activate` or `module load` follows (the
    fifth and sixth hostile passes found a 0777 state, and a `modules/graphcast` or `envs/` another user had
    made, used as they were). A folder another user owns is refused by name (`ForeignFolder`): its owner
    can swap anything in it, and only they, or root, can fix that. A file of yours directly in one of those
    folders (history.json, a log, a frozen package list, an env's marker) loses group/other write too, said once
    (twentieth pass P7: a state restored with 0666 files kept them, and every user could edit the history the
    wizard trusts); links are never followed. OSError passes through (the CLI turns it into a
    sentence naming the folder).

    Only what the wizard made is swept (24th hostile pass (part B) P6: `GC_WIZARD_HOME` on a home, or on a copy of
    a system root, had even `history` take group write off every folder one and two levels down, /tmp's 1777
    included): a non-empty folder that is no gc-wizard state is refused (`NotAState`, exit 2) before anything is
    written or changed, only the names the wizard gives (`STATE_NAMES`) are looked into, a sticky folder every user
    can write is refused, never changed, and every refusal comes before the first change. The changes are made
    only while no other gc-wizard holds the state's lock (`locked`: this one holds it; `tighten=False`: check
    only): a command the lock turns away changed nothing (24th hostile pass (part B) N1: a refused `remove` took
    write off uv's `.lock` inside the running install's new env)."""
    folder = folder or state_dir()
    _refuse_swappable_state(folder)
    refuse_not_a_state(folder)
    if not folder.is_dir():
        problem = state_write_problem(NOWHERE_TO_KEEP, folder)
        if problem and not os.path.lexists(folder):
            raise StateNotWritable(problem)
        make_folders(folder.parent)
        try:
            folder.mkdir(mode=0o700)
        except FileExistsError:
            if not folder.is_dir():
                raise
        else:
            strip_acls(folder)  # no ACL a folder above hands down (27th hostile pass (part B) P1)
            os.chmod(folder, 0o700)  # mkdir's mode is cut by the umask, never widened; be exact anyway
    folders = [folder]
    read_back = [folder]  # the folders whose files the history reads back to decide what to run
    inner, linked = _subfolders_and_links(folder, own_only=True)
    for link in linked:  # `frozen -> /scratch/me/frozen`: its way and the folder it names are checked, never changed
        target = _guard_link_target(link)
        read_back += ([target] if link.name == "frozen" else
                      _subfolders_and_links(target)[0] if link.name == "envs" else [])
    for inside in inner:
        folders.append(inside)
        folders += _subfolders_and_links(inside)[0]  # `envs/<env>` itself; what is inside an env is uv's and pip's
    read_back += [each for each in folders[1:] if each.name == "frozen" or each.parent.name == "envs"]
    for each in folders:  # every refusal before the first change
        _refuse_folder(each)
    for each in read_back:
        _refuse_foreign_files(each, own_only=each == folder)
    if tighten and (locked or _lock_free(folder)):
        _guard_files(folder, own_only=True)
        for each in folders:
            _guard_folder(each)
            if each != folder:
                _guard_files(each)
    return folder


#: The names the wizard gives to what it makes directly in a state folder; the permission sweep looks into these
#: alone (24th hostile pass (part B) P6), and a folder holding only such names is a state.
STATE_NAMES = frozenset({"history.json", "wizard.lock", "envs", "logs", "cache", "modules", "assets", "frozen",
                         "forecasts", "bundles", "package-files", "last-assets.json"})

#: What only a gc-wizard state holds: one of these makes a folder a state whatever else the user keeps in it.
_STATE_MARKS = ("history.json", "wizard.lock", "envs")


def _wizard_name(name: str) -> bool:
    """Whether `name`, directly in a state folder, is one the wizard gives: one of `STATE_NAMES`, or a file it
    writes beside one (`history.json.corrupt-…`, a partial `.history.json.123`)."""
    bare = name.lstrip(".")
    return any(bare == known or bare.startswith(known + ".") for known in STATE_NAMES)


class NotAState(UserError):
    """`GC_WIZARD_HOME` (or the default state path) names a folder with other things in it and none of gc-wizard's:
    exit 2, as for any value that cannot be used, naming the folder."""


def is_state_folder(folder: Path) -> bool:
    """Whether `folder` may be used as the state: not there yet, empty, holding history.json, wizard.lock or
    `envs`, or holding only names the wizard gives (a state that `detect` left with just its `cache/`). Cheap: one
    listing, made only where the state would be written."""
    try:
        with os.scandir(folder) as entries:
            names = [entry.name for entry in entries]
    except FileNotFoundError:
        return True
    except NotADirectoryError:
        return True  # `refuse_state_not_folder` says what it is
    except OSError:
        return True  # unreadable: the write that follows names the folder and its error
    return (not names or any(mark in names for mark in _STATE_MARKS)
            or all(_wizard_name(name) for name in names))


def refuse_not_a_state(folder: Path | None = None) -> None:
    """`NotAState` naming `folder` when it holds other things and nothing of gc-wizard's: its modes, files and
    folders are someone's own, so nothing there is written, changed or read as a history."""
    folder = folder or state_dir()
    if not is_state_folder(folder):
        raise NotAState(
            f"the state folder {folder} (GC_WIZARD_HOME, or the default state path) already holds other files and "
            "no gc-wizard state (no history.json, wizard.lock or envs/), so gc-wizard will not keep its state or "
            "change any modes there; nothing was changed. Set GC_WIZARD_HOME to a new or empty folder, or to an "
            "existing gc-wizard state.")


def _lock_free(folder: Path) -> bool:
    """Whether no gc-wizard (this process's own lock included) holds `folder`'s state lock now: a test, never held,
    so a wizard starting meanwhile is not turned away by this look. A missing lock file is free; one that cannot be
    opened (a link at its name: the lock itself refuses it) is treated as free."""
    import fcntl  # deferred: only a command that reads or writes the state looks at its lock

    try:
        fd = os.open(folder / "wizard.lock", os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return True
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except OSError:
        return False
    else:
        fcntl.flock(fd, fcntl.LOCK_UN)
        return True
    finally:
        os.close(fd)


def _refuse_swappable_state(folder: Path) -> None:
    """`ForeignFolder` for a state folder under a folder any local user can rename in (tenth hostile pass Y3:
    refused for --env, accepted for the state that holds every env), whether or not the state is there yet: a
    state another user can swap in is a history (its wheelhouses, its environments) of their choosing."""
    foreign = _foreign_ancestor(folder)
    if foreign:
        step, what = foreign
        raise ForeignFolder(
            f"the state folder {folder} is reached through {step}, {what}, so that user could swap the state (its "
            "environments, its history) for their own. Set GC_WIZARD_HOME to a folder only you can write; nothing "
            "was changed.")
    shared = swappable_ancestor(folder)
    if shared:
        above, why = shared
        raise ForeignFolder(
            f"the state folder {folder} is under {above}, which {why}, so any local user could swap it (its "
            "environments, its history) for their own. Set GC_WIZARD_HOME to a folder only you can write; nothing "
            "was changed.")


def _foreign_ancestor(folder: Path) -> tuple[Path, str] | None:
    """(what, why) for a folder above the state — or a link on the way to it — that a user other than you and root
    owns: its owner can rename what leads to the state, or point the link elsewhere (thirteenth hostile pass #63/#64:
    a state under a folder `nobody` owns, and `GC_WIZARD_HOME` a link `nobody` owns in /tmp, were used as they
    were). Only for the state: an environment in a lab admin's folder is theirs to keep, and is run (`guard_env`)."""
    me = os.geteuid()
    path = Path(os.path.abspath(folder))
    # The folders above your home are the site's layout (`/home/lab/you`, a group folder a lab account owns):
    # trusted like root's, or no one in such a lab could keep a state at all.
    home = known_home()  # none: no site layout to trust (never the working folder, where "~" would lead)
    site = set(Path(os.path.realpath(home)).parents) if home is not None else set()
    for step in [*reversed(path.parents), path]:
        try:
            info = os.lstat(step)
        except OSError:
            break  # not there yet: nothing below it is either
        link = stat.S_ISLNK(info.st_mode)
        if info.st_uid not in (0, me) and (link or (step != path and step not in site)):
            kind = "a link" if stat.S_ISLNK(info.st_mode) else "a folder"
            return step, f"{kind} that {_user_name(info.st_uid)} owns (not you, not root)"
    return None


def guard_state_dir() -> None:
    """`ensure_state_dir`'s checks for every command that reads the state (`history_path` calls it, so `history`,
    `report`, `rollback`, `activate`, `kernel install` and the app all get them): a state path that is no folder,
    a state under a folder every user can rename in, a state folder (or one inside it) another user owns, are
    refused; one open to group/other write loses that bit. Nothing is made where there is no state yet.

    Why at the one door: `history` read a state under a 0777 parent, a 0777 state and another user's state as
    if they were fine while `activate` refused them (eleventh hostile pass #100/#101/#102)."""
    refuse_state_not_folder()
    folder = state_dir()
    if folder.is_dir():
        ensure_state_dir(folder)
    else:
        _refuse_swappable_state(folder)


def refuse_state_not_folder(folder: Path | None = None) -> None:
    """Raise what creating the state folder meets (FileExistsError naming it) when the state path exists and is
    not a folder (a file, /dev/null; a link to a folder is a folder), so every command that reads the state says
    what `install` says — "cannot use the state folder X: it is a file, not a folder", exit 1.

    Why: `history` read a missing history.json under a file as "No installs yet" (exit 0) and `activate` as "no
    current environment" (exit 2), while `install` named the file (fourth hostile pass X1)."""
    folder = folder or state_dir()
    if folder.exists() and not folder.is_dir():
        raise FileExistsError(errno.EEXIST, os.strerror(errno.EEXIST), str(folder))


#: The variables Python's `tempfile` takes the temporary folder from, in its order.
TEMPORARY_VARIABLES = ("TMPDIR", "TEMP", "TMP")


def temporary_variable() -> str | None:
    """The variable the temporary folder is taken from (`TEMPORARY_VARIABLES`, the first one set), or None.

    Why: 32nd hostile pass (part B) P5 — with TMPDIR unset and TEMP naming another user's folder, the refusal said
    "the temporary folder (TMPDIR) …" and "Point TMPDIR at …", a variable that was not set, and never named TEMP."""
    return next((name for name in TEMPORARY_VARIABLES if os.environ.get(name)), None)


def temporary_words(place: object) -> str:
    """`the temporary folder (TEMP) /x`: the folder with the variable it came from (TMPDIR when none is set)."""
    return f"the temporary folder ({temporary_variable() or 'TMPDIR'}) {shown_path(place)}"


class UnusableTemporaryFolder(UserError):
    """The temporary folder (TMPDIR) cannot be handed to the installers (a name that is not UTF-8); the message
    names it and the way out. Exit 2: the user's setting, as a bad option value is."""


class ForeignFolder(OperationFailed):
    """A folder of the state that another user owns; the message names it, its owner and the way out. Exit 1,
    as for any state folder the wizard cannot use (docs/interface.md, "Exit status")."""


def _subfolders_and_links(folder: Path, *, own_only: bool = False) -> tuple[list[Path], list[Path]]:
    """The folders directly inside `folder` (links to folders are not folders here), and the links directly inside
    it that lead to folders, in one listing ([], [] when unreadable): the state's own folders made links to another
    disk (`logs -> /scratch/…`) are guarded on their way and where they point (`_guard_link_target`), since logs
    written through a link into a 0777 folder stayed open to every user (seventh hostile pass 10d). With
    `own_only`, only the names the wizard gives (`STATE_NAMES`): the state folder's other entries are the user's."""
    try:
        with os.scandir(folder) as entries:
            found = [(Path(e.path), e.is_symlink(), e.is_dir(follow_symlinks=False)) for e in entries
                     if not own_only or _wizard_name(e.name)]
    except OSError:
        return [], []
    inner = [path for path, link, is_dir in found if is_dir and not link]
    linked = [path for path, link, _ in found if link and path.is_dir()]
    return inner, linked


def _guard_link_target(link: Path) -> Path:
    """Refuse (`ForeignFolder`) a link in the state (`frozen -> /scratch/me/frozen`, `assets -> /lab/gc-assets`)
    that another user could send elsewhere, else return the folder it leads to. The user put the link there, so
    the folder's modes are theirs and stay as they are — a group's shared cache keeps its group write (ninth
    hostile pass Y4: 2775 became 2755 through the link, and 1777 lost nothing but its openness to the lab).

    Refused: a folder every user can write without the sticky bit (seventh hostile pass 10d: logs written through
    such a link stayed open to every user), and whatever the swap rule refuses on the way there and at the folder
    itself (`source_trust.swap_risk`, the rule `envs/<env>/bin/python` and a module file's folder meet, so `envs ->`
    and `modules ->` were refused while `frozen ->` another user's folder took root's frozen sets and handed them
    back to a rebuild: 33rd hostile pass (part B) P3). One rule for every sub-folder of the state."""
    from wizard.source_trust import swap_risk  # deferred: only a state holding a link reads it

    target = link.resolve()
    try:
        info = os.stat(target)
    except OSError:
        return target
    if stat.S_ISDIR(info.st_mode) and info.st_mode & 0o002 and not info.st_mode & stat.S_ISVTX:
        raise ForeignFolder(
            f"{target}, where a link in the state folder leads, is writable by every user (and has no sticky bit, as "
            "/tmp has), so anyone could swap what gc-wizard writes or runs there. Point the link at a folder only you "
            "(or your group) can write; nothing was changed.")
    risk = swap_risk(link, inside=False, above=True)
    if risk is not None:
        place, why, fix = risk
        where = "it" if place in (link, target) else f"{place}, on its way,"
        raise ForeignFolder(
            f"{link} in the state folder is a link to {target}; {where} {why}, so another user could swap what "
            f"gc-wizard writes there and reads back (a frozen package set, a log, an environment). {fix}, or point "
            "the link at a folder only you can write (or remove it, and the wizard makes its own); nothing was "
            "changed.")
    return target


def state_subfolder(*names: str) -> Path | None:
    """`<state>/NAME/…` for a writer that does not open the whole state (`ensure_state_dir`): the table cache
    `detect` keeps, the plan's download sizes. None — nothing is read there or written — where the state path is
    no state (`is_state_folder`), or a folder on the way is a link the state's link rule refuses
    (`_guard_link_target`) or a folder `_refuse_folder` refuses (another user's, or one every user can write); that
    refusal is said once at the end of the run (`note_at_end`), naming the path and why.

    Why one rule for every writer: 35th hostile pass (part B) P3 — with the state's `cache` a link into another
    user's folder, `history` and `install` refused it while `detect` and `plan` wrote the table cache through it
    (root's `O_TRUNC` open followed that user's link over a root file) and read their forged tables back. Only a
    folder there is lstat'ed: nothing is imported unless a link is met."""
    folder = state_dir()
    if not is_state_folder(folder):
        return None
    for name in names:
        folder = folder / name
        try:
            refuse_state_folder(folder)
        except ForeignFolder as exc:
            # Said once at the end of the run (`end_notes`), by the path and why: a skipped cache made every `detect`
            # parse its tables again, and the user never learnt of the link (or folder) that cost them that.
            note_at_end(f"{folder} was not used as gc-wizard's cache (nothing was read or written there): {exc}",
                        folder)
            return None
    return folder


def refuse_state_folder(folder: Path) -> None:
    """The state's sub-folder rule for one folder below those `ensure_state_dir` sweeps, as a writer goes through it
    (`state_subfolder`, the asset cache's `assets/<host>/<path>/…`): ForeignFolder for a link the state's link rule
    refuses (`_guard_link_target`), or a folder another user owns or every user can write (`_refuse_folder`)."""
    if os.path.islink(folder):
        _guard_link_target(folder)
    else:
        _refuse_folder(folder)


def write_state_cache(path: Path, text: str) -> None:
    """Write a cache file of the state (`path` in a folder `state_subfolder` gave) through the one whole-file writer
    (`security.write_beside`): a new file beside it, made with O_CREAT|O_EXCL|O_NOFOLLOW (mode 0600), then renamed
    over whatever holds the name — a link or a FIFO there is replaced, never opened. Not synced: a cache lost in a
    crash is only rebuilt. Why: the table and size caches opened `.NAME.PID` with O_TRUNC, following a link planted
    at that guessable name (35th hostile pass (part B) P3). OSError passes through (a cache is only a help)."""
    write_beside(path, text, durable=False)


def _refuse_folder(folder: Path) -> None:
    """Refuse a folder of the state another user owns, or one every user can write with the sticky bit /tmp has:
    such a folder is shared on purpose, so its bits are never taken (24th hostile pass (part B) P6: a 1777 `tmp/`
    became 1755), and anyone could add an env or a module file to it."""
    try:
        info = os.lstat(folder)
    except OSError:
        return
    if not stat.S_ISDIR(info.st_mode):
        return
    if info.st_uid != os.geteuid():
        # The state folder itself: a folder of your own is the way that needs no one else (walk 27 #5).
        way = (f"{own_state_advice(folder)} Or ask its owner or an admin to give it to you." if folder == state_dir()
               else "Move it aside, or ask its owner or an admin to give it to you.")
        raise ForeignFolder(
            f"{folder} belongs to {_user_name(info.st_uid)}, not to you, so its owner could swap what gc-wizard "
            f"runs from it (an environment, a module file); nothing was changed. {way}")
    if info.st_mode & 0o002 and info.st_mode & stat.S_ISVTX:
        raise ForeignFolder(
            f"{folder} is writable by every user (mode {stat.S_IMODE(info.st_mode):04o}, sticky as /tmp is), so anyone "
            "could add an environment or a module file there, and gc-wizard never takes that away from a shared "
            "folder. Set GC_WIZARD_HOME to a folder only you can write; nothing was changed.")


def _refuse_foreign_files(folder: Path, *, own_only: bool = False) -> None:
    """Refuse (`ForeignFolder`) a file of the state another user could change: a regular file directly in `folder`
    that is not this user's, or a link there to a file that is not theirs or that another user could swap (the swap
    rule every source passes, `source_trust.swap_risk`, on its target and the way to it). The files the sweep looks
    are those it reads back to decide what to run: with `own_only`, the names the wizard gives in the state folder
    (history.json, wizard.lock, last-assets.json); in `frozen/` and each `envs/<env>`, every file directly inside
    (frozen sets, env markers). Forecast files and assets a user links in from a lab folder are data, left as they are.

    Why: 29th hostile pass (part B) P7 — `history.json` a link into another user's file was read without a word;
    they chose which environment root's `activate` and `verify` used, and the next write replaced the link. A link
    to a folder (`envs -> /scratch/me/envs`) is the user's choice and is judged where it leads (`_guard_link_target`)."""
    from wizard.source_trust import swap_risk  # deferred: only a state that is opened reads it

    me = os.geteuid()
    try:
        with os.scandir(folder) as entries:
            found = [(Path(e.path), e.is_symlink()) for e in entries if not own_only or _wizard_name(e.name)]
    except OSError:
        return
    for path, link in found:
        try:
            info = os.stat(path)  # a link's target; a dangling link or a folder is not a file to judge here
        except OSError:
            continue
        if not stat.S_ISREG(info.st_mode):
            continue
        where = f"{path} (a link to {os.path.realpath(path)})" if link else f"{path}"
        if info.st_uid != me:
            why = f"belongs to {_user_name(info.st_uid)}, not to you"
        else:
            risk = swap_risk(Path(os.path.realpath(path)), inside=False) if link else None
            if risk is None:
                continue
            why = f"is reached through {risk[0]}, which {risk[1]}"
        raise ForeignFolder(
            f"{where} in the state folder {why}, so another user could change what gc-wizard reads back from it (which "
            "environment is current, what it rebuilds). Replace it with a file of your own (or move the state with "
            "GC_WIZARD_HOME); nothing was changed.")


def _guard_folder(folder: Path) -> None:
    """Take group/other write off a folder of the state this user owns (`_refuse_folder` has refused the rest)."""
    try:
        info = os.lstat(folder)
    except OSError:
        return
    if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.geteuid() or info.st_mode & stat.S_ISVTX:
        return
    if info.st_mode & 0o022:
        try:
            os.chmod(folder, stat.S_IMODE(info.st_mode) & ~0o022)
        except OSError:
            return
        note = (f"took group and other write off {folder} (it was {stat.S_IMODE(info.st_mode):04o}), so no other "
                "user can swap what gc-wizard runs from it.")
        _note(TIGHTENED, note, folder)


def _guard_files(folder: Path, *, own_only: bool = False) -> None:
    """Take group/other write off the regular files of this user directly in `folder` (links are not followed,
    another user's file is left: `_refuse_folder` refused a folder where one could be), noted once per folder.
    With `own_only` (the state folder itself), only the files the wizard names (`STATE_NAMES`)."""
    changed: list[tuple[str, int]] = []
    parts = Path(folder).parts
    quiet_locks = any(parts[at:at + 2] in (("cache", "uv"), ("cache", "pip")) for at in range(len(parts) - 1))
    try:
        with os.scandir(folder) as entries:
            for entry in entries:
                if own_only and not _wizard_name(entry.name):
                    continue
                try:
                    info = entry.stat(follow_symlinks=False)
                except OSError:
                    continue
                if not stat.S_ISREG(info.st_mode) or not info.st_mode & 0o022 or info.st_uid != os.geteuid():
                    continue
                try:
                    os.chmod(entry.path, stat.S_IMODE(info.st_mode) & ~0o022)  # lstat said a file, not a link
                except OSError:
                    continue
                if quiet_locks and info.st_size == 0 and entry.name.endswith(".lock"):
                    # uv's empty lock files, 0666 whatever the umask, in the state's private installer cache
                    # (25th hostile pass (part B) P1): tightened, but no note about a file nothing is read from.
                    continue
                changed.append((entry.name, stat.S_IMODE(info.st_mode)))
    except OSError:
        return
    if changed:
        name, mode = changed[0]
        more = f" and {len(changed) - 1} more" if len(changed) > 1 else ""
        note = (f"took group and other write off {name} (it was {mode:04o}){more} in {folder}, so no other user can "
                "change what gc-wizard reads back from there.")
        _note(TIGHTENED, note, folder)


def loose_env_folders(env: Path) -> str | None:
    """The warning for an environment whose `bin/` or `site-packages` group or other users can write, or None.

    Why: such a folder lets another user swap `bin/python` or drop a `.pth` that runs in every use of the
    environment, which `activate`, `verify` and `forecast` would then run without a word (twentieth pass P7).
    The environment is the user's to fix (it may be a lab's shared one on purpose): it is named, not changed."""
    candidates = [env / "bin"]
    try:
        candidates += sorted(env.glob("lib/python*/site-packages")) + sorted(env.glob("lib64/python*/site-packages"))
    except OSError:
        pass
    loose: list[tuple[Path, int]] = []
    seen: set[Path] = set()
    for folder in candidates:
        try:
            info = os.lstat(folder)
            real = Path(os.path.realpath(folder))
        except OSError:
            continue
        if stat.S_ISLNK(info.st_mode):  # lib64 -> lib: look where it leads, once
            try:
                info = os.stat(folder)
            except OSError:
                continue
        if real in seen or not stat.S_ISDIR(info.st_mode):
            continue
        seen.add(real)
        if info.st_mode & 0o022:
            loose.append((folder, stat.S_IMODE(info.st_mode)))
    if not loose:
        return None

    named = " and ".join(f"{folder} ({mode:04o})" for folder, mode in loose)
    fix = " ".join(shell_word(str(folder)) for folder, _ in loose)
    return (f"{named} can be written by group or other users, so one of them could swap the environment's "
            f"python or add code that runs whenever it starts; take that away with `chmod go-w {fix}`.")


#: Warnings about an environment this run used (`loose_env_folders`), said once by the faces at the end.
ENV_WARNINGS: list[str] = []


#: What `_guard_folder` changed in this run, said once by the faces (thirteenth pass #34/#37: `history` and `report`
#: closed a 0777 state folder to 0755 without a word, a change to the user's own folder).
TIGHTENED: list[str] = []

#: The folder each note of `TIGHTENED` and `ENV_WARNINGS` is about, for `end_notes`.
_NOTE_FOLDERS: dict[str, Path] = {}


def _note(notes: list[str], note: str, folder: Path) -> None:
    """Keep `note` (once) for the end of the run, with the folder it is about."""
    if note not in notes:
        notes.append(note)
    _NOTE_FOLDERS[note] = Path(folder)


def note_at_end(note: str, folder: Path) -> None:
    """Say `note` (about `folder`) once at the end of the run, with the other notes of `end_notes`: a step run
    with the state's private installer cache (25th hostile pass (part B) P1) tells the user why."""
    _note(ENV_WARNINGS, note, folder)


def end_notes() -> list[str]:
    """The notes said once at the end of a run, less those about a folder that is gone by then.

    Why: the app's run lasts as long as the user keeps it open; on quitting it said it took write off `.lock` in an
    environment it had itself removed 20 minutes earlier, after a cancelled install (walk 23
    #8): a security notice about a folder that no longer exists only alarms."""
    def there(note: str) -> bool:
        folder = _NOTE_FOLDERS.get(note)
        return folder is None or os.path.lexists(folder)

    return [note for note in (*TIGHTENED, *ENV_WARNINGS) if there(note)]


def link_trouble(path: Path | str) -> str | None:
    """What `path` is when a symbolic link keeps it from being reached, as words for a sentence, or None:
    "a symbolic link to X, which does not exist" or "a symbolic link that loops (…)".

    Why: a rollback to an environment whose path was such a link passed on uv's bare "File exists" or "Too many
    levels of symbolic links", and a saved package list behind one read as "no sha256 was recorded" (twentieth
    pass P8). Only the link is named; what it points to is never touched."""
    try:
        os.stat(path)
        return None
    except OSError as exc:
        is_link = os.path.islink(path)
        if exc.errno == errno.ELOOP:
            return ("a symbolic link that loops (following it leads back to itself)" if is_link else
                    "reached through a symbolic link that loops (following it leads back to itself)")
        if exc.errno == errno.ENOENT and is_link:
            try:
                return f"a symbolic link to {os.readlink(path)}, which does not exist"
            except OSError:
                return "a symbolic link to nothing that exists"
        return None


def swappable_ancestor(path: Path) -> tuple[Path, str] | None:
    """(folder, why) for the first folder above `path` — its parent, and every folder up to / — in which another
    local user could rename what leads to `path` (writable by every user without the sticky bit that /tmp has),
    else None. Both the path as given and where its links lead are walked.

    Why every level: renaming any folder on the way swaps everything under it. The fourth hostile pass (P7) made
    an env under a 0777 grandparent, renamed `sub` away as another user and put its own `sub/env` there; only
    the parent had been checked, so the install went on and `activate` exported the swapped env."""
    path = Path(os.path.abspath(path))
    seen: set[Path] = set()
    for start in (path, Path(os.path.realpath(path))):
        for folder in start.parents:
            if folder in seen:
                continue
            seen.add(folder)
            try:
                info = os.stat(folder)
            except OSError:
                continue
            if info.st_mode & 0o002 and not info.st_mode & stat.S_ISVTX:
                return folder, "is writable by every user (and has no sticky bit, as /tmp has)"
    return None


def guard_env(env: Path) -> None:
    """Refuse (`ForeignFolder`, exit 1) to run an environment that any local user could have swapped: one under a
    folder every user can rename in (`swappable_ancestor`).

    Why: the state's own envs are guarded with the state (`ensure_state_dir`), but an `--env DIR` outside it was
    activated and verified as found — the fourth hostile pass swapped one, under a world-writable folder, for a
    copy `nobody` owned, and `activate` exported it without a word. An environment another user owns in their own
    folder (a lab admin's shared one) is run: only its owner can change it, and using it is trusting them, as
    using any shared software is."""
    try:
        os.stat(env)
    except OSError:
        return
    shared = swappable_ancestor(env)
    if shared:
        folder, why = shared
        raise ForeignFolder(
            f"the environment {env} is under {folder}, which {why}, so any local user could have swapped it for "
            "their own. Move the environment to a folder only you can write (then install it again); nothing was "
            "run.")
    # The rule every source read goes through, on the python about to run: a folder or link on its way that
    # another user owns or can change, for root (twenty-third hostile pass, part B, P2: `verify --env` on an env
    # another user owns, or reached through their link, ran their python as root).
    # What it loads at start counts too: its pyvenv.cfg's home and the standard library found from it (27th hostile
    # pass (part B) P5: a `--copies` venv of another user's Python ran their sitecustomize.py as root).
    from wizard.source_trust import refuse_swappable_python  # deferred: only an env about to run needs it

    refuse_swappable_python(f"the environment {env}", env / "bin" / "python", "the environment's python",
                            way_out="use an environment of your own")
    loose = loose_env_folders(env)
    if loose:
        _note(ENV_WARNINGS, loose, env)


def guard_env_python(env: Path | str) -> Path:
    """The environment's `bin/python`, checked before it is run or an installer is pointed at it (`uv pip …
    --python ENV/bin/python`): `guard_env`'s rule (the one verify and activate refuse by), then, without running
    it, that the interpreter it starts is this environment's (`env_python_problem`). Raises `ForeignFolder`
    naming the file and why; "nothing was run".

    Why one guard for every runner: verify and activate refused an env whose `bin/python` led into another
    user's folder, but `rollback` ran the same link (its freeze, then `uv pip sync` of whatever Python that
    reported): it uninstalled the packages of a venv outside the state, and in one run 101 of root's base Python
    (24th hostile pass (part B) P7). Every freeze, hash, sync, kernel probe and installer step goes through this."""
    env = Path(env)
    guard_env(env)
    why = env_python_problem(env)
    if why:
        raise ForeignFolder(f"the environment {env}: {why}. It would run (and an installer pointed at it would "
                            "change) another Python than this environment's. Install it again (`gc-wizard "
                            "install`); nothing was run.")
    return env / "bin" / "python"


def env_bin_elsewhere(env: Path) -> str | None:
    """Why `env`'s `bin/` is not its own, as a clause, or None: `bin` itself a link that leads out of `env`, or a
    link in it (`bin/python`, `bin/pip`, …) whose chain passes through another environment (a folder with its own
    `pyvenv.cfg`). A link to a base interpreter (no `pyvenv.cfg` on its way) is what a venv holds, and is fine.

    Why: `install --env DIR` took the environment from where `DIR/bin/python` led, so a `DIR` holding only
    `bin -> OTHER/bin` changed the venv OTHER in place and made it current, DIR never named (25th hostile pass
    (part B) P3). `env` is the folder named, already resolved (`os.path.realpath`)."""
    bin_dir = env / "bin"
    if not os.path.lexists(bin_dir):
        return None
    real_bin = Path(os.path.realpath(bin_dir))
    if real_bin != bin_dir:
        return f"its bin leads to {real_bin}, outside {env}"
    try:
        with os.scandir(bin_dir) as entries:
            links = [Path(entry.path) for _, entry in zip(range(4096), entries, strict=False) if entry.is_symlink()]
    except OSError:
        return None  # unreadable: the install's own checks name it
    for link in sorted(links):
        hop = link
        for _ in range(40):  # the kernel's own limit on a chain of links
            try:
                target = os.readlink(hop)
            except OSError:
                break
            hop = Path(os.path.realpath(os.path.join(hop.parent, os.path.dirname(target)))) / os.path.basename(target)
            holder = next((folder for folder in hop.parents if (folder / "pyvenv.cfg").is_file()), None)
            if holder is not None and holder != env:
                return f"its {link.relative_to(env)} leads to {hop}, inside the environment {holder}"
            if not hop.is_symlink():
                break
    return None


def env_python_problem(env: Path) -> str | None:
    """Why `env/bin/python` would not start as this environment's Python (its `sys.prefix` elsewhere), read
    without running it; None when it would. Python takes a venv from the `pyvenv.cfg` beside the path it was
    started by (`bin/pyvenv.cfg`, then the env's own), never from where a link leads: so the env's own
    `pyvenv.cfg` must be there, none in `bin/`, and the link chain must end at an interpreter binary — not at a
    script (`#!`), which may exec any Python with its own prefix (the 24th hostile pass (part B) P7 wrapper exec'd
    another venv's python, and uv then synced that venv). Without a `pyvenv.cfg` the python's prefix is its base
    installation's (unless the binary is inside the env: a whole installation, a conda env): an installer pointed
    at it changes the machine's Python."""
    python = env / "bin" / "python"
    if not os.path.lexists(python):
        return None  # missing: the caller's to name ("does not exist")
    if os.path.lexists(env / "bin" / "pyvenv.cfg"):
        return f"{env / 'bin' / 'pyvenv.cfg'} makes its python take {env / 'bin'} as its environment"
    real = os.path.realpath(python)
    try:
        fd = os.open(real, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0))
        try:
            head = os.read(fd, 2) if stat.S_ISREG(os.fstat(fd).st_mode) else b""
        finally:
            os.close(fd)
    except OSError:
        head = b""  # unreadable or gone: running it fails on its own
    if head == b"#!":
        return (f"its python leads to {real}, a script, which may start any Python as its own environment rather "
                "than this one")
    if not (env / "pyvenv.cfg").is_file():
        # A whole installation (a conda env, a Python built into the folder) is its own prefix: its binary is in it.
        if Path(os.path.realpath(env)) in Path(real).parents:
            return None
        what = venv_config.not_a_file(env / "pyvenv.cfg") or "missing"  # a FIFO there is named, not "missing"
        return (f"{env / 'pyvenv.cfg'} is {what}, so its python ({real}) runs as the Python installation it "
                "belongs to, not as this environment")
    return None


def _user_name(uid: int) -> str:
    """`user nobody (uid 65534)`, or `uid 1234` where the account has no name."""
    try:
        import pwd  # deferred: only a foreign folder needs it

        return f"user {pwd.getpwuid(uid).pw_name} (uid {uid})"
    except (KeyError, ImportError):
        return f"uid {uid}"


#: Bits the wizard never lets a file it (or an installer it runs) creates have: write for group and others.
NO_SHARED_WRITE = 0o022


def restrict_umask() -> int:
    """Add group/other write to the process umask (for the wizard and every child it starts); return the
    old umask so an in-process caller can put it back.

    Why: an environment built with `--env DIR` outside the 0700 state folder followed the user's umask;
    under `umask 000` its `site-packages` was world-writable and another local user's `.pth` file ran in
    the owner's next `python`. uv, pip and the venv module create the files, so the umask — which they
    all inherit — is the one place that covers every folder, file and marker they make. Read bits are
    left as the user's umask sets them (a lab may share environments for reading).

    The owner's own bits are never masked: under `umask 0777` history.json and the new environment were made
    mode 0000, which a user other than root cannot open again (fifteenth hostile pass P6); such a umask now
    gives what the wizard makes to its owner alone (0700 folders, 0600 files)."""
    old = os.umask(NO_SHARED_WRITE)
    os.umask((old | NO_SHARED_WRITE) & OWNER_KEPT)
    return old


#: The umask bits the wizard keeps: group's and other's. The owner may always read, write and enter what it makes.
OWNER_KEPT = 0o077


#: Names that mean another thing in every other process: this process's own view (`/proc/self/cwd`, a descriptor).
_PROCESS_VIEWS = LazyPattern(r"^/(?:proc/(?:self|thread-self|[0-9]+)|dev/fd)(?:/|$)")


def lasting_path(path: Path) -> Path:
    """`path` as a later process will find it: through `/proc/self/…` or `/dev/fd/…` it is resolved to the folder
    it names now, since those names lead elsewhere for `activate` in another shell (tenth hostile pass Y7:
    `--env /proc/self/cwd/e` was recorded as given and "no longer exists" from any other folder)."""
    text = str(path)
    return Path(os.path.realpath(path)) if text.startswith(("/proc/", "/dev/fd")) and _PROCESS_VIEWS.match(text) \
        else path


#: Linux's limits on a path (`PATH_MAX`, its closing NUL included) and on one name in it (`NAME_MAX`), in bytes: past
#: them every call on the path fails with ENAMETOOLONG, whatever the path names.
PATH_MAX_BYTES = 4096
NAME_MAX_BYTES = 255


def unholdable_text(value: str) -> str | None:
    """Why `value` can be neither a path nor a program's argument, as a clause, or None: a NUL byte, or a character
    that is no byte at all (a lone UTF-16 surrogate that is not a path's escaped byte, `\\ud800` in a JSON file).
    Python refuses both with its own ValueError at the first `os.stat` or child."""
    if "\0" in value:
        return "holds a NUL byte, which no path or argument can hold"
    try:
        os.fsencode(value)
    except UnicodeError as exc:
        char = value[exc.start] if isinstance(exc, UnicodeEncodeError) else ""
        if char and not 0xD800 <= ord(char) <= 0xDFFF:
            # 28th hostile pass (part A) P3: a plain `é` under `LC_ALL=C PYTHONUTF8=0` was called "a lone surrogate"
            return (f"holds {ascii(char)}, which this shell's locale ({sys.getfilesystemencoding()} file names) "
                    "cannot spell; run it with LC_ALL=C.UTF-8 or PYTHONUTF8=1")
        return "holds a character that is no byte (a lone UTF-16 surrogate), which no path or argument can hold"
    return None


def path_from_json(value: str) -> str:
    """A path as the wizard's own JSON files hold it — its bytes as UTF-8 text, a byte that is not UTF-8 as its
    `\\udcXX` escape — spelled as this process spells paths (`os.fsdecode` of those bytes).

    Why: a state folder made in a UTF-8 shell (`…/sté/envs/x`) was read under `LC_ALL=C PYTHONUTF8=0`, where Python
    spells file names in ASCII: `é` could not be a path there, every entry was skipped as holding "a lone surrogate",
    and `history` said "No installs yet" (28th hostile pass (part A) P3). The bytes are what a path is; under a UTF-8
    locale this returns `value` as it is."""
    try:
        return os.fsdecode(value.encode("utf-8", "surrogateescape"))
    except UnicodeError:  # a surrogate no byte stands for: `unholdable_text` names it
        return value


def path_for_json(value: str) -> str:
    """`value`, a path as this process spells it, as the wizard's JSON files hold it (`path_from_json`'s inverse): so a
    file written under `LC_ALL=C` reads the same in a UTF-8 shell."""
    try:
        return os.fsencode(value).decode("utf-8", "surrogateescape")
    except UnicodeError:
        return value


def unholdable_path(value: str) -> str | None:
    """Why `value` cannot be a path on this system at all, as a clause ("holds a NUL byte, …", "is 5021 bytes long,
    …"), or None.

    Why: a value read from a file a user can edit (history.json) reached `os.stat` as it was: a NUL made Python
    raise its own ValueError, which ended as the wizard's own bug ("embedded null byte"), and an over-long one
    ENAMETOOLONG, which was blamed on the state folder (twenty-first hostile pass P4). Refused where the file is
    read, it is blamed on the file and the field that hold it."""
    problem = unholdable_text(value)
    if problem:
        return problem
    raw = os.fsencode(value)
    if len(raw) >= PATH_MAX_BYTES:
        return f"is {len(raw)} bytes long, longer than the {PATH_MAX_BYTES - 1} bytes a path may be"
    longest = max(raw.split(b"/"), key=len)
    if len(longest) > NAME_MAX_BYTES:
        return (f"has a name {len(longest)} bytes long in it, longer than the {NAME_MAX_BYTES} bytes a file name "
                "may be")
    return None


#: The characters each ':'-separated list splits at: ld.so splits LD_LIBRARY_PATH at ';' as well
#: (`detect.libpath.ld_library_path_entries`); every other list (PATH, PYTHONPATH, MODULEPATH) at ':' alone.
LIST_SEPARATORS = {"LD_LIBRARY_PATH": ":;"}


def list_entry_problem(folder: str, variable: str) -> str | None:
    """Why `folder` cannot be one entry of the ':'-separated list `variable` (PATH, LD_LIBRARY_PATH, PYTHONPATH,
    MODULEPATH), or None: the one rule for every folder a line the wizard prints or writes puts into such a list.

    Why: 35th hostile pass (part A) P1 — `module install --dir '/tmp/m:x'` advised `module use /tmp/m:x`; Lmod kept
    MODULEPATH as two entries, `/tmp/m` and a relative `x`, so `module load` ran a module file from whatever folder
    the user was in. A separator in a folder cannot be quoted away (the list has no quoting), and a relative entry
    names a folder under wherever the shell is, so both are refused by name."""
    for char in LIST_SEPARATORS.get(variable, ":"):
        if char in folder:
            return (f"{folder} holds a {char!r}, which {variable} splits at (the part after it would be read as "
                    "another folder, a relative one under wherever the shell is); choose a folder without it")
    if not os.path.isabs(folder):
        return f"{folder} is a relative folder, which {variable} would read under wherever the shell is"
    return None


def unusable_env_path(value: str) -> str | None:
    """Why an environment path cannot work, or None: no shell, PATH or kernelspec can hold ':' (the
    PATH separator, `LIST_SEPARATORS`), a newline or a NUL in the folder of a `bin/`."""
    for char, name in ((":", "a ':'"), ("\n", "a newline"), ("\r", "a carriage return"), ("\0", "a NUL byte")):
        if char in value:
            return (f"the environment path {value!r} holds {name}, which PATH and activation scripts cannot "
                    "represent; choose a folder without it")
    return None


def not_utf8(value: str) -> str | None:
    """`value` shown with its bytes that are not UTF-8 as `\\xNN` when it has any (Python holds each as a
    lone surrogate, which uv, JSON and a UTF-8 file refuse), else None.

    The bytes judged are the ones the path is on disk and on the command line (`os.fsencode`): under the C
    locale with UTF-8 mode off (`LC_ALL=C PYTHONUTF8=0`) Python decodes argv and the environment as ASCII, so
    every byte of a UTF-8 name such as `envé` arrives as a lone surrogate, yet the name is UTF-8 and uv takes
    it (twentieth pass P4). Only a byte sequence that is not UTF-8 is refused, and only its bytes are named."""
    try:
        value.encode("utf-8")
        return None
    except UnicodeEncodeError:
        pass
    try:
        raw = os.fsencode(value)
    except UnicodeError:  # a surrogate that is no escaped byte (\ud800 from a JSON file): not UTF-8 either
        raw = None
    if raw is not None:
        try:
            raw.decode("utf-8")
            return None
        except UnicodeDecodeError:
            pass
        return raw.decode("utf-8", "backslashreplace")
    return "".join(f"\\x{ord(c) - 0xDC00:02x}" if 0xDC80 <= ord(c) <= 0xDCFF
                   else c.encode("utf-8", "backslashreplace").decode("utf-8") for c in value)


def as_shown(value: str) -> str:
    """`value` as the wizard shows it to people: a byte that is not UTF-8 as `\\xNN` (`not_utf8`'s spelling), every
    other byte as the UTF-8 it is (`é` stays `é` even where this process holds it as two escaped bytes, under
    `LC_ALL=C PYTHONUTF8=0`). A value holding no escaped byte comes back as it is.

    Why: a `--json` line wrote such a byte as JSON's `\\udcff` escape — a lone surrogate, which jq and most JSON
    readers other than Python's turn into U+FFFD or refuse — while every sentence wrote `\\xff` (review of hostile
    pass 28's notes: `history --json` under `LC_ALL=C`)."""
    shown = not_utf8(value)
    return shown if shown is not None else path_for_json(value)


def path_from_output(stdout: bytes, *, candidates: tuple[str, ...] = ()) -> str | None:
    """The path a child program printed as the last line of `stdout` (bytes), as this process names paths: decoded
    with `os.fsdecode`, the filesystem's own encoding and error handler, never with the locale's text decoding.

    Why: under `LC_ALL=C PYTHONUTF8=0` the output of `uv cache dir` was decoded as ASCII with `errors="replace"`, and
    `os.stat` of the U+FFFD characters that made raised UnicodeEncodeError: `plan` and `install` stopped with "this
    is a bug" for a UV_CACHE_DIR, XDG_CACHE_HOME or HOME holding a byte that is not UTF-8 (27th hostile pass (part A)
    P2). A Rust program such as uv prints such a path lossily (each bad byte as U+FFFD), so the printed name is no
    real one: when one of `candidates` (the paths the child could have meant, as this process holds them) prints
    so, that candidate is the answer."""
    lines = [line for line in stdout.splitlines() if line.strip()]
    if not lines:
        return None
    raw = lines[-1].strip()
    if b"\xef\xbf\xbd" in raw:  # U+FFFD: a byte the child could not print
        for candidate in candidates:
            try:
                if os.fsencode(candidate).decode("utf-8", "replace").encode("utf-8") == raw:
                    return candidate
            except UnicodeError:
                continue
    return os.fsdecode(raw)


def first_bad_byte(value: str) -> str | None:
    """The first byte of `value` (as on disk) that starts no UTF-8 sequence, spelled `\\xNN`, or None."""
    try:
        raw = os.fsencode(value)
    except UnicodeError:
        bad = next((c for c in value if "\udc80" <= c <= "\udcff"), None)
        return None if bad is None else f"\\x{ord(bad) - 0xDC00:02x}"
    try:
        raw.decode("utf-8")
        return None
    except UnicodeDecodeError as exc:
        return f"\\x{raw[exc.start]:02x}"


def uncreatable_env_path(value: str) -> str | None:
    """Why a *new* environment cannot be made at `value`, or None: besides `unusable_env_path`, uv refuses a
    venv path that is not UTF-8 (a byte such as \xff, which Python holds as a lone surrogate). An existing
    environment there can still be activated and checked: only creating one is refused."""
    shown = not_utf8(value)
    if shown is not None:
        return (f"the environment path {shown} holds a byte that is not UTF-8, and uv cannot create an environment "
                "there; choose a folder whose name is UTF-8 (for the state folder: GC_WIZARD_HOME)")
    return unusable_env_path(value)


def envs_dir() -> Path:
    return state_dir() / "envs"


def logs_dir() -> Path:
    return state_dir() / "logs"


def new_log(kind: str, entry_id: str | None = None) -> Path:
    """The log file of one run: `logs/<kind>-<entry id>.log` for a run with a history entry (ids are
    unique), else `logs/<kind>-<YYYYmmdd-HHMMSS>[-N].log`, numbered so two runs never share one. The
    state folder is made (mode 0700) if it is not there yet."""
    ensure_state_dir()
    folder = logs_dir()
    if entry_id:
        return folder / f"{kind}-{entry_id}.log"
    return unused_path(folder, f"{kind}-{time.strftime('%Y%m%d-%H%M%S')}", ".log")


def unused_path(folder: Path, stem: str, suffix: str) -> Path:
    """`folder/stem+suffix`, or `stem-2`, `stem-3`… when taken: two runs in one second never share a file."""
    path = folder / f"{stem}{suffix}"
    n = 2
    while path.exists():
        path = folder / f"{stem}-{n}{suffix}"
        n += 1
    return path


def app_log() -> Path:
    """The terminal app's own log (start-up timings, for support): one file every start appends to —
    the one log name `new_log` does not make."""
    return logs_dir() / "tui.log"


def history_path() -> Path:
    """history.json, read by every command that reads the state: the state folder's checks run here
    (`guard_state_dir`: a state path that is no folder, someone else's, or one any user could swap is refused,
    never read as an empty or trusted history)."""
    guard_state_dir()
    return state_dir() / "history.json"


def lock_path() -> Path:
    return state_dir() / "wizard.lock"


# The package's data folder: the known failures, and (in a wheel) the built-in recipes.
DATA_DIR = Path(__file__).resolve().parent / "data"
_PACKAGE_DIR = Path(__file__).resolve().parent


def zip_archive() -> Path | None:
    """The zip archive gc-wizard runs from (a zipapp, `python3 gcw.pyz`), or None when its files are on disk."""
    if Path(__file__).exists():
        return None
    return next((parent for parent in Path(__file__).parents if parent.is_file()), None)


def package_file(path: Path) -> Path:
    """`path`, a file of this package (its data, a probe script another Python runs), as a path a program can open
    or run: the file itself on disk; run from a zip archive, a copy of it in the state folder's `package-files/`
    (see `_unzipped_copy`). Unchanged `path` when the zip holds no such file or the copy cannot be made (the reader
    then names the path).

    Why: run as a zipapp, `verify` and `diagnose` stopped on "cannot read the known-failures file …/gcw.pyz/wizard/
    data/known_failures.yaml: Not a directory", after an install had run every step (22nd hostile pass P12)."""
    archive = zip_archive() if not path.exists() else None
    if archive is None:
        return refuse_changeable_own_data(path)
    return _unzipped_copy(archive, path, folder=False)


#: `own_data_risk`'s verdict for each of the wizard's own files and folders, by absolute path: looked at once a run.
_OWN_DATA_VERDICTS: dict[str, tuple[str, str, str] | None] = {}


def own_data_risk(path: Path | str) -> tuple[str, str, str] | None:
    """(place, why, fix) when another user could change `path`, one of gc-wizard's own files or folders (its data, a
    probe script, the built-in recipes), else None: the rule its own uv is held to (`children.program_risk`: owner
    you or root, not group- or other-writable, the whole way from /, as given and where its links lead), and no ACL
    entry that lets another user write, on that way or on `path` (`source_trust.swap_risk`, asked only where there
    is an ACL to read, so the start-up path loads nothing more). Cached: each place is looked at once a run."""
    key = os.path.abspath(path)
    if key not in _OWN_DATA_VERDICTS:
        found: tuple[str, str, str] | None = None
        risk = program_risk(key)
        if risk is not None:

            place, why = risk
            quoted = shell_word(place)
            try:
                theirs = os.lstat(place).st_uid not in (0, os.geteuid())
            except OSError:
                theirs = False
            fix = (f"give it back to root (`chown root {quoted}`, as root)" if theirs
                   else f"take that write away (`chmod go-w {quoted}`, as its owner)")
            found = (place, why, fix)
        elif _has_acl_on_way(key):
            from wizard.source_trust import swap_risk  # deferred: only a file with an ACL on its way needs it

            acl = swap_risk(Path(key), inside=False)
            if acl is not None:
                found = (str(acl[0]), f"{acl[0]} {acl[1]}", acl[2][0].lower() + acl[2][1:])
        _OWN_DATA_VERDICTS[key] = found
    return _OWN_DATA_VERDICTS[key]


def _has_acl_on_way(path: str) -> bool:
    """Whether `path` or a folder on its way (as given, and where its links lead) carries a POSIX access ACL."""
    listxattr = getattr(os, "listxattr", None)
    if listxattr is None:
        return False
    for start in dict.fromkeys((path, os.path.realpath(path))):
        place = start
        while True:
            try:
                if ACL_ACCESS in listxattr(place):
                    return True
            except OSError:
                pass
            if os.path.dirname(place) == place:
                break
            place = os.path.dirname(place)
    return False


def refuse_changeable_own_data(path: Path) -> Path:
    """`path`, one of gc-wizard's own files or folders, once it passes `own_data_risk`; else UserError (exit 2)
    naming the place and the fix, before anything is read from it.

    Why: 28th hostile pass (part B) P8 — with `chmod o+w` on a built-in recipe, `wizard/data/graphcast_releases.json`
    or `known_failures.yaml`, another user's edit was used as is: an added pin reached root's install, a changed
    GraphCast checkout was called identical to v0.1.1 (and its setup.py ran as root), and diagnosis advised
    `curl … | sudo sh`; the same mode on the wizard's own uv, or on a `--recipes-dir` file, was refused."""
    found = own_data_risk(path)
    if found is None:
        return path
    place, why, fix = found
    if place == os.path.abspath(path) and why.startswith(place):
        why = "it" + why[len(place):]
    raise UserError(f"gc-wizard's own {'folder' if path.is_dir() else 'file'} {path} was not read, because {why}, so "
                    "another user could change what gc-wizard installs, trusts or advises, and gc-wizard would act "
                    f"on their version as you. To use it, {fix}, or reinstall gc-wizard in a folder only you (and "
                    "root) can write; nothing was run.")


def package_folder(path: Path) -> Path:
    """`path`, a folder of this package's data, as a folder on disk: itself on disk; run from a zip archive, a copy
    of its files (not its subfolders) in the state folder's `package-files/` (see `_unzipped_copy`).

    Why: run as a zipapp, the built-in recipes were looked for in "<gcw.pyz>/recipes" and none of the 12 was found
    (`recipes` exited 2 "no recipes were found"), as `package_file` had fixed only single files (23rd hostile
    pass P8)."""
    archive = zip_archive() if not path.is_dir() else None
    return path if archive is None else _unzipped_copy(archive, path, folder=True)


def _zipped_members(archive: Path, path: Path, *, folder: bool) -> dict[str, bytes]:
    """The bytes of `path` inside `archive` by file name: the one file, or a folder's files (not its subfolders).
    Empty when the archive holds none (or cannot be read)."""
    import zipfile  # deferred: only a zipapp run needs it, and every command imports this module at start-up

    try:
        member = path.resolve().relative_to(archive.resolve()).as_posix().rstrip("/")
        with zipfile.ZipFile(archive) as opened:
            if not folder:
                return {path.name: opened.read(member)}
            files: dict[str, bytes] = {}
            for info in opened.infolist():
                rest = info.filename[len(member) + 1:] if info.filename.startswith(member + "/") else ""
                if rest and "/" not in rest and not info.is_dir() and rest not in (".", ".."):
                    files[rest] = opened.read(info)
            return files
    except (OSError, ValueError, KeyError, zipfile.BadZipFile):
        return {}


def _unzipped_copy(archive: Path, path: Path, *, folder: bool) -> Path:
    """`path`'s bytes from `archive` on disk, at `package-files/<digest>/<name>` under the state folder: the digest
    is the sha256 of the names and contents, so a copy is written once and checked at every use (a changed, added or
    removed file, or a link put in its place, is written again), and a newer wizard never reads an older copy.
    Written beside its place and moved in whole, so a reader never sees half a copy. `path` when there is nothing
    to copy or the copy cannot be made."""
    import hashlib

    files = _zipped_members(archive, path, folder=folder)
    if not files:
        return path
    digest = hashlib.sha256()
    for name in sorted(files):
        digest.update(name.encode() + b"\0" + hashlib.sha256(files[name]).digest())
    place = state_dir() / "package-files" / digest.hexdigest()[:32]
    copy = place / path.name
    try:
        if _holds(copy, files, folder=folder):
            return copy
        make_folders(place, 0o700)
        if not folder:
            partial = place / f".{path.name}.{os.getpid()}"
            partial.write_bytes(files[path.name])
        else:
            import tempfile

            partial = Path(tempfile.mkdtemp(prefix=f".{path.name}.", dir=place))
            strip_acls(partial)
            for name, data in files.items():
                (partial / name).write_bytes(data)
        _clear_for(copy)
        os.replace(partial, copy)
    except OSError:
        return path
    return copy


def _holds(copy: Path, files: dict[str, bytes], *, folder: bool) -> bool:
    """Whether `copy` is already exactly `files`: regular files (no links), no other names."""
    def same(file: Path, data: bytes) -> bool:
        return file.is_file() and not file.is_symlink() and file.read_bytes() == data

    if not folder:
        return same(copy, files[copy.name])
    if not copy.is_dir() or copy.is_symlink():
        return False
    return {entry.name for entry in copy.iterdir()} == set(files) and all(
        same(copy / name, data) for name, data in files.items())


def _clear_for(copy: Path) -> None:
    """Remove what stands where a fresh copy goes (a stale copy, a link, a file where a folder goes), so the move
    that follows puts the copy there, not inside it."""
    import shutil

    if copy.is_symlink() or copy.is_file():
        copy.unlink()
    elif copy.exists():
        shutil.rmtree(copy)


def builtin_recipes_dir() -> Path:
    """The shipped recipes: inside the package in a wheel (from a zipapp, its checked copy, `package_folder`), the
    repository's `recipes/` in a checkout."""
    packaged = DATA_DIR / "recipes"
    if packaged.is_dir():
        return packaged
    if zip_archive() is not None:
        return _zip_recipes()
    return Path(__file__).resolve().parent.parent / "recipes"


_ZIP_RECIPES: dict[Path, Path] = {}


def _zip_recipes() -> Path:
    """The zip's recipes folder copied once per state folder and run (the loader asks for it several times)."""
    home = state_dir()
    if home not in _ZIP_RECIPES:
        _ZIP_RECIPES[home] = package_folder(DATA_DIR / "recipes")
    return _ZIP_RECIPES[home]


def user_recipes_dir() -> Path | None:
    """`$XDG_CONFIG_HOME/gc-wizard/recipes`, else `~/.config/gc-wizard/recipes`; None when there is neither (no HOME
    and no passwd entry: the user's recipe folder is skipped, and `recipes` and `plan` run on with the others)."""
    config_home = os.environ.get("XDG_CONFIG_HOME")
    if not config_home:
        home = known_home()
        if home is None:
            return None
        config_home = str(home / ".config")
    return Path(expand_home(config_home)) / "gc-wizard" / "recipes"


def recipe_dirs(extra: list[str] | None = None) -> list[Path]:
    """Recipe folders in override order: a later folder's recipe replaces an earlier one's."""
    dirs = [builtin_recipes_dir(), *filter(None, [user_recipes_dir()])]
    dirs.extend(Path(expand_home(d)) for d in extra or [])
    return dirs


def wizard_command() -> str:
    """How to run this gc-wizard from a new login shell, for the "Next:" lines the wizard prints.

    After the README's Quick start only `.venv/bin/gc-wizard` exists and nothing puts it on PATH, so
    a bare `gc-wizard` would fail in the next shell. The bare name is printed only when PATH finds
    this very program outside its own environment's bin folder (pipx's or `uv tool`'s ~/.local/bin, a
    `pip install --user`); otherwise — an activated venv is not active in a new shell either — the
    absolute path of the console script, else `python -m wizard`. A `GC_WIZARD_HOME` in force is
    carried along, or the new shell would look in the default state folder and find nothing.
    """

    me = program_command()
    home = chosen_state_folder()
    # A state folder chosen by GC_WIZARD_HOME is not in a new login shell's environment: carry it.
    return f"GC_WIZARD_HOME={shell_word(home)} {me}" if home else me


#: gc-wizard on the machine with internet, installed there as `self_install.carry_words` says (a venv of its own,
#: `.venv`, made in the folder where the command is run): never this machine's program path.
ELSEWHERE_PROGRAM = ".venv/bin/gc-wizard"


def elsewhere_command(arguments: str) -> str:
    """`gc-wizard ARGUMENTS` as a sentence tells the user to run it ON ANOTHER MACHINE (the one with internet that
    gathers a bundle or the forecast's files): the one wording of every such sentence, and one `runnable` leaves as it
    is (it rewrites only a quoted bare `gc-wizard` into this machine's program).

    Why: walk 37 #4 — forecast's fix said "Or there, `/home/lab2/gc-wizard/.venv/bin/gc-wizard bundle …`", this
    server's path, for the machine where the sentence itself had just said to make a fresh `.venv`; the install's
    Next: block said a bare `gc-wizard bundle …` for the same step."""
    return f"{ELSEWHERE_PROGRAM} {arguments}"


def runnable(text: str, command: str | None = None) -> str:
    """`text` with each `gc-wizard …` it quotes in backticks as a new login shell runs it (`command`, else
    `wizard_command`): the one program name of every hint, Next and fix line built from a sentence.

    Why: walk 33 #4 — the Next lines named `/home/lab/gc-wizard/.venv/bin/gc-wizard`, as README promises, while the
    stopped log's "run it again", the recipe lists' "diagnose its log", the check's ranked causes and `kernel
    install`'s notes printed a bare `gc-wizard` the user's shell could not run."""
    if "`gc-wizard" not in text:
        return text
    me = command if command is not None else wizard_command()
    if me == "gc-wizard":
        return text
    return re.sub(r"`gc-wizard(?=[ `])", lambda _match: f"`{me}", text)


def chosen_state_folder() -> str | None:
    """The state folder `GC_WIZARD_HOME` chose, as the absolute path in use (`state_dir`), for every command line
    printed for a new shell (`wizard_command`'s prefix, the "Next:" lines' `export`); None when it is not set.

    Why: 31st hostile pass (part A) P6 — `GC_WIZARD_HOME=relst` (or `~/st`, which a quoted value never expands) was
    printed as given, `export GC_WIZARD_HOME=relst`, and a new login shell, started in $HOME, found another, empty
    state folder there, while this run used the one under the folder it started in."""
    return str(state_dir()) if os.environ.get("GC_WIZARD_HOME") else None


#: `program_command`'s answer for this process, by everything it reads besides files: the environment (PATH, PYTHONPATH,
#: uv's and pip's settings), the interpreter and its prefix, the package's folder. Review: every printed line asked the
#: files again (the console scripts, PATH's folders); a test (or a caller) that changes any of these gets a fresh
#: answer, never the last one's.
_PROGRAMS: dict[tuple, str] = {}


def program_command() -> str:
    """The gc-wizard program alone, as a new login shell can run it (see `wizard_command`), without the
    state folder: for lines that set `GC_WIZARD_HOME` themselves. A console script (this environment's, or the one
    PATH finds) is printed only when it starts this interpreter and, started so, would import this very package
    (`_fresh_start_runs_this_package`); else `PYTHON -m wizard`, with `PYTHONPATH` naming this package's folder
    where a fresh start would not find it (30th hostile pass (part B) P10: run as `PYTHONPATH=CHECKOUT python -m
    wizard`, the "Go back:" lines named the venv's `gc-wizard`, another gc-wizard installed there).
    Found once a process (`_PROGRAMS`), except from a runner's cached environment (uvx, `pipx run`), whose line comes
    from its install's recorded source, read each time."""
    key = (sys.prefix, sys.executable, tuple(sys.argv[:1]), str(_PACKAGE_DIR), tuple(sorted(os.environ.items())))
    known = _PROGRAMS.get(key)
    if known is not None:
        return known
    if zip_archive() is None and ephemeral_tool_env() is not None:  # an environment that goes by itself
        return _run_again_command(pipx=not in_uv_cache(Path(sys.prefix)))
    _PROGRAMS[key] = found = _program_command()
    return found


def _program_command() -> str:
    """`program_command`, found afresh."""
    import shutil

    if zip_archive() is not None:  # this zipapp, not a gc-wizard the interpreter may have installed too
        return " ".join(shell_word(part) for part in program_argv())
    own = Path(sys.prefix) / "bin" / "gc-wizard"
    if own.exists() and script_interpreter_problem(own) is not None:  # a moved or copied venv (P7)
        return _module_command()
    if not _fresh_start_runs_this_package():
        return _module_command()
    found = shutil.which("gc-wizard")
    if found:
        found_path = Path(found)
        if not own.exists():
            if script_interpreter_problem(found_path) is None:
                return "gc-wizard"
        elif found_path.parent.resolve() != own.parent.resolve() and found_path.resolve() == own.resolve():
            return "gc-wizard"
    if own.exists():
        return shell_word(str(own.absolute()))
    return _module_command()


def ephemeral_tool_env() -> Path | None:
    """This run's own environment when its runner keeps it in a cache and deletes it by itself (`uvx` / `uv tool
    run`: `in_uv_cache`; `pipx run`: `in_pipx_run_cache`), else None: nothing printed or exported for later may name a
    folder in it (`program_command`; `activate`'s PATH, walk 37 #2)."""
    prefix = Path(sys.prefix)
    return prefix if in_uv_cache(prefix) or in_pipx_run_cache(prefix) else None


def in_uv_cache(path: Path) -> bool:
    """Whether `path` lies in an environment uv keeps in its cache (`ROOT/archive-v0/HASH/…`, ROOT holding uv's
    `CACHEDIR.TAG`): the one `uvx` / `uv tool run` runs gc-wizard from, which `uv cache clean` or `prune` deletes."""
    for folder in (path, *path.parents):
        if folder.parent.name.startswith("archive-v") and (folder.parent.parent / "CACHEDIR.TAG").is_file():
            return True
    return False


def in_pipx_run_cache(prefix: Path) -> bool:
    """Whether `prefix` is a `pipx run` environment (`PIPX_HOME/.cache/HASH`, beside pipx's `shared` environment),
    which pipx deletes once it has gone unused for 14 days."""
    cache = prefix.parent
    return cache.name == ".cache" and (cache.parent / "shared" / "pyvenv.cfg").is_file()


def _run_again_command(*, pipx: bool) -> str:
    """gc-wizard as `uvx --from SOURCE gc-wizard` (or `pipx run --spec SOURCE gc-wizard`), for a run from an
    environment its runner keeps in a cache: SOURCE is the folder, file or URL it was installed from (its dist-info's
    direct_url.json), else the name the user's index answered.

    Why: 33rd hostile pass (part B) P6 — run through `uv tool run`, every printed command named
    `$UV_CACHE_DIR/archive-v0/HASH/bin/gc-wizard`, which the next `uv cache clean` deletes; `uvx` builds it again
    (and `pipx run`'s cached environment goes after 14 days unused)."""
    # deferred: reads the dist-info, only when the lines are printed
    from wizard.self_install import self_install

    found = self_install()
    installed = None if found.source_risk else _lasting_install(found.source)
    if installed is not None:
        return installed
    source = found.source if found.source and not found.source_risk else "gc-wizard"
    if pipx:
        return "pipx run gc-wizard" if source == "gc-wizard" else f"pipx run --spec {shell_word(source)} gc-wizard"
    return f"{_uv_trust_prefix()}{lasting_uv('uvx', 'tool run')} --from {shell_word(source)} gc-wizard"


def _lasting_install(source: str) -> str | None:
    """The absolute path of an installed gc-wizard that outlives the runner's cache and was built from the same
    `source` as this run ("" for the index): the `--from DIR` folder's own `.venv/bin/gc-wizard` (README's Quick
    start), else the one PATH finds outside uv's cache (a `uv tool install`, pipx's); None when there is none.

    Why: walk 37 #1 — run as `uvx --system-certs --from ~/gc-wizard gc-wizard`, every Next: line was `uv tool run
    --from ~/gc-wizard gc-wizard …`, which resolves gc-wizard's dependencies from the index again: behind a
    TLS-inspecting proxy it failed (and `eval "$(…activate)"` said nothing), while
    `~/gc-wizard/.venv/bin/gc-wizard` needs no index at all."""
    import shutil

    candidates = [Path(source) / ".venv" / "bin" / "gc-wizard"] if source.startswith("/") else []
    found = shutil.which("gc-wizard", path=_lasting_path())
    if found:
        candidates.append(Path(found).absolute())
    for script in candidates:
        if _installed_from(script) == source:
            return shell_word(str(script))
    return None


def _installed_from(script: Path) -> str | None:
    """The source the gc-wizard of console script `script` was installed from ("" for the index), when the script
    starts its own environment's Python and that environment lasts (not in uv's or `pipx run`'s cache); else None."""
    try:
        real = script.resolve(strict=True)
    except (OSError, RuntimeError):
        return None
    if not os.access(real, os.X_OK) or in_uv_cache(real) or in_pipx_run_cache(real.parent.parent):
        return None
    named = _script_python(real)
    if named is None or not os.path.exists(named) or os.path.realpath(os.path.dirname(named)) != str(real.parent):
        return None
    # deferred: reads a dist-info, only when the lines are printed
    from wizard.self_install import installed_source

    return installed_source(real.parent.parent)


def _lasting_path() -> str:
    """This run's PATH without the folders in uv's cache: uv puts its cached environment's bin folder on this run's
    PATH, and a new shell's PATH lacks it."""
    return os.pathsep.join(folder for folder in os.environ.get("PATH", "").split(os.pathsep)
                           if folder and not in_uv_cache(Path(folder)))


def _uv_trust_prefix() -> str:
    """What a printed `uvx` line needs in front to pass this machine's TLS as this run did: the uv trust variable
    set for this run (`SSL_CERT_FILE`, `SSL_CERT_DIR`, `UV_SYSTEM_CERTS`, `UV_NATIVE_TLS`; a new shell may lack it),
    else, where the trust rule finds uv lacking what pip trusts (`installer_files.uv_trust_env`), that CA; "" when
    uv needs nothing. `uv --system-certs` given on uv's command line leaves no trace this run can read, so the rule
    is what stands in for it (walk 37 #1)."""
    # deferred: only when the lines are printed
    from wizard.installer_files import uv_trust_env, uv_trust_setting

    chosen = uv_trust_setting(os.environ)
    carried = ({chosen: os.environ[chosen]} if chosen in os.environ else {}) if chosen else uv_trust_env(os.environ)
    return "".join(f"{name}={shell_word(value)} " for name, value in carried.items())


def lasting_uv(name: str = "uv", words: str = "") -> str:
    """uv as a printed command names it for later (`name` on PATH, then `words` after `uv`): `name` when PATH has it,
    else `uv` when PATH has that, else the uv that started this run (uv's `UV` variable) outside uv's cache, else the
    bare name. Never a uv inside uv's cache (the `uv` package's binary in a `uvx` environment), which `uv cache
    clean` deletes (33rd hostile pass (part B) P6)."""
    import shutil

    lasting = _lasting_path()

    def on_path(program: str) -> bool:
        return shutil.which(program, path=lasting) is not None

    plain = f"uv {words}".strip()
    if on_path(name):
        return name
    if name != "uv" and on_path("uv"):
        return plain
    started = os.environ.get("UV", "")
    if started.startswith("/") and os.path.isfile(started) and not in_uv_cache(Path(started)):
        return f"{shell_word(started)} {words}".strip()
    return name


def _module_command() -> str:
    """`PYTHON -m wizard` for a new login shell: with `PYTHONPATH=` this package's folder in front when this
    interpreter, started afresh, would not import this package (a checkout run from its folder or on PYTHONPATH)."""

    argv = " ".join(shell_word(part) for part in program_argv())
    if _fresh_start_runs_this_package():
        return argv
    folder = str(_PACKAGE_DIR.parent)
    if list_entry_problem(folder, "PYTHONPATH") is not None and zip_archive() is None:
        # PYTHONPATH cannot hold this folder (35th hostile pass (part A) P1: a ':' made a relative second entry, a
        # folder under wherever the line is pasted): the interpreter is told the folder itself, as a string.
        return f"{shell_word(sys.executable)} -c {shell_word(_RUN_FROM.format(folder=folder))}"
    return f"PYTHONPATH={shell_word(folder)} {argv}"


#: `python -c` that runs this package from a folder PYTHONPATH cannot hold (`_module_command`).
_RUN_FROM = ("import runpy, sys; sys.path.insert(0, {folder!r}); sys.argv[0] = 'gc-wizard'; "
             "runpy.run_module('wizard', run_name='__main__', alter_sys=True)")


#: `_fresh_start_runs_this_package`'s answer, by interpreter and package file: asked once a run.
_FRESH_STARTS: dict[tuple[str, str], bool] = {}


def _fresh_start_runs_this_package() -> bool:
    """Whether this interpreter, started afresh as a console script or a new login shell starts it — without
    PYTHONPATH, from another folder — would import this very `wizard` package (the running module's file), not
    another gc-wizard installed in it, or none. Asked of the interpreter itself (`importlib.util.find_spec`, which
    runs nothing of the package), so its `.pth` files and user site count as they will; True where it cannot be told.
    Why the interpreter and not this run's `sys.path`: a folder on PYTHONPATH that a `.pth` adds too appears once."""
    here = os.path.realpath(_PACKAGE_DIR / "__init__.py")
    key = (sys.executable, here)
    if key not in _FRESH_STARTS:
        origin = _fresh_import_origin()
        _FRESH_STARTS[key] = origin is None or (bool(origin) and os.path.realpath(origin) == here)
    return _FRESH_STARTS[key]


def _fresh_import_origin() -> str | None:
    """The file `import wizard` loads in a fresh start of this interpreter ('' for none), or None when it cannot be
    asked."""
    if not sys.executable:
        return None
    code = ("import sys\nif sys.path and sys.path[0] == '':\n    del sys.path[0]\nimport importlib.util\n"
            "spec = importlib.util.find_spec('wizard')\nprint(spec.origin if spec is not None and spec.origin else '')\n")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONSAFEPATH", "PYTHONSTARTUP")}
    try:
        done = run_capture([sys.executable, "-c", code], timeout=15, env=env, cwd="/")
    except Exception:  # OSError, a timeout: not known, so not said otherwise
        return None
    if done.returncode != 0:
        return None
    lines = done.stdout.strip().splitlines()
    return lines[-1] if lines else ""


#: pip's launcher for an interpreter path too long (or too odd) for a `#!` line: `#!/bin/sh` then this line.
_SH_EXEC = b"'''exec' \""


def script_interpreter_problem(script: Path) -> str | None:
    """Why console script `script` would not start this interpreter (one clause), or None when it does or cannot be
    told (`#!/usr/bin/env python3`, uv's relocatable `/bin/sh` launcher).

    Why: with gc-wizard's venv moved or copied, `python -m wizard` printed "Next:" lines naming `NEWVENV/bin/gc-wizard`,
    whose `#!` still named the old venv's Python: the printed `eval "$(… activate)"` failed with "cannot execute:
    required file not found", and from a copy it silently ran the other venv's Python (28th hostile pass (part B)
    P7). The `#!` line (or pip's `exec` line after `#!/bin/sh`, for a long path) names an interpreter; it is this one
    when it sits in this interpreter's own bin folder (a venv's `python3.11` and `python` both do; resolving the file
    itself would take a copied venv's Python for the base Python both link to)."""

    named = _script_python(script)
    if named is None:
        return None
    if not os.path.exists(named):
        return f"its #! line names {named}, which is not there"
    if os.path.realpath(os.path.dirname(named)) != os.path.realpath(os.path.dirname(sys.executable)):
        return f"its #! line names {named}, another Python than this one"
    return None


def _script_python(script: Path) -> str | None:
    """The interpreter console script `script` names by its absolute path (its `#!` line, or pip's `exec` line after
    `#!/bin/sh` for a long path); None when it names none (`#!/usr/bin/env python3`) or cannot be read."""
    try:
        with open(script, "rb") as handle:
            head = handle.read(4096).split(b"\n")
    except OSError:
        return None
    first = head[0].decode("utf-8", "replace")
    if not first.startswith("#!"):
        return None
    named = first[2:].strip().split(" ")[0]
    if named == "/bin/sh" and len(head) > 1 and head[1].startswith(_SH_EXEC):
        named = head[1][len(_SH_EXEC):].split(b'"', 1)[0].decode("utf-8", "replace")
    if not named.startswith("/") or os.path.basename(named) in ("env", "sh", "bash"):
        return None
    return named


def program_note() -> str | None:
    """The one sentence the "Next:" lines add when they name gc-wizard as `PYTHON -m wizard` because its own console
    script would not start this interpreter (`script_interpreter_problem`); None otherwise."""

    own = Path(sys.prefix) / "bin" / "gc-wizard"
    if zip_archive() is not None or not own.exists():
        return None
    problem = script_interpreter_problem(own)
    if problem is None:
        return None
    return (f"{own} cannot run this gc-wizard ({problem}; its venv was moved or copied), so these lines run "
            f"{sys.executable} -m wizard; reinstalling gc-wizard into that venv fixes its scripts.")


def program_argv() -> list[str]:
    """This gc-wizard as an argv another process can run (a Slurm node, a printed command): the interpreter and the
    zip archive it runs from (a zipapp), else the interpreter with `-m wizard`. Why: a zipapp printed and launched
    `python3 -m wizard`, which gave "No module named wizard" (22nd hostile pass P12)."""

    archive = zip_archive()
    return [sys.executable, str(archive)] if archive is not None else [sys.executable, "-m", "wizard"]
