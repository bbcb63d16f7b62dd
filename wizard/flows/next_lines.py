"""The "Next:" lines both faces print after an install, with the steps the user already took left out.

Kept apart from `describe` because it reads the user's Jupyter and module folders (`after.follow`):
the app's first frame imports `describe`, and must not pay for that.
"""

from __future__ import annotations

from wizard.after.follow import steps_done
from wizard.after.kernel import kernel_lines
from wizard.after.next_steps import next_step_lines
from wizard.flows.results import InstallResult
from wizard.wrap import wrap


def next_lines(result: InstallResult, assets: str | None = None, unreachable: str | None = None) -> list[str]:
    """What to type next for the env `result` made current (its kernel and module steps once taken: gone);
    `unreachable`: the forecast files' host when it does not answer here (`forecast_reach.AssetsReach`). First, the
    kernel and module file that making it current moved from another environment (walk 24 #7)."""
    moved = [row for line in result.moved for row in wrap(line, 80, "", "  ")]
    return [*moved, *next_lines_for(result.recipe, result.env, assets, unreachable, slurm=result.slurm)]


def next_lines_for(recipe: str, env: str | None, assets: str | None = None, unreachable: str | None = None,
                   *, slurm=None) -> list[str]:
    """What to type next for `env` of `recipe` (the current one, which a rollback may have changed since);
    `slurm`: the `SlurmTarget` the install's check ran on, which its forecast line names again (walk 24 #3)."""
    # A kernel k wrote lives outside the state folder: said where the rest is summed up (walk 22 #10).
    kernels = [row for line in kernel_lines(env) for row in wrap(line, 80, "", "  ")]
    return [*next_step_lines(recipe, assets, done=steps_done(env) if env else frozenset(), unreachable=unreachable,
                             slurm=slurm, bundled=bundled_assets(env)),
            *kernels]


def use_heads(env: str | None) -> tuple[str, str]:
    """The Done screen's words over its kernel and module commands, as the files say now (`steps_done`, which the
    "Next:" lines read too): "press k to register it" only while no kernel runs `env`, and "press m to write" only
    while its recipe's module file does not load it. Walk 39 #4: the screen said "The Jupyter kernel … now runs" the
    new environment, then "press k to register it as a kernel", and a newcomer wondered whether k was still needed."""
    done = steps_done(env) if env else frozenset()
    kernel = ("Use it in Jupyter: it is registered as a kernel already; k registers it again, as does:"
              if "kernel" in done else "Use it in Jupyter: press k to register it as a kernel, or run:")
    module = ("Use it with Lmod: its module file loads it already; m writes it again, as does:"
              if "module" in done else "Use it with Lmod: press m to write a module file, or run:")
    return kernel, module


def bundled_assets(env: str | None) -> str | None:
    """The forecast files of the bundle `env` was installed from, as `forecast` finds them with no --assets
    (`after.forecast.assets_place`, the one resolver of that place); None for any other env.
    Why here, below both faces' "Next:" lines: walk 26 #1 — after `install --bundle` from a bundle holding assets/,
    the lines said to go and build `bundle --with-assets` on a machine with internet."""
    if not env:
        return None
    # Deferred: the forecast module is read only where these lines are drawn.
    from wizard.after.forecast import assets_place
    from wizard.install.envs import Env

    try:
        place, why = assets_place(Env.at(env))
        return place if why == "bundle" else None
    except (OSError, ValueError):
        return None
