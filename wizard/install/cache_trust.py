"""The installer's download cache is one more input an install reads: it passes the swap rule every source goes
through (`wizard.source_trust`), and when it fails the install uses a private cache inside the state instead,
named in the plan — never another user's cache, silently.

Why: 25th hostile pass (part B) P1. uv installs from a cache entry without checking it against the wheel it came
from, so whoever can write the cache chooses the code. Root's install with `XDG_CACHE_HOME` (or `UV_CACHE_DIR`,
or `HOME`) leading to a cache another user owned, or to a 0777 one, took their rewritten `pkg_a.py` into root's
environment and ran it as uid 0; `plan` named the cache and said nothing of its owner or mode.

Where it looks: the cache folder and every folder (and link) on its way from /, or — for a cache not made yet —
the nearest folder of it that exists (whoever may write there may make the cache first). Not what the cache holds:
uv makes its lock files 0666 whatever the umask (empty; no code is read from them), so looking inside would turn
every cache away."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Mapping
from pathlib import Path

from wizard import bounded, paths
from wizard.children import run_capture
from wizard.full_disk import ROOM, nearest_existing, out_of_files
from wizard.installer_settings import pip_files, pip_settings, uv_files, uv_settings
from wizard.security import known_home
from wizard.source_trust import swap_risk

#: The values uv reads as "no" for a switch such as `UV_NO_CACHE` (clap's boolish values).
_UV_NO = ("0", "false", "no", "off", "n", "f")


def uv_cache_dir(uv: str, environ: Mapping[str, str]) -> Path | None:
    """Where uv keeps its cache, as uv itself says (it knows UV_CACHE_DIR, XDG_CACHE_HOME and the defaults)."""
    try:  # bytes: a path is decoded as the filesystem names it (27th hostile pass (part A) P2)
        proc = run_capture([uv, "cache", "dir"], stoppable=False, timeout=20, raw=True, env=dict(environ),
                           stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired):
        return None
    if proc.returncode != 0:
        return None
    home = known_home(environ)
    candidates = tuple(os.path.abspath(p) for p in (
        environ.get("UV_CACHE_DIR") or "", os.path.join(environ.get("XDG_CACHE_HOME") or "/nowhere", "uv"),
        os.path.join(home, ".cache", "uv") if home is not None else "") if p)
    found = paths.path_from_output(proc.stdout, candidates=candidates)
    return Path(found) if found else None


def cache_off(installer: str, environ: Mapping[str, str], cwd: str | os.PathLike[str] | None = None) -> str | None:
    """Where the user turned `installer`'s download cache off, as it is set — `UV_NO_CACHE=1`, `PIP_NO_CACHE_DIR=…`,
    a uv.toml's `no-cache = true`, a pip.conf's `no-cache-dir` — or None: the installer keeps its cache.

    As each installer reads it: uv takes `UV_NO_CACHE=0` as off; pip turns its cache off for any value of
    `PIP_NO_CACHE_DIR` (or `no-cache-dir`), `false` and `0` included (pip's `_handle_no_cache_dir`), which the plan
    read as "on" and named a cache pip never used. The plan says it (`no_cache_words`), the link mode and the cache
    checks pass the cache over by it."""
    if installer == "uv":
        value = (environ.get("UV_NO_CACHE") or "").strip()
        if value:
            return None if value.lower() in _UV_NO else f"UV_NO_CACHE={value}"
        for path in uv_files(environ, cwd):
            if uv_settings(path).get("no-cache") is True:
                return f"`no-cache = true` in {path}"
        return None
    value = (environ.get("PIP_NO_CACHE_DIR") or "").strip()
    if value:
        return f"PIP_NO_CACHE_DIR={value}"
    for path in pip_files(environ):
        settings = pip_settings(path, ("global", "install"))
        found = settings.get("no-cache-dir", "").strip()
        if found:
            return f"`no-cache-dir = {found}` in {path}"
        if settings.get("cache-dir", "").strip():
            return None  # this file wins with a cache of its own
    return None


def no_cache_words(installer: str, where: str) -> str:
    """The plan's one sentence for a download cache turned off (`cache_off`), with how to have it for this run.

    Why: with `UV_NO_CACHE` or `PIP_NO_CACHE_DIR` set the plan showed no cache line and said nothing of every
    install downloading every package again (leftovers of the 30th hostile pass, item 2)."""
    if where.startswith("`"):
        undo = f"take it out of {where.split(' in ', 1)[1]} to keep them"
    else:
        undo = f"`unset {where.split('=', 1)[0]}` before starting gc-wizard keeps them"
    return (f"{where} turns {installer}'s download cache off, so this install downloads every package again and keeps "
            f"none for the next one; {undo}.")


def pip_cache(environ: Mapping[str, str]) -> Path | None:
    """The folder pip caches downloads and built wheels in, as its variables and defaults say (None: no cache,
    `cache_off`)."""
    if cache_off("pip", environ):
        return None
    if environ.get("PIP_CACHE_DIR"):
        return Path(os.path.abspath(os.path.expanduser(environ["PIP_CACHE_DIR"])))
    # A pip.conf's `cache-dir` (`[install]` over `[global]`; the file that wins first): pip reads it there too, so
    # a lab's shared cache named in a settings file is judged like one named by a variable.
    for path in pip_files(environ):
        settings = pip_settings(path, ("global", "install"))
        if settings.get("cache-dir", "").strip():
            return Path(os.path.abspath(os.path.expanduser(settings["cache-dir"].strip())))
    home = known_home(environ)
    if not environ.get("XDG_CACHE_HOME") and home is None:
        return None  # no home for it (`cache_problem` names HOME); pip runs without one
    base = environ.get("XDG_CACHE_HOME") or os.path.join(home, ".cache")
    return Path(os.path.abspath(base)) / "pip"


def cache_risk(cache: Path) -> str | None:
    """Why another local user could change what is in `cache` (words for a sentence), or None."""
    place = Path(os.path.abspath(cache))
    while not os.path.lexists(place) and place != place.parent:
        place = place.parent
    # A cache not made yet, under a sticky folder such as /tmp or /dev/shm: another user could only have made it
    # first, and then it exists, is theirs, and is refused here; what uv makes there is root's alone.
    found = swap_risk(place, inside=False, above=place != Path(os.path.abspath(cache)))
    if found is None:
        return None
    where, why, _fix = found
    return f"{where} {why}"


#: Per installer: the variable that moves its cache, the one that turns it off, and where each variable the cache can
#: come from puts it (the value's own folder, or a folder under it).
_CACHE_WORDS = {
    "uv": ("UV_CACHE_DIR", "UV_NO_CACHE=1", (("UV_CACHE_DIR", ""), ("XDG_CACHE_HOME", "uv"), ("HOME", ".cache/uv"))),
    "pip": ("PIP_CACHE_DIR", "PIP_NO_CACHE_DIR=1", (("PIP_CACHE_DIR", ""), ("XDG_CACHE_HOME", "pip"),
                                                     ("HOME", ".cache/pip"))),
}


def _cache_origin(installer: str, cache: Path, environ: Mapping[str, str]) -> str:
    """Where `cache` came from, as the user set it: `XDG_CACHE_HOME=/x`, or the installer's settings file."""
    wanted = os.path.abspath(cache)
    for name, below in _CACHE_WORDS[installer][2]:
        value = environ.get(name)
        if value and os.path.abspath(os.path.join(os.path.expanduser(value), below)) == wanted:
            return f"{name}={value}"
    return f"{installer}'s settings ({'uv.toml' if installer == 'uv' else 'pip.conf'}, cache-dir)"


def unusable_folder(folder: Path) -> str | None:
    """Why an installer cannot keep files in `folder` (made when missing): words for a sentence, or None."""
    place = nearest_existing(folder)
    if not place.is_dir():
        return f"{place} {bounded.not_a_folder(place).removeprefix('it ')}"
    made = "" if place == Path(os.path.abspath(folder)) else f" ({place}, where it would be made)"
    pseudo = paths.pseudo_words(place)
    if pseudo is not None:  # not "its disk is full": it is no disk (32nd hostile pass (part A) P5)
        return pseudo
    try:
        info = os.statvfs(place)
    except OSError:
        return None
    if info.f_flag & os.ST_RDONLY:
        return f"its disk is mounted read-only{made}"
    if not os.access(place, os.W_OK | os.X_OK):
        return f"it cannot be written by you{made}"
    if out_of_files(place):
        return f"its disk has room but no free files (inodes) left{made}, as `df -i` shows"
    if info.f_bavail * info.f_frsize < ROOM:
        return f"its disk is full{made}"
    return None


def cache_problem(installer: str, cache: Path | None, environ: Mapping[str, str]) -> str | None:
    """The refusal for an installer cache that cannot be used, naming the variable it came from and the fix; None
    when it can be (or there is none).

    Why: 27th hostile pass (part A) P1. An XDG_CACHE_HOME, UV_CACHE_DIR or HOME that is a file, on a read-only mount
    or out of inodes got uv's own words after the environment was made ("Failed to initialize cache at … Not a
    directory"; "No space left on device" with 64 MB free), naming no variable and no fix; `bundle` called it "uv could
    not resolve". Checked where the plan is made, as the state folder is."""
    variable = _CACHE_WORDS[installer][0]
    if not environ.get(variable) and not os.path.isabs(environ.get("XDG_CACHE_HOME") or ""):
        # the cache is derived from HOME: an empty or relative one puts it at `/.cache` or under the working folder
        problem = paths.home_problem(environ, f"{installer}'s download cache", f"{variable}=DIR")
        if problem:
            return problem
    if cache is None:
        return None
    why = unusable_folder(cache)
    if why is None:
        return None
    variable, off, _ = _CACHE_WORDS[installer]
    return (f"{installer}'s download cache {cache} (from {_cache_origin(installer, cache, environ)}) cannot be "
            f"used: {why}. Point it at a folder you can write ({variable}=DIR), or install without one ({off}). "
            "Nothing was changed.")


def private_cache(installer: str, cache: Path | None) -> tuple[dict[str, str], Path | None, str | None]:
    """(variables for the installer's steps, the cache they will use, a note for the plan). The variables point
    the installer at `<state>/cache/<installer>` when `cache` fails the swap rule; else they are empty."""
    if cache is None:
        return {}, None, None
    why = cache_risk(cache)
    if why is None:
        return {}, cache, None
    own = paths.state_dir() / "cache" / installer
    variable = "UV_CACHE_DIR" if installer == "uv" else "PIP_CACHE_DIR"
    note = (f"{installer}'s download cache {cache} is not used, because {why}, so another user could put their own "
            f"packages in it and gc-wizard would install (and run) their code: this install uses a cache of its own, "
            f"{own} ({variable}), instead.")
    return {variable: str(own)}, own, note


#: uv's answer to `uv cache dir` for each (uv, the variables it reads it from), asked once per run.
_UV_CACHES: dict[tuple[str | None, ...], Path | None] = {}


def step_cache_env(installer: str, program: str, env: Mapping[str, str], notes: list[str]) -> dict[str, str]:
    """The variables that point an installer step (`runner.step_installer`: `uv pip install|sync`, `pip install`)
    at the state's private cache when the cache it would use fails the swap rule, the reason added to `notes` (the
    step's log) and said once at the end of the run; {} when its cache passes (a plan's private cache does).

    Why at the runner: not only an install's steps read the cache — rollback's and `sync`'s `uv pip sync` install
    "offline, from the cache" first; every step that installs goes through here (25th hostile pass (part B) P1)."""
    if installer == "uv":
        if cache_off("uv", env):
            return {}
        key = (program, *(env.get(name) for name in ("UV_CACHE_DIR", "XDG_CACHE_HOME", "HOME", "UV_CONFIG_FILE",
                                                      "UV_NO_CONFIG")))
        if key not in _UV_CACHES:
            _UV_CACHES[key] = uv_cache_dir(program, env)
        cache = _UV_CACHES[key]
    else:
        cache = pip_cache(env)
    variables, own, note = private_cache(installer, cache)
    if note and own is not None:
        notes.append(note)
        paths.note_at_end(note, own.parent)
    return variables


def child_env(argv: list[str], base: Mapping[str, str] | None = None) -> dict[str, str]:
    """`base` (None: this process's environment) for an installer child the wizard runs outside the runner
    (`uv pip compile` for a lock or a frozen set's hashes, `pip download|wheel` for a bundle), with the state's
    private cache where the one it would use fails the swap rule (`step_cache_env`); the reason is said at the end
    of the run. Why: a lock's hashes come from what the cache holds, so a cache another user can write chooses the
    hashes a later install trusts (25th hostile pass (part B) P1)."""
    env = dict(os.environ if base is None else base)
    words = [str(word) for word in argv]
    if words and os.path.basename(words[0]) == "uv" and words[1:2] == ["pip"]:
        installer = "uv"
    elif words[1:3] == ["-m", "pip"]:
        installer = "pip"
    else:
        return env
    env.update(step_cache_env(installer, words[0], env, []))
    return env
