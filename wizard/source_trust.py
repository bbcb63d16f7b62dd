"""Refuses an install source another local user could swap: the one rule every read of a lock, a bundle, a
wheelhouse, a GraphCast wheel or checkout, and a recipe folder goes through (`refuse_swappable_source`).

Why: the wizard refused to *write* a lock or a bundle under a folder every user can write (`outputs.
refuse_swappable`), but *read* them from such a folder without a word. The twenty-first hostile pass (P1) renamed
root's wheelhouse away as another user, put a wheel with a `.pth` in its place, and root's install ran it. Find-links
wheels carry no hash to catch that, and a lock's or bundle's hashes travel in the same swappable folder.

Who may change a source without it being refused — the people the reader trusts already:
- the reader themself and root;
- for a reader who is not root, the owner and group of a folder (a lab admin's shared wheelhouse, a group-writable
  lab folder): using it is trusting them, as using any shared software is, and the write side allows it too;
- for root, nobody else: whoever can change what root installs gets root, so a source owned by another user, or
  writable by a group other than root's, is refused (copying it to a folder root owns is the way out).
Every user (other-write) is never trusted.

Where it looks:
- every folder above the source, up to / (both the path as given and where its links lead): renaming any folder on
  the way swaps everything under it, so stopping at a folder the reader owns is not enough — its parent can rename
  it. A folder above with the sticky bit (/tmp) is fine: there others cannot rename what is not theirs;
- the source itself, and for a folder everything inside it (bounded, links followed to their target): a file
  others can write can be rewritten in place, and a folder others can write takes new files (a newer wheel) even
  with the sticky bit, so there the sticky bit does not help.

A plain module of the base layer (os and stat only): the recipe loader and the install stage both call it.
"""

from __future__ import annotations

import os
import shlex
import stat
from pathlib import Path

from wizard.errors import UserError

#: How many entries inside a source folder are looked at; a real wheelhouse or GraphCast checkout (with its .git)
#: has far fewer. Past it the rest is not looked at, so a huge tree given by mistake costs a bounded time.
INSIDE_LIMIT = 20000


def refuse_swappable_source(named: str, path: Path | str, what: str) -> None:
    """Refuse (UserError, exit 2), before anything is read from it, a source another local user could swap
    (see the module docstring for who and where). `named` is how the user gave it ("--find-links /x/wh",
    "recipe tiny-a's find_links /x/wh"); `what` says what it is ("the wheelhouse", "the lock")."""
    found = swap_risk(Path(path))
    if found is None:
        return
    place, why, fix, owner = found
    given = Path(os.path.abspath(path))
    real = Path(os.path.realpath(given))
    where = ("it" if place == given else f"its folder {place}" if place == given.parent
             else f"{place}, inside it," if given in place.parents else f"the folder {place} above it"
             if place in given.parents else f"{place}, where it leads," if place == real or place in real.parents
             else f"{place}, where a link in it leads,")
    copy = f"`{_copy_command(given)}`"
    if owner is None:  # yours to change (or only root's rule): the fix comes first, the copy is the other way out
        fix = f"{fix}, or copy {what} to a folder only you can write ({copy})"
    else:  # walk 22 #7: another user's folder, whose chmod its reader cannot run: the copy comes first
        fix = (f"It belongs to {owner}, not you: copy {what} to a folder of your own ({copy}) and give that instead, "
               f"or ask them to {fix[0].lower()}{fix[1:]}")
    raise UserError(f"{named}: {where} {why}, so another user could swap {what} for their own and gc-wizard would "
                    f"install (and run) their code. {fix}; nothing was read from it.")


def _copy_command(given: Path) -> str:
    """`cp -rL SOURCE ~/NAME` (`cp` for a file): the source's content, links followed, in the reader's home, which
    only they can write; `~/NAME-copy` where the source is that very place already."""
    name = given.name or "source"
    try:
        home = Path.home()
    except (RuntimeError, KeyError):  # no HOME and no account entry: `~` is still the shell's to expand
        home = None
    target = f"~/{name}" if home is None or home / name != given else f"~/{name}-copy"
    flags = "-rL " if given.is_dir() else ""
    return f"cp {flags}{shlex.quote(str(given))} {target}"


#: (place, why, fix, owner): `owner` names the place's owner ("user admin (uid 1001)") where it is not the reader, for
#: a fix only that owner can make (the reader cannot `chmod` another user's folder), else None.
Risk = tuple[Path, str, str, "str | None"]


def swap_risk(path: Path, *, inside: bool = True) -> Risk | None:
    """(place, why, fix, owner) for the first place that lets another user swap `path`, or None; a path that does not
    exist is left to its reader to name. `inside`: for a folder, what it holds too (not for a link's target found
    inside, so a link back up cannot loop)."""
    path = Path(os.path.abspath(path))
    try:
        info = os.stat(path)
    except OSError:
        return None
    me = os.geteuid()
    seen: set[Path] = set()
    for start in (path, Path(os.path.realpath(path))):
        for folder in reversed(start.parents):
            if folder in seen:
                continue
            seen.add(folder)
            found = _risk(folder, me, above=True)
            if found:
                return found
    found = _risk(path, me, above=False, info=info)
    if found or not inside or not stat.S_ISDIR(info.st_mode):
        return found
    return _inside(path, me)


def _inside(folder: Path, me: int) -> Risk | None:
    """The first risk among what `folder` holds (its folders, files, and where its links lead), bounded."""
    seen = 0
    for top, dirs, files in os.walk(folder):
        for name in [*dirs, *files]:
            seen += 1
            if seen > INSIDE_LIMIT:
                return None
            entry = Path(top) / name
            found = (swap_risk(Path(os.path.realpath(entry)), inside=False) if entry.is_symlink() and entry.exists()
                     else _risk(entry, me, above=False))
            if found:
                return found
    return None


def _risk(place: Path, me: int, *, above: bool, info: os.stat_result | None = None) -> Risk | None:
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
    quoted = shlex.quote(str(place))
    if info.st_mode & 0o002 and not sticky_excuses:
        sticky = " (and has no sticky bit, as /tmp has)" if folder and above else ""
        # A folder above is safe with the sticky bit too (others cannot rename what is not theirs): both fixes named.
        fix = (f"Take that away (`chmod o-w {quoted}`, or `chmod +t {quoted}`)" if folder and above
               else f"Take that away (`chmod o-w {quoted}`)")
        # Walk 22 #7: the fix assumed the reader owns the place; a lab's shared folder is usually an admin's.
        owner = None if info.st_uid == me else _user_name(info.st_uid)
        return place, f"is a {kind} every user can write{sticky}", fix, owner
    if me != 0:
        return None
    if info.st_uid != 0:
        return (place, f"is a {kind} that {_user_name(info.st_uid)} owns, and gc-wizard runs as root",
                "Run gc-wizard as that user instead", None)
    if info.st_mode & 0o020 and info.st_gid != 0 and not sticky_excuses:
        return (place, f"is a {kind} group {_group_name(info.st_gid)} can write, and gc-wizard runs as root",
                f"Take the group's write away (`chmod g-w {quoted}`)", None)
    return None


def _user_name(uid: int) -> str:
    """`user tuser (uid 1001)`, or `uid 1001` where the account has no name."""
    import pwd  # deferred: only a refusal names an owner

    try:
        return f"user {pwd.getpwuid(uid).pw_name} (uid {uid})"
    except KeyError:
        return f"uid {uid}"


def _group_name(gid: int) -> str:
    """`lab (gid 1001)`, or `gid 1001` where the group has no name."""
    import grp  # deferred: only a refusal as root names a group

    try:
        return f"{grp.getgrgid(gid).gr_name} (gid {gid})"
    except KeyError:
        return f"gid {gid}"
