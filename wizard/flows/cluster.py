"""The lab admin's use cases: a hashed lock of a recipe, an offline bundle (with the forecast's files if
asked), for `gc-wizard lock` and `gc-wizard bundle`. (`module install` is `flows.after_install`'s.)

The work is in `wizard.install.lockfile`, `wizard.install.bundle` and `wizard.after.bundle_assets`; here
are the steps that combine them, so the face only parses and prints.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from wizard.after.bundle_assets import add_assets as add_assets
from wizard.after.bundle_assets import check_bundle_assets as check_bundle_assets
from wizard.install.bundle import RECIPES, discard_bundle, finish_bundle, made_folder
from wizard.install.bundle import check_bundle_out as check_bundle_out
from wizard.install.bundle import make_bundle as make_bundle
from wizard.install.bundle import read_manifest as read_manifest
from wizard.install.lockfile import check_lock_out as check_lock_out
from wizard.install.lockfile import check_python_version
from wizard.install.lockfile import compile_lock as compile_lock
from wizard.install.lockfile import default_lock_name as default_lock_name
from wizard.install.no_space import NoRoom, no_room_inside, no_room_sentence
from wizard.install.plan import default_installer, graphcast_install_arg
from wizard.install.sources import checkout_caution, read_identity
from wizard.recipes.alternatives import apply_alternative
from wizard.recipes.loader import Recipe, get_recipe, recipes_dir_for
from wizard.security import expand_home

__all__ = ["BundleMade", "add_assets", "app_bundle_refusal", "bundle_logged", "bundle_source", "check_bundle_out",
           "check_lock_out", "compile_lock", "default_lock_name", "make_bundle", "make_offline_bundle", "python_for",
           "read_manifest", "recipe_to_pin"]


def recipe_to_pin(recipe_id: str, recipes_dirs: Sequence[str] | None, alternative: str | None = None) -> Recipe:
    """The recipe a lock or bundle is made of; with `alternative`, the same id with its packages from that
    alternative source."""
    recipe = get_recipe(recipe_id, recipes_dirs)
    return apply_alternative(recipe, alternative) if alternative else recipe


def python_for(recipe: Recipe, python: str | None) -> str:
    """The Python version to resolve for: the one asked (refused if the recipe does not take it), or the
    recipe's default."""
    return check_python_version(recipe, python)


def bundle_source(recipe: Recipe, graphcast_src: str | None) -> tuple[str, str | None]:
    """What the bundle builds GraphCast from (a path or URL, without the `name @ ` prefix), and the caution
    a checkout carries (its state, and that building it runs its setup.py), as the plan and install say it."""
    source = graphcast_install_arg(recipe, graphcast_src)
    if " @ " in source:
        source = source.split(" @ ", 1)[1]
    caution = checkout_caution(read_identity(source, recipe_source=recipe.graphcast.source), recipe.graphcast.revision)
    return source, caution


def bundle_logged(recipe: Recipe, out, **kwargs) -> tuple[dict, str]:
    """`make_bundle`, its installer's lines (pip's downloads, setuptools' deprecation banners while GraphCast's
    wheel is built) kept in a log of the state folder rather than on the terminal; returns the manifest and the log.
    Why: walk 24 #9, `bundle` printed 332 lines with "License classifiers are deprecated" three times and its
    result at the very end. A failure still says the installer's last lines (`make_bundle`'s error), then the log."""
    # Deferred: only `bundle` writes such a log.
    from wizard import paths
    from wizard.errors import OperationFailed
    from wizard.install.runner import StepLog

    log = paths.new_log("bundle")
    with StepLog(log) as writer:
        try:
            manifest = make_bundle(recipe, out, on_line=writer.line, **kwargs)
        except OperationFailed as exc:
            if type(exc) is not OperationFailed:  # a full disk's own sentence (NoRoom) stays as it is
                raise
            raise OperationFailed(f"{exc}\nFull log: {log}") from None
    return manifest, str(log)


def for_python() -> str:
    """The interpreter a bundle's `wizard/` wheels are for, in words (`self_wheels.for_python`)."""
    from wizard.install.self_wheels import for_python as words  # deferred: only after a bundle was made

    return words()


def install_wizard_line(bundle: str) -> str:
    """The one command that installs gc-wizard from a bundle's `wizard/` folder (`self_wheels`)."""
    from wizard.install.self_wheels import (
        install_wizard_line as line,  # deferred: only after a bundle was made
    )

    return line(bundle)


def add_wizard(out: Path) -> list[str]:
    """gc-wizard's own wheel and its run-time dependencies' wheels in the bundle's `wizard/` folder, each hashed into
    its manifest (walk 26 #2: the offline machine could not install gc-wizard itself); returns their names."""
    from wizard.install.bundle import add_files  # deferred: only when a bundle is made
    from wizard.install.self_wheels import add_wizard_wheels

    names = add_wizard_wheels(out)
    add_files(out, names)
    return names


@dataclass(frozen=True)
class BundleMade:
    """What `make_offline_bundle` made, for the face to render: the folder, its manifest (as written last), the log
    of the installer's lines, gc-wizard's own wheels (empty without them) and whether the forecast's files came."""

    out: Path
    manifest: dict
    installer_log: str
    wizard_wheels: list[str]
    assets: bool

    @property
    def mib(self) -> float:
        return sum(f["size"] for f in self.manifest["files"]) / 2**20


def make_offline_bundle(recipe: Recipe, out: Path, *, python: str, graphcast_src: str | None,
                        find_links: Sequence[str], installer: str | None = None, with_wizard: bool = True, with_assets: bool = False,
                        assets: str | None = None, model: str | None = None, dataset: str | None = None,
                        say: Callable[[str], None] = lambda _line: None) -> BundleMade:
    """`gc-wizard bundle`'s use case, in order: the forecast's files chosen (a bad --model refused) and the folder
    checked before anything downloads, the recipe's wheels and GraphCast's (`bundle_logged`), gc-wizard's own
    wheels unless left out, then the forecast's files if asked; `say` gets each step's line as it starts.

    Why here: the command sequenced these steps itself, where a face only parses, calls a use case and renders
    (review: the layering docs/architecture.md sets out)."""
    if with_assets:
        check_bundle_assets(assets, model=model, dataset=dataset)
    made = made_folder(out)  # refused before "==> Bundling … into OUT" is said; what a failure removes
    say(f"==> Bundling recipe {recipe.id} for Python {sys.platform}/{python} into {out}")
    source, caution = bundle_source(recipe, graphcast_src)
    if caution:  # the bundle carries what this checkout builds into: said as the plan and install say it
        say(f"    ! {caution}")
    # The installer's trust as an install takes it, by the one rule (walk 33 #2: bundle always resolved with uv as
    # it was, and failed on TLS where the plan on the same machine had chosen pip for that very reason).
    if installer is None:
        installer, why = default_installer(False, Path.cwd(), app_key=None)
        if why:
            say(f"    {why}")
    say("==> Downloading the recipe's wheels and building GraphCast as a wheel (the installer's lines go to the log "
        "named below)")
    more = with_wizard or with_assets
    manifest, installer_log = bundle_logged(recipe, out, python_version=python, graphcast_src=source,
                                            find_links=list(find_links), installer=installer, more_to_come=more)
    wizard_wheels: list[str] = []
    try:  # a failure here leaves nothing `install --bundle` takes (33rd hostile pass (part B) P2)
        if with_wizard:
            say(f"==> Adding gc-wizard itself and what it needs, as wheels for {for_python()}")
            wizard_wheels = add_wizard(out)
            manifest = read_manifest(out, making=True)
        if with_assets:
            say("==> Adding the forecast's files (model, example batch, statistics)")
            for name in add_assets(out, source=assets, model=model, dataset=dataset):
                say(f"    {name}")
            manifest = read_manifest(out, making=True)
        finish_bundle(out)
    except BaseException as exc:
        if more:
            # a write in --out that found no room, said of the bundle as its wheels' and lock's are; asked before the
            # clean-up frees the room (38th hostile pass (part A) P4: the state folder and /tmp were blamed)
            why = no_room_inside(exc, Path(expand_home(out)).absolute())
            discard_bundle(out, made)
            if why:
                raise NoRoom(no_room_sentence("the bundle", Path(expand_home(out)).absolute(), why), why) from None
        raise
    return BundleMade(out=out, manifest=manifest, installer_log=installer_log, wizard_wheels=wizard_wheels,
                      assets=with_assets)


#: How bundle's closing lines name the bundle's folder: where it will be once copied, not where it was built.
BUNDLE_PLACEHOLDER = "DIR"


def bundle_install_line(command: str, recipe: Recipe, out: Path, shown: str | None = None) -> str:
    """bundle's "On the offline machine:" line, by the one builder of install lines: `--bundle OUT`, and for a recipe
    from a `--recipes-dir`, the copy of it the bundle carries (`bundle.RECIPES`), so the line runs there as printed.
    `shown`: the name the line gives the folder (`BUNDLE_PLACEHOLDER`), as the bundle is used where it is copied to
    (walk 26 #1: the line named the build machine's path, untrue on the offline machine)."""
    from wizard.flows.install_line import install_line  # deferred: only after a bundle was made

    carried = out / RECIPES
    from_folder = recipes_dir_for(recipe) is not None and (carried / f"{recipe.id}.yaml").is_file()
    named = Path(shown) if shown else out
    return install_line(command, recipe.id, recipes_dir=str(named / RECIPES) if from_folder else None,
                        bundle=str(named))


#: A recipe id as the refusal below may put it into a command: a manifest is a file from elsewhere, never trusted.
_RECIPE_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._+-]{0,99}")


def app_bundle_refusal(bundle: str) -> str:
    """Why the app does not take `--bundle DIR`, with the install line that does: the recipe the bundle's manifest
    names (RECIPE when it names none), and the bundle's own copy of a recipe this machine does not know. A folder
    that is no bundle is said too, in `read_manifest`'s words.

    Why refused rather than taken: the app's Plan screen changes sources (g, w, o) and recipes freely, while a
    bundle is one recipe's hashed, offline install, and `install --bundle` does that in one line. Why the recipe:
    walk 26 #13 — the refusal said `gc-wizard install RECIPE --bundle …` though the manifest names the recipe."""
    from wizard.errors import UserError
    from wizard.flows.install_line import install_line  # deferred: only on this refusal

    folder = Path(expand_home(bundle)).absolute()
    problem = ""
    recipe_id, recipes_dir = "RECIPE", None
    try:
        named = read_manifest(folder).get("recipe")
    except UserError as exc:
        named, problem = None, f" {exc}"
    if isinstance(named, str) and _RECIPE_ID.fullmatch(named):
        recipe_id = named
        carried = folder / RECIPES / f"{named}.yaml"
        try:
            get_recipe(named)
        except UserError:  # not a recipe here: the bundle's own copy of it (`bundle.RECIPES`), when it has one
            recipes_dir = str(Path(bundle) / RECIPES) if carried.is_file() else None
    line = install_line("gc-wizard", recipe_id, recipes_dir=recipes_dir, bundle=bundle)
    return (f"the terminal app does not install from a bundle; run `{line}` instead (offline, every wheel's hash "
            f"checked).{problem}")


def lock_install_lines(command: str, recipe: Recipe, lock: str, alternative: str | None = None,
                       graphcast_src: str | None = None, find_links: Sequence[str] = (), *,
                       offline: bool = False) -> list[str]:
    """`lock`'s "Install from it:" line, by the one builder of install lines (`describe_plan.install_line`), with
    the GraphCast source the install will need: the one given (GC_WIZARD_GRAPHCAST_SRC), else, when the recipe's
    own source's host does not answer here, the local one the last install of that GraphCast version used; with no
    such source, the line gives --graphcast-src DIR and a second line says what DIR is. Walk 24 #5: the printed line, pasted on a server
    without GitHub, was refused by the plan's own GraphCast ✗ (as walk 22 #2's plan line was)."""
    from wizard.flows.history import last_local_graphcast
    from wizard.flows.install_line import (  # deferred: only after a lock was written
        SOURCE_PLACEHOLDER,
        install_line,
    )
    from wizard.install.sources import unreachable_source

    why = None
    if not graphcast_src:
        why = unreachable_source(recipe.graphcast.source)
        if why:
            graphcast_src = last_local_graphcast(recipe.graphcast.version)
    placeholder = bool(why and not graphcast_src)  # walk 38 #3: the whole line, DIR said, not a flag to add
    line = install_line(command, recipe.id, recipes_dir=recipes_dir_for(recipe), alternative=alternative,
                        lock=lock, graphcast_src=SOURCE_PLACEHOLDER if placeholder else graphcast_src,
                        find_links=list(find_links), offline=offline)
    if placeholder:
        return [line, f"(put a local copy of GraphCast in place of {SOURCE_PLACEHOLDER}: {why})"]
    return [line]
