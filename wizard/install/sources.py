"""Where the packages come from, and whether the GraphCast source is the GraphCast the recipe pins.

Why check before installing: a GraphCast checkout on the wrong commit is the commonest mistake of a
firewalled install (GitHub's main branch now builds a package called `weathernext`; `git checkout
v0.2` needs a newer JAX; PyPI's `graphcast` is an unrelated project). Installed `--no-deps`, any of
them "succeeds", and the failure surfaces minutes later in the GraphCast check as something else.
So the distribution name and version are read *without running any of the source's code*:

- a checkout: `setup.py` parsed as Python syntax (never executed) for `setup(name=..., version=...)`,
  else `pyproject.toml`'s `[project]`, else `setup.cfg`'s `[metadata]`;
- a wheel or sdist: its file name (the standard `name-version` parts);
- a pip URL (`graphcast @ git+https://…@REV`, an `https://…/graphcast-0.1.1-….whl`): the name it gives
  and the revision or file name in the URL; a git revision is compared with the recipe's.

What cannot be read (a URL to a branch, a setup.py computing its version) is not refused: the verify
probe checks the installed package's metadata and module layout afterwards.

Also here: the sources the user set in the environment (`GC_WIZARD_GRAPHCAST_SRC`,
`GC_WIZARD_FIND_LINKS`, `:`-separated like PATH), honoured by every command and the app, and a
look at a wheelhouse folder (how many wheels, how many of the recipe's pins it holds).
"""

from __future__ import annotations

import ast
import configparser
import os
import re
import tempfile
from dataclasses import dataclass, field, replace
from pathlib import Path

from packaging.requirements import InvalidRequirement, Requirement
from packaging.utils import (
    InvalidSdistFilename,
    InvalidWheelFilename,
    canonicalize_name,
    parse_sdist_filename,
    parse_wheel_filename,
)
from packaging.version import InvalidVersion

from wizard import bounded
from wizard.errors import UserError
from wizard.git_dirs import git_dirs
from wizard.install.build_backend import build_runs
from wizard.install.checkout_state import (
    TreeState,
    archive_metadata,
    read_archive_state,
    read_tree_state,
    unusable_words,
    wheel_member_effects,
)
from wizard.install.git_objects import head_commit
from wizard.install.package_files import package_files
from wizard.install.pinned import same_version
from wizard.install.source_places import local_path, package_place
from wizard.install.source_spelling import source_spelling
from wizard.install.tree_copy import copy_problem
from wizard.install.wheel_overwrites import overwrite_words, overwritten_packages
from wizard.recipes.alternatives import REACH_TIMEOUT, reachable
from wizard.security import expand_home, known_home, shell_word
from wizard.source_trust import refuse_swappable_source

#: Versions DeepMind published of GraphCast (setup.py of the v0.1, v0.1.1 and v0.2 tags). A
#: `graphcast` of any other version is PyPI's unrelated project of the same name.
DEEPMIND_VERSIONS = ("0.1", "0.1.1", "0.2")
#: Names a GraphCast source may carry that are not DeepMind's `graphcast`, and what each is: said in the refusal.
LOOKALIKES = {
    "weathernext": " — GraphCast's main branch after v0.2, renamed WeatherNext",
    # PyPI's `gencast` is a podcast generator; DeepMind's GenCast ships inside `graphcast` (v0.2 and later).
    "gencast": " — PyPI's `gencast`, an unrelated podcast generator; DeepMind's GenCast ships inside its "
               "graphcast package (v0.2 and later), not as a package of its own",
}
_HEX_RE = re.compile(r"^[0-9a-f]{7,40}$")
_TAG_RE = re.compile(r"^v?([0-9]+(?:\.[0-9]+)+)$")


class SourceMismatch(UserError):
    """The GraphCast source is not the GraphCast the recipe pins (exit 2; `--force` goes on)."""


@dataclass(frozen=True)
class SourceIdentity:
    """What a GraphCast source really is, as far as can be read without running it."""

    where: str
    kind: str
    """checkout, wheel, sdist, git, url or recipe (the recipe's own pinned source)."""
    name: str | None = None
    version: str | None = None
    revision: str | None = None
    tree: TreeState | None = field(default=None, compare=False)
    """A checkout's state (commit, changed and new files), read without running it; None for other kinds."""

    def short(self) -> str:
        """"graphcast 0.1.1", "graphcast @97d1ad50b0b7", "weathernext 0.3.1.dev"."""
        what = " ".join(x for x in (self.name, self.version) if x) or "an unknown package"
        if self.revision and not self.version:
            what += f" @{self.revision[:12]}"
        return what

    def kind_text(self) -> str:
        kinds = {"checkout": "a source checkout", "wheel": "a wheel", "sdist": "a source archive",
                 "git": "a git URL", "url": "a URL", "recipe": "the recipe's pin"}
        return kinds.get(self.kind, self.kind)

    def describe(self) -> str:
        return f"{self.short()} ({self.kind_text()})"

    def to_dict(self) -> dict[str, str | None]:
        return {"where": self.where, "kind": self.kind, "name": self.name, "version": self.version,
                "revision": self.revision, "tree": self.tree.to_dict() if self.tree is not None else None}


@dataclass(frozen=True)
class SourceVerdict:
    identity: SourceIdentity
    ok: bool
    """False: refused (a sentence in `problem`). True also when nothing could be read (`note` says so)."""
    problem: str | None = None
    note: str | None = None
    unreachable: str | None = None
    """The sentence saying the source's host does not answer from here (the install would fail after the
    downloads), or None: set from the plan (`verdict_for`), never from the files."""
    caution: str | None = None
    """For a checkout: its state and that building it runs its setup.py (see `checkout_caution`)."""
    overwrites: tuple[tuple[str, str], ...] = ()
    """(member, pin) for each member of a GraphCast wheel that is another pinned package's file
    (`wheel_overwrites`): the refusal names them in full, as GraphCast's code they are not."""
    other_commit: bool = False
    """A checkout whose HEAD is not the commit the recipe pins: marked `!`, as its caution says (seventeenth hostile
    pass P10: a clean checkout of another commit was `✓` beside "not the recipe's …")."""

    def mark(self) -> str:
        """✓ checked · ! a checkout with changes (or at another commit) · ? could not be read · ✗ refused or
        out of reach. A changed checkout is not "✓": its caution names what differs, and the mark must not
        contradict it."""
        if not self.ok or self.unreachable:
            return "✗"
        if self.note:
            return "?"
        tree = self.identity.tree
        return "!" if tree is not None and (tree.changed or not tree.readable or self.other_commit) else "✓"

    def caution_mark(self) -> str:
        """The caution's own mark: "!" beside a "!" (or "?"/"✗") source, none beside a "✓" one, where it is only
        information (walk 25 #6: "! … identical to GraphCast v0.1.1, file for file" warned of nothing)."""
        return "" if self.mark() == "✓" else "! "

    def to_dict(self) -> dict:
        return {**self.identity.to_dict(), "ok": self.ok, "problem": self.problem, "note": self.note,
                "unreachable": self.unreachable, "caution": self.caution}


# --- the environment's sources ---------------------------------------------------------------------
# --- reading a source ------------------------------------------------------------------------------
def _setup_py(path: Path) -> tuple[str | None, str | None]:
    """name/version from `setup(...)` keyword constants, parsed (not run)."""
    try:
        text = bounded.read_lenient_text(path, bounded.MARKER_BYTES)
    except (OSError, ValueError):
        return None, None
    return _setup_py_text(text, str(path))


def _setup_py_text(text: str, where: str) -> tuple[str | None, str | None]:
    try:
        tree = ast.parse(text, filename=where)
    except (SyntaxError, ValueError):
        return None, None
    found: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            called = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
            if called != "setup":
                continue
            for keyword in node.keywords:
                if keyword.arg in ("name", "version") and isinstance(keyword.value, ast.Constant) \
                        and isinstance(keyword.value.value, str):
                    found[keyword.arg] = keyword.value.value
    return found.get("name"), found.get("version")


def _pyproject(path: Path) -> tuple[str | None, str | None]:
    try:
        text = bounded.read_text(path, bounded.MARKER_BYTES)
    except (OSError, ValueError):
        return None, None
    return _pyproject_text(text)


def _pyproject_text(text: str) -> tuple[str | None, str | None]:
    try:
        project = bounded.loads_toml(text).get("project") or {}
    except (AttributeError, ValueError, ImportError):  # ImportError: Python 3.10 without tomli (setup.py still works)
        return None, None
    if not isinstance(project, dict):
        return None, None
    name, version = project.get("name"), project.get("version")
    return (name if isinstance(name, str) else None), (version if isinstance(version, str) else None)


def _setup_cfg(path: Path) -> tuple[str | None, str | None]:
    try:
        text = bounded.read_lenient_text(path, bounded.MARKER_BYTES)
    except (OSError, ValueError):
        return None, None
    return _setup_cfg_text(text)


def _setup_cfg_text(text: str) -> tuple[str | None, str | None]:
    parser = configparser.ConfigParser(interpolation=None)
    try:
        parser.read_string(text)
    except configparser.Error:
        return None, None
    meta = parser["metadata"] if parser.has_section("metadata") else {}
    version = meta.get("version")
    return meta.get("name"), (version if version and not version.startswith(("attr:", "file:")) else None)


def _checkout(path: Path) -> SourceIdentity:
    name = version = None
    for filename, reader in (("setup.py", _setup_py), ("pyproject.toml", _pyproject), ("setup.cfg", _setup_cfg)):
        if (path / filename).is_file():
            found_name, found_version = reader(path / filename)
            name, version = name or found_name, version or found_version
    head = _git_head(path)
    return SourceIdentity(where=str(path), kind="checkout", name=_canon(name), version=version,
                          revision=head, tree=read_tree_state(path, head))


def _git_head(path: Path) -> str | None:
    """The checkout's commit, read from its git folder (a worktree's own HEAD included; no git process): for the
    message, never for the verdict."""
    try:
        dirs = git_dirs(path)
        return head_commit(dirs) if dirs is not None else None
    except (OSError, IndexError, ValueError):
        return None


def _canon(name: str | None) -> str | None:
    return str(canonicalize_name(name)) if name else None


def _from_filename(filename: str, where: str, kind_hint: str | None = None) -> SourceIdentity | None:
    try:
        if filename.endswith(".whl"):
            name, version, _, _ = parse_wheel_filename(filename)
            return SourceIdentity(where=where, kind=kind_hint or "wheel", name=str(name), version=str(version))
        if filename.endswith((".tar.gz", ".zip")):
            name, version = parse_sdist_filename(filename)
            return SourceIdentity(where=where, kind=kind_hint or "sdist", name=str(name), version=str(version))
        if filename.endswith(".tgz"):
            name, version = parse_sdist_filename(filename[:-4] + ".tar.gz")
            return SourceIdentity(where=where, kind=kind_hint or "sdist", name=str(name), version=str(version))
    except (InvalidWheelFilename, InvalidSdistFilename, InvalidVersion):
        return None
    return None


def _archive_identity(path: Path) -> tuple[str | None, str | None]:
    """Name/Version a source archive (tar or zip, any file name) says it is: its PKG-INFO, else its setup.py,
    pyproject.toml or setup.cfg, read from inside it, never run (22nd hostile pass P5: the v0.1.1 tree as
    `gc-pristine.tar.gz`, `mycopy.tgz` or a zip was "an unknown package")."""
    meta = archive_metadata(path)
    texts = {name: data.decode("utf-8", "replace") for name, data in meta.items()}
    name = version = None
    if "PKG-INFO" in texts:
        fields = dict(re.findall(r"^(Name|Version): *(.+?)\s*$", texts["PKG-INFO"], re.M))
        name, version = fields.get("Name"), fields.get("Version")
    for filename, reader in (("setup.py", lambda t: _setup_py_text(t, f"{path}:setup.py")),
                             ("pyproject.toml", _pyproject_text), ("setup.cfg", _setup_cfg_text)):
        if filename in texts:
            found_name, found_version = reader(texts[filename])
            name, version = name or found_name, version or found_version
    return name, version


def read_identity(install_arg: str, *, recipe_source: str | None = None) -> SourceIdentity:
    """What `install_arg` (the GraphCast step's argument, see `plan.graphcast_install_arg`) is."""
    if recipe_source is not None and install_arg == recipe_source:
        kind = "recipe"
    else:
        kind = None
    try:
        spelling = source_spelling(install_arg)
    except ValueError:  # a `file:` URL of another host: nothing here to read
        return SourceIdentity(where=install_arg, kind=kind or "url")
    name, url = (_canon(spelling.name) if spelling.name else None), spelling.url
    if spelling.local is not None:
        # A local folder or file in any spelling (`file://localhost/DIR`, `FILE:///DIR`, `graphcast @ file:/DIR`) is
        # read, and compared, as the plain path is (31st hostile pass (part B) P5: only `file://` was stripped).
        path = spelling.local
        if path.is_dir():
            return _checkout(path.absolute())
        found = _from_filename(path.name, str(path))
        if path.is_file() and (found is None or found.kind == "sdist"):
            # What the archive holds names it, its file name only where it says nothing.
            held_name, held_version = _archive_identity(path)
            return SourceIdentity(where=str(path), kind="sdist",
                                  name=_canon(held_name) or (found.name if found else None),
                                  version=held_version or (found.version if found else None))
        if found is not None:
            return found
        return SourceIdentity(where=str(path), kind="sdist" if path.is_file() else "url")
    if spelling.vcs:
        revision = version = None
        tail = url.split("#", 1)[0]
        if "@" in tail.rsplit("/", 1)[-1]:
            revision = tail.rsplit("@", 1)[1]
            tag = _TAG_RE.match(revision)
            if tag:
                version, revision = tag.group(1), None
        return SourceIdentity(where=install_arg, kind=kind or "git", name=name, version=version, revision=revision)
    filename = url.split("#", 1)[0].split("?", 1)[0].rsplit("/", 1)[-1]
    found = _from_filename(filename, install_arg, kind_hint=kind or "url")
    if found is not None:
        return SourceIdentity(where=found.where, kind=found.kind, name=name or found.name, version=found.version)
    return SourceIdentity(where=install_arg, kind=kind or "url", name=name)


def separate_checkout_words(folder: str, version: str) -> str:
    """How to get release `version` beside the checkout `folder` without touching it. walk 23 #3:
    the refusal said "git checkout v0.2", which, run in a checkout a v0.1.1 environment was built from (and that
    the wizard remembers as that version's source), switches it for everyone who uses it; a clone of it checked
    out at the tag leaves it as it is, and needs no network (the clone is local and carries the tags).

    walk 25 #5: a lab checkout owned by the admin made that clone fail ("detected dubious ownership"), and
    `git -c safe.directory=…` does not help: a clone from a local path starts its upload-pack without `-c` (git 2.39).
    What works is `--no-local` with the upload-pack told the source is safe (`-u 'git -c safe.directory=GITDIR
    upload-pack'`); and the copy goes under HOME, not beside the checkout in a folder that is not the user's."""
    import os  # deferred: only a refusal needs these

    from wizard.children import owner_words
    from wizard.paths import unused_path

    source = Path(folder)
    try:
        dirs = git_dirs(source)
    except OSError:
        dirs = None
    gitdir = dirs.common if dirs is not None else source
    me = os.geteuid()

    def owner(path: Path) -> int:
        try:
            return path.stat().st_uid
        except OSError:
            return me

    others = next((uid for uid in (owner(source), owner(gitdir)) if uid != me), None)
    name = f"{source.name}-v{version}"
    own_parent = owner(source.parent) == me and others is None
    home = known_home()
    copy = f"{folder.rstrip('/')}-v{version}" if own_parent else \
        str(unused_path(home, name, "")) if home is not None else f"~/{name}"
    whose = f"it belongs to {owner_words(others)}; " if others is not None else ""
    return (f"check out v{version} in a copy{'' if own_parent else ' of your own'} and leave this one as it is "
            f"({whose}other installs may use it): "
            f"{clone_command(folder, copy, others_own_it=others is not None)} && "
            f"git -C {shell_word(copy)} checkout v{version}, then give {copy}; or pass --force to install it anyway.")


def clone_command(folder: str, copy: str, *, others_own_it: bool = False) -> str:
    """The one command that copies checkout `folder` to `copy` (a clone: git's objects and refs, never the
    checkout's own config, hooks or filters, which a plain `cp` would bring along and git would then run as you).

    For a repository another user owns (`others_own_it`), git refuses the clone ("detected dubious ownership");
    `-c safe.directory=…` on `git clone` does not reach the upload-pack a local clone starts (git 2.39), so the pack
    is started with it, naming the git folder it serves, for this one read (`--no-local -u …`): upload-pack runs no
    hook and
    honours no command from the repository's config. Never the global `safe.directory` git's own message
    suggests, which would trust that repository for every later git command (27th hostile pass (part B) P7)."""

    if not others_own_it:
        return f"git clone {shell_word(folder)} {shell_word(copy)}"
    try:
        dirs = git_dirs(folder)
    except OSError:
        dirs = None
    gitdir = dirs.common if dirs is not None else Path(folder)
    pack = f"git -c safe.directory={shell_word(str(gitdir))} upload-pack"
    return f"git clone --no-local -u {shell_word(pack)} {shell_word(folder)} {shell_word(copy)}"


def check_identity(identity: SourceIdentity, *, name: str, version: str, revision: str,
                   recipe_id: str) -> SourceVerdict:
    """Whether `identity` is GraphCast `version` (the recipe's); a refusal names what was found."""
    needs = f"recipe {recipe_id} needs DeepMind's {name} {version}"
    hint = f" (git checkout v{version}), or pass --force to install it anyway"
    found = f"{identity.where} is {identity.describe()}"
    wanted = str(canonicalize_name(name))
    if identity.name and identity.name != wanted:
        extra = LOOKALIKES.get(identity.name, "") if wanted == "graphcast" else ""
        return SourceVerdict(identity, False, f"{found}{extra}, but {needs}: use a checkout of v{version}"
                             f"{hint.replace(' (git checkout v' + version + ')', '')}.")
    if identity.version and not same_version(identity.version, version):
        if identity.version in DEEPMIND_VERSIONS or wanted != "graphcast":
            problem = (f"{found}, but {needs}: {separate_checkout_words(identity.where, version)}"
                       if identity.kind == "checkout" and Path(identity.where).is_dir()
                       else f"{found}, but {needs}: check out the right tag{hint}.")
        else:
            problem = (f"{found} — PyPI's unrelated package of the same name, not DeepMind's GraphCast — but "
                       f"{needs}: give a checkout of https://github.com/google-deepmind/graphcast at v{version}, "
                       "or pass --force.")
        return SourceVerdict(identity, False, problem)
    if identity.revision and identity.kind in ("git", "recipe") and _HEX_RE.match(identity.revision) \
            and not revision.startswith(identity.revision) and not identity.version:
        return SourceVerdict(identity, False, f"{found}, but {needs} (revision {revision[:12]}): use "
                             f"@{revision} or @v{version}, or pass --force.")
    if identity.version and (identity.name or identity.kind == "checkout"):
        return SourceVerdict(identity, True)
    if identity.kind == "recipe" or (identity.revision and revision.startswith(identity.revision)):
        return SourceVerdict(identity, True)
    return SourceVerdict(identity, True, note=f"could not read which version {identity.where} is; the GraphCast "
                         "check after the install tells.")


def check_graphcast_source(recipe, install_arg: str, find_links: list[str] | tuple[str, ...] = ()) -> SourceVerdict:
    """The verdict on the GraphCast step's argument for `recipe` (reads files; runs nothing); `find_links`: the
    plan's wheelhouses, where the pinned packages' own wheels tell which files are theirs."""
    gc = recipe.graphcast
    recipe_source = gc.source
    identity = compared_with_release(read_identity(install_arg, recipe_source=recipe_source), gc.revision)
    verdict = check_identity(identity, name=source_name(recipe_source), version=gc.version, revision=gc.revision,
                             recipe_id=recipe.id)
    other = identity.kind == "checkout" and identity.tree is not None and identity.tree.at_other_commit(gc.revision)
    if verdict.ok and identity.tree is not None and identity.tree.unusable:
        # A FIFO, a device or a `..`/absolute member: uv refuses it after the plan said "identical" (23rd pass P4).
        verdict = replace(verdict, ok=False, note=None, problem=(
            f"the source archive {identity.where} is {unusable_words(identity.tree.unusable)}: give a clean "
            f"archive or a checkout of v{gc.version}, or pass --force."))
    if verdict.ok and identity.kind == "wheel":
        # A member that is another pinned package's file: the GraphCast step, run after the pins, would overwrite
        # it, and the caution called it GraphCast's own code (31st hostile pass (part B) P8).
        found = overwritten_packages(Path(identity.where), source_name(recipe_source), recipe.requirements,
                                     find_links)
        if found:
            verdict = replace(verdict, ok=False, note=None, overwrites=tuple(found), problem=(
                f"{overwrite_words(identity.where, found)}: give DeepMind's wheel or a checkout of v{gc.version}, "
                "or pass --force."))
    return replace(verdict, caution=checkout_caution(identity, gc.revision), other_commit=other)


def compared_with_release(identity: SourceIdentity, wanted_revision: str | None) -> SourceIdentity:
    """`identity` with a copy without .git compared file by file with the release the recipe pins: the tree
    every face shows (`plan --json`'s "tree" too) is the one the caution describes. The JSON said "not a git
    checkout, so it cannot be compared" with no file while the caution beside it named the modified ones."""
    if identity.kind in ("wheel", "sdist") and wanted_revision and identity.tree is None:
        archive = read_archive_state(identity.where, wanted_revision)
        return replace(identity, tree=archive) if archive is not None else identity
    if identity.kind != "checkout" or identity.revision is not None or not wanted_revision:
        return identity
    return replace(identity, tree=read_tree_state(identity.where, None, release=wanted_revision))


def checkout_caution(identity: SourceIdentity, wanted_revision: str | None) -> str | None:
    """The sentence both faces and the install show for a source checkout: which commit it is at, what
    changed in it, and that building it runs its own setup.py. None for a wheel, an archive or a URL."""
    if identity.kind == "sdist":
        # Built as a checkout is, so said as a checkout's is, changed or not (22nd hostile pass P5: a pristine
        # archive got no word that building it runs its setup.py).
        tree = compared_with_release(identity, wanted_revision).tree
        state = f" is {tree.describe()}" if tree is not None else ""
        pyproject = archive_metadata(identity.where).get("pyproject.toml")
        runs = build_runs(pyproject.decode("utf-8", "replace") if pyproject is not None else None)
        return f"the source archive {identity.where}{state}; building it runs {runs}, so use one you trust."
    if identity.kind == "wheel":
        tree = compared_with_release(identity, wanted_revision).tree
        if tree is None or (tree.readable and not tree.changed):
            return None  # a release's own files: nothing to warn of
        effects = wheel_member_effects([*tree.modified, *tree.untracked])
        what = "; ".join(effects) if effects else "its code runs whenever GraphCast is imported"
        return f"the wheel {identity.where} is {tree.describe()}; {what}, so use one you trust."
    if identity.kind == "git" and (repository := local_path(identity.where)) is not None:
        # 27th hostile pass (part B): a local `git+file://` repository gave no word that its build runs its code,
        # which the same folder as a path gets.
        at = f" at {identity.revision}" if identity.revision else (f" at v{identity.version}" if identity.version
                                                                   else " at its HEAD commit")
        return (f"the git repository {repository} is built{at}; building it runs its setup.py, or the build "
                "backend its pyproject.toml names there (its own code, with your rights), so use a repository you "
                "trust.")
    if identity.kind != "checkout" or identity.tree is None:
        return None
    tree = compared_with_release(identity, wanted_revision).tree
    text = (f"the checkout {identity.where} is {tree.describe(wanted_revision)}; building it runs "
            f"{_checkout_build(Path(identity.where))}, so use a checkout you trust.")
    return (text + (" " + withheld_words(tree.withheld) if tree.withheld else "")
            + (" " + leftover_words(identity.where, tree.leftovers) if tree.leftovers else "")
            + _copy_refusal(identity.where))


def _checkout_build(root: Path) -> str:
    """What building the checkout at `root` runs (`build_backend.build_runs`), from its pyproject.toml read as data."""
    try:
        text = bounded.read_text(root / "pyproject.toml", bounded.MARKER_BYTES)
    except (OSError, ValueError):  # none (v0.1.1 has none), or one that cannot be read: setuptools' setup.py
        text = None
    return build_runs(text, root)


def _copy_refusal(where: str) -> str:
    """The install's refusal of a checkout its build's copy cannot be made of (`tree_copy.copy_problem`: a named pipe
    or device in it, a size past the bound or past TMPDIR's room), as a sentence for the plan's caution, or "".
    31st hostile pass (part A) P1: the plan listed a named pipe as "1 new" and the install then failed on it."""
    try:
        problem = copy_problem(Path(where), room_in=tempfile.gettempdir(), outcome="so `install` refuses it (exit 2)")
    except OSError:
        return ""
    return f" {problem[0].upper()}{problem[1:]}" if problem else ""


def withheld_words(withheld: tuple[str, ...]) -> str:
    """The new files of a checkout a build could import but its copy leaves out, named as left out: a compiled
    `wheel.pyc` at the top was imported by setuptools' build, as root, while the plan called the checkout identical
    (28th hostile pass (part B) P10); it now counts as new, and the copy every build reads
    (`source_copy.folder_copy`) holds no `*.pyc` and no `.eggs/`, even under `--force`."""
    one = len(withheld) == 1
    shown = ", ".join(withheld[:3]) + (f" and {len(withheld) - 3} more" if len(withheld) > 3 else "")
    return (f"The build leaves out {'that' if one else 'these'} {len(withheld)} new file{'' if one else 's'} "
            f"({shown}): compiled modules and setuptools' .eggs/ could be imported by the build, and no build "
            "needs them.")


def leftover_words(folder: str, leftovers: tuple[str, ...]) -> str:
    """What an earlier build left in checkout `folder`, named as that and apart from its changes, whether a build
    uses it, and the command that clears it (walk 25 #6: a stale `build/lib` read as "9 new" files, with no word on
    whether they mattered). Every build — the install's, the bundle's — is of a copy without them
    (`source_copy.folder_copy`); a build in the folder itself would pack what `build/lib` holds, stale files
    included (pip and uv both, checked with a stale `build/lib`)."""

    shown = ", ".join(leftovers[:3]) + (f" and {len(leftovers) - 3} more" if len(leftovers) > 3 else "")
    said = (f"It also holds what an earlier build left ({shown}), counted apart from its changes and not used when "
            "building (the wizard builds from a copy without them)")
    if not os.access(folder, os.W_OK):
        # Walk 27 #4: a lab admin's read-only checkout got a `git clean` its reader cannot run, for files no build
        # uses: said as harmless, no command.
        return f"{said}."
    names = " ".join(shell_word(name.rstrip("/")) for name in leftovers)
    where = shell_word(folder)
    clear = (f"git -C {where} clean -xdf -- {names}" if (Path(folder) / ".git").exists()
             else f"cd {where} && rm -rf -- {names}")
    return f"{said}; to clear them: {clear}."


def source_name(recipe_source: str) -> str:
    """The distribution a recipe's GraphCast source installs: `graphcast`, or `weathernext` for v0.3.0."""
    try:
        return str(canonicalize_name(Requirement(recipe_source).name))
    except InvalidRequirement:
        return "graphcast"


def fetched_from_words(recipe) -> str | None:
    """Where a recipe's GraphCast itself comes from, when that is a remote host rather than a package index, and
    what is asked for where that host does not answer; None for a local or index source. Walk 23
    #3: the README called the v0.2 stack "all from PyPI" and the recipe list said "fits this machine", while v0.2's
    GraphCast is fetched from GitHub and, on a server without GitHub, the plan then asked for a v0.2 checkout. Both
    faces' recipe lists show this sentence, made here; no network is asked (the plan asks, and says the answer)."""
    host = source_host(recipe.graphcast.source)
    if host is None:
        return None
    name, version = source_name(recipe.graphcast.source), recipe.graphcast.version
    name = {"graphcast": "GraphCast", "weathernext": "WeatherNext"}.get(name, name)
    return (f"{name} {version} itself is fetched from {host}, not from PyPI: where {host} does not answer, the plan "
            f"asks for a local v{version} checkout (--graphcast-src DIR).")


# --- a wheelhouse ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Wheelhouse:
    folder: str
    wheels: int
    sdists: int
    covered: tuple[str, ...]
    """The recipe's pins (name) that have a file of the pinned version here."""
    missing: tuple[str, ...]
    graphcast: str | None = None
    """A GraphCast file found here (its name), if any."""
    built: tuple[str, ...] = ()
    """Pins this wheelhouse has only as a source archive (`pkg_a-1.0.tar.gz`, no wheel of that version)."""

    def caution(self) -> str | None:
        """The sentence for pins that would be built here: building runs the archive's setup.py (seventh hostile
        pass 12a: a wheelhouse's `pkg_a-1.0.tar.gz` ran its setup.py during an offline install, and the plan said
        only "1 of 1 pins")."""
        if not self.built:
            return None
        names = ", ".join(self.built[:4]) + (f" and {len(self.built) - 4} more" if len(self.built) > 4 else "")
        return (f"{names} {'is' if len(self.built) == 1 else 'are'} here only as source: installing builds "
                "it, which runs its setup.py (its own code, with your rights); use a wheelhouse you trust, or "
                "put wheels there.")

    def summary(self) -> str:
        if not self.wheels and not self.sdists:
            return "no wheels or source archives"
        total = len(self.covered) + len(self.missing)
        text = f"{self.wheels} wheel{'' if self.wheels == 1 else 's'}, {len(self.covered)} of {total} pins"
        return text + (", GraphCast" if self.graphcast else "")

    def describe(self) -> str:
        return f"{self.summary()}: {self.folder}"


def look_at_wheelhouse(folder: str | Path, recipe) -> Wheelhouse:
    """What a `--find-links` folder holds for `recipe`. A missing folder, or one another user could swap
    (`refuse_swappable_source`, the rule `plan` and `install` apply), is a UserError naming it, and nothing in it is
    read. Why here: the app's w read and announced a refused wheelhouse ("1 wheel, 1 of 84 pins") beside the plan
    that refused it (walk 22 #6)."""
    # any spelling uv reads as the folder (`file:/DIR`, `file:DIR` …): the one parser (28th pass (part B) P4)
    place = package_place(str(folder), f"wheelhouse {folder}")
    path = (place if place is not None else Path(expand_home(folder))).absolute()
    if not path.is_dir():
        what = (f"{path.name} is a file; a wheelhouse is the folder that holds the wheels ({path.parent})"
                if path.is_file() else bounded.not_a_folder(path))
        raise UserError(f"wheelhouse {folder}: {what}")
    refuse_swappable_source(f"wheelhouse {folder}", path, "the wheelhouse")
    have: dict[str, set[str]] = {}
    as_wheel: dict[str, set[str]] = {}
    wheels = sdists = 0
    graphcast = None
    try:
        names = package_files(path)
    except OSError as exc:
        raise UserError(f"wheelhouse {folder}: cannot be read ({exc.strerror})") from None
    for filename in names:
        found = _from_filename(filename, filename)
        if found is None:
            continue
        if found.kind == "wheel":
            wheels += 1
            as_wheel.setdefault(found.name or "", set()).add(found.version or "")
        else:
            sdists += 1
        have.setdefault(found.name or "", set()).add(found.version or "")
        if found.name == "graphcast":
            graphcast = filename
    covered, missing, built = [], [], []
    for name, version in recipe.pins.items():
        key = str(canonicalize_name(name))
        if _offers(have.get(key, set()), version):
            covered.append(name)
            if not _offers(as_wheel.get(key, set()), version):
                built.append(name)
        else:
            missing.append(name)
    return Wheelhouse(folder=str(path), wheels=wheels, sdists=sdists, covered=tuple(covered),
                      missing=tuple(missing), graphcast=graphcast, built=tuple(built))


def _offers(versions: set[str], pinned: str) -> bool:
    """Whether one of the file versions found is the pinned one (local version labels aside)."""
    return any(same_version(v.split("+")[0], pinned.split("+")[0]) for v in versions)


def outside_index_problem(recipe, find_links: tuple[str, ...] | list[str],
                          graphcast_src: str | None = None, *, name_source: bool = True) -> str | None:
    """Why `recipe` cannot install (or be locked, or bundled) with these wheelhouses: a pin no index has
    (`outside_index`) that none of the local `find_links` folders holds; None when each is there (or the
    recipe has none). Such a recipe's own source usually lives on GitHub too: without `graphcast_src`, the
    sentence says so (unless `name_source` is False: a lock holds no GraphCast), so a server without GitHub
    is told both things at once."""
    if not recipe.outside_index:
        return None
    covered: set[str] = set()
    for link in find_links:
        if "://" not in link:
            covered.update(look_at_wheelhouse(link, recipe).covered)
    missing = [pin for pin in recipe.outside_index if pin.name not in covered]
    if not missing:
        return None
    pins = recipe.pins
    names = ", ".join(f"{pin.name} {pins.get(pin.name, '')}".strip() for pin in missing)
    builds = " ".join(f"`pip wheel --no-deps -w wheels {shell_word(pin.source)}`" for pin in missing)
    text = (f"recipe {recipe.id} needs {names}, which no package index has (it is on GitHub only): build the "
            f"wheel where GitHub answers ({builds}), bring the folder here and give it with --find-links DIR.")
    host = None if graphcast_src or not name_source else source_host(recipe.graphcast.source)
    if host == "github.com":
        text += (f" {source_name(recipe.graphcast.source)} itself comes from GitHub as well: where GitHub does not "
                 "answer, give a checkout of it with --graphcast-src DIR.")
    return text


def source_host(install_arg: str) -> str | None:
    """The host a remote GraphCast source is fetched from (`github.com`), or None for a local one."""
    url = install_arg.split(" @ ", 1)[-1].strip()
    match = re.match(r"^(?:git\+)?https?://(?:[^@/\s]+@)?([^/\s:]+(?::[0-9]+)?)", url)
    return match.group(1) if match else None


def unreachable_source(install_arg: str, timeout: float = REACH_TIMEOUT) -> str | None:
    """Whether the remote GraphCast source's host answers here (one HEAD request, `timeout` at most): the
    sentence to show before anything downloads when it does not, else None. Why before: an install with
    an unreachable source downloads every package first and fails only at the GraphCast step."""
    host = source_host(install_arg)
    # Asked in the source's own scheme: a lab's plain-http mirror (or a test's) answers no https request.
    scheme = "http" if re.match(r"^(?:git\+)?http://", install_arg.split(" @ ", 1)[-1].strip()) else "https"
    if host is None or reachable(f"{scheme}://{host}/", timeout):
        return None
    return (f"{host} cannot be reached from here, so the GraphCast step would fail after the downloads: give a "
            f"local checkout with --graphcast-src DIR, cloned where {host} answers and "
            "copied over.")


def verdict_for(plan) -> SourceVerdict:
    """The GraphCast source's verdict for a plan, as both faces show it: what its files say, and whether
    its host answered when the plan was made (`Plan.unreachable_source`)."""
    verdict = check_graphcast_source(plan.recipe, plan.graphcast_src, plan.find_links)
    if plan.unreachable_source and verdict.ok:
        verdict = replace(verdict, unreachable=plan.unreachable_source)
    return verdict

