"""Refuses an install source another local user could swap: the one rule every read of a lock, a bundle, a
wheelhouse, a GraphCast wheel or checkout, a recipe folder, an answers file and a `--python` interpreter goes
through (`refuse_swappable_source`), which hands back the path to read.

Why: the wizard refused to *write* a lock or a bundle under a folder every user can write (`outputs.
refuse_swappable`), but *read* them from such a folder without a word. The twenty-first hostile pass (P1) renamed
root's wheelhouse away as another user, put a wheel with a `.pth` in its place, and root's install ran it. Find-links
wheels carry no hash to catch that, and a lock's or bundle's hashes travel in the same swappable folder. The
twenty-second (part B) flipped a link of theirs in /tmp between the check and uv's read (P1), wrote a wheel an ACL
entry let them write (P2), and chose the sources through an answers file (P3) or the interpreter itself (P4).

Who may change a source without it being refused — the people the reader trusts already:
- the reader themself and root;
- for a reader who is not root, the owner and group of a folder (a lab admin's shared wheelhouse, a group-writable
  lab folder): using it is trusting them, as using any shared software is, and the write side allows it too;
- for root, nobody else: whoever can change what root installs gets root, so a source owned by another user, or
  writable by a group other than root's, is refused (copying it to a folder root owns is the way out).
Every user (other-write) is never trusted.

Where it looks (`_resolve_and_check`):
- every folder on the way to the source, from /, as the kernel walks it: those of the path as given, those its
  links lead through (a link inside another link's target too), and where it ends: renaming any folder on the way
  swaps everything under it, so stopping at a folder the reader owns is not enough — its parent can rename it. A
  folder on the way with the sticky bit (/tmp) is fine: there others cannot rename what is not theirs;
- every link on the way: for root, one another user owns is theirs to replace even in a sticky folder, so it is
  refused as their folder is; for another reader, one a third user owns in a sticky folder (where anyone may put
  a link) that leads to what someone else owns (the reader's own wheelhouse) — known limit after pass 24: links/ACLs
  judged only for root. The walk's end is the path handed back and given to uv or pip, so a link changed
  after the check (by root or the reader, the only ones left who can) changes nothing that is read;
- the source itself, and for a folder everything inside it (bounded, links followed to their target): a file
  others can write can be rewritten in place, and a folder others can write takes new files (a newer wheel) even
  with the sticky bit, so there the sticky bit does not help;
- the POSIX ACLs of each of these (the `system.posix_acl_access` extended attribute; for the source folder and
  those inside it the default ACL too): a named user or group that an entry lets write is someone else who can
  change it, whatever the mode bits show — for root any but root, for another reader any but the reader, the
  owner and the file's own group (the people the mode bits already let in).

A plain module of the base layer (os, shlex and stat only): the recipe loader and the install stage both call it.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from wizard import bounded, venv_config
from wizard.children import group_words as _group_name
from wizard.children import owner_words as _user_name
from wizard.errors import UserError
from wizard.git_dirs import common_dir, named_gitdir
from wizard.patterns import ascii_digits
from wizard.security import ACL_ACCESS, ACL_DEFAULT, known_home, shell_word
from wizard.tree_walk import walk

#: How many entries inside a source folder are looked at; a real wheelhouse or GraphCast checkout (with its .git)
#: has far fewer. Past it the rest is not looked at, so a huge tree given by mistake costs a bounded time.
INSIDE_LIMIT = 20000


def refuse_swappable_source(named: str, path: Path | str, what: str, *, swap: str | None = None,
                            harm: str = "install (and run) their code", way_out: str | None = None,
                            untouched: str = "nothing was read from it", passed_over: tuple[str, ...] = (),
                            later: bool = False, give: str = "give that instead") -> Path:
    """Refuse (UserError, exit 2), before anything is read from it, a source another local user could swap
    (see the module docstring for who and where); else return where it is once every link is followed, the path
    to hand the reader (uv, pip, the wizard's own), so a link changed after the check changes nothing read.
    `named` is how the user gave it ("--find-links /x/wh", "recipe tiny-a's find_links /x/wh"); `what` says what
    it is ("the wheelhouse", "the lock"). `swap`, `harm`, `way_out` and `untouched` word the refusal for a source
    that is not installed from (the answers file, the `--python` interpreter). `passed_over`: names of empty files
    directly in a source folder that are not looked at — the lock file uv makes 0666 whatever the umask in each folder
    it keeps (its managed Pythons, its tools), which holds nothing that is read (`cache_trust` says the same of its
    cache). `later`: one not there now is read when it appears (a settings file), so it is judged by whoever may make
    it (`missing_risk`), not left to its reader. `give`: what to do with the copy ("point GC_WIZARD_FIND_LINKS at it"
    for a place a variable gave, 38th hostile pass (part B) P3)."""
    given = Path(os.path.abspath(path))
    if later and not os.path.lexists(given):
        found = missing_risk(given)
        if found is not None:
            _refuse(named, given, found, what, swap=swap, harm=harm, way_out=way_out, untouched=untouched, give=give)
        return given
    resolved, found = _resolve_and_check(given, passed_over=passed_over)
    if found is None:
        return resolved
    _refuse(named, given, found, what, swap=swap, harm=harm, way_out=way_out, untouched=untouched, give=give)
    return resolved  # not reached: _refuse raises


def refuse_swappable_python(named: str, python: Path | str, what: str, *, harm: str = "run their code",
                            way_out: str | None = None, untouched: str = "nothing was run") -> Path:
    """`refuse_swappable_source` for an interpreter about to run, then the same rule, in the same sentence, for what
    it loads before any code of its own runs (`python_home_risk`: a venv's `pyvenv.cfg` and its `home`, and the
    standard library found from there); returns where the interpreter's path leads.

    Why: 27th hostile pass (part B) P5 — a venv made with `--copies` from another user's Python has root-owned
    `bin/python*`, so the link rule passed it, but its `pyvenv.cfg` `home` sent it to that user's standard library:
    `verify --env` and `install --env` ran their `sitecustomize.py` as root, as did `--python` with a root-owned
    copy whose `lib` was a link into their folder."""
    resolved = refuse_swappable_source(named, python, what, harm=harm, way_out=way_out, untouched=untouched)
    given = Path(os.path.abspath(python))
    try:
        found = python_home_risk(given)
    except StartFileNotRegular as exc:
        raise StartFileNotRegular(exc.path, exc.why, named) from None
    if found is not None:
        place, why, fix, role = found
        _refuse(named, given, (place, why, fix), what, swap=None, harm=harm, way_out=way_out, untouched=untouched,
                where=f"{place}, {role},")
    return resolved


def python_home_risk(python: Path) -> tuple[Path, str, str, str] | None:
    """(place, why, fix, what the place is to `python`) for the first place another user could change among what
    `python` loads at start before any code of its own — read from files, nothing run — or None:
    - a venv's `pyvenv.cfg` (beside the path it is started by, or one folder up, as Python looks) and the folder its
      `home` names (where Python takes its installation from);
    - the standard library Python finds from there (`home`, or outside a venv the folder the binary really is in):
      the first folder, going up, holding `lib/python3.N/os.py` — or, as CPython's getpath does for a build tree
      (`pybuilddir.txt` or `Modules/Setup.local` beside the binary), `Lib/os.py` and the extension folder
      `pybuilddir.txt` names — and in it `os.py`, `site.py`, `encodings/` and `lib-dynload/` (its start-up
      modules), each judged with the folders and links on its way;
    - the site-packages folders `site` reads at every start (`site_folder_risk`): the installation's, a venv's own,
      and for a venv made with `--system-site-packages` its base's too.

    Why: 29th hostile pass (part B) P6 — a root-owned `bin/pybuilddir.txt` beside a `--python`, and `bin/Lib` a
    root-owned link into another user's standard library: Python loaded `bin/Lib` (a build tree) while this check
    looked only at `lib/python3.11`, and their `sitecustomize.py` ran as root in plan, install and verify. And P5 —
    a site-packages another user could swap (or a `.pth` line into their folder) ran their code in every probe and
    in uv's own query of the interpreter."""
    python = Path(os.path.abspath(python))
    config = next((folder / "pyvenv.cfg" for folder in (python.parent, python.parent.parent)
                   if (folder / "pyvenv.cfg").is_file()), None)
    me = os.geteuid()
    start = Path(os.path.dirname(os.path.realpath(python)))
    sites: list[Path] = []
    system_site = True
    if config is not None:
        found = _risk(config, me, above=False)
        if found:
            return (*found, "the pyvenv.cfg that tells its python where its installation is")
        settings = venv_config.read(config)
        sites += sorted(config.parent.glob("lib*/python3*/site-packages"))
        system_site = settings.get("include-system-site-packages", "false").lower() == "true"
        home = settings.get("home")
        if home and os.path.isabs(home):
            start = Path(os.path.abspath(home))
            found = _resolve_and_check(start, inside=False)[1]
            if found:
                return (*found, _role(found[0], start, f"{start}, the home its pyvenv.cfg names"))
    libraries, extensions = _build_tree_library(start)
    if not libraries:
        for folder in (start, *start.parents):
            libraries = sorted(folder.glob("lib/python3*/os.py")) if (folder / "lib").is_dir() else []
            if libraries:
                if system_site:
                    sites += [site for landmark in libraries
                              for site in (landmark.parent / "site-packages", landmark.parent / "dist-packages")]
                    sites += sorted(folder.glob("lib/python3/dist-packages"))
                break
    for landmark in libraries:
        library = landmark.parent
        for part in (library, landmark, library / "site.py", library / "encodings", library / "lib-dynload"):
            if os.path.lexists(part):
                found = _resolve_and_check(part, inside=False)[1]
                if found:
                    return (*found, _role(found[0], part, f"{part}, from the standard library its python loads "
                                                          "at start" if part != library else
                                          f"{library}, the standard library its python loads at start"))
    for part in extensions:
        found = _resolve_and_check(part, inside=False)[1]
        if found:
            return (*found, _part(found[0], part, "the extension-module folder its pybuilddir.txt names"))
    for site in dict.fromkeys(sites):
        found = site_folder_risk(site)
        if found:
            return found
    return None


#: The files beside a CPython binary that make getpath take it for a build tree (its `Lib/` beside them).
BUILD_TREE_LANDMARKS = ("pybuilddir.txt", "Modules/Setup.local")


def _build_tree_library(folder: Path) -> tuple[list[Path], list[Path]]:
    """([`Lib/os.py`], [the extension folder]) when `folder` (where the binary really is) is a CPython build tree
    as getpath sees it — a `pybuilddir.txt` or `Modules/Setup.local` there; else ([], []). A landmark without a
    `Lib/os.py` gives `[folder / "Lib"]` still, so a missing or dangling `Lib` is judged where it would be made."""
    if not any(os.path.lexists(folder / name) for name in BUILD_TREE_LANDMARKS):
        return [], []
    extensions = []
    try:
        named = _start_file_head(folder / "pybuilddir.txt").split("\n", 1)[0].strip()
        if named:
            extensions.append(Path(os.path.abspath(folder / named)))
    except OSError:
        pass
    return [folder / "Lib" / "os.py"], extensions


def site_folder_risk(site: Path) -> tuple[Path, str, str, str] | None:
    """(place, why, fix, what it is) for the first place another user could change among what `site` runs from the
    site-packages folder `site` at every start of a Python, read as files (nothing imported), or None: the folder
    with the folders and links on its way, each entry in it (a `.pth`, `sitecustomize.py`, a package), and each
    folder a `.pth` line puts on the search path. An `import` line runs from those same folders, so it is covered
    by them.

    Why: 29th hostile pass (part B) P5 — a `--python` whose site-packages another user owned (or root's own, 0777),
    and a root-owned `__editable__….pth` whose line named another user's folder, ran their code as root in detect,
    plan and install, and a venv made with `--system-site-packages` over it did at every verify."""
    if not site.is_dir():
        return None
    me = os.geteuid()
    found = _resolve_and_check(site, inside=False)[1]
    if found:
        return (*found, _part(found[0], site, "a site-packages folder its python reads at every start"))
    try:
        names = sorted(os.listdir(site))
    except OSError:
        return None
    for name in names[:INSIDE_LIMIT]:
        entry = site / name
        found = (_resolve_and_check(entry, inside=False)[1] if entry.is_symlink() else _risk(entry, me, above=False))
        if found:
            return (*found, _part(found[0], entry, "in a site-packages folder its python reads at every start"))
        if not name.endswith(".pth") or name.startswith("."):
            continue
        try:
            lines = _start_file_head(entry).splitlines()
        except OSError:
            continue
        for number, line in enumerate(lines, 1):
            line = line.rstrip()
            if not line or line.startswith(("#", "import ", "import\t")):
                continue
            folder = Path(os.path.abspath(site / line))
            if os.path.exists(folder):
                found = _resolve_and_check(folder, inside=False)[1]
                if found:
                    return (*found, _part(found[0], folder, f"which line {number} of {entry} puts on its search "
                                                            "path at every start"))
    return None


def _start_file_head(path: Path) -> str:
    """The first megabyte of a file a python reads at every start (a `.pth`, `pybuilddir.txt`), read as a regular
    file only, without blocking (`bounded.read_regular_head`); OSError (a missing file) passes through, and a FIFO or
    device is `StartFileNotRegular`, naming what it is.

    Why: 36th hostile pass (part A) P5 — `open()` of a FIFO `zz.pth` in an env's site-packages waited for a writer
    for ever, in the wizard's own process: activate, kernel install, verify, and plan and install with `--python`
    hung before anything ran (install then ignored SIGTERM). That python would wait on it at every start as well."""
    try:
        return bounded.read_regular_head(path, 1 << 20).decode("utf-8", "replace")
    except bounded.ParseLimitError as exc:
        raise StartFileNotRegular(path, str(exc)) from None


class StartFileNotRegular(UserError):
    """A file a python reads at every start is a FIFO or a device (`_start_file_head`): it is named, and nothing is
    run, since that python would wait on it (or read it for ever) before any code of its own."""

    def __init__(self, path: Path, why: str, named: str | None = None) -> None:
        self.path, self.why = path, why
        what = why.removeprefix("it is ")
        super().__init__(f"{f'{named}: ' if named else ''}{path} is {what}; its python reads that file at every "
                         "start and would wait on it for ever (or never finish reading it). Remove it (`rm "
                         f"{shell_word(str(path))}`) or put a regular file there; nothing was run.")


def start_path_risk(folders) -> tuple[Path, str, str, str] | None:
    """`python_home_risk` for what an interpreter itself says it starts from — its `sys.prefix`, `sys.exec_prefix`
    and `sys.path` before `site` (asked with `-I -S`, `recipes.pythons.probe_python`) — so every layout CPython's
    getpath knows (a build tree, a `._pth` file, a landmark this module does not predict) is held to the one rule
    before anything runs it with its site on: (place, why, fix, what it is), or None.

    Why: 29th hostile pass (part B) P6 — the file check predicted `lib/python3.11` for a `--python` that getpath
    took for a build tree (`bin/pybuilddir.txt`), whose `bin/Lib` led into another user's folder."""
    for folder in dict.fromkeys(folders):
        if not folder or not os.path.isabs(folder) or not os.path.exists(folder):
            continue
        found = _resolve_and_check(Path(folder), inside=False)[1]
        if found:
            return (*found, _part(found[0], Path(folder), "where its python says it loads its standard library from "
                                                          "at start"))
    return None


def refuse_start_path(named: str, python: Path | str, folders, what: str, *, harm: str = "run their code",
                      way_out: str | None = None, untouched: str = "nothing else was run") -> None:
    """Refuse (UserError) an interpreter whose own start-up folders (`start_path_risk`) another user could change,
    in the sentence of `refuse_swappable_python`."""
    found = start_path_risk(folders)
    if found is not None:
        place, why, fix, role = found
        _refuse(named, Path(os.path.abspath(python)), (place, why, fix), what, swap=None, harm=harm, way_out=way_out,
                untouched=untouched, where=f"{place}, {role},")


def _part(place: Path, part: Path, words: str) -> str:
    """`_role` for words that do not name `part` themselves: the refusal names `place` already."""
    return words if place == part else f"on the way to {part}, {words}"


def _role(place: Path, part: Path, named: str) -> str:
    """How a refusal names `place` found on the way to `part` (`named` says what `part` is)."""
    return named if place == part else f"on the way to {named}"


def refuse_swappable_destination(named: str, path: Path | str, *, what: str = "it",
                                 harm: str = "write it there, replacing what is there",
                                 way_out: str = "choose a place in a folder only you can write",
                                 untouched: str = "nothing was written") -> Path:
    """Refuse (UserError, exit 2), before anything is written, a place to write that another local user could
    send elsewhere; else return where it is once every link on its way is followed, the path to write, so a link
    changed after the check changes nothing written. The rule of `refuse_swappable_source` for the folders on the
    way (every folder, from /, that the nearest existing folder of `path` is reached through, that folder itself,
    and every link followed): a link another user owns (for root), a folder every user can write without the
    sticky bit, and for root a folder another user owns, or a user, group or ACL entry other than root's may write.
    `path` itself, and the missing folders before it, are the writer's to make (a link at `path` is
    `outputs.refuse_link`'s).

    Why: twenty-third hostile pass (part B) P1/P2 — `report --out`, `--save-answers`, `module install --dir`,
    `lock --out`, `bundle --out`, `JUPYTER_DATA_DIR` and `install --env` went through another user's link partway
    along the path, so root wrote (and replaced) files wherever that user pointed it."""
    given = Path(os.path.abspath(path))
    if _own_descriptor(given):  # already open in this process (`--out /dev/fd/1`): nothing on its way is looked up
        return given
    folder, rest = given.parent, [given.name]
    while not os.path.lexists(folder) and folder != folder.parent:
        rest.insert(0, folder.name)
        folder = folder.parent
    me = os.geteuid()
    steps, resolved = _way(folder)
    if resolved is not None:
        steps.append((resolved, None))
    for place, link in steps:
        found = _link_risk(place, link, me) if link is not None else _risk(place, me, above=True)
        if found:
            swap = "send what is written to a place of their choosing"
            _refuse(named, given, found, what, swap=swap, harm=harm, way_out=way_out, untouched=untouched)
    return given if resolved is None else resolved.joinpath(*rest)


def _own_descriptor(path: Path) -> bool:
    """Whether `path` names one of this process's open descriptors (`/dev/fd/1`, `/proc/self/fd/1`, `/proc/PID/fd/1`):
    written into as it is open (`security.write_private_file`), so no folder on its way can send the write elsewhere."""
    parts = path.parts
    if len(parts) == 4 and parts[1] == "dev" and parts[2] == "fd":
        return ascii_digits(parts[3])
    return (len(parts) == 5 and parts[1] == "proc" and parts[3] == "fd" and ascii_digits(parts[4])
            and parts[2] in ("self", "thread-self", str(os.getpid())))


def _refuse(named: str, given: Path, found: tuple[Path, str, str], what: str, *, swap: str | None, harm: str,
            way_out: str | None, untouched: str, where: str | None = None, give: str = "give that instead") -> None:
    """Raise the one refusal of `refuse_swappable_source` and `refuse_swappable_destination`."""
    place, why, fix = found
    where = where or _where(place, given, link=why.startswith("is a link "))
    copy = f"`{_copy_command(given)}`"
    owner = _other_owner(place)
    if owner is None:  # yours to change (or only root's rule): the fix comes first, the copy is the other way out
        then = "" if give == "give that instead" else f" and {give}"
        fix = f"{fix}, or {way_out or f'copy {what} to a folder only you can write ({copy}){then}'}"
    else:  # walk 22 #7: another user's folder, whose chmod its reader cannot run: the copy comes first
        fix = (f"It belongs to {owner}, not you: {way_out or f'copy {what} to a folder of your own ({copy}) and {give}'}"
               f", or ask them to {fix[0].lower()}{fix[1:]}")
    raise UserError(f"{named}: {where} {why}, so another user could {swap or f'swap {what} for their own'} and "
                    f"gc-wizard would {harm}. {fix}; {untouched}.")


def _other_owner(place: Path) -> str | None:
    """"user admin (uid 1001)" for a place every user can write that another user owns — whose `chmod` its reader
    cannot run (walk 22 #7: the fix assumed the reader owns the lab's shared folder) — else None."""
    try:
        info = os.lstat(place)
    except OSError:
        return None
    if stat.S_ISLNK(info.st_mode):  # a link's mode bits mean nothing; its owner's refusal names its own fix
        return None
    return _user_name(info.st_uid) if info.st_mode & 0o002 and info.st_uid != os.geteuid() else None


def _copy_command(given: Path) -> str:
    """`cp -rL SOURCE ~/NAME` (`cp` for a file): the source's content, links followed, in the reader's home, which
    only they can write; `~/NAME-copy` where the source is that very place already."""
    name = given.name or "source"
    home = known_home()  # none (no HOME and no account entry): `~` is still the shell's to expand
    target = f"~/{name}" if home is None or home / name != given else f"~/{name}-copy"
    flags = "-rL " if given.is_dir() else ""
    return f"cp {flags}{shell_word(str(given))} {target}"


def _where(place: Path, given: Path, *, link: bool) -> str:
    """How a refusal names `place` from the source `given`: it, inside it, its folder, above it, where it
    leads, on its way (a link, or a folder a link on the way passes through), or where a link in it leads."""
    real = Path(os.path.realpath(given))
    if place == given:
        return "it"
    if given in place.parents:
        return f"{place}, inside it,"
    if place in given.parents:
        return (f"{place}, on its way," if link else f"its folder {place}" if place == given.parent
                else f"the folder {place} above it")
    if place == real or place in real.parents:
        return f"{place}, where it leads,"
    if any(place == step for step, _ in _way(given)[0]):
        return f"{place}, on its way,"
    return f"{place}, where a link in it leads,"


def swap_risk(path: Path, *, inside: bool = True, above: bool = False, missing: bool = False
              ) -> tuple[Path, str, str] | None:
    """(place, why, fix) for the first place that lets another user swap `path`, or None; a path that does not
    exist is left to its reader to name, unless `missing`. `inside`: for a folder, what it holds too (not for a link's
    target found inside, so a link back up cannot loop). `above`: `path` is the nearest existing folder above
    something not made yet, judged as every folder on a way is (a sticky bit excuses it: another user's copy made
    first would be theirs, and judged as such once it exists). `missing`: a path that does not exist yet is judged by
    whoever may make it (`missing_risk`) — for an entry kept now and read later (a search path in kernel.json)."""
    given = Path(os.path.abspath(path))
    if missing and not os.path.exists(given):
        return missing_risk(given)
    return _resolve_and_check(given, inside=inside, above=above)[1]


def missing_risk(path: Path) -> tuple[Path, str, str] | None:
    """For `path`, which does not exist (yet): (place, why, fix) when another user could make it, else None. It is
    judged by the nearest existing folder above it, both as written and where its links lead (`os.path.realpath`
    follows a dangling link as far as it goes), under the rule for the end of a way: the owner, group/other write
    and ACL entries count, and a sticky bit does not excuse it (anyone may make a new name in /tmp; the first to do
    so owns it).

    Why: 27th hostile pass (part B) P3 — `activate` and `kernel install` kept `PYTHONPATH=/home/tuser/nothere/py`
    because nothing was there to judge; tuser then made that folder with a `sitecustomize.py`, and root's next
    kernel start ran it."""
    given = Path(os.path.abspath(path))
    for start in dict.fromkeys((given, Path(os.path.realpath(given)))):
        folder = start
        while not os.path.exists(folder) and folder != folder.parent:
            folder = folder.parent
        found = _resolve_and_check(folder, inside=False, above=False)[1]
        if found:
            place, why, fix = found
            return place, f"{why} (and {given}, not there yet, could be made in it)", fix
    return None


def _resolve_and_check(path: Path, *, inside: bool = True, above: bool = False, gitfiles: bool = True,
                       passed_over: tuple[str, ...] = ()) -> tuple[Path, tuple[Path, str, str] | None]:
    """(where `path` leads, the first risk on its way or None). The way is walked once (`_way`): every folder
    it passes through and every link it follows, those inside a link's target too, are the places looked at,
    and where the walk ends is the path returned, so what is checked is what is read."""
    try:
        info = os.stat(path)
    except OSError:
        return path, None
    me = os.geteuid()
    steps, resolved = _way(path)
    for place, link in steps:
        found = _link_risk(place, link, me) if link is not None else _risk(place, me, above=True)
        if found:
            return resolved or path, found
    if resolved is None:  # changed under the walk (a link gone): nothing on the way was another user's
        return path, None
    found = _risk(resolved, me, above=above, info=info)
    if found or not inside or not stat.S_ISDIR(info.st_mode):
        return resolved, found
    return resolved, _inside(resolved, me, gitfiles=gitfiles, passed_over=passed_over)


#: How many links one walk follows before it stops (the kernel's own limit is 40).
LINK_LIMIT = 40


def _way(path: Path) -> tuple[list[tuple[Path, os.stat_result | None]], Path | None]:
    """The places passed on the way to absolute `path`, in order: (folder, None) for each folder entered and
    (link, its lstat) for each link followed, and the path it leads to (None when the walk cannot end: a
    missing part, too many links). Walked by hand, as the kernel does, so that a link inside another link's
    target, and the folder holding it, are seen too — `os.path.realpath` names only the end."""
    steps: list[tuple[Path, os.stat_result | None]] = []
    seen: set[Path] = set()
    current = Path("/")
    todo = list(path.parts[1:])
    hops = 0
    while todo:
        if current not in seen:
            seen.add(current)
            steps.append((current, None))
        name = todo.pop(0)
        if name in ("", "."):
            continue
        if name == "..":
            current = current.parent
            continue
        step = current / name
        try:
            info = os.lstat(step)
        except OSError:
            return steps, None
        if not stat.S_ISLNK(info.st_mode):
            current = step
            continue
        hops += 1
        try:
            target = Path(os.readlink(step))
        except OSError:
            return steps, None
        if hops > LINK_LIMIT:
            return steps, None
        steps.append((step, info))
        if target.is_absolute():
            current = Path("/")
            todo = [*target.parts[1:], *todo]
        else:
            todo = [*target.parts, *todo]
    return steps, current


def _link_risk(link: Path, info: os.stat_result, me: int) -> tuple[Path, str, str] | None:
    """For root, a link another user owns: in a folder with the sticky bit (/tmp) its owner may still replace it,
    so it is their place, refused as a folder they own is. A link's own mode means nothing; its folder is looked
    at as a folder on the way."""
    if info.st_uid in (0, me):
        return None
    fix = f"Give the place it leads to instead (`readlink -f {shell_word(str(link))}`)"
    if me == 0:
        return link, f"is a link that {_user_name(info.st_uid)} owns, and gc-wizard runs as root", fix
    # A reader who is not root trusts whoever owns what they read (a lab admin's folder, and the link the admin
    # made in it). But in a folder with the sticky bit (/tmp) anyone may have made the link, and its owner may turn
    # it elsewhere: leading to another's files (the reader's own, root's), it is a third user's say over what is
    # read (known limit after pass 24: links/ACLs judged only for root).
    try:
        folder = os.stat(link.parent)
        leads_to = os.stat(link).st_uid
    except OSError:
        return None
    if not folder.st_mode & stat.S_ISVTX or folder.st_uid == info.st_uid or leads_to == info.st_uid:
        return None
    return (link, f"is a link that {_user_name(info.st_uid)} owns in a folder anyone may put links in, leading to "
            f"what {'you own' if leads_to == me else f'{_user_name(leads_to)} owns'}", fix)


def _inside(folder: Path, me: int, *, gitfiles: bool = True, passed_over: tuple[str, ...] = ()
            ) -> tuple[Path, str, str] | None:
    """The first risk among what `folder` holds (its folders, files, and where its links lead), bounded; with
    `gitfiles`, the git folders a `.git` file in it names too (`_gitfile_folders`), once (not those of a folder
    reached that way, so a gitdir that holds the checkout cannot loop); an empty regular file named in `passed_over`
    directly in `folder` is not looked at (`refuse_swappable_source`)."""
    seen = 0
    for top, dirs, files in walk(folder):  # not os.walk: recursive (33rd hostile pass (part A) P1)
        for name in [*dirs, *files]:
            seen += 1
            if seen > INSIDE_LIMIT:
                return None
            entry = Path(top) / name
            if name in passed_over and top == str(folder) and _empty_file(entry):
                continue
            found = (_resolve_and_check(entry, inside=False)[1] if entry.is_symlink() and entry.exists()
                     else _risk(entry, me, above=False))
            if not found and gitfiles and name == ".git" and not entry.is_symlink() and entry.is_file():
                for gitdir in _gitfile_folders(entry):
                    found = _resolve_and_check(gitdir, gitfiles=False)[1]
                    if found:
                        break
            if found:
                return found
    return None


def _empty_file(path: Path) -> bool:
    """Whether `path` is an empty regular file, not a link: nothing in it is read."""
    try:
        info = os.lstat(path)
    except OSError:
        return False
    return stat.S_ISREG(info.st_mode) and info.st_size == 0


def _gitfile_folders(dot: Path) -> list[Path]:
    """The git folder a `.git` file names (`gitdir: X`, relative to the file's folder) and that folder's `commondir`,
    as git follows them: what a checkout's commit is read from, so the same owner rule holds for them as for a
    `.git` folder inside it.

    Why: 27th hostile pass (part B) P10 — a root-owned checkout whose `.git` file named another user's gitdir was
    taken ("at commit …, identical to GraphCast v0.1.1", the commit being whatever their gitdir said), while the
    same gitdir as a `.git/` folder was refused."""
    try:
        own = named_gitdir(dot)
    except OSError:
        return []
    if own is None:
        return []
    try:
        return list(dict.fromkeys((own, common_dir(own))))
    except OSError:
        return [own]


def _risk(place: Path, me: int, *, above: bool, info: os.stat_result | None = None) -> tuple[Path, str, str] | None:
    """Why another user could change `place`, with the fix, or None (see the module docstring)."""
    try:
        info = info or os.stat(place)
    except OSError:
        return None
    folder = stat.S_ISDIR(info.st_mode)
    if not (folder or stat.S_ISREG(info.st_mode)):
        return None  # a device or a FIFO (/dev/null is every user's to write): no content to swap; readers refuse it
    sticky_excuses = folder and above and bool(info.st_mode & stat.S_ISVTX)
    kind = "folder" if folder else "file"
    quoted = shell_word(str(place))
    if info.st_mode & 0o002 and not sticky_excuses:
        sticky = " (and has no sticky bit, as /tmp has)" if folder and above else ""
        # A folder above is safe with the sticky bit too (others cannot rename what is not theirs): both fixes named.
        fix = (f"Take that away (`chmod o-w {quoted}`, or `chmod +t {quoted}`)" if folder and above
               else f"Take that away (`chmod o-w {quoted}`)")
        return place, f"is a {kind} every user can write{sticky}", fix
    if me != 0:
        # Not root: the owner and group are trusted (the module docstring), but a named user or group an ACL entry
        # lets write is someone else, whatever the mode bits show (known limit after pass 24: links/ACLs judged
        # only for root).
        return None if sticky_excuses else _acl_risk(place, kind, folder and not above, info=info, me=me)
    if info.st_uid != 0:
        return (place, f"is a {kind} that {_user_name(info.st_uid)} owns, and gc-wizard runs as root",
                "Run gc-wizard as that user instead")
    found = None if sticky_excuses else _acl_risk(place, kind, folder and not above, info=info, me=me)
    if found:
        return found
    if info.st_mode & 0o020 and info.st_gid != 0 and not sticky_excuses:
        return (place, f"is a {kind} group {_group_name(info.st_gid)} can write, and gc-wizard runs as root",
                f"Take the group's write away (`chmod g-w {quoted}`)")
    return None


_ACL_VERSION, _ACL_USER, _ACL_GROUP, _ACL_MASK = 2, 0x02, 0x08, 0x10


def _acl_risk(place: Path, kind: str, default: bool, *, info: os.stat_result, me: int
              ) -> tuple[Path, str, str] | None:
    """A user or group other than root that an ACL entry lets write `place`, or (`default`: the source folder and
    those inside it, where new wheels are put) that its default ACL lets write what is made in it — for root any
    such, for another reader one who is not the reader or the owner (a user) or not its own group. The mode bits
    hide them: with an ACL the group bits are its mask, so `-rw-rw-r--+ root root` looks like a file only root's
    group may write (twenty-second hostile pass P2)."""
    trusted = set() if me == 0 else {(_ACL_USER, me), (_ACL_USER, info.st_uid), (_ACL_GROUP, info.st_gid)}
    for name in (ACL_ACCESS, ACL_DEFAULT) if default else (ACL_ACCESS,):
        for tag, who in acl_writers(place, name):
            if (tag, who) in trusted:
                continue
            user = tag == _ACL_USER
            named = _user_name(who) if user else f"group {_group_name(who)}"
            entry = f"{'u' if user else 'g'}:{_account(who, user)}"
            quoted = shell_word(str(place))
            reader = ("and gc-wizard runs as root" if me == 0 else "who is neither you nor its owner" if user
                      else "which is not its own group")
            if name == ACL_ACCESS:
                return (place, f"is a {kind} that {named} may write through an ACL entry, {reader}",
                        f"Take that entry away (`setfacl -x {entry} {quoted}`)")
            return (place, f"is a {kind} whose default ACL lets {named} write what is made in it, {reader}",
                    f"Take that entry away (`setfacl -d -x {entry} {quoted}`)")
    return None


def acl_writers(place: Path, name: str = ACL_ACCESS) -> list[tuple[int, int]]:
    """(tag, uid or gid) of each named user (tag 0x02) or named group (0x08) other than root whose entry in
    `place`'s ACL `name` lets them write, as capped by the mask; [] without such an ACL (or where the system or
    the file system keeps none). The kernel's form: a 4-byte version (2), then 8-byte entries of tag (2 bytes),
    permissions (2) and id (4), little-endian."""
    getxattr = getattr(os, "getxattr", None)
    if getxattr is None:
        return []
    try:
        data = getxattr(place, name)
    except OSError:  # none (ENODATA), or a file system or system without ACLs
        return []
    if len(data) < 4 or int.from_bytes(data[:4], "little") != _ACL_VERSION:
        return []
    entries = [(int.from_bytes(data[at:at + 2], "little"), int.from_bytes(data[at + 2:at + 4], "little"),
                int.from_bytes(data[at + 4:at + 8], "little")) for at in range(4, len(data) - 7, 8)]
    mask = next((perms for tag, perms, _ in entries if tag == _ACL_MASK), 0o7)
    return [(tag, who) for tag, perms, who in entries if tag in (_ACL_USER, _ACL_GROUP) and who != 0
            and perms & mask & 0o2]


def _account(number: int, user: bool) -> str:
    """The name `setfacl` takes for a uid or gid: its name, or the number where it has none."""
    import grp  # deferred: only a refusal as root names one
    import pwd

    try:
        return pwd.getpwuid(number).pw_name if user else grp.getgrgid(number).gr_name
    except KeyError:
        return str(number)
