"""Whether the folder a history entry names holds that entry's environment: the one check of "this folder is this
entry's env" that `rollback`, `remove` and every command working on the current environment (`activate`,
`verify`, `kernel`, `module`, `forecast`, `diagnose --env`) ask before they change, delete or run it.

Why one check: two managed folders swapped with `mv` were refused by `rollback` (its marker names another entry) but
`remove` deleted the folder holding the current entry's environment and `activate` exported it as the other recipe
without a word (31st hostile pass (part B) P7); in a state folder copied with `cp -a`, `rollback` made the original
state's environment current (P11), since the marker names an entry both histories hold. What tells: the marker
gc-wizard writes into every environment it makes (`envs.MARKER`, naming the entry that made it), and where the
folder lies — in another gc-wizard state's `envs/` it is that state's, whatever this history says.
"""

from __future__ import annotations

import os
from pathlib import Path

from wizard import paths
from wizard.history.store import Entry, History, shown_id
from wizard.install import envs


def other_state_of(env: str | os.PathLike[str]) -> Path | None:
    """The gc-wizard state folder `env` lies in when that is not this one: `env`'s folder is an `envs/` whose parent
    holds a history.json, and is not this state's `envs/` (compared with links followed, so a state reached through
    a link to it is this one). None otherwise, and for a folder of the user's own (`install --env DIR`)."""
    folder = os.path.dirname(os.path.abspath(env))
    if os.path.basename(folder) != "envs" or os.path.realpath(folder) == os.path.realpath(paths.envs_dir()):
        return None
    state = Path(os.path.dirname(folder))
    return state if (state / "history.json").is_file() else None


def recorded_at(history: History, env: str | os.PathLike[str]) -> list[Entry]:
    """The entries that may own the folder `env`: those recorded at it by its own name (`envs.env_key`: spellings and
    a link to the state folder resolved, the last name kept), so a link in `envs/` is its own place.

    Why not `envs.same_env` (which follows links): with entry A's folder replaced by a link to entry B's, B counted as
    an owner of A's path, the marker naming B passed, and `rollback A` synced A's packages into B's environment and
    rewrote its marker (38th hostile pass (part B) P6)."""
    key = envs.env_key(env)
    return [other for other in history.entries if other.env and envs.env_key(other.env) == key]


def not_its_env(history: History, entry: Entry) -> str | None:
    """Why the folder `entry.env` does not hold `entry`'s environment, as a clause for the caller's sentence, or None
    when it does, or when nothing there says otherwise (a folder without a marker: an install interrupted before
    writing it; the user's own environment changed in place, whose undo takes the marker away). A path the wizard
    never records (`envs.edited_env_path`) is refused whatever it leads to."""
    env = entry.env
    if env and envs.edited_env_path(env):
        return f"it is named {env!r}, which is {envs.edited_env_path(env)}"
    if not env or not os.path.isdir(env):
        return None
    state = other_state_of(env)
    if state is not None:
        return (f"it lies in the envs/ of another gc-wizard state, {state}, not in this state's "
                f"({paths.envs_dir()}): this state folder was copied or moved from there, so that state's history "
                f"and its `remove` own it; run with GC_WIZARD_HOME={state} to use it, or install the recipe anew here")
    same = recorded_at(history, env)
    if any(other.mode == "in-place" for other in same):
        return None
    marker = envs.read_marker(env)
    if marker is None:
        return None
    where = Path(env) / envs.MARKER
    if marker.entry_id is None:  # a marker older than entry ids: its recipe
        if marker.recipe == entry.recipe:
            return None
        return f"its marker ({where}) names recipe {marker.recipe!r}, not {entry.recipe!r}"
    if marker.entry_id in {other.id for other in same} | {entry.id}:
        return None
    named = next((other for other in history.entries if other.id == marker.entry_id), None)
    if named is not None:
        current = ", the current one" if named.current else ""
        if os.path.islink(env.rstrip("/")):
            return (f"it is a link to {os.path.realpath(env)}, the environment of entry {named.id} (recipe "
                    f"{named.recipe}){current}, which this history records at {named.env}; replace the link with "
                    "that entry's own folder, or remove the link")
        return (f"its marker ({where}) names entry {named.id} (recipe {named.recipe}){current}, which this history "
                f"records at {named.env}: the folders were swapped or replaced since. Put each folder back where its "
                "entry says")
    return (f"its marker ({where}) names entry {shown_id(marker.entry_id)}, which this history does not hold (another "
            "gc-wizard state's environment, or a marker edited or copied in)")
