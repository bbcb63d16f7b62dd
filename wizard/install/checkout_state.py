"""Reads what state a GraphCast source checkout is in — its commit, files changed since, files added —
without running git or anything in the checkout.

Why: the README's way onto a server without GitHub is a checkout copied over from another machine, and
building it runs its `setup.py` with the user's rights. A checkout with an edited `setup.py` was shown as
the pinned release (`graphcast 0.1.1 … 97d1ad50`), and nothing said its code would run. The plan now
says which commit the checkout is at, which files differ from that commit (its index against the files,
and the index against the commit's own tree, read from git's objects by `git_objects`: a change staged with
`git add` is one), which are new, and that building runs its `setup.py`.

Why not `git status`: git reads the checkout's own `.git/config`, whose `core.fsmonitor` or a clean
filter is a command git runs — the plan promises to run nothing. So the index (`.git/index`, versions
2 and 3) is parsed here and each tracked file's blob hash compared with the file on disk. What this
cannot see (a version-4 index, a SHA-256 repository, objects it cannot read, no commit at all) is said as a
state that cannot be told, unless the files already differ from the index; the plan says `setup.py` runs
whatever the state.
"""

from __future__ import annotations

import hashlib
import os
import re
import stat
import struct
import tarfile
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import Path

from wizard import bounded, paths
from wizard.git_dirs import git_dirs
from wizard.install.git_objects import GitReadError, commit_files, no_commit_words
from wizard.install.tree_digest import importable, left_out
from wizard.tree_walk import walk

#: Beyond these the checkout is not GraphCast's (a few hundred files, a few MB): not read.
MAX_ENTRIES = 20_000
MAX_BYTES = 256 * 1024 * 1024
#: Files that appear in any checkout that was imported or tested, and are not changes to it. What a build leaves
#: (`build/`, `dist/`, `*.egg-info`, `__pycache__`: `tree_digest.LEFT_OUT`) is named apart, as `leftovers`: the
#: install and the bundle build from a copy without them (`source_copy.folder_copy`), since a build in the folder
#: itself packs what `build/lib` holds (pip and uv both do: the fourth fault pass put a payload there).
#: `.eggs/` is not one: setuptools puts what it holds on the build's `sys.path`, so it counts as new
#: (`tree_digest.IMPORTABLE`; 28th hostile pass (part B) P10).
_BUILD_LEFTOVERS = ("__pycache__", ".egg-info", ".pytest_cache", ".ipynb_checkpoints")
#: The files of each GraphCast release the recipes pin (`git ls-tree -r`), to compare a checkout with.
RELEASES_PATH = Path(__file__).resolve().parents[1] / "data" / "graphcast_releases.json"
_SHOWN = 3


@dataclass(frozen=True)
class TreeState:
    """A checkout's state: `readable` False (with `reason`) when it could not be told."""

    readable: bool
    commit: str | None = None
    modified: tuple[str, ...] = ()
    deleted: tuple[str, ...] = ()
    untracked: tuple[str, ...] = ()
    reason: str | None = None
    compared_with: str | None = None
    """The release its files were compared with ("GraphCast v0.1.1"), when it is one the recipes pin."""
    against_commit: bool = False
    """Whether the index was also compared with the commit's own tree (read from git's objects)."""
    outside: tuple[str, ...] = ()
    """Links in it whose target lies outside it ("graphcast/x.py -> /elsewhere/x.py"): a checkout's build copy refuses
    them (`tree_copy`, 35th hostile pass (part B) P5); the plan names them here."""
    unusable: tuple[str, ...] = ()
    """An archive's members no installer unpacks ("graphcast-0.1.1/fifo (a FIFO)", "/tmp/x (an absolute path)"):
    the archive is refused by name (23rd hostile pass P4: a FIFO member was "identical … file for file")."""
    leftovers: tuple[str, ...] = ()
    """What an earlier build left in a checkout ("build/", "graphcast.egg-info/"): not a change, since the install
    builds from a copy without them (walk 25 #6: a v0.2 copy's stale `build/lib` of v0.1.1 read as "9 new")."""
    withheld: tuple[str, ...] = ()
    """Of `untracked`, what a build could import but its copy leaves out (`wheel.pyc`, `.eggs/x.egg`): counted as
    new all the same, and named as left out of the build (28th hostile pass (part B) P10)."""

    @property
    def changed(self) -> bool:
        return bool(self.modified or self.deleted or self.untracked or self.outside or self.unusable)

    def at_other_commit(self, wanted_revision: str | None) -> bool:
        """Whether its HEAD is known and is not `wanted_revision` (the recipe's pin, full or abbreviated)."""
        if not (self.commit and wanted_revision):
            return False
        return not (self.commit.startswith(wanted_revision[:12]) or wanted_revision.startswith(self.commit))

    def describe(self, wanted_revision: str | None = None) -> str:
        """One clause: "at commit 97d1ad50b0b7 (the recipe's), unchanged" / "with local changes: …"."""
        if not self.readable:
            return f"in a state that cannot be told: whether it is modified is unknown ({self.reason})"
        parts = []
        if self.commit:
            which = "" if not wanted_revision else (f"not the recipe's {wanted_revision[:12]}"
                                                     if self.at_other_commit(wanted_revision) else "the recipe's")
            parts.append(f"at commit {self.commit[:12]}" + (f" ({which})" if which else ""))
        if self.unusable:
            parts.append(unusable_words(self.unusable))
        elif not (self.modified or self.deleted or self.untracked):
            # Unchanged is said only against a release's files or a commit's own tree (`read_tree_state`).
            parts.append(f"identical to {self.compared_with}, file for file" if self.compared_with
                         else "unchanged since that commit, file for file")
        else:
            changes = []
            for label, names in (("modified", self.modified), ("deleted", self.deleted), ("new", self.untracked)):
                if names:
                    shown = ", ".join(names[:_SHOWN]) + (f" and {len(names) - _SHOWN} more" if len(names) > _SHOWN else "")
                    changes.append(f"{len(names)} {label} ({shown})")
            lead = f"different from {self.compared_with}: " if self.compared_with else "with local changes: "
            parts.append(lead + "; ".join(changes))
        if self.outside:
            shown = ", ".join(self.outside[:_SHOWN]) + (f" and {len(self.outside) - _SHOWN} more"
                                                        if len(self.outside) > _SHOWN else "")
            parts.append(f"and {len(self.outside)} link{'s' if len(self.outside) > 1 else ''} in it point"
                         f"{'' if len(self.outside) > 1 else 's'} outside it ({shown}): what "
                         f"{'they point' if len(self.outside) > 1 else 'it points'} at is not in the checkout")
        return ", ".join(parts)

    def to_dict(self) -> dict:
        return {"readable": self.readable, "commit": self.commit, "modified": list(self.modified),
                "deleted": list(self.deleted), "untracked": list(self.untracked), "reason": self.reason,
                "compared_with": self.compared_with, "against_commit": self.against_commit,
                "outside_links": list(self.outside), "unusable_members": list(self.unusable),
                "build_leftovers": list(self.leftovers), "left_out_of_build": list(self.withheld)}


def unusable_words(members: tuple[str, ...] | list[str]) -> str:
    """"holding 2 members no installer unpacks (graphcast-0.1.1/fifo (a FIFO), …)": an installer refuses such an
    archive or unpacks another tree than the one compared (29th hostile pass (part B) P3: uv unpacked one, under
    other names, and "uv refuses" was not true)."""
    shown = ", ".join(members[:_SHOWN]) + (f" and {len(members) - _SHOWN} more" if len(members) > _SHOWN else "")
    return (f"holding {len(members)} member{'s' if len(members) > 1 else ''} no installer unpacks or installers "
            f"read differently ({shown}), so what would be built is not what was compared")


def release_files(revision: str | None) -> tuple[str, dict[str, str]] | None:
    """(tag, {path: blob SHA-1}) of a GraphCast release the recipes pin, or None for another revision."""
    if not revision:
        return None
    try:
        releases = bounded.read_json(paths.package_file(RELEASES_PATH), bounded.MANIFEST_BYTES)["releases"]
    except (OSError, ValueError, KeyError):
        return None
    for commit, release in releases.items():
        if len(revision) >= 7 and commit.startswith(revision):
            return str(release["tag"]), dict(release["files"])
    return None


def read_tree_state(checkout: str | os.PathLike[str], commit: str | None = None,
                    release: str | None = None) -> TreeState:
    """The state of `checkout` (a folder) at `commit` (its HEAD, read by the caller); never raises, never
    runs anything. When `commit` (else `release`, the revision the recipe pins) is a release the recipes
    pin, every file is compared with that release's own list: a staged change, an index rewritten to
    match edited files, or a copy without `.git` is then seen too."""
    root = Path(checkout)
    known = release_files(commit) or (None if commit else release_files(release))
    if known is not None:
        return _against_release(root, commit, *known)
    try:
        dirs = git_dirs(root)
        if dirs is None or not (dirs.own / "index").is_file():
            return TreeState(False, reason="it is not a git checkout, so it cannot be compared with a release")
        config = dirs.common / "config"
        sha256 = config.is_file() and b"sha256" in bounded.read_head(config, 1 << 20).lower()
        entries = _index_entries(bounded.read_bytes(dirs.own / "index", bounded.GIT_INDEX_BYTES),
                                 32 if sha256 else 20)
    except (OSError, IndexError, ValueError, struct.error) as exc:
        # Never "unchanged": an index git itself calls corrupt tells nothing of the files (#110).
        return TreeState(False, reason=f"its git index cannot be read: {exc}")
    if entries is None:
        return TreeState(False, reason="its git index is of a kind this version does not read")
    compared = _compare(root, ((path, blob, mode == 0o120000) for path, blob, mode in entries))
    if compared is None:
        return TreeState(False, reason="it is larger than any GraphCast checkout")
    modified, deleted = compared
    tracked = {path for path, _, _ in entries}
    found, outside, leftovers, withheld = _walk_checkout(root, tracked)
    untracked = set(found)
    staged = _staged(dirs.common, commit, entries) if not sha256 else None
    if staged is not None:  # the index against the commit: what `git add` put there
        modified, deleted = set(modified) | set(staged[0]), set(deleted) | set(staged[1])
        untracked |= set(staged[2])
    elif not (modified or deleted or untracked or outside):
        # "Unchanged" needs a commit to be unchanged from. The index alone matches any files once `git add`
        # wrote it: a copied tree after `git init && git add -A`, or a HEAD whose commit is not there, was
        # called "unchanged since that commit" with a ✓ (twenty-first hostile pass P3).
        why = (no_commit_words(dirs) if not commit else f"its commit {commit[:12]} is in a SHA-256 repository, "
               "whose objects this version does not read" if sha256
               else f"its commit {commit[:12]} cannot be read from its git folder")
        return TreeState(False, commit=commit, reason=f"{why}, so there is nothing to compare its files with")
    return TreeState(True, commit=commit, modified=tuple(sorted(modified)), deleted=tuple(sorted(deleted)),
                     untracked=tuple(sorted(untracked)), against_commit=staged is not None, outside=outside,
                     leftovers=leftovers, withheld=withheld)


def _staged(objects_at: Path, commit: str | None, entries: list[tuple[str, bytes, int]]
            ) -> tuple[list[str], list[str], list[str]] | None:
    """(modified, deleted, added) between `commit`'s tree and the index — the changes staged with `git add`,
    which comparing the index with the files cannot see; None when the commit's objects cannot be read (the
    state then cannot be told, unless the files differ from the index already)."""
    if not commit:
        return None
    try:
        head = commit_files(objects_at, commit)
    except (GitReadError, OSError, ValueError, IndexError, struct.error, zlib.error):
        return None
    index = {path: blob for path, blob, _ in entries}
    modified = [path for path, blob in index.items() if path in head and head[path] != blob]
    deleted = [path for path in head if path not in index]
    added = [path for path in index if path not in head]
    return modified, deleted, added


def _index_entries(data: bytes, hash_len: int) -> list[tuple[str, bytes, int]] | None:
    """(path, blob hash, mode) of each regular file and link in a version 2 or 3 git index whose hashes
    are `hash_len` bytes (SHA-1 or SHA-256); None for another version.

    git's own checks first (ValueError naming the one that fails, as git says "index file corrupt"): the
    signature, the trailing checksum of everything before it (all zeros when `index.skipHash` is set), every
    entry inside the file and the extensions after them filling it exactly. An index grown with `truncate` kept
    its entries at the front, and was read as the checkout "unchanged since that commit" (eleventh hostile pass
    #110)."""
    if len(data) < 12 + hash_len or data[:4] != b"DIRC":
        raise ValueError("it is not a git index (no DIRC signature)")
    body, trailer = data[:-hash_len], data[-hash_len:]
    if trailer.strip(b"\0") and hashlib.new("sha1" if hash_len == 20 else "sha256", body).digest() != trailer:
        raise ValueError("its checksum does not match its content; git calls it corrupt")
    version, count = struct.unpack(">II", data[4:12])
    if version not in (2, 3) or count > MAX_ENTRIES:
        return None
    entries = _walk_entries(body, count, hash_len)
    _check_extensions(body, entries[1])
    return entries[0]


def _check_extensions(body: bytes, offset: int) -> None:
    """The extensions after the entries: each a 4-letter signature, a length and that many bytes, ending exactly
    where the checksum begins (ValueError otherwise: zeros or garbage are not an extension git writes)."""
    while offset < len(body):
        signature = body[offset:offset + 4]
        if len(signature) < 4 or not signature.isalpha() or not signature.isascii() or offset + 8 > len(body):
            raise ValueError(f"it holds bytes that are neither an entry nor an extension at offset {offset}")
        size = struct.unpack(">I", body[offset + 4:offset + 8])[0]
        offset += 8 + size
        if offset > len(body):
            raise ValueError(f"its {signature.decode()} extension runs past its end")


def _walk_entries(data: bytes, count: int, hash_len: int) -> tuple[list[tuple[str, bytes, int]], int]:
    """The entries of a version 2/3 index body, and the offset just after them (ValueError for one cut short)."""
    out = []
    offset = 12
    for _ in range(count):
        if offset + 42 + hash_len > len(data):
            raise ValueError("it ends in the middle of its entries")
        mode = struct.unpack(">I", data[offset + 24:offset + 28])[0]
        blob = data[offset + 40:offset + 40 + hash_len]
        flags = struct.unpack(">H", data[offset + 40 + hash_len:offset + 42 + hash_len])[0]
        start = offset + 42 + hash_len + (2 if flags & 0x4000 else 0)
        end = data.index(b"\0", start)
        path = data[start:end].decode("utf-8", "surrogateescape")
        length = end - offset
        offset += (length + 8) // 8 * 8
        if (flags >> 12) & 3:  # a merge stage: a conflicted file is a change in itself
            out.append((path, b"", mode))
        elif mode >> 12 in (0o10, 0o12):  # regular files and symlinks; gitlinks (submodules) are skipped
            out.append((path, blob, mode))
    if offset > len(data):
        raise ValueError("it ends in the middle of its entries")
    return out, offset


def _walk_checkout(root: Path, tracked: set[str]
                   ) -> tuple[list[str], tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    """(untracked, outside, leftovers, withheld) in one walk of the checkout: the files its index does not hold, and every link whose
    target lies outside it. One walk, as a checkout of 10 000 files is read once (both lists used to walk it).

    Untracked: build leftovers and `.git` are left out (a worktree's or submodule's `.git` is a file naming its
    git folder, git's own, not the checkout's). Every untracked symbolic link is one, whatever it points at (a
    file, a folder, itself, nothing), and is never followed: `os.walk` puts a link to a folder among the folders
    and does not enter it, so `graphcast/jaxdir -> /elsewhere` (a folder holding a `jax/` that Python would
    import) and a loop `loop -> ..` were listed nowhere and the plan said "unchanged, file for file" (t24g G4,
    G6).

    Outside, as "path -> target": every link, tracked or not, to a file or a folder, never followed: a build
    copies the link and reads what it points at, so a link to a file elsewhere put that file's content in the
    env as a module while the plan listed it as one more "new" file (fifteenth hostile pass P13). A link named
    like a leftover (`__pycache__ -> /elsewhere`) is still a link; one that stays inside the checkout is the
    checkout's own content and is not listed.

    Leftovers: each folder or file a build's copy leaves out (`tree_digest.left_out`: `build/`, `*.egg-info/`,
    `__pycache__/`), named once and not entered (walk 25 #6) — but not what a build could import
    (`tree_digest.importable`: a compiled `*.pyc`, `.eggs/`): no ignore list hides that. A sourceless `wheel.pyc` at
    the top was dropped here, the checkout was "identical to GraphCast v0.1.1, file for file", and setuptools'
    build imported it as root (28th hostile pass (part B) P10). It is untracked like any file, and also in
    `withheld`, as the copy a build reads leaves it out."""
    top = os.path.realpath(root).rstrip(os.sep)
    untracked: list[str] = []
    outside: list[str] = []
    leftovers: list[str] = []
    withheld: list[str] = []
    seen = 0
    for folder, dirs, files in walk(root):
        rel = os.path.relpath(folder, root)
        links = {d for d in dirs if os.path.islink(os.path.join(folder, d))}
        links.update(f for f in files if os.path.islink(os.path.join(folder, f)))
        for name in (*sorted(d for d in dirs if d not in links), *sorted(f for f in files if f not in links)):
            if (name != ".git" and left_out(name) and not importable(name)
                    and (name if rel == "." else f"{rel}/{name}") not in tracked):
                leftovers.append((name if rel == "." else f"{rel}/{name}") + ("/" if name in dirs else ""))
        files = [f for f in files if f in links or not left_out(f) or importable(f)]
        dirs[:] = [d for d in dirs if d not in links and d != ".git" and not _leftover_folder(d)
                   and (not left_out(d) or importable(d))]
        for name in sorted(links):
            full = os.path.join(folder, name)
            target = os.path.realpath(full)
            if target != top and not target.startswith(top + os.sep):
                outside.append(f"{os.path.relpath(full, root)} -> {os.readlink(full)}")
        for name in (*files, *(d for d in links if d not in files)):
            seen += 1
            path = name if rel == "." else f"{rel}/{name}"
            if path in tracked or name == ".git":
                continue
            untracked.append(path)
            if any(left_out(part) for part in path.split("/")):
                withheld.append(path)
        if len(untracked) > MAX_ENTRIES or seen > MAX_ENTRIES:
            break
    return untracked, tuple(sorted(outside)), tuple(sorted(leftovers)), tuple(sorted(withheld))


def _leftover_folder(name: str) -> bool:
    """A folder any imported or tested checkout has (`__pycache__`, `*.egg-info`): not a change to it."""
    return name.endswith(_BUILD_LEFTOVERS) or name in _BUILD_LEFTOVERS


def _against_release(root: Path, commit: str | None, tag: str, files: dict[str, str]) -> TreeState:
    """The checkout compared with the file list of GraphCast `tag` (blob hashes, as git computes them)."""
    compared = _compare(root, ((path, bytes.fromhex(blob), (root / path).is_symlink()) for path, blob in files.items()))
    if compared is None:
        return TreeState(False, reason="it is larger than any GraphCast checkout")
    modified, deleted = compared
    found, outside, leftovers, withheld = _walk_checkout(root, set(files))
    return TreeState(True, commit=commit, modified=tuple(sorted(modified)), deleted=tuple(sorted(deleted)),
                     untracked=tuple(sorted(found)), compared_with=f"GraphCast {tag}", outside=outside,
                     leftovers=leftovers, withheld=withheld)


def _compare(root: Path, expected) -> tuple[list[str], list[str]] | None:
    """(modified, deleted) among `expected` (path, git blob id, whether it is a symlink) against the files in
    `root`; None once more than MAX_BYTES would be read (no GraphCast checkout is that large)."""
    modified, deleted = [], []
    total = 0
    for path, blob, is_link in expected:
        file = root / path
        try:
            if is_link:
                data = os.readlink(file).encode("utf-8", "surrogateescape")
            else:
                total += file.stat().st_size
                if total > MAX_BYTES:
                    return None
                data = bounded.read_bytes(file, MAX_BYTES)  # a FIFO or a device in its place: changed
        except FileNotFoundError:
            deleted.append(path)
            continue
        except (OSError, ValueError):
            modified.append(path)
            continue
        if _blob_id(data, len(blob)) != blob:
            modified.append(path)
    return modified, deleted


def _blob_id(data: bytes, length: int = 20) -> bytes:
    """git's id of a file's content: SHA-1 (20 bytes) or, in a SHA-256 repository, SHA-256 (32)."""
    return hashlib.new("sha1" if length == 20 else "sha256", b"blob %d\0" % len(data) + data).digest()


def read_archive_state(archive: str | os.PathLike[str], release: str | None) -> TreeState | None:
    """A wheel or source archive compared with the release `release` (the recipe's revision) file by file,
    as a checkout is; None when it is not a local file or the release is not one the recipes pin.

    Why: a file named `graphcast-0.1.1-py3-none-any.whl` can hold anything; the plan marked such a wheel, and an
    sdist with an edited setup.py, "✓" with no word (fifth hostile pass 8i/8j). A wheel holds the package's
    modules only, so only release files of the same top-level folders are expected in it; an sdist holds one
    folder (`graphcast-0.1.1/`) with the checkout's files."""
    known = release_files(release)
    path = Path(archive)
    if known is None or not path.is_file():
        return None
    tag, files = known
    try:
        read = _archive_files(path)
    except (OSError, ValueError, EOFError, zipfile.BadZipFile, tarfile.TarError) as exc:
        return TreeState(False, reason=f"the archive cannot be read: {exc}")
    if read is None:
        return TreeState(False, reason="it is larger than any GraphCast release")
    found, links = read[0], read[1]
    if read[2]:
        return TreeState(True, compared_with=f"GraphCast {tag}", unusable=tuple(read[2]))
    tops = {name.split("/", 1)[0] for name in found if "/" in name}
    if path.suffix == ".whl":  # the modules only: dist-info is the wheel's own, and setup.py is not shipped
        expected = {p: b for p, b in files.items() if p.split("/", 1)[0] in tops and p.endswith(".py")}
        shown = {n: d for n, d in found.items() if not _wheel_bookkeeping(n)}
    else:
        expected, shown = files, {n: d for n, d in found.items() if not _sdist_bookkeeping(n, d)}
    modified = sorted(p for p, blob in expected.items() if p in shown and _blob_id(shown[p]) != bytes.fromhex(blob))
    # Missing code is a change; missing docs are not (`uv build --sdist` leaves CONTRIBUTING.md and the notebook out).
    # A release file stored as a link (hard or symbolic) is there, changed: listed once, as modified, never also as
    # deleted (25th hostile pass (part B) P2: `losses.py` as a tar hard link to a changed `zz_evil.py` read as both).
    linked = {n for n, _, _ in links}
    deleted = sorted(p for p in expected if p not in shown and p not in linked and p.endswith(".py"))
    new = sorted({*(n for n in shown if n not in files), *(n for n, _, _ in links if n not in files)})
    modified = sorted({*modified, *(n for n, _, _ in links if n in files)})  # a release file never is a link
    outside = tuple(sorted(f"{n} -> {t}" for n, t, leaves in links if leaves))
    return TreeState(True, modified=tuple(modified), deleted=tuple(deleted), untracked=tuple(new),
                     compared_with=f"GraphCast {tag}", outside=outside)


#: What `pip wheel`/`uv build` write into a wheel's `.dist-info/` for any package: bookkeeping, never code.
#: Anything else there is new — `entry_points.txt` above all, whose console scripts land in the env's bin/,
#: first on PATH after `activate` (sixth hostile pass 8g: `pip` and `jupyter` commands from a "GraphCast").
_WHEEL_BOOKKEEPING = {"METADATA", "WHEEL", "RECORD", "top_level.txt", "INSTALLER", "REQUESTED", "direct_url.json",
                      "zip-safe", "dependency_links.txt", "AUTHORS", "LICENSE", "LICENSE.txt", "NOTICE"}
#: What building an sdist adds to a checkout's files at its top: its metadata, never code.
_SDIST_BOOKKEEPING = {"PKG-INFO"}
#: The files setuptools' `egg_info` writes into `NAME.egg-info/` and rewrites at every build; any other file there is
#: the author's, and a `setup.cfg` can install it (29th hostile pass (part B) P4: `[options.data_files]` installed
#: an egg-info `zz_gc.pth` that ran at every start, while the archive was "identical … file for file").
_EGG_INFO_BOOKKEEPING = {"PKG-INFO", "SOURCES.txt", "dependency_links.txt", "requires.txt", "top_level.txt",
                         "entry_points.txt", "not-zip-safe", "zip-safe"}
#: The only `setup.cfg` an sdist build writes of its own: `[egg_info]` with these keys (setuptools' `sdist`);
#: any other section (`[options.data_files]`, `[options.entry_points]` …) is build input, compared and named.
_SDIST_SETUP_CFG_KEYS = {"tag_build", "tag_date", "tag_svn_revision"}


#: A wheel's `.data/scripts/` name uv refuses to install ("Scripts must not use the reserved name `python3`"): the
#: environment's own interpreter names.
_RESERVED_SCRIPT = re.compile(r"^[^/]+\.data/scripts/python(?:w|[0-9]+(?:\.[0-9]+)?)?$")


def _reserved_script(name: str) -> bool:
    """Whether a wheel member is a script uv refuses for its name (27th hostile pass (part B) P8: a
    `.data/scripts/python3` member was "ok" in the plan, then the install failed in uv)."""
    return bool(_RESERVED_SCRIPT.match(name))


def wheel_member_effects(names: list[str] | tuple[str, ...]) -> list[str]:
    """What the changed members of a wheel do beyond GraphCast's import, in words, most far-reaching first: a `.pth`
    or `sitecustomize`/`usercustomize` module runs at the install and at every start of the environment's Python; a
    `.data/scripts/` member or an `entry_points.txt` puts a program into its bin/; `.data/data/` and `.data/headers/`
    write files elsewhere in the environment.

    Why: 27th hostile pass (part B) P8 — the caution said "its code runs whenever GraphCast is imported" of a `.pth`
    that ran during the install itself, with nothing imported, and at every start after."""
    startup = program = elsewhere = False
    for name in names:
        top, _, rest = name.partition("/")
        kind, _, inner = rest.partition("/") if top.endswith(".data") and rest else ("", "", name)
        leaf = inner.rsplit("/", 1)[-1]
        runs_at_start = leaf.endswith(".pth") or leaf.split(".", 1)[0] in ("sitecustomize", "usercustomize")
        if kind in ("", "purelib", "platlib"):
            startup = startup or ("/" not in inner and runs_at_start)
        elif kind == "scripts":
            program = True
        elif kind in ("data", "headers"):
            elsewhere, startup = True, startup or runs_at_start
        program = program or name.endswith(".dist-info/entry_points.txt")
    said = []
    if startup:
        said.append("it runs code at the install and at every start of this environment's Python (a .pth file or "
                    "sitecustomize), GraphCast imported or not")
    if program:
        said.append("it installs a program into the environment's bin/")
    if elsewhere:
        said.append("it writes files elsewhere in the environment (.data/data, .data/headers)")
    return said


def _wheel_bookkeeping(name: str) -> bool:
    """A wheel's own metadata file (compared with nothing). Every other file is the package's: a `.pth` at the
    top (it runs at every interpreter start, GraphCast imported or not), a `.data/scripts/` command, a module."""
    top, _, inside = name.partition("/")
    if not top.endswith(".dist-info"):
        return False
    return inside in _WHEEL_BOOKKEEPING or inside.startswith(("LICENSE", "licenses/"))


def _sdist_bookkeeping(name: str, content: bytes) -> bool:
    """An sdist's own metadata, added by the build and rewritten by the next, never read as build input: `PKG-INFO`,
    the files `egg_info` writes in `*.egg-info/`, and a `setup.cfg` holding only the `[egg_info]` tags an sdist
    build writes. Anything else there is compared as the author's (29th hostile pass (part B) P4: a `setup.cfg` and
    an egg-info `.pth` were left out of the comparison, and setuptools installed the `.pth`)."""
    top, _, rest = name.partition("/")
    if top.endswith(".egg-info"):
        return rest in _EGG_INFO_BOOKKEEPING
    if name == "setup.cfg":
        return _only_egg_info_tags(content)
    return name in _SDIST_BOOKKEEPING


def _only_egg_info_tags(content: bytes) -> bool:
    """Whether a `setup.cfg` is the one an sdist build writes: an `[egg_info]` section of its tags and nothing else
    (read as data by configparser; one that cannot be read is not bookkeeping, so it is compared and named)."""
    import configparser  # deferred: only an sdist with a setup.cfg reads it

    parser = configparser.ConfigParser(interpolation=None)
    try:
        parser.read_string(content.decode("utf-8"))
    except (UnicodeDecodeError, configparser.Error):
        return False
    return set(parser.sections()) <= {"egg_info"} and set(parser.defaults()) == set() and all(
        set(parser[section]) <= _SDIST_SETUP_CFG_KEYS for section in parser.sections())


def _archive_files(path: Path, *, strip_top: bool | None = None
                   ) -> tuple[dict[str, bytes], list[tuple[str, str, bool]], list[str]] | None:
    """({path inside the package: content}, [(link's path, its target, whether it leaves the archive)]) of a wheel
    or a source archive (tar or zip). Links are listed apart, never read through: a build copies them and installs
    what they point at (seventeenth hostile pass P9: an sdist's `graphcast/link.py -> /tmp/…` was listed nowhere).

    A source archive's one top folder (`graphcast-0.1.1/`, `gc/`) is dropped, a tar's and a zip's alike, and only
    when every member is in it: a flat archive keeps its names (22nd hostile pass P5: a zip's top folder was kept,
    so the release's files read as 26 deleted and 30 new). A wheel (`strip_top` False) has none.

    The third item names the members no installer unpacks: a FIFO, a device node or other special file, and a name
    that is absolute or climbs out with `..` (23rd hostile pass P4: such members read as "identical" or as new
    files, and uv then refused the archive).

    It also names what makes the archive more than one tree, which installers read differently: two members of
    one name (zip or tar), data after a gzip's first member (a bzip2's or xz's first stream) or after a tar's end
    marker, and a wheel with more than one `.dist-info` folder (24th hostile pass (part B) P3: such archives were "identical to GraphCast v0.1.1"
    here, because this reader took one reading, and uv then refused each). Ambiguity is refused at this reader, so
    no caller picks a reading."""
    strip = path.suffix != ".whl" if strip_top is None else strip_top
    members: list[tuple[str, str, object]] = []  # (name, "file" | "sym" | "hard", content or target)
    odd: list[str] = []
    total = 0
    if zipfile.is_zipfile(path):
        with zipfile.ZipFile(path) as archive:
            disagreements = _zip_name_disagreements(path, archive)
            if disagreements:  # refused before any member is read under one of its readings
                return {}, [], disagreements
            for info in archive.infolist():
                total += info.file_size
                if total > MAX_BYTES:
                    return None
                if stat.S_ISLNK(info.external_attr >> 16):
                    members.append((info.filename, "sym", archive.read(info).decode("utf-8", "surrogateescape")))
                elif info.is_dir():
                    members.append((info.filename, "dir", None))
                elif stat.S_IFMT(info.external_attr >> 16) not in (0, stat.S_IFREG, stat.S_IFDIR):  # no type: a file
                    odd.append(f"{info.filename} ({_special_kind(info.external_attr >> 16)})")
                else:
                    members.append((info.filename, "file", archive.read(info)))
    else:
        odd += _after_first_stream(path)
        with tarfile.open(path) as archive:
            for member in archive:
                if member.issym():
                    members.append((member.name, "sym", member.linkname))
                elif member.islnk():
                    members.append((member.name, "hard", member.linkname))
                elif member.isdir():
                    members.append((member.name, "dir", None))
                elif member.isfile():
                    total += member.size
                    if total > MAX_BYTES:
                        return None
                    handle = archive.extractfile(member)
                    members.append((member.name, "file", handle.read() if handle is not None else b""))
                else:
                    odd.append(f"{member.name} ({_special_kind(member.mode, member)})")
            odd += _after_tar_end(archive, path)
    odd += _ambiguous_members(members, wheel=not strip)
    for name, _, _ in members:
        climbs = _plain_member_name(name)
        if climbs.startswith("/") or ".." in climbs.split("/"):
            odd.append(f"{name} ({'an absolute path' if climbs.startswith('/') else 'a path that climbs out with ..'})")
    if not strip:
        odd += [f"{name} (a script named {name.rsplit('/', 1)[-1]}, which installers keep for the interpreter)"
                for name, _, _ in members if _reserved_script(_plain_member_name(name))]
    names = [_plain_member_name(name) for name, _, _ in members]
    top = _single_top(names) if strip else None
    out: dict[str, bytes] = {}
    links: list[tuple[str, str, bool]] = []
    for name, (_, kind, value) in zip(names, members, strict=True):
        if top is not None:
            name = name[len(top) + 1:]
        if not name or kind == "dir":
            continue
        if kind == "sym":
            links.append((name, str(value), _climbs_out(name, str(value))))
        elif kind == "hard":  # a hard link names its target from the archive's top, as members are named
            links.append((name, str(value), _climbs_out("", str(value))))
        else:
            out[name] = value  # type: ignore[assignment]
    return out, links, odd


#: The zip extra fields that carry a member's name a second time (Info-ZIP's Unicode Path): uv takes it over the
#: header's name, Python's zipfile does not.
_UNICODE_PATH_FIELD = 0x7075
_LOCAL_HEADER = struct.Struct("<4s5H3L2H")


def _zip_name_disagreements(path: Path, archive: zipfile.ZipFile) -> list[str]:
    """The members of a zip whose name one installer reads differently from another, each "NAME (why)": a second,
    Unicode name in an extra field (central or local) that differs from the header's, a local header naming another
    file than the central directory, a name cut at a NUL byte, a backslash (a folder to one reader, a character to
    another), and a name that is not ASCII without the UTF-8 flag (cp437 to Python, UTF-8 to others).

    Why: 29th hostile pass (part B) P3 — the real `setup.py` entry carried a Unicode Path naming an egg-info file
    and another entry's Unicode Path named `setup.py`; this reader compared the plain names ("identical … file for
    file") while uv unpacked the Unicode ones and ran the other `setup.py` as root. One rule for every way the names
    can be read twice: such an archive is refused, never compared under one reading."""
    odd: list[str] = []
    with open(path, "rb") as handle:
        for info in archive.infolist():
            name = info.orig_filename
            why = None
            unicode_names = _unicode_path_names(info.extra)
            try:
                handle.seek(info.header_offset)
                fields = _LOCAL_HEADER.unpack(handle.read(_LOCAL_HEADER.size))
                local_name = handle.read(fields[9])
                local_extra = handle.read(fields[10])
            except (OSError, struct.error):
                fields, local_name, local_extra = None, b"", b""
            unicode_names += _unicode_path_names(local_extra)
            encoding = "utf-8" if info.flag_bits & 0x800 else "cp437"
            if fields is None or fields[0] != b"PK\x03\x04":
                why = "its local header cannot be read"
            elif local_name.decode(encoding, "surrogateescape") != name:
                why = f"its local header names {local_name.decode(encoding, 'replace')!r}"
            elif any(other != name for other in unicode_names):
                other = next(other for other in unicode_names if other != name)
                why = f"it carries a second, Unicode name {other!r}"
            elif "\0" in name or name != info.filename:
                why = "its name holds a NUL byte"
            elif "\\" in name:
                why = "its name holds a backslash"
            elif not name.isascii() and not info.flag_bits & 0x800:
                why = "its name is not ASCII and not marked UTF-8"
            if why:
                odd.append(f"{info.filename} ({why}: installers read different names)")
    return odd


def _unicode_path_names(extra: bytes) -> list[str]:
    """The names held in a zip extra block's Unicode Path fields (id 0x7075: version, CRC-32, UTF-8 name); a field
    too short to hold one reads as an empty name, which differs from any member's."""
    names: list[str] = []
    at = 0
    while at + 4 <= len(extra):
        field, size = struct.unpack_from("<2H", extra, at)
        body = extra[at + 4:at + 4 + size]
        if field == _UNICODE_PATH_FIELD:
            names.append(body[5:].decode("utf-8", "replace") if len(body) > 5 else "")
        at += 4 + size
    return names


#: How much of a stream is read past a tar's end marker or a gzip's first member before it counts as more data.
_TAIL_CHUNK = 1024 * 1024


def _ambiguous_members(members: list[tuple[str, str, object]], *, wheel: bool) -> list[str]:
    """The members that make an archive more than one tree: a name held twice (by files, links or a file and a
    folder; a folder listed twice is harmless), read as its first copy by one installer and its last by another
    (uv refuses a zip of such entries outright), and in a wheel each `.dist-info` folder beyond the first (uv and pip
    refuse such a wheel: "Multiple .dist-info directories found"). 24th hostile pass (part B) P3."""
    odd: list[str] = []
    kinds: dict[str, list[str]] = {}
    for name, kind, _ in members:
        kinds.setdefault(_plain_member_name(name), []).append(kind)
    for name, seen in kinds.items():
        if name and len(seen) > 1 and any(kind != "dir" for kind in seen):
            odd.append(f"{name} ({len(seen)} members of this name: installers read different ones)")
    if wheel:
        infos = sorted({n.split("/", 1)[0] for n in kinds if "/" in n and n.split("/", 1)[0].endswith(".dist-info")})
        odd += [f"{extra}/ (a second .dist-info folder beside {infos[0]}/: uv and pip refuse a wheel with more than "
                "one)" for extra in infos[1:]]
    return odd


#: The compressed formats a tar comes in whose files can hold several streams one after another: each one's magic
#: bytes, its name, and how to make a decompressor of one stream (which stops at that stream's end).
_STREAM_FORMATS = ((b"\x1f\x8b", "gzip member"), (b"BZh", "bzip2 stream"), (b"\xfd7zXZ\x00", "xz stream"))


def _one_stream_decompressor(what: str):
    """A decompressor of one stream of `what` (a `_STREAM_FORMATS` name): it stops at that stream's end."""
    if what == "gzip member":
        return zlib.decompressobj(16 + zlib.MAX_WBITS)
    if what == "bzip2 stream":
        import bz2  # deferred: only a .tar.bz2 reads it

        return bz2.BZ2Decompressor()
    import lzma  # deferred: only a .tar.xz reads it

    return lzma.LZMADecompressor(lzma.FORMAT_XZ)


def _after_first_stream(path: Path) -> list[str]:
    """["<file> (data after its first gzip member / bzip2 stream / xz stream, at byte N: …)"] when a compressed file
    goes on past its first stream, else []: Python's tarfile reads every stream as one, and installers differ (uv
    reads a gzip's first member only), so the two see different trees (24th hostile pass (part B) P3: the release's
    setup.py in a second member hid a changed one). bzip2 and xz files hold several streams the same way, and were
    read as one tree (known limit after pass 24: multi-stream bz2/xz archives): one rule for the three. Trailing
    zeros (padding, which xz allows between streams) are no data. Read in bounded chunks, the output thrown away;
    none of these formats, or a truncated file (tarfile's own read says so): []."""
    with open(path, "rb") as handle:
        head = handle.read(6)
        what = next((what for magic, what in _STREAM_FORMATS if head.startswith(magic)), None)
        if what is None:
            return []
        handle.seek(0)
        inflate = _one_stream_decompressor(what)
        fed = 0
        pending = b""
        while not inflate.eof:
            if hasattr(inflate, "unconsumed_tail"):  # zlib: what it did not take is handed back
                if not pending:
                    pending = handle.read(_TAIL_CHUNK)
                    fed += len(pending)
                    if not pending:
                        return []
                inflate.decompress(pending, _TAIL_CHUNK)
                pending = inflate.unconsumed_tail
            elif inflate.needs_input:  # bz2, lzma: they keep what they did not take, and say when they need more
                chunk = handle.read(_TAIL_CHUNK)
                if not chunk:
                    return []
                fed += len(chunk)
                inflate.decompress(chunk, _TAIL_CHUNK)
            else:
                inflate.decompress(b"", _TAIL_CHUNK)
        tail = inflate.unused_data
        at = fed - len(pending) - len(tail)
        while True:
            if tail.strip(b"\0"):
                return [f"{path.name} (data after its first {what}, at byte {at}: one installer reads the first "
                        "only, another all of them)"]
            tail = handle.read(_TAIL_CHUNK)
            if not tail:
                return []


def _after_tar_end(archive: tarfile.TarFile, path: Path) -> list[str]:
    """["<file> (data after the tar's end-of-archive marker: …)"] when anything but zeros follows the end marker
    the tar reader stopped at, else []: one reader stops there, another reads on (24th hostile pass (part B) P3)."""
    stream = archive.fileobj
    if stream is None:
        return []
    try:
        stream.seek(archive.offset)
        read = 0
        while read <= MAX_BYTES:
            chunk = stream.read(_TAIL_CHUNK)
            if not chunk:
                return []
            if chunk.strip(b"\0"):
                return [f"{path.name} (data after the tar's end-of-archive marker: installers read it differently)"]
            read += len(chunk)
    except (OSError, EOFError, zlib.error):
        return []
    return [f"{path.name} (more than {MAX_BYTES} bytes after the tar's end-of-archive marker)"]


def _special_kind(mode: int, member: tarfile.TarInfo | None = None) -> str:
    """What a member that is no file, folder or link is, in words."""
    if member is not None:
        kind = ("a FIFO" if member.isfifo() else "a character device" if member.ischr()
                else "a block device" if member.isblk() else "a special file")
        return kind
    return ("a FIFO" if stat.S_ISFIFO(mode) else "a character device" if stat.S_ISCHR(mode)
            else "a block device" if stat.S_ISBLK(mode) else "a socket" if stat.S_ISSOCK(mode) else "a special file")


def _plain_member_name(name: str) -> str:
    while name.startswith("./"):
        name = name[2:]
    return name.rstrip("/")


def _single_top(names: list[str]) -> str | None:
    """The one folder every member is in (`graphcast-0.1.1`), or None (a flat archive, or an empty one)."""
    tops = {name.split("/", 1)[0] for name in names if name}
    if len(tops) != 1:
        return None
    top = next(iter(tops))
    return top if any(name.startswith(top + "/") for name in names) else None


def archive_metadata(archive: str | os.PathLike[str]) -> dict[str, bytes]:
    """The files a source archive's name and version are read from (`PKG-INFO`, `setup.py`, `pyproject.toml`,
    `setup.cfg`, at its top once its one folder is dropped); {} when it cannot be read. Read, never run: the
    archive is named by what it holds, not by its file name (22nd hostile pass P5: "an unknown package")."""
    path = Path(archive)
    try:
        read = _archive_files(path, strip_top=True) if path.is_file() else None
    except (OSError, ValueError, EOFError, zipfile.BadZipFile, tarfile.TarError):
        return {}
    if read is None:
        return {}
    return {name: data for name, data in read[0].items()
            if name in ("PKG-INFO", "setup.py", "pyproject.toml", "setup.cfg")}


def _climbs_out(name: str, target: str) -> bool:
    """Whether a link at `name` inside an archive points outside it: an absolute target, or one that climbs above
    the archive's top once read from the link's own folder."""
    if target.startswith("/"):
        return True
    return os.path.normpath(os.path.join(os.path.dirname(name), target)).split("/", 1)[0] == ".."
