"""Which environment a command means: `--env DIR`, else the current one from the history.

One resolution with one set of messages for every command that works on an environment after it
is built (`verify`, `activate`, `kernel install|remove`, `module install`, `diagnose --env`), so the same
folder is accepted or refused the same way, in the same words, whichever command the user ran.
"""

from __future__ import annotations

import os

from wizard import paths
from wizard.errors import UserError, WizardError
from wizard.history.belongs import not_its_env
from wizard.history.store import History, load_history
from wizard.install.envs import Env, current_env, in_envs_folder, same_env
from wizard.paths import unusable_env_path


def named_env(env: str | os.PathLike[str]) -> Env:
    """`--env DIR` as an absolute path (`~` expanded), whether or not it exists; UserError for a name no
    PATH or activation script can hold."""
    why = unusable_env_path(str(env))
    if why:
        raise UserError(f"--env: {why}.")
    return Env.at(env)


def resolve_env(env: str | os.PathLike[str] | None, *, need_python: bool = True) -> Env:
    """`--env DIR` (absolute, `~` expanded), or the current environment; one UserError sentence if neither.

    `need_python=False` accepts a folder whose `bin/python` is missing or broken (`diagnose --env`
    reads such an environment from disk to say what is wrong with it).
    """
    if env:
        found = named_env(env)
        if not found.path.is_dir():
            if found.path.exists():  # t19 P9: a file was called "does not exist"
                raise UserError(f"{found} is a file, not an environment folder; give the folder the environment "
                                "is in (the one holding bin/python).")
            raise UserError(f"the environment {found} does not exist (no such folder).")
    else:
        paths.guard_state_dir()  # the current env is read from the state: another user's folder there is refused
        history = load_history()
        found = current_env(history)
        _guard_current_is_its_own(history)
    if need_python and not found.exists:
        raise UserError(f"{found} is not a Python environment (it has no bin/python).")
    if need_python:
        # Its python is about to run, or be exported first on PATH (`activate`, the module file): the one rule of
        # every run of an env's python, `guard_env_python` — not only the swap rule (`guard_env`), but a
        # `pyvenv.cfg` that makes it this env's and no script at the end of its link (known limit after pass 24:
        # activate and the module file only used guard_env, so they exported a bin/python that led to a script
        # or started another Python, which verify and forecast refused).
        paths.guard_env_python(found.path)
    return found


def _guard_current_is_its_own(history: History) -> None:
    """Refuse the current entry's folder when it is not that entry's environment (`belongs.not_its_env`), the check
    rollback and remove make: with two folders swapped, `activate` exported the other recipe's environment under
    this entry's name without a word (31st hostile pass (part B) P7); in a copied state folder, the original
    state's (P11). `--env DIR` names a folder on purpose and is not asked."""
    entry = history.current()
    foreign = not_its_env(history, entry) if entry is not None else None
    if foreign is not None:
        raise UserError(f"the current history entry {entry.id} ({entry.recipe}) names {entry.env}, which is not that "
                        f"entry's environment in this state: {foreign}. Nothing was run. Roll back to another entry "
                        "(`gc-wizard rollback ENTRY_ID`), or name an environment with --env DIR.")


def made_by_this_state(env: str | None) -> bool:
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
    return any(entry.env and same_env(entry.env, os.path.abspath(env)) for entry in entries)
