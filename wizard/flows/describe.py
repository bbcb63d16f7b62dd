"""The words both faces print for an outcome: built once here, so the CLI and the app cannot drift.

Each function returns plain lines of text from a typed result. The CLI prints them; the app may style
them (a ✓ or ✗ in front, a colour) but never rewords them.
"""

from __future__ import annotations

import os

# What to type after an install (activate, use, the next commands): the core's lines, printed by both faces.
from wizard.after.next_steps import activate_lines as activate_lines
from wizard.after.next_steps import assets_question as assets_question
from wizard.after.next_steps import forecast_offer as forecast_offer
from wizard.after.next_steps import unreachable_lines as unreachable_lines
from wizard.after.next_steps import use_lines as use_lines
from wizard.after.next_steps import wizard_lines as wizard_lines
from wizard.flows.describe_check import check_ran_words, checked_where
from wizard.flows.results import InstallResult, RollbackResult, kept_unchecked, what_was_undone
from wizard.paths import wizard_command


def rollback_lines(result: RollbackResult | None, error: str | None = None) -> list[str]:
    """What a rollback did (or why it did not start), then its log."""
    if result is None:
        return [f"Rollback not started: {error or 'it did not report'}"]
    if result.ok:
        how = " (rebuilt from its frozen package set)" if result.rebuilt else ""
        how += " (packages restored)" if result.restored else ""
        checked = f" and passed the GraphCast check{checked_where(result.verify.where)}" if result.verify else ""
        lines = [f"Rolled back{how}{checked}: {result.env} is current now."]
    else:
        what = "cancelled" if result.cancelled else "failed"
        said = (result.error or "no reason given").split(" Log: ")[0]  # the log has its own line
        lines = [f"Rollback {what}: {said}"]
        ran = check_ran_words(result.verify)  # which node and job the failed check ran on (walk 28 #7)
        lines += [ran] if ran else []
    if result.log:
        lines.append(f"Log: {result.log}")
    return lines


def _gone(env: str | None) -> bool:
    """True when `env` names a folder that is no longer there (deleted since: `gc-wizard remove` in another shell).
    Words said later than the outcome (the lines left on quitting) must not say it "stays at" a folder that is
    gone (walk 23 #8)."""
    if not env:
        return False
    try:
        return not os.path.lexists(env)
    except (OSError, ValueError):
        return False


def moved_on_words(current_env: str, install_env: str) -> str:
    """After a rollback since an install: which environment is current now, and where the install stays. The Done
    screen and the lines left on the terminal say it alike (walk 17 #4, walk 18 #3)."""
    if _gone(install_env):
        return (f"{current_env} is current now (rolled back to since this install, whose environment {install_env} "
                "has been deleted since).")
    return f"{current_env} is current now (rolled back to since this install, which stays at {install_env}, not current)."


def after_rollback_lines(current_env: str, install_env: str, command: str, keys: bool = True) -> list[str]:
    """After a rollback since an install: which environment is current, what f, k and m act on (by name), then what
    follows it and what stays (`after.follow.followed_lines`, read from the files now). Walk 27 #8: the Done screen
    kept the install's stale kernel line ("now runs" the install's env) and said "f, k and m act on it"."""
    from wizard.after.follow import followed_lines  # deferred: only a screen after a rollback asks

    said = moved_on_words(current_env, install_env)
    if keys:
        said += (f" f (forecast), k (Jupyter kernel) and m (module file) act on {current_env}, not on this "
                 "install's environment.")
    return [said, *followed_lines(current_env, command=command)]


def install_undone(result: InstallResult) -> str:
    """`what_was_undone` for a finished install's result (`kept_unchecked` for one whose check was stopped
    with "keep it"); said from the disk as it is now, since the lines left on quitting come long after."""
    if result.env and _gone(result.env) and (result.kept or result.status == "installed") \
            and result.mode != "in-place":
        return f"The new environment {result.env} has been deleted since."
    if result.cancelled and result.status == "installed":
        return kept_unchecked(result.env, result.entry_id, wizard_command(), result.slurm)
    return what_was_undone(result.env, result.mode, result.kept)


def left_on_disk(made: list[tuple[str, str | None]] | tuple, current: str | None) -> list[tuple[str, str | None]]:
    """Of the environments a session made (env, history entry id), those still on disk and not current, read from
    the disk now: a failed check keeps its environment, a stopped check can keep it unchecked, and a rollback can
    leave an install behind (walk 24 #6: 3.0 GB were left while the lines said "nothing was installed")."""
    left: dict[str, str | None] = {}
    for env, entry_id in made:
        if env and env != current and not _gone(env) and env not in left:
            left[env] = entry_id
    return list(left.items())


def left_words(left: list[tuple[str, str | None]] | tuple, command: str = "gc-wizard") -> str:
    """One sentence naming the environments left on disk, not current, each with the `remove` line that deletes
    it, so a user leaving the app knows what stays and how to free it (walk 24 #6). Empty when none is left."""
    if not left:
        return ""
    if len(left) == 1:
        env, entry_id = left[0]
        remove = f": `{command} remove {entry_id}` deletes it" if entry_id else ""
        return f"{env} was left on disk, not current{remove}."
    named = ", ".join(f"{env} (entry {entry_id})" if entry_id else env for env, entry_id in left)
    return (f"{len(left)} environments were left on disk, not current: {named}; `{command} remove ENTRY_ID` deletes "
            "one.")


def session_words(installed: list[tuple[str, str]], rolled_back: int, current: tuple[str, str] | None,
                  left: list[tuple[str, str | None]] | tuple = (), command: str = "gc-wizard") -> str:
    """What an app session did, for the line left on quitting: the installs that succeeded (recipe, env), the
    rollbacks, what is current now, read from the history at that moment, and the environments `left` on disk.

    Why: the walker installed twice and rolled back, planned a third, then quit to "nothing was installed; your
    current environment is still …" (walk 23 #8): the lines spoke for the last screen only. And with a failed check
    and a kept unchecked environment on disk the lines still said "nothing was installed" (walk 24 #6)."""
    kept = left_words(left, command)
    if kept and not installed and not rolled_back:
        now = f"your current environment is still {current[0]}" if current else "no environment was made current"
        return f"{now}; {kept}"
    done = []
    if installed:
        names = ", ".join(dict.fromkeys(recipe for recipe, _ in installed))
        count = len(installed)
        done.append(f"installed {count} environment{'s' if count != 1 else ''} ({names})")
    if rolled_back:
        done.append("rolled back " + ("once" if rolled_back == 1 else f"{rolled_back} times"))
    now = f"{current[1]} in {current[0]} is current now" if current else "no environment is current"
    if not done:
        return ("nothing was installed; " + (f"your current environment is still {current[0]}." if current
                                             else "no environment is current yet."))
    return f"this session {' and '.join(done)}; {now}." + (f" {kept}" if kept else "")
