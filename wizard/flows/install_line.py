"""The one builder of every `gc-wizard install` line the wizard prints.

A module of its own (it was in `describe_plan`): the session's bundle-first recommendation needs it too, and
`describe_plan` reads the session's plan through `review`, so importing it from there made a circle (review).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from wizard.flows.history import remembered_bundle, remembered_graphcast
from wizard.install.bundle import WHEELS as BUNDLE_WHEELS
from wizard.install.choices import DEFAULT_INSTALLER
from wizard.install.options import InstallOptions
from wizard.install.plan import Plan
from wizard.paths import builtin_recipes_dir, user_recipes_dir
from wizard.security import shell_word


def install_line(command: str, recipe_id: str, *, recipes_dir: str | None = None, env: str | None = None,
                 installer: str | None = None, python: str | None = None, alternative: str | None = None,
                 with_notebook: bool = False, allow_extra_packages: bool = False, bundle: str | None = None,
                 lock: str | None = None, graphcast_src: str | None = None, find_links: list[str] | tuple = (),
                 offline: bool = False, slurm=None) -> str:
    """The one builder of every `install` line gc-wizard prints (the plan's "To run it:", rollback's advice from a
    history entry's recorded sources): each value quoted for a shell, `--bundle` standing for its own GraphCast
    wheel, wheels and offline install.

    Why one: rollback's refusals built their own `gc-wizard install RECIPE --graphcast-src FILE`, which dropped the
    entry's `--recipes-dir`, `--find-links`, `--offline`, `--bundle` and installer, so the advised line failed
    with "unknown recipe" (24th hostile pass (part B) P2)."""
    line = f"{command} install {shell_word(recipe_id)}"
    line += f" --recipes-dir {shell_word(recipes_dir)}" if recipes_dir else ""
    line += f" --env {shell_word(env)}" if env else ""
    line += f" --installer {shell_word(installer)}" if installer else ""
    line += f" --python {shell_word(python)}" if python else ""
    line += f" --alternative {shell_word(alternative)}" if alternative else ""
    line += " --with-notebook" if with_notebook else ""
    line += " --allow-extra-packages" if allow_extra_packages else ""
    if bundle:  # the bundle brings its GraphCast wheel, its wheels and the offline install itself
        bundled = str(Path(bundle) / BUNDLE_WHEELS)
        line += f" --bundle {shell_word(bundle)}"
        line += "".join(f" --find-links {shell_word(link)}" for link in find_links if link != bundled)
    else:
        line += f" --lock {shell_word(lock)}" if lock else ""
        line += f" --graphcast-src {shell_word(graphcast_src)}" if graphcast_src else ""
        line += "".join(f" --find-links {shell_word(link)}" for link in find_links)
        line += " --offline" if offline else ""
    return line + (slurm.flags() if slurm is not None else "")


def install_command(plan: Plan, command: str, slurm=None, given: InstallOptions | None = None) -> str:
    """The `install` line that runs exactly this plan: the folder, sources, lock or bundle and Slurm target it was made
    with, and the choices `given` to `plan` (installer, Python, notebook packages, alternative source).

    Why `given`: the line dropped `--installer pip`, `--python`, `--with-notebook` and a new `--env` folder, so pasting
    it installed something else than the plan shown (walk 22 #1: uv instead of pip, another folder, no notebook)."""
    recipe = plan.recipe
    folder = Path(recipe.path).parent
    return install_line(
        command, recipe.id,
        # A recipe from --recipes-dir: the pasted line found no such recipe without it (twelfth hostile pass #58).
        recipes_dir=str(folder) if folder not in (builtin_recipes_dir(), user_recipes_dir()) else None,
        env=str(plan.env_dir) if plan.mode == "in-place" or (given is not None and given.env) else None,
        # a chosen uv is written out where uv is not what the plan would pick (walk 27 #2: pip's default there)
        installer=plan.installer if given is not None and given.installer is not None and (
            given.installer != DEFAULT_INSTALLER or plan.installer_caution() is not None) else None,
        python=given.python if given is not None else None,
        alternative=given.alternative if given is not None else None,
        with_notebook=bool(given is not None and given.with_notebook),
        allow_extra_packages=bool(given is not None and given.allow_extra_packages),
        bundle=plan.bundle, lock=plan.lock,
        graphcast_src=plan.graphcast_src if plan.graphcast_src != recipe.graphcast.source else None,
        find_links=[str(link) for link in plan.find_links if link not in recipe.find_links],
        offline=plan.offline, slurm=slurm)


#: The placeholder of an install line whose GraphCast source must be given and none is known (`install_to_run`).
SOURCE_PLACEHOLDER = "DIR"


def install_to_run(plan: Plan, command: str, slurm=None, given: InstallOptions | None = None) -> tuple[str, bool]:
    """The whole `install` line to paste for `plan`, and whether its `--graphcast-src` is the placeholder DIR.

    Where the plan's GraphCast host does not answer, the line `install_command` builds is refused (exit 2); the
    line to paste gives instead the bundle or local GraphCast the history remembers (the source the app's plan starts
    from, `flows.history.last_local_graphcast`), else `--graphcast-src DIR`, which the caller says how to fill.
    Walk 38 #3: the refusal gave a `--graphcast-src PATH` fragment to add by hand, and `plan`'s "To run it:" printed
    the line it said install would refuse, though the plan named the checkout the last install used."""
    if not plan.unreachable_source or plan.bundle:
        return install_command(plan, command, slurm, given), False
    bundled = remembered_bundle(plan.recipe.id)
    if bundled:  # its GraphCast wheel installs nothing without the bundle's wheels (walk 26 #7)
        return install_command(replace(plan, bundle=bundled[0]), command, slurm, given), False
    found = remembered_graphcast(plan.recipe.graphcast.version)
    source = found[0] if found and found[0] != plan.graphcast_src else SOURCE_PLACEHOLDER
    return (install_command(replace(plan, graphcast_src=source), command, slurm, given),
            source == SOURCE_PLACEHOLDER)
