"""Keeps the Jupyter kernel and the Lmod module the wizard wrote for a recipe on that recipe's current env.

Why: the Done screen and the exit "Next:" lines say `module load graphcast/<recipe>` and name the
kernel `gc-wizard-<recipe>`. Both names come from the recipe, not the env folder, so after a second
install of the same recipe (or a rollback to an older env of it) the file written for the first env
would still load that env — the line the wizard just printed would start the wrong environment, and
a notebook would keep running the broken one the user rolled back from. When an env becomes current,
the default-named kernel and module file the wizard wrote for its recipe are re-pointed at it, and the
faces say so in one line each. Anything the user wrote or named themselves is left alone, and so is
a kernel the new env cannot serve (no ipykernel): that one is named, with the fix. So is a kernel or module that
runs an environment of another gc-wizard state folder (another `GC_WIZARD_HOME`, a lab-mate's copy of the set-up):
the names are per recipe, not per state folder, and an install here silently took over the kernel another set-up
had registered (the seventeenth walk's first problem).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from wizard.after.kernel import default_kernel_name, gc_wizard_kernels, has_ipykernel, kernel_install
from wizard.after.module import module_env, module_install, module_name
from wizard.after.next_steps import modules_dir
from wizard.after.target import made_by_this_state
from wizard.errors import OperationFailed, UserError
from wizard.install.envs import read_marker
from wizard.security import expand_home
from wizard.tree_walk import walk


def follow_current(env: str | os.PathLike[str], *, environ: Mapping[str, str] | None = None) -> list[str]:
    """Re-point the wizard's default-named kernel and module file for `env`'s recipe at `env`.

    Returns one plain line per file changed or left pointing elsewhere (empty when there was nothing
    to do). Never raises for a file it cannot rewrite: the install or rollback has already succeeded,
    so a kernel folder that is not writable becomes a line, not a failure.
    """
    env_path = Path(os.path.abspath(expand_home(str(env))))
    marker = read_marker(env_path)
    if marker is None or not marker.recipe:
        return []
    return _follow_kernel(env_path, marker, environ) + _follow_module(env_path, marker, environ)


def follow_preview(env: str | os.PathLike[str], *, environ: Mapping[str, str] | None = None,
                   command: str = "gc-wizard") -> list[str]:
    """What `follow_current(env)` will change, said before it happens: one line per kernel or module file that
    moves to `env`, and a warning when the kernel moves off an environment made with the notebook's packages onto
    one without them. Changes nothing.

    Why: a rollback moved the kernel `gc-wizard-jax0.4.23-cpu` off the `--with-notebook` env the walker had set it
    up on, onto one without google-cloud-storage and ipywidgets, and the confirm dialog said only "Nothing is
    deleted" (walk 23 #1). The rollback question of both faces (`describe_change`) says it."""
    env_path = Path(os.path.abspath(expand_home(str(env))))
    marker = read_marker(env_path)
    if marker is None or not marker.recipe:
        return []
    lines = []
    name = default_kernel_name(env_path, marker)
    stale = [k for k in gc_wizard_kernels(environ) if k["name"] == name and k["env"] != str(env_path)]
    if stale and made_by_this_state(stale[0]["env"]) and has_ipykernel(env_path):
        old = stale[0]["env"]
        lines.append(f"The Jupyter kernel {name} will then run {env_path} (it runs {old} now).")
        before = read_marker(Path(old))
        if before is not None and (before.extra or {}).get("notebook") and not (marker.extra or {}).get("notebook"):
            lines.append(f"! {env_path} lacks the notebook's own packages (google-cloud-storage, ipywidgets) that "
                         f"{old} has, so the notebook stops at its imports cell in that kernel; afterwards "
                         f"`{command} kernel install --env {old}` puts the kernel back there.")
    module = module_name(env_path, marker.to_dict())
    loads = module_env(modules_dir() / f"{module}.lua")
    if loads is not None and loads != str(env_path) and made_by_this_state(loads):
        lines.append(f"The module {module} will then load {env_path} (it loads {loads} now).")
    return lines + staying_lines(env_path, marker, environ, command)


def followed_lines(env: str | os.PathLike[str], *, environ: Mapping[str, str] | None = None,
                   command: str = "gc-wizard") -> list[str]:
    """After `env` became current (a rollback): what follows it and what stays, as the files say now — activate
    follows; the kernel and module of its recipe run whichever environment their files name; those of another recipe
    stay, with the command that adds this env's (`staying_lines`, the words of the rollback question).

    Why read, not remembered: the Done screen after a rollback kept the install's own "The Jupyter kernel … now runs
    <the install's env>" while kernel.json had followed the rollback to the other one (walk 27 #8)."""
    env_path = Path(os.path.abspath(expand_home(str(env))))
    lines = [f"`{command} activate` follows the current environment: it loads {env_path}."]
    marker = read_marker(env_path)
    if marker is None or not marker.recipe:
        return lines
    name = default_kernel_name(env_path, marker)
    kernel = next((k for k in gc_wizard_kernels(environ) if k["name"] == name), None)
    if kernel is not None:
        lines.append(f"The Jupyter kernel {name} runs {env_path} (it followed)." if kernel["env"] == str(env_path)
                     else f"The Jupyter kernel {name} runs {kernel['env']}, not {env_path}; `{command} kernel "
                          "install` registers this one.")
    module = module_name(env_path, marker.to_dict())
    loads = module_env(modules_dir() / f"{module}.lua")
    if loads is not None:
        lines.append(f"The module {module} loads {env_path} (it followed)." if loads == str(env_path)
                     else f"The module {module} loads {loads}, not {env_path}; `{command} module install` writes "
                          "this one.")
    return lines + staying_lines(env_path, marker, environ, command)


def staying_lines(env_path: Path, marker, environ: Mapping[str, str] | None = None,
                  command: str = "gc-wizard") -> list[str]:
    """The wizard's kernels and module files of another recipe, which stay on their environments when `env_path`
    becomes current, and the command that adds this one's — when none runs `env_path` and none of its recipe's
    name would move to it. Said in the rollback question of both faces (`follow_preview`). Walk 26 #11: after a rollback from jax0.12.0.1-cpu to jax0.4.23-cpu the kernel
    `gc-wizard-jax0.12.0.1-cpu` and `graphcast/jax0.12.0.1-cpu.lua` stayed on the 0.12 env and nothing said so."""
    lines = []
    name = default_kernel_name(env_path, marker)
    kernels = gc_wizard_kernels(environ)
    if not any(k["env"] == str(env_path) or k["name"] == name for k in kernels):
        others = [k["name"] for k in kernels if made_by_this_state(k["env"])]
        if others:
            lines.append(f"The Jupyter kernel{'s' if len(others) > 1 else ''} {', '.join(others)} stay"
                         f"{'' if len(others) > 1 else 's'} on {'their' if len(others) > 1 else 'its'} own "
                         f"environment{'s' if len(others) > 1 else ''}; `{command} kernel install` adds one for "
                         f"{env_path}.")
    module = module_name(env_path, marker.to_dict())
    root = modules_dir()
    if module_env(root / f"{module}.lua") is None:
        files = _module_files(root)
        others = [str(f.relative_to(root))[:-4] for f in files[:20]
                  if (loads := module_env(f)) is not None and loads != str(env_path) and made_by_this_state(loads)]
        if others:
            lines.append(f"The module{'s' if len(others) > 1 else ''} {', '.join(others)} stay"
                         f"{'' if len(others) > 1 else 's'} on {'their' if len(others) > 1 else 'its'} own "
                         f"environment{'s' if len(others) > 1 else ''}; `{command} module install` adds one for "
                         f"{env_path}.")
    return lines


def _module_files(root: Path, limit: int = 20, entries: int = 10_000) -> list[Path]:
    """The first `limit` module files (`*.lua`) under `root`, in name order folder by folder, looking at no more than
    `entries` entries: a walk without recursion (`tree_walk`), so a folder chain 1,200 deep under `modules/` no longer
    stops `rollback` on a RecursionError, and a huge tree is not listed whole for 20 names (33rd hostile pass (part A)
    P1)."""
    found: list[Path] = []
    seen = 0
    for folder, dirs, names in walk(root):
        dirs.sort()
        for name in sorted(names):
            seen += 1
            if name.endswith(".lua") and len(found) < limit:
                found.append(Path(folder) / name)
        seen += len(dirs)
        if len(found) >= limit or seen > entries:
            break
    return found


def _follow_kernel(env_path: Path, marker, environ: Mapping[str, str] | None) -> list[str]:
    name = default_kernel_name(env_path, marker)
    stale = [k for k in gc_wizard_kernels(environ) if k["name"] == name and k["env"] != str(env_path)]
    if not stale:
        return []
    old = stale[0]["env"]
    if not made_by_this_state(old):
        return [f"The Jupyter kernel {name} runs {old}, an environment this state folder did not make; it was left "
                f"as it is (`gc-wizard kernel install` registers this one beside it, as {name}-2)."]
    if not has_ipykernel(env_path):
        return [f"The Jupyter kernel {name} still runs {old}: {env_path} has no ipykernel "
                f"(install it there, then `gc-wizard kernel install`)."]
    try:
        kernel_install(env_path, name, environ=environ)
    except (UserError, OperationFailed) as exc:
        return [f"The Jupyter kernel {name} still runs {old}: {exc}"]
    return [f"The Jupyter kernel {name} now runs {env_path} (it ran {old})."]


def _follow_module(env_path: Path, marker, environ: Mapping[str, str] | None) -> list[str]:
    name = module_name(env_path, marker.to_dict())
    target = modules_dir() / f"{name}.lua"
    old = module_env(target)
    if old is None or old == str(env_path):
        return []
    if not made_by_this_state(old):
        return [f"The module {name} loads {old}, an environment this state folder did not make; it was left as it "
                f"is (`gc-wizard module install --dir DIR` writes this one to another folder)."]
    try:
        module_install(env_path, environ=environ)
    except (UserError, OperationFailed) as exc:
        return [f"The module {name} still loads {old}: {exc}"]
    return [f"The module {name} now loads {env_path} (it loaded {old})."]


def steps_done(env: str | os.PathLike[str], *, environ: Mapping[str, str] | None = None) -> frozenset[str]:
    """Which of the "Next:" set-up steps `env` has already: "kernel" (a gc-wizard kernel runs it) and
    "module" (the default module file for its recipe loads it) — for `next_steps.next_step_lines(done=…)`."""
    env_path = Path(os.path.abspath(expand_home(str(env))))
    done = set()
    if any(k["env"] == str(env_path) for k in gc_wizard_kernels(environ)):
        done.add("kernel")
    marker = read_marker(env_path)
    if marker is not None and module_env(modules_dir() / f"{module_name(env_path, marker.to_dict())}.lua") \
            == str(env_path):
        done.add("module")
    return frozenset(done)
