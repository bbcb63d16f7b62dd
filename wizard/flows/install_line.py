"""The one builder of every `gc-wizard install` line the wizard prints.

A module of its own (it was in `describe_plan`): the session's bundle-first recommendation needs it too, and
`describe_plan` reads the session's plan through `review`, so importing it from there made a circle (review).
"""

from __future__ import annotations

from pathlib import Path

from wizard.install.bundle import WHEELS as BUNDLE_WHEELS
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
