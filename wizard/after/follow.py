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
import re
from collections.abc import Mapping
from pathlib import Path

from wizard import bounded
from wizard.after.kernel import default_kernel_name, gc_wizard_kernels, has_ipykernel, kernel_install
from wizard.after.module import module_install, module_name
from wizard.after.next_steps import modules_dir
from wizard.errors import OperationFailed, UserError, WizardError
from wizard.history.store import load_history
from wizard.install.envs import in_envs_folder, read_marker

#: The module file's own first lines, as `module.module_text` writes them.
_MODULE_ENV = re.compile(r'^local env = "((?:[^"\\]|\\.)*)"$', re.MULTILINE)
_MODULE_OURS = "-- written by gc-wizard "


def follow_current(env: str | os.PathLike[str], *, environ: Mapping[str, str] | None = None) -> list[str]:
    """Re-point the wizard's default-named kernel and module file for `env`'s recipe at `env`.

    Returns one plain line per file changed or left pointing elsewhere (empty when there was nothing
    to do). Never raises for a file it cannot rewrite: the install or rollback has already succeeded,
    so a kernel folder that is not writable becomes a line, not a failure.
    """
    env_path = Path(os.path.abspath(os.path.expanduser(str(env))))
    marker = read_marker(env_path)
    if marker is None or not marker.recipe:
        return []
    return _follow_kernel(env_path, marker, environ) + _follow_module(env_path, marker, environ)


def _follow_kernel(env_path: Path, marker, environ: Mapping[str, str] | None) -> list[str]:
    name = default_kernel_name(env_path, marker)
    stale = [k for k in gc_wizard_kernels(environ) if k["name"] == name and k["env"] != str(env_path)]
    if not stale:
        return []
    old = stale[0]["env"]
    if not _of_this_state(old):
        return [f"The Jupyter kernel {name} runs {old}, an environment this state folder did not make; it was left "
                f"as it is (`gc-wizard kernel install --name {name}-2` registers this one beside it)."]
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
    old = _module_env(target)
    if old is None or old == str(env_path):
        return []
    if not _of_this_state(old):
        return [f"The module {name} loads {old}, an environment this state folder did not make; it was left as it "
                f"is (`gc-wizard module install --dir DIR` writes this one to another folder)."]
    try:
        module_install(env_path, environ=environ)
    except (UserError, OperationFailed) as exc:
        return [f"The module {name} still loads {old}: {exc}"]
    return [f"The module {name} now loads {env_path} (it loaded {old})."]


def _of_this_state(env: str | None) -> bool:
    """Whether `env` is one of this state folder's environments: under its `envs/`, or an entry of its history (an
    install with `--env` elsewhere). The history cannot be read: only `envs/` counts."""
    if not env:
        return False
    if in_envs_folder(env):
        return True
    try:
        entries = load_history().entries
    except (OSError, WizardError):
        return False
    path = os.path.abspath(env)
    return any(entry.env and os.path.abspath(entry.env) == path for entry in entries)


def _module_env(target: Path) -> str | None:
    """The env a module file the wizard wrote loads; None when there is none or someone else wrote it."""
    try:
        text = bounded.read_text(target, 1024 * 1024)
    except (OSError, ValueError, bounded.ParseLimitError):
        return None
    found = _MODULE_ENV.search(text)
    if _MODULE_OURS not in text or found is None:
        return None
    return re.sub(r"\\(.)", r"\1", found.group(1))


def steps_done(env: str | os.PathLike[str], *, environ: Mapping[str, str] | None = None) -> frozenset[str]:
    """Which of the "Next:" set-up steps `env` has already: "kernel" (a gc-wizard kernel runs it) and
    "module" (the default module file for its recipe loads it) — for `next_steps.next_step_lines(done=…)`."""
    env_path = Path(os.path.abspath(os.path.expanduser(str(env))))
    done = set()
    if any(k["env"] == str(env_path) for k in gc_wizard_kernels(environ)):
        done.add("kernel")
    marker = read_marker(env_path)
    if marker is not None and _module_env(modules_dir() / f"{module_name(env_path, marker.to_dict())}.lua") \
            == str(env_path):
        done.add("module")
    return frozenset(done)
