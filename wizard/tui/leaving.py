"""What stays on the terminal once the app is gone, and the sentences the app shares with it.

Why a module of its own: the app (`tui.app`) says "the current environment is untouched" as the farewell does, and
with these in the package's `__init__` the app and the package imported each other.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from wizard import paths
from wizard.security import cut

if TYPE_CHECKING:
    from wizard.flows.results import InstallResult


def current_env() -> str | None:
    """The environment current now (None: there is none, or the history cannot be read)."""
    # Deferred for start-up time: the app loads this module before its first frame.
    from wizard.flows.history import current_env as current

    return current()


def untouched_sentence() -> str:
    """After a stop: the current environment is untouched — or, on a first install, there is none."""
    from wizard.flows.results import untouched_words  # deferred, as above

    words = untouched_words(current_env() is not None)
    return f"{words[0].upper()}{words[1:]}."


def _said(text: str, indent: str = "") -> list[str]:
    """A sentence left on the terminal, wrapped to 80 columns between words (a path stays whole on a line of its own:
    walk 21 #17 found `/tmp/walk21/state/en` / `vs/…` where the terminal wrapped it)."""
    from wizard.wrap import wrap  # deferred: only the lines left after the app need it

    # each quoted `gc-wizard …` as a new login shell runs it (walk 37 #6: "`gc-wizard kernel remove` takes it away")
    return wrap(paths.runnable(text), 80, indent, indent + "  ")


def farewell(result: InstallResult | None, assets: str | None = None, unreachable: str | None = None, *,
             installed: list[tuple[str, str]] | tuple = (), rolled_back: int = 0,
             made: list[tuple[str, str | None]] | tuple = (), rollback_log: str | None = None) -> list[str]:
    """What stays on the terminal once the app is gone: the outcome, and what to type next.

    The Done screen's lines vanish with the app; a user back at the prompt needs the activate line
    (and, after a failure, the reason and the log) where they can copy it. `installed` (recipe, env) and
    `rolled_back` are the session's: with no install on screen they, and the history now, say what the session
    did (walk 23 #8: "nothing was installed" after two installs and a rollback). `made` (env, entry id) are the
    environments this session's installs built, whatever their outcome: those still on disk and not current are
    named with their `remove` line (walk 24 #6: "nothing was installed" with 3 GB left behind). `rollback_log`: the
    log of a rollback finished since the install, named instead of the install's (walk 24 #9).
    """
    if result is None:  # left before installing: said, with what is current (walk 20 #18: the app just vanished)
        # Deferred for start-up time: the app loads this module before its first frame.
        from wizard.flows.describe import left_on_disk, session_words
        from wizard.flows.history import current_install
        from wizard.flows.next_lines import next_lines_for
        from wizard.paths import wizard_command

        now = current_install()
        left = left_on_disk(made, now[0] if now is not None else None)
        lines = _said(f"gc-wizard: {session_words(list(installed), rolled_back, now, left, wizard_command())}")
        if now is not None and (installed or rolled_back):
            lines += next_lines_for(now[1], now[0], assets, unreachable)
        return lines
    if result.lock_held:
        return []
    # Deferred for start-up time: the app loads this module before its first frame.
    from wizard.flows.describe import install_undone, moved_on_words
    from wizard.flows.history import current_install
    from wizard.flows.next_lines import next_lines, next_lines_for

    if result.ok:
        now = current_install()
        if now is not None and now[0] != result.env:
            # A rollback from History since: the lines name the env that is current now (walk 18: they named this
            # install's, and its log, as current).
            env, recipe = now
            return [*_said(f"gc-wizard: {recipe} in {moved_on_words(env, result.env)}"),
                    *next_lines_for(recipe, env, assets, unreachable),
                    *([f"Log:  {rollback_log}"] if rollback_log else [])]
        checked = "checked" if result.verify is not None and result.verify.ok else "not checked (--no-verify)"
        return [*_said(f"gc-wizard: {result.recipe} is installed, {checked} and current: {result.env}"),
                *next_lines(result, assets, unreachable), f"Log:  {rollback_log or result.log}"]
    what = "stopped" if result.cancelled else "failed"
    lines = [f"gc-wizard: the install {what}; {untouched_sentence()[0].lower()}{untouched_sentence()[1:]}"]
    if result.cancelled and result.env:
        stage = "check" if result.verify is not None else "install"
        lines = _said(f"gc-wizard: the {stage} stopped. {install_undone(result)} {untouched_sentence()}")
    if result.error and not result.cancelled:
        lines += _said(cut(result.error.splitlines()[0], 300), "  ")
    # Deferred for start-up time, as above.
    from wizard.flows.describe import left_on_disk, left_words
    from wizard.paths import wizard_command

    # A failed check keeps its environment; a stopped one's was said above (walk 24 #6).
    own = [] if result.cancelled or not result.kept or result.mode == "in-place" else [(result.env, result.entry_id)]
    said_env = result.env if result.cancelled else None
    left = [e for e in left_on_disk([*own, *made], current_env()) if e[0] != said_env]
    if left:
        lines += _said(left_words(left, wizard_command()))
    if result.log:
        lines.append(f"Log:  {result.log}")
    return lines
