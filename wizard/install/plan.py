"""Turns a recipe into the exact list of commands an install runs — as data, touching nothing.

Why a plan is data: `gc-wizard plan` prints it, `install` hands it to the runner, and the user sees
the same commands either way. Every step is an argv list (never a shell string) with the extra
environment variables it needs and the prompts it may meet; the runner adds the base environment
(and cleans `LD_LIBRARY_PATH`). Building a plan creates no folder, writes no file and runs nothing
but read-only checks (does a `--find-links` folder exist, which pip wheel does it hold).

Steps, for `installer="uv"` (the default: about 10x faster than pip with a warm cache, and its cache
hardlinks so a second environment costs almost no disk):

1. `create-env`: `uv venv --python PY ENV`
2. `install-requirements`: `uv pip install --python ENV/bin/python <pins> [--find-links …] [--offline]`
3. `install-graphcast`: the same with `--no-deps <graphcast source>`

and for `installer="pip"`: `PY -m venv ENV`, then `ENV/bin/python -m pip install --upgrade pip>=24.1`
(the first pip with `--progress-bar raw`, which prints one plain line per progress update instead of
redrawing a bar), then the two installs with `--progress-bar raw`.

Output choices: uv's progress bars redraw several lines with cursor movements that no line
assembler can turn back into text, while its summary lines ("Resolved 42 packages", "+ jax==0.4.23")
print anyway — so uv steps set `UV_NO_PROGRESS=1`. pip gets `--progress-bar raw`, which does print
useful plain lines. Both get `NO_COLOR=1`; pip's version nag is switched off.

`--offline` means: no index, and no remote find-links or extra index URLs (they are dropped from
the commands, with a note) — everything must come from local `--find-links` folders or the
installer's cache. GraphCast's default source is on GitHub, so offline needs `--graphcast-src`.
"""

from __future__ import annotations

import dataclasses
import os
import re
import sys
import urllib.parse
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path
from typing import Any

from packaging.requirements import InvalidRequirement, Requirement
from packaging.utils import parse_wheel_filename
from packaging.version import Version

from wizard import bounded, paths
from wizard.errors import UserError, current_folder_gone
from wizard.install import lock_reach
from wizard.install.add_package import add_package_command
from wizard.install.bundle import MANIFEST, check_bundle, read_manifest
from wizard.install.bundle import WHEELS as BUNDLE_WHEELS
from wizard.install.cache_trust import cache_off, cache_problem, no_cache_words, pip_cache, private_cache
from wizard.install.choices import DEFAULT_INSTALLER, INSTALLERS
from wizard.install.indexes import IndexSetting, index_settings
from wizard.install.linkmode import download_cache, link_mode
from wizard.install.lock_reach import AddedPackage
from wizard.install.lockfile import PYLOCK, check_lock_covers, install_args, lock_format, lock_packages
from wizard.install.package_files import names_pip_cannot_read, wheels_in
from wizard.install.resolution_settings import resolution_notes
from wizard.install.source_env import given_as, kept_origin
from wizard.install.source_places import package_place, refuse_swappable_sources
from wizard.install.source_spelling import local_source_path, source_spelling
from wizard.install.sources import outside_index_problem, unreachable_source
from wizard.install.uv_overrides import uv_overrides
from wizard.option_values import refuse_option_like
from wizard.recipes.alternatives import (
    apply_alternative,
    links_sentence,
    python_download_source,
    python_download_words,
    unreachable_links,
    unreachable_python_download,
)
from wizard.recipes.loader import PromptRule, Recipe
from wizard.recipes.match import python_range_words
from wizard.recipes.pythons import PythonChoice, choose_python, fits, probe_python, requested_python
from wizard.security import expand_home, shell_line, shell_word
from wizard.source_trust import refuse_swappable_destination, refuse_swappable_source
from wizard.uv_tool import uv_bin

MODES = ("new", "in-place")
#: pip learned `--progress-bar raw` in 24.1.
PIP_MIN_FOR_RAW = "24.1"
_URL_RE = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://")
#: uv has no switch that stops it asking; its one question, "replace the existing environment?
#: [y/n]", is answered "n" by `NO_REPLACE` below. (pip's and git's switches are the runner's
#: `NO_INPUT_ENV`, set for unattended runs.)
_UV_ENV = {"UV_NO_PROGRESS": "1", "NO_COLOR": "1"}
_PIP_ENV = {"PIP_DISABLE_PIP_VERSION_CHECK": "1", "PIP_NO_COLOR": "1", "NO_COLOR": "1"}
#: `uv venv` asks before replacing an environment already at the path; a new environment never replaces one.
#: uv prints the question with its default already drawn ("› yes"), then a hint line, and waits; the
#: hint is the line the runner sees last, so the rule matches either.
NO_REPLACE = PromptRule(pattern=r"already exists at .*[Rr]eplace it\?|UV_VENV_CLEAR=1. to skip this prompt",
                        answer="n", why="a new environment never replaces one that is already there")


@dataclass(frozen=True)
class Step:
    name: str
    """Stable id: create-env, upgrade-pip, install-requirements, install-graphcast."""
    title: str
    argv: tuple[str, ...]
    env: dict[str, str] = field(default_factory=dict)
    """Variables added to the runner's base environment for this step."""
    cwd: str | None = None
    """Where the step runs; the installer creates it first (it is the new environment's parent)."""
    prompts: tuple[PromptRule, ...] = ()
    kind: str = "install"
    """"create_env" or "install"."""

    @property
    def display(self) -> str:
        """The command, shell-quoted for display only (it is never run through a shell)."""
        return shell_line(self.argv)

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name, "title": self.title, "kind": self.kind, "argv": list(self.argv),
            "display": self.display, "env": dict(self.env), "cwd": self.cwd,
            "prompts": [p.to_dict() for p in self.prompts],
        }


@dataclass(frozen=True)
class Plan:
    recipe: Recipe
    env_dir: Path
    python: PythonChoice
    installer: str
    steps: tuple[Step, ...]
    disk_gib: float
    mode: str = "new"
    notes: tuple[str, ...] = ()
    installer_reason: str | None = None
    """Why the plan picked this installer when it is not the usual one (also the first of `notes`): the faces show it
    beside the Installer line, where a newcomer looks for it (walk 28 #5), not only among the notes at the end."""
    find_links: tuple[str, ...] = ()
    """Every find-links location the install commands use (the recipe's and the user's)."""
    offline: bool = False
    graphcast_src: str = ""
    """What the GraphCast step installs."""
    lock: str | None = None
    """The hashed lock the packages come from (`--lock FILE`, or a bundle's), instead of the recipe's pins."""
    bundle: str | None = None
    """The offline bundle folder the install uses (`--bundle DIR`)."""
    unreachable_source: str | None = None
    """Why the GraphCast source's host cannot be reached from here (checked when planning), or None."""
    unreachable_links: tuple[str, ...] = ()
    """The recipe's find-links pages that did not answer when the plan was made (`unreachable_links`): the same
    check as the GraphCast source's, for every host the recipe's sources name (walk 24 #1: storage.googleapis.com
    was listed unmarked and the install failed 15 s later, as GitHub's had before walk 18)."""
    download_cache: str | None = None
    """The installer's cache folder, where the packages are downloaded to: uv's, or pip's (its usual ~/.cache/pip, or
    PIP_CACHE_DIR's; walk 27, pip's cache: the plan named uv's only, so a pip user could not tell installs reuse it); None: no
    cache (PIP_NO_CACHE_DIR, UV_NO_CACHE)."""
    no_cache: str | None = None
    """Why there is no download cache, in one sentence with the `unset` that brings it back for a run
    (`cache_trust.no_cache_words`), or None: every package is downloaded again, which the plan says (leftovers of the
    30th hostile pass, item 2)."""
    added_packages: tuple[AddedPackage, ...] = ()
    """What the lock or bundle installs beyond the packages the recipe names (`lock_reach`), each with why."""
    unchecked: str | None = None
    """An unchecked install of this recipe already on disk, in words (`flows.history.unchecked_words`), or None:
    the plan (both faces) and `install` say it first (walk 26 #9)."""

    def retarget(self, env_dir: Path) -> Plan:
        """The same plan building into `env_dir` instead (the install found the planned new folder taken):
        every argument and note that names the planned folder, or a path inside it, names `env_dir`."""
        old, new = str(self.env_dir), str(env_dir)

        def moved(text: str) -> str:
            if text == old or text.startswith(old + "/"):
                return new + text[len(old):]
            return text.replace(f" {old}/", f" {new}/").replace(f" {old} ", f" {new} ")

        steps = tuple(replace(step, argv=tuple(moved(a) for a in step.argv)) for step in self.steps)
        return replace(self, env_dir=Path(env_dir), steps=steps, notes=tuple(moved(n) for n in self.notes))

    def links_sentence(self) -> str | None:
        """Why the packages' step would fail here (`unreachable_links`), with the way that works: the recipe's
        alternative source (walk 24 #1/#2), else a bundle or wheelhouse; None when every page answered."""
        return links_sentence(self.recipe, [link for link in self.unreachable_links if link != self._python_source()])

    def _python_source(self) -> str | None:
        """Where uv downloads this plan's Python from, when it must download one (`python.source` "uv-download")."""
        return python_download_source(cwd=self.env_dir.parent) if self.python.source == "uv-download" else None

    def python_sentence(self) -> str | None:
        """Why creating the environment would fail here: uv must download the Python and its host does not answer
        (one of `unreachable_links`, checked as the wheel pages are), with the fix: a local Python (walk 25 #2)."""
        source = self._python_source()
        if source is None or source not in self.unreachable_links:
            return None
        return python_download_words(urllib.parse.urlsplit(source).hostname or source, self.python.version,
                                     python_range_words(self.recipe.machine.python), self.env_dir.parent)

    def unreachable_reasons(self) -> list[str]:
        """Every source of this plan that cannot be reached from here, in words: what the plan marks with ✗, what
        `install` refuses without --force and what the app's "Install anyway?" asks (one list, walk 24 #1; the
        Python download too, walk 25 #2)."""
        return [text for text in (self.unreachable_source, self.python_sentence(), self.links_sentence()) if text]

    def installer_settings(self) -> list[IndexSetting]:
        """The indexes and find-links pages the user's variables and settings files add (`indexes.index_settings`),
        read from the folder the steps run in; offline only the find-links (no index is asked)."""
        found = index_settings(self.installer, cwd=self.env_dir.parent)
        return [s for s in found if s.kind == "find-links"] if self.offline else found

    def source_refusal(self) -> str | None:
        """The install's refusal of a package source this plan's installer would read that another user could swap
        — a `PIP_FIND_LINKS`/`UV_FIND_LINKS` folder, an index variable's local place, a settings file or a place
        it names — in the install's own sentence (`installer_files.trust_problem`, built once), or None. A settings
        file that is a FIFO, a device or a giant first, by the reader every installer step starts through
        (`installer_files.settings_problem`; 32nd hostile pass (part A) P3: `PIP_CONFIG_FILE=FIFO` was refused by
        `install --installer pip` at once while its plan exited 0 without a word, where uv's plan refused it).

        Why the plan refuses it too (exit 2, as the install does): with `--installer pip` the plan started no pip,
        so it only marked the source "!" and exited 0 while `install --installer pip` refused it, where a uv plan
        refused the same folder as `UV_FIND_LINKS` outright (review of hostile pass 28's notes)."""
        import os  # deferred: only a plan that is reviewed asks

        from wizard.installer_files import settings_problem

        return settings_problem(self.installer, os.environ, self.env_dir.parent)

    def settings_refusal(self) -> str | None:
        """Why the installer's own settings files (or a place they name) may not be used: another user could swap
        them (`installer_files.trust_problem`, the rule the install refuses by before anything runs); None when
        none. The plan shows it with "!", so the plan and the install say the same (24th hostile pass (B) P5)."""
        import os  # deferred: only a plan that is shown asks

        from wizard.installer_files import placement_problem, requirement_problem, settings_problem

        # a UV_OVERRIDE / PIP_REQUIREMENT the install refuses is marked here too (25th hostile pass (part B) P4); a
        # settings file that is a FIFO or a device too, by the install's reader (32nd hostile pass (part A) P3); a
        # PIP_PYTHON / PIP_TARGET too: the plan was silent where the install refused (35th hostile pass (part A) P3)
        return (settings_problem(self.installer, os.environ, self.env_dir.parent)
                or placement_problem(self.installer, os.environ, self.env_dir.parent)
                or requirement_problem(self.installer, os.environ, self.env_dir.parent))

    def temporary_refusal(self) -> str | None:
        """Why `install` would refuse the temporary folder (TMPDIR) before its first step — missing, read-only, full,
        a name uv cannot take, another user's — in the install's own sentence (`private_args.temporary_root_refusal`,
        built once), or None. The plan shows it with "!" (31st hostile pass (part A) P7, (part B) P9: the plan was
        silent, and the pasted install line failed at once)."""
        # deferred: only a plan that is shown asks
        from wizard.install.private_args import temporary_root_refusal

        found = temporary_root_refusal(done="`install` would stop before its first step")
        return None if found is None else f"{found[0][0].upper()}{found[0][1:]}"

    def noexec_sentence(self) -> str | None:
        """Why the environment could not work where it goes (its compiled libraries not load, its python link not be
        followed): its folder is on a file system mounted noexec or nosymfollow (`paths.env_mount_block`, 34th hostile
        pass (part A) P4), with the way out; None when an environment works there.
        The plan (both faces, and `--json`'s `env_noexec`) and the install say it before anything is downloaded
        (31st hostile pass (part A) P2: the whole install ran, then its check failed, and the fix blamed TMPDIR)."""
        found = paths.env_mount_block(self.env_dir)
        if found is None:
            return None
        where, breaks, works = found  # the way out names what the option takes away (noexec's words only for it)
        move = (f"give --env a folder on {works}" if self.mode == "in-place" or not
                str(self.env_dir).startswith(str(paths.state_dir()) + "/")
                else f"point GC_WIZARD_HOME at a folder on {works}, or give --env one")
        return f"{where}: {breaks}; `install` refuses it (exit 2) without --force. To install, {move}."

    def installer_caution(self) -> str | None:
        """Why uv would fail on TLS here where pip works: pip's settings name a `cert` (an HTTPS-inspecting proxy's
        CA) and uv has no matching setting (`installer_files.uv_trust_gap`); None for pip, offline, or no gap.
        Walk 25 #1: the plan chose uv without a word, and the install failed on TLS a second later."""
        if self.installer != "uv" or self.offline:
            return None
        import os  # deferred: only a plan that is shown asks

        from wizard.installer_files import uv_trust_gap

        return uv_trust_gap(os.environ, self.env_dir.parent)

    def to_dict(self) -> dict[str, Any]:
        return {
            "recipe": self.recipe.id,
            "title": self.recipe.title,
            "backend": self.recipe.backend,
            "env": str(self.env_dir),
            "mode": self.mode,
            "python": self.python.to_dict(),
            "installer": self.installer,
            "offline": self.offline,
            "requirements": list(self.recipe.requirements),
            "find_links": list(self.find_links),
            # the indexes and find-links the user's environment and settings files send the installer to
            "indexes": [s.to_dict() for s in self.installer_settings()],
            "settings_refused": self.settings_refusal(),
            "temporary_refused": self.temporary_refusal(),
            "installer_caution": self.installer_caution(),
            "env_noexec": self.noexec_sentence(),
            "graphcast": {**self.recipe.graphcast.to_dict(), "install": self.graphcast_src},
            "runtime_env": dict(self.recipe.runtime_env),
            "steps": [s.to_dict() for s in self.steps],
            "disk_gib": self.disk_gib,
            "notes": list(self.notes),
            "unreachable_source": self.unreachable_source,
            "unreachable_links": list(self.unreachable_links),
            "unreachable_python": self.python_sentence(),
            "lock": self.lock,
            "bundle": self.bundle,
            "added_packages": [a.to_dict() for a in self.added_packages],
            "unchecked": self.unchecked,
            "download_cache": self.download_cache,
            "no_cache": self.no_cache,
        }


def default_env_dir(recipe_id: str, now: datetime | None = None) -> Path:
    """Where a new managed environment for `recipe_id` goes: envs/<recipe-id>-<YYYYmmdd-HHMMSS>, or, when a folder of
    that name is there already (two installs in the same second), the first free `…-<stamp>-2`, `-3` …: a name is one
    environment's, never handed to a second one."""
    stamp = (now or datetime.now()).strftime("%Y%m%d-%H%M%S")
    folder = paths.envs_dir() / f"{recipe_id}-{stamp}"
    count = 2
    while os.path.lexists(folder) and count < 1000:
        folder, count = paths.envs_dir() / f"{recipe_id}-{stamp}-{count}", count + 1
    return folder


def env_has_python(env_dir: Path) -> bool:
    return (env_dir / "bin" / "python").exists()


def resolve_target(env: str | Path | None, recipe_id: str, planned_at: datetime | None = None) -> tuple[Path, str]:
    """(environment folder, mode) for an `--env` value: none -> a new managed one (named by `planned_at`, or now);
    a folder that holds `bin/python` -> "in-place"; a missing or empty folder -> "new" there; anything else is
    refused."""
    if env is None or str(env) == "":
        managed = default_env_dir(recipe_id, planned_at)
        why = paths.uncreatable_env_path(str(managed))
        if why:
            raise UserError(f"cannot make a new environment in the state folder: {why}.")
        return managed, "new"
    why = paths.unusable_env_path(str(env))
    if why:
        raise UserError(f"--env: {why}.")
    env_dir = paths.lasting_path(Path(expand_home(env)).absolute())
    env_dir = _refuse_swappable(env_dir, str(env))
    # Every sentence below quotes the value given, and where it resolves when that differs: `--env /` was refused as
    # "--env /usr" (25th hostile pass (part B) P3).
    shown = str(env) if str(env) == str(env_dir) else f"{env} (that is, {env_dir})"
    # Where it goes, and its lock beside it, must be writable: said by the plan, not first by the install (30th hostile
    # pass (part A) P7: a read-only disk read as "0 GiB free there")
    blocked = paths.write_block_words(env_dir.parent) or (paths.write_block_words(env_dir) if env_dir.is_dir()
                                                           else None)
    if env_has_python(env_dir):
        if blocked:
            raise UserError(f"--env {shown}: {blocked}, so nothing can be installed into it; give an environment you "
                            "can write, or a new folder for a new one.")
        return env_dir, "in-place"
    why = paths.uncreatable_env_path(str(env_dir))
    if why:
        raise UserError(f"--env: {why}.")
    if env_dir.exists() and not env_dir.is_dir():
        raise UserError(f"--env {shown} is a file, not a folder")
    if not env_dir.parent.is_dir():
        # The env's lock sits beside it (`.<name>.gc-wizard.lock`): without this, the missing parent was
        # reported as the state folder not existing (sixth pass 7a).
        what = "is not a folder" if env_dir.parent.exists() else "does not exist"
        raise UserError(f"--env {shown}: its parent folder {env_dir.parent} {what}; make it first "
                        f"(mkdir -p {shell_word(str(env_dir.parent))}) or give a folder inside one that exists.")
    if env_dir.is_dir() and any(env_dir.iterdir()):
        raise UserError(f"--env {shown} is a folder that is neither empty nor a Python environment "
                        "(no bin/python); give a new folder or an existing environment")
    if blocked:
        raise UserError(f"--env {shown}: {blocked}, so the environment cannot be made there; give a folder on a "
                        "disk you can write.")
    return env_dir, "new"


def source_url(source: str) -> str:
    """The URL in a "name @ URL" requirement, or the text itself."""
    try:
        return Requirement(source).url or source
    except InvalidRequirement:
        return source


def _is_url(text: str) -> bool:
    return bool(_URL_RE.match(text))


def _refuse_swappable(env_dir: Path, given: str | None = None) -> Path:
    """Refuse an `--env` that another local user could rename away and replace (`paths.swappable_ancestor`: a
    folder on the way, up to /, writable by every user without the sticky bit). Seventh hostile pass 7c: an env
    made in a 0777 shared folder became current without a word; fourth pass P7: the same under a 0777
    grandparent. A new env and an existing one (in-place) alike. Then source_trust's rule for a place written
    (twenty-third pass, part B, P2: an --env through another user's link became current): returns where the env
    is once the links on its way are followed, the path made, run and recorded, so a later flip moves nothing.

    That place is the folder named, resolved as a path (`paths.env_bin_elsewhere`): it was taken from where
    `bin/python` led, so an `--env` whose `bin` was a link into another venv changed that venv in place and made
    it current, and `--env /` (whose `bin` leads to /usr/bin) was named "/usr" (25th hostile pass (part B) P3)."""
    shared = paths.swappable_ancestor(env_dir)
    if shared is None:
        refuse_swappable_destination(f"--env {env_dir}", env_dir / "bin" / "python",
                                     harm="make and record the environment there",
                                     way_out="choose a folder only you can write")
        named = Path(os.path.realpath(env_dir))
        elsewhere = paths.env_bin_elsewhere(named)
        if elsewhere:
            raise UserError(f"--env {given or env_dir}: {elsewhere}, so it is not an environment of its own and an "
                            "install there would change another folder; give an environment's own folder, or a new "
                            "or empty one. Nothing was changed.")
        return named
    folder, why = shared
    where = f"its parent folder {folder}" if folder == env_dir.parent else f"the folder {folder} above it"
    raise UserError(f"--env {env_dir}: {where} {why}, so any local user could rename the environment "
                    "and put their own in its place, which your next `python` would run; choose a folder only you "
                    "can write (e.g. under your home or the state folder).")


def check_sources(graphcast_src: str | None, find_links: tuple[str, ...] | list[str]) -> None:
    """Refuse a GraphCast source or wheelhouse that cannot work, before anything is shown or built.

    The app takes both at start-up (`gc-wizard --graphcast-src DIR`): a mistyped path is said there,
    in the terminal, not three screens later on the Plan screen.
    """
    if graphcast_src:
        check_graphcast_src(graphcast_src)
    refuse_swappable_sources(None, _user_find_links(find_links), graphcast_src)


def _user_find_links(values: tuple[str, ...] | list[str]) -> list[str]:
    out = []
    for value in values:
        refuse_option_like("--find-links", value)
        named = given_as(value, "--find-links")[0]  # or its variable, kept on (38th hostile pass (part B) P3)
        odd = unusable_characters(value)
        if odd:
            raise UserError(f"{given_as(value, '--find-links', repr(value))[0]} {odd}; move or link the wheelhouse to a plain path.")
        # one parser for every spelling of a place (`source_places.package_place`): `file:/DIR` was taken for a
        # folder named `file:` under the working one, "no such folder" (28th hostile pass (part B) P4)
        place = package_place(value, named)
        if place is None or _is_url(value):  # remote, or a `file://` URL the installer is given as written
            out.append(value)
            continue
        folder = place.absolute()
        if not folder.is_dir():
            what = (f"{folder.name} is a file; --find-links takes the folder that holds the wheels ({folder.parent})"
                    if folder.is_file() else bounded.not_a_folder(folder))
            raise UserError(f"{named}: {what}")
        # The bytes on disk are judged, not Python's decoding of them: under `LC_ALL=C PYTHONUTF8=0` a UTF-8 name
        # (`whé`) arrives as lone surrogates and was refused, and a bundle made a minute earlier with it (22nd pass P6).
        shown = paths.not_utf8(str(folder))
        if shown is not None:  # said before an env is made: uv refuses such an argument after it
            given = (f"the bundle {paths.not_utf8(str(folder.parent)) or folder.parent}" if folder.name == BUNDLE_WHEELS and (folder.parent / MANIFEST).is_file()
                     else named)
            raise UserError(f"{given}: its path {shown} has a byte that is not UTF-8, which uv cannot take; "
                            "move or link it to a plain path.")
        out.append(kept_origin(value, str(folder)))
    return out


def graphcast_install_arg(recipe: Recipe, graphcast_src: str | None) -> str:
    """What the GraphCast step installs: a local folder, a wheel/sdist path, a pip URL, or the recipe's.

    The messages name "the GraphCast source" (the app's g key and the `--graphcast-src` flag give the
    same value) and, for the usual slip of giving the `graphcast/` package folder inside a checkout,
    the folder that is the checkout.
    """
    return check_graphcast_src(graphcast_src) if graphcast_src else recipe.graphcast.source


def unusable_characters(value: str) -> str | None:
    """Why a source path or URL cannot go to uv or pip as it is, or None: a newline, tab or other character
    that is not printable (uv's requirement parser splits on a newline, after the env was made — sixth pass
    5l — and it breaks the plan's lines). A byte that is not UTF-8 has its own sentence further on."""
    odd = next((c for c in value if not c.isprintable() and c != " " and not "\ud800" <= c <= "\udfff"), None)
    return None if odd is None else f"holds the character {odd!r}, which no installer takes in a path"


def check_graphcast_src(graphcast_src: str) -> str:
    """A user's GraphCast source as the installer takes it, or one UserError sentence saying why not."""
    refuse_option_like("--graphcast-src", graphcast_src)
    given = given_as(graphcast_src, "--graphcast-src", "")[0].rstrip(" =")  # or its variable (38th pass (part B) P3)
    odd = unusable_characters(graphcast_src)
    if odd:
        raise UserError(f"The GraphCast source ({given}) {graphcast_src!r} {odd}; move or link it to a "
                        "plain path.")
    # A folder or file on this machine in any spelling (`file:///DIR`, `file://localhost/DIR`, `FILE:///DIR`,
    # `graphcast @ file:/DIR`) is given on as its plain path, so every reader after this one (the comparison, the
    # private build copy, the record and its digest) meets one form: `file:///DIR` was built in place and
    # `file://localhost/DIR` was never compared (31st hostile pass (part B) P5).
    try:
        local = source_spelling(graphcast_src).local
    except ValueError as exc:
        raise UserError(f"The GraphCast source ({given}) {graphcast_src}: {exc}; give a folder or file on "
                        "this machine, or an https:// or git+https:// URL.") from None
    if local is None:
        if any(c.isspace() for c in graphcast_src.replace(" @ ", "@")):
            raise UserError(f"The GraphCast source ({given}) '{graphcast_src}' holds whitespace.")
        return graphcast_src
    path = local.absolute()
    if path.is_dir():
        if not _is_project(path):
            hint = next((f" Its parent {parent} is one: give that folder." for parent in path.parents[:2]
                         if _is_project(parent)), " Give the folder you cloned GraphCast into.")
            raise UserError(f"The GraphCast source ({given}) {path} is a folder without setup.py or "
                            f"pyproject.toml, so it is not a GraphCast checkout.{hint}")
        return kept_origin(graphcast_src, str(path))
    if path.is_file():
        if not path.name.endswith((".whl", ".tar.gz", ".zip", ".tgz")):
            raise UserError(f"The GraphCast source ({given}) {path} is neither a wheel (.whl) nor an "
                            "sdist (.tar.gz, .zip).")
        return kept_origin(graphcast_src, str(path))
    if path.exists():  # a FIFO or a device: neither a checkout nor an archive (`bounded.not_regular` says which)
        raise UserError(f"The GraphCast source ({given}) {path}: {bounded.not_regular(path)} or folder.")
    raise UserError(f"The GraphCast source ({given}) {graphcast_src}: no such folder or file, and not a "
                    "URL (git+https://…, https://…).")


def _is_project(folder: Path) -> bool:
    """Whether `folder` holds a Python project's build file (what pip and uv install from a folder)."""
    return any((folder / name).is_file() for name in ("setup.py", "pyproject.toml", "setup.cfg"))


def _has_recent_pip_wheel(find_links: list[str]) -> bool:
    for location in find_links:
        if _is_url(location):
            continue
        for wheel in wheels_in(location, "pip-*.whl"):
            try:
                if parse_wheel_filename(wheel.name)[1] >= Version(PIP_MIN_FOR_RAW):
                    return True
            except ValueError:
                continue
    return False


@dataclass(frozen=True)
class _Sources:
    """Where the packages come from: find-links folders/URLs, extra indexes, and their installer flags."""

    links: list[str]
    index_urls: list[str]

    @property
    def flags(self) -> list[str]:
        flags: list[str] = []
        for link in self.links:
            flags += ["--find-links", link]
        for url in self.index_urls:
            flags += ["--extra-index-url", url]
        return flags


@dataclass(frozen=True)
class _Packages:
    """What the requirements step installs: the recipe's pins, or a hashed lock's files."""

    args: list[str]
    title: str
    lock: Path | None = None
    pylock: bool = False
    """The lock is a pylock.toml (only uv installs it, as a preview feature)."""


@dataclass(frozen=True)
class _Target:
    """The environment the steps build or change, and the interpreter it gets."""

    env_dir: Path
    python: PythonChoice
    mode: str
    offline: bool
    cache: Path | None = None
    """uv's download cache (`download_cache`), asked once per plan."""

    @property
    def env_py(self) -> str:
        return str(self.env_dir / "bin" / "python")

    @property
    def cwd(self) -> str:
        return str(self.env_dir.parent)


def _check_choices(installer: str, mode: str) -> None:
    if installer not in INSTALLERS:
        raise UserError(f"installer '{installer}' is not one of: {', '.join(INSTALLERS)}")
    if mode not in MODES:
        raise UserError(f"mode '{mode}' is not one of: {', '.join(MODES)}")


def _sources(recipe: Recipe, find_links: tuple[str, ...] | list[str], offline: bool, notes: list[str]) -> _Sources:
    """The recipe's locations (offline: the remote ones left out, with a note) plus the user's folders."""
    links = list(recipe.find_links)
    index_urls = list(recipe.extra_index_urls)
    if offline:
        remote = [u for u in links + index_urls if _is_url(u) and not u.startswith("file://")]
        if remote:
            notes.append("offline: these remote locations are left out and their packages must be in a "
                         f"--find-links folder or the installer's cache: {', '.join(remote)}")
        links = [u for u in links if u not in remote]
        index_urls = [u for u in index_urls if u not in remote]
    links += [u for u in _user_find_links(find_links) if u not in links]
    return _Sources(links, index_urls)


def _graphcast_arg(recipe: Recipe, graphcast_src: str | None, offline: bool, notes: list[str]) -> str:
    """What the GraphCast step installs; offline, the recipe's remote source is refused."""
    gc_arg = graphcast_install_arg(recipe, graphcast_src)
    default_url = source_url(recipe.graphcast.source)
    if offline and not graphcast_src and local_source_path(default_url) is None:
        raise UserError("--offline needs --graphcast-src (a local GraphCast checkout, wheel or sdist): the "
                        f"recipe's GraphCast comes from {default_url}")
    if offline and not gc_arg.endswith(".whl"):
        notes.append("offline: building GraphCast from source needs setuptools and wheel in a --find-links "
                     "folder or the installer's cache")
    return gc_arg


def _packages(recipe: Recipe, lock: Path | str | None, installer: str, notes: list[str]) -> _Packages:
    """The recipe's pinned requirements, or — with `--lock` — the lock's hashed files."""
    if lock is None:
        return _Packages(list(recipe.requirements), f"Install the {len(recipe.requirements)} pinned packages")
    lock = Path(expand_home(lock)).absolute()
    pylock = lock_format(lock) == PYLOCK
    if installer == "pip" and pylock:
        raise UserError(f"--lock {lock.name}: pip cannot install a pylock.toml; use the uv installer, or a "
                        "requirements lock (gc-wizard lock RECIPE --out FILE.txt)")
    notes.append(f"packages come from the lock {lock}; a file whose hash differs from the lock is refused.")
    return _Packages(install_args(lock), f"Install the {len(lock_packages(lock))} locked packages (every file's "
                     "hash checked)", lock, pylock)


def _create_title(python: PythonChoice) -> str:
    return f"Create the environment (Python {python.version or python.executable})"


def _uv_steps(recipe: Recipe, target: _Target, sources: _Sources, packages: _Packages, gc_arg: str,
              notes: list[str]) -> list[Step]:
    """uv: `uv venv` (new environments), then `uv pip install` the packages, then GraphCast alone."""
    uv = uv_bin()
    offline_flags = ["--offline"] if target.offline else []
    link_env, link_note = link_mode(uv, target.env_dir, cache=target.cache, cwd=target.cwd)
    if packages.pylock:
        link_env["UV_PREVIEW_FEATURES"] = "pylock"  # uv calls reading pylock.toml a preview; no warning
    if link_note:
        notes.append(link_note)
    override_notes = uv_overrides(os.environ)[1]  # the runner sets them for every uv step; said here first
    notes.extend(override_notes)
    steps: list[Step] = []
    if target.mode == "new":
        steps.append(Step(
            name="create-env", title=_create_title(target.python),
            argv=(uv, "venv", "--python", target.python.creates_from, *offline_flags, str(target.env_dir)),
            env=dict(_UV_ENV), cwd=target.cwd, kind="create_env", prompts=(NO_REPLACE,),
        ))
    install = [uv, "pip", "install", "--python", target.env_py]
    steps.append(Step(
        name="install-requirements", title=packages.title,
        argv=(*install, *sources.flags, *offline_flags, *packages.args),
        env={**_UV_ENV, **link_env}, cwd=target.cwd, prompts=recipe.prompts,
    ))
    steps.append(Step(
        name="install-graphcast", title=f"Install GraphCast {recipe.graphcast.version} (--no-deps)",
        argv=(*install, "--no-deps", *sources.flags, *offline_flags, gc_arg),
        env={**_UV_ENV, **link_env}, cwd=target.cwd, prompts=recipe.prompts,
    ))
    notes.append("uv environments have no pip of their own; add packages later with "
                 f"`{add_package_command(target.env_dir, pip=False)}`.")
    return steps


def _uv_can_read_every_argument(steps: list[Step], gc_arg: str) -> None:
    """Refuse, before anything runs, an argument uv would refuse only when its step comes: uv takes no
    argument with a byte that is not UTF-8 (Python holds one as a lone surrogate). A GraphCast source,
    a lock or an interpreter in such a folder otherwise failed with uv's bare "invalid UTF-8 was detected"
    after every package had downloaded; one sweep over the steps covers each path a plan can carry."""
    for step in steps:
        for arg in (*step.argv, *step.env.values()):
            shown = paths.not_utf8(arg)
            if shown is None:
                continue
            what = (f"The GraphCast source (--graphcast-src) {shown}" if arg == gc_arg
                    else f"{shown} (in the step '{step.title}')")
            raise UserError(f"{what} has a byte that is not UTF-8, which uv cannot take; move or link it to a "
                            "plain path (or install with --installer pip).")


def _pip_progress(target: _Target, sources: _Sources, notes: list[str]) -> list[str] | None:
    """pip's progress switch; None when pip is upgraded first for `raw` (offline without a new pip: off)."""
    if target.offline and not _has_recent_pip_wheel(sources.links):
        notes.append(f"offline with no pip>={PIP_MIN_FOR_RAW} wheel in the --find-links folders: pip is not "
                     "upgraded, so it shows no download progress")
        return ["--progress-bar", "off"]
    return None


def _pip_steps(recipe: Recipe, target: _Target, sources: _Sources, packages: _Packages, gc_arg: str,
               notes: list[str]) -> list[Step]:
    """pip: `python -m venv` (new environments), pip upgraded for plain progress lines where it can be,
    then the packages, then GraphCast alone."""
    if not target.python.has_venv and target.mode == "new":
        raise UserError(f"{target.python.executable} has no working venv module, which the pip installer needs; "
                        "use the uv installer, or another Python")
    pip = [target.env_py, "-m", "pip", "install"]
    offline_flags = ["--no-index"] if target.offline else []
    steps: list[Step] = []
    if target.mode == "new":
        steps.append(Step(
            name="create-env", title=_create_title(target.python),
            argv=(target.python.creates_from, "-m", "venv", str(target.env_dir)), env=dict(_PIP_ENV),
            cwd=target.cwd, kind="create_env",
        ))
    progress = _pip_progress(target, sources, notes)
    if progress is None:
        progress = ["--progress-bar", "raw"]
        steps.append(Step(
            name="upgrade-pip", title=f"Upgrade pip to {PIP_MIN_FOR_RAW} or newer (for plain progress lines)",
            argv=(*pip, "--progress-bar", "off", "--upgrade", *sources.flags, *offline_flags,
                  f"pip>={PIP_MIN_FOR_RAW}"),
            env=dict(_PIP_ENV), cwd=target.cwd, prompts=recipe.prompts,
        ))
    steps.append(Step(
        name="install-requirements", title=packages.title,
        argv=(*pip, *progress, *sources.flags, *offline_flags, *packages.args),
        env=dict(_PIP_ENV), cwd=target.cwd, prompts=recipe.prompts,
    ))
    steps.append(Step(
        name="install-graphcast", title=f"Install GraphCast {recipe.graphcast.version} (--no-deps)",
        argv=(*pip, *progress, "--no-deps", *sources.flags, *offline_flags, gc_arg),
        env=dict(_PIP_ENV), cwd=target.cwd, prompts=recipe.prompts,
    ))
    return steps


def _closing_notes(recipe: Recipe, target: _Target, graphcast_src: str | None, gc_arg: str,
                   notes: list[str]) -> None:
    """The in-place warning first; then a Python download and a GraphCast source other than the recipe's."""
    if target.mode == "in-place":
        notes.insert(0, f"in-place: installing into the existing environment {target.env_dir} is slower and less "
                        "safe than a new environment — packages already there may clash with the pins, a failure "
                        "can leave it half-changed, and there is no rollback to its previous state.")
    if target.python.source == "uv-download":
        notes.append(f"uv will download Python {target.python.version} first (needs internet access).")
    if graphcast_src:
        notes.append(f"GraphCast comes from {gc_arg} instead of the recipe's {source_url(recipe.graphcast.source)}.")


def build_plan(
    recipe: Recipe,
    *,
    env_dir: Path | str,
    python: PythonChoice | str,
    installer: str = "uv",
    find_links: tuple[str, ...] | list[str] = (),
    offline: bool = False,
    graphcast_src: str | None = None,
    mode: str = "new",
    lock: Path | str | None = None,
    bundle: Path | str | None = None,
) -> Plan:
    """The steps that install `recipe` into `env_dir` (see the module docstring); runs nothing.

    In order: the sources (offline leaves remote ones out), what GraphCast comes from, the packages
    (pins or a lock), the installer's steps, then the notes that frame them. Each part may add a note.
    """
    _check_choices(installer, mode)
    if isinstance(python, str):
        python = PythonChoice(executable=python, version="", source="path")
    target = _Target(Path(expand_home(env_dir)).absolute(), python, mode, offline)
    notes: list[str] = []
    sources = _sources(recipe, find_links, offline, notes)
    unreadable = names_pip_cannot_read(sources.links, installer, refused="Nothing was installed.")
    if unreadable and installer == "pip":  # pip's traceback, after the environment was made (27th pass (A) P5)
        raise UserError(unreadable)
    if unreadable:
        notes.append(unreadable)
    gc_arg = _graphcast_arg(recipe, graphcast_src, offline, notes)
    packages = _packages(recipe, lock, installer, notes)
    # The installer's cache passes the swap rule, or a private one is used (25th hostile pass (part B) P1).
    cache_env, cache, cache_note = private_cache(installer, download_cache(uv_bin()) if installer == "uv"
                                                 else pip_cache(os.environ))
    if cache_note:
        notes.append(cache_note)
    unusable = cache_problem(installer, cache, {**os.environ, **cache_env})  # 27th hostile pass (part A) P1
    if unusable:
        raise UserError(unusable)
    if installer == "uv":
        target = replace(target, cache=cache)
    make_steps = _uv_steps if installer == "uv" else _pip_steps
    steps = [replace(step, env={**step.env, **cache_env})
             for step in make_steps(recipe, target, sources, packages, gc_arg, notes)]
    if installer == "uv":
        _uv_can_read_every_argument(steps, gc_arg)
    # a UV_REQUIRE_HASHES, a pip.conf's `pre`: passed on to every step, so said here (32nd hostile pass (B) P2)
    notes.extend(resolution_notes(installer, os.environ, target.cwd))
    _closing_notes(recipe, target, graphcast_src, gc_arg, notes)
    return Plan(
        recipe=recipe, env_dir=target.env_dir, python=python, installer=installer, steps=tuple(steps),
        disk_gib=recipe.disk_gib, mode=mode, notes=tuple(notes), find_links=tuple(sources.links), offline=offline,
        graphcast_src=gc_arg, lock=str(packages.lock) if packages.lock is not None else None,
        bundle=str(bundle) if bundle is not None else None,
        download_cache=str(cache) if cache is not None else None,
        no_cache=_no_cache(installer, cache, target),
    )


def _no_cache(installer: str, cache: Path | None, target: _Target) -> str | None:
    """The plan's sentence for a download cache the user turned off (`cache_off`); None while there is one."""
    where = None if cache is not None else cache_off(installer, os.environ, target.cwd)
    return no_cache_words(installer, where) if where else None


def python_for(recipe: Recipe, env_dir: Path, mode: str, installer: str, offline: bool,
               request: str | None = None) -> PythonChoice:
    """The interpreter the environment gets: the env's own in place, else the one `--python` names (`request`),
    else one that fits the recipe."""
    if mode == "in-place":
        # asked of the env's python (run) and installed into: the guard of both (24th hostile pass (part B) P7)
        paths.guard_env_python(env_dir)
        found = probe_python(str(env_dir / "bin" / "python"), "env")
        if found is None:
            raise UserError(f"--env {env_dir}: bin/python does not run")
        if not fits(recipe.machine.python, found.version):
            raise UserError(f"--env {env_dir} has Python {found.version}, but recipe {recipe.id} needs "
                            f"Python {recipe.machine.python}; give a new folder instead")
        return found
    if request:
        return requested_python(recipe, request, need_venv=installer == "pip",
                                allow_download=installer == "uv" and not offline)
    return choose_python(recipe, need_venv=installer == "pip",
                         allow_download=installer == "uv" and not offline)


def default_installer(offline: bool, cwd: Path, lock: object = None,
                      app_key: str | None = "i") -> tuple[str, str | None]:
    """The installer a plan (or a bundle) takes when none was chosen, and why in one line when it is not
    `DEFAULT_INSTALLER`.

    One place for every face and command (walk 27 #2, walk 33 #2): where pip has a `cert` (an HTTPS-inspecting
    proxy's CA) and uv has no matching setting (`installer_files.pip_trust_gap`), uv fails on TLS a second into the
    install while the plan itself warned so; pip is then the default. Offline, from a bundle or a lock, nothing is
    fetched over TLS (and pip cannot install a pylock), so uv stays. `--installer uv` (the app's i) still forces uv.
    `app_key`: the app's key for the choice, None for a command the app does not run (`bundle`)."""
    if offline or lock is not None:
        return DEFAULT_INSTALLER, None
    from wizard.installer_files import pip_trust_gap  # deferred: only a plan asks

    gap = pip_trust_gap(os.environ, cwd)
    if gap is None:
        return DEFAULT_INSTALLER, None
    cert, said = gap
    app = f" (in the app: {app_key})" if app_key else ""
    return "pip", (f"Installer pip, not uv: pip here trusts the certificates in {cert} ({said}) and uv reads no pip "
                   f"settings, so uv would fail on TLS; `--installer uv`{app} still picks uv.")


def plan_install(recipe: Recipe, *, env: str | Path | None = None, installer: str | None = None,
                 find_links: tuple[str, ...] = (), offline: bool = False,
                 graphcast_src: str | None = None, lock: str | Path | None = None,
                 bundle: str | Path | None = None, alternative: str | None = None,
                 python: str | None = None, allow_extra_packages: bool = False,
                 planned_at: datetime | None = None) -> Plan:
    """Everything between "this recipe, these options" and the steps: target, mode, Python, plan.

    `planned_at`: the time a new managed environment's folder is named by (`default_env_dir`); None, now.

    `lock`: install the packages from this hashed lock (`gc-wizard lock`), checked to pin the recipe's
    versions. `bundle`: an offline bundle folder (`gc-wizard bundle`): checked first (recipe, hashes,
    Python, this machine's wheel tags), then everything comes from it with no network at all.
    `alternative` takes the recipe's alternative source of that id (wizard.recipes.alternatives); without
    one, a recipe whose wheel page does not answer gets a note offering its alternatives. `python` is
    `--python X.Y|PATH` (wizard.recipes.pythons.requested_python); a bundle brings its own Python version.
    A lock's or bundle's packages beyond the recipe's are named in the plan, and one no requirement reaches is
    refused unless `allow_extra_packages` (`lock_reach`). `installer` None: `default_installer` picks it here.
    """
    gone = current_folder_gone(absolute_paths=False, undone="nothing was built")
    if gone is not None:  # uv needs one, and fails on it after the build (34th hostile pass (part A) P1)
        raise UserError(f"{gone}.")
    if installer is None:
        where = Path(expand_home(env)).absolute() if env else paths.envs_dir()
        installer, why = default_installer(offline or bundle is not None, where.parent if env else where, lock)
        plan = plan_install(recipe, env=env, installer=installer, find_links=find_links, offline=offline,
                            graphcast_src=graphcast_src, lock=lock, bundle=bundle, alternative=alternative,
                            python=python, allow_extra_packages=allow_extra_packages, planned_at=planned_at)
        return plan if why is None else dataclasses.replace(plan, notes=(why, *plan.notes), installer_reason=why)
    if alternative:
        recipe = apply_alternative(recipe, alternative)
    # Every https page the recipe's sources name is asked, as GraphCast's host is below (walk 24 #1); offline or from
    # a bundle no page is read. Said once, on the page's own line in the Sources block (no note besides it).
    pages = () if offline or bundle is not None else tuple(unreachable_links(recipe))
    # Before anything is read from them; each is named where its links lead from now on, so a link changed after
    # the check changes nothing uv reads (twenty-second hostile pass P1).
    recipe, find_links, graphcast_src = refuse_swappable_sources(recipe, tuple(find_links), graphcast_src)
    env_dir, mode = resolve_target(env, recipe.id, planned_at)
    if bundle is not None:
        if lock is not None:
            raise UserError("--bundle brings its own lock; give --bundle or --lock, not both")
        bundle = refuse_swappable_source(f"--bundle {bundle}", Path(expand_home(bundle)), "the bundle")
        wanted = str(read_manifest(Path(expand_home(bundle)).absolute()).get("python", ""))
        narrowed = recipe
        if re.fullmatch(r"3\.[0-9]+", wanted):  # build from the Python the bundle's wheels are for
            narrowed = dataclasses.replace(recipe, machine=dataclasses.replace(
                recipe.machine, python=f"=={wanted}.*"))
        try:
            python = python_for(narrowed, env_dir, mode, installer, True)
        except UserError:
            python = python_for(recipe, env_dir, mode, installer, True)
        checked = check_bundle(bundle, recipe, python.version)
        added = _added(f"--bundle {checked.root}", recipe, checked.lock, (str(checked.wheels),), python,
                       allow_extra_packages)
        plan = build_plan(recipe, env_dir=env_dir, python=python, installer=installer,
                          find_links=(*find_links, str(checked.wheels)), offline=True,
                          graphcast_src=str(checked.graphcast_wheel), mode=mode, lock=checked.lock,
                          bundle=checked.root)
        return _with_added(plan, f"--bundle {checked.root}", added)
    problem = outside_index_problem(recipe, tuple(find_links), graphcast_src)
    if problem:
        raise UserError(problem)
    if lock is not None:
        lock = Path(expand_home(lock)).absolute()
        try:
            why = bounded.not_regular(lock)
        except OSError:
            raise UserError(f"--lock {lock}: no such file.") from None
        if why is not None:  # a FIFO or /dev/zero: say what it is, never "no such file"
            raise UserError(f"--lock {lock}: {why}; a lock is a small text file (as `gc-wizard lock RECIPE` writes it).")
        lock = refuse_swappable_source(f"--lock {lock}", lock, "the lock")
        check_lock_covers(recipe, lock)
    chosen = python_for(recipe, env_dir, mode, installer, offline, python)
    if chosen.source == "uv-download" and not offline:  # one more host the install needs (walk 25 #2)
        pages = (*pages, *unreachable_python_download(cwd=env_dir.parent))
    added = () if lock is None else _added(f"--lock {lock}", recipe, lock, (*find_links, *recipe.find_links),
                                            chosen, allow_extra_packages)
    plan = build_plan(recipe, env_dir=env_dir, python=chosen, installer=installer, find_links=tuple(find_links),
                      offline=offline, graphcast_src=graphcast_src, mode=mode, lock=lock)
    plan = _with_added(plan, f"--lock {lock}", added)
    # Its own field, not a note: both faces show it once, on the GraphCast source's line (and `install` refuses
    # with it); as a note too it was said twice (walk 19 #10).
    unreachable = None if offline else unreachable_source(plan.graphcast_src)
    return dataclasses.replace(plan, unreachable_source=unreachable, unreachable_links=pages)


def _added(what: str, recipe: Recipe, lock: Path, folders: tuple[str, ...], python: PythonChoice,
           allow: bool) -> tuple[AddedPackage, ...]:
    """The lock's packages beyond the recipe's (`lock_reach`); UserError, before anything is made, for one that
    no requirement reaches, unless `allow` (`--allow-extra-packages`)."""
    version = python.version or ".".join(map(str, sys.version_info[:3]))
    added = lock_reach.added_packages(recipe, lock_packages(lock), lock_reach.lock_wheels(lock, folders), version)
    refused = lock_reach.refusal(what, recipe, added)
    if refused and not allow:
        raise UserError(refused)
    return added


def _with_added(plan: Plan, what: str, added: tuple[AddedPackage, ...]) -> Plan:
    """`plan` naming the added packages: its field (for --json) and a note (what both faces print)."""
    words = lock_reach.note(what, added)
    if words is None:
        return plan
    return dataclasses.replace(plan, added_packages=added, notes=(*plan.notes, words))
