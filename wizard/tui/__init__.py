"""The terminal face of gc-wizard: a Textual app over the same core as the CLI.

Only `run_tui` lives here, and it imports Textual lazily: `wizard.cli` imports this package on the
TUI path alone, and the colour system must be chosen (TEXTUAL_COLOR_SYSTEM) before Textual loads.
"""

from __future__ import annotations

import argparse
import os
from typing import TYPE_CHECKING

from wizard.errors import ExitCode, UserError, say_on_stderr
from wizard.security import cut
from wizard.tui.textual_variables import drop_textual_variables

if TYPE_CHECKING:
    from wizard.flows.results import InstallResult

_COLOR_SYSTEMS = {"16": "standard", "256": "256", "truecolor": "truecolor"}


def run_tui(args: argparse.Namespace) -> int:
    color = getattr(args, "color", None) or "auto"
    if color in _COLOR_SYSTEMS:
        os.environ["TEXTUAL_COLOR_SYSTEM"] = _COLOR_SYSTEMS[color]
    # Before Textual loads (below): it reads them at import. An allow-list (33rd hostile pass (part A) P2).
    dropped = drop_textual_variables()
    # Deferred for start-up time: the app loads this module before its first frame.
    from wizard.flows.options import checked_sources, slurm_target

    # Deferred for start-up time: the app loads this module before its first frame.
    from wizard.tui.app import WizardApp

    slurm = None
    if getattr(args, "slurm", None) is not None or getattr(args, "srun_arg", None) or getattr(args, "slurm_wait", None):
        try:
            slurm = slurm_target(args.slurm, getattr(args, "srun_arg", None) or (),
                                             getattr(args, "slurm_wait", None))
        except UserError as exc:
            say_on_stderr(str(exc))
            return int(ExitCode.BAD_INPUT)
    try:
        graphcast_src, find_links = checked_sources(getattr(args, "graphcast_src", None),
                                                    getattr(args, "find_links", None))
    except UserError as exc:
        say_on_stderr(str(exc))
        return int(ExitCode.BAD_INPUT)
    app = WizardApp(recipes_dirs=list(getattr(args, "recipes_dir", None) or []), graphcast_src=graphcast_src,
                    find_links=find_links, offline=bool(getattr(args, "offline", False)), slurm=slurm,
                    assets=getattr(args, "assets", None))
    app.dropped_variables = dropped
    app.run(mouse=not getattr(args, "no_mouse", False))
    reach = app.assets_reach  # asked by the Done screen: the forecast's host, when it does not answer (walk 21 #4)
    for line in farewell(app.install_result, app.assets, reach.host() if reach is not None else None,
                         installed=app.session_installs, rolled_back=app.session_rollbacks, made=app.session_envs,
                         rollback_log=app.rollback_log):
        print(line)
    if app.failure:  # an error ended the app: its one sentence, where the terminal shows it (no traceback)
        say_on_stderr(app.failure)
    if app.exit_status is not None:
        return app.exit_status
    return int(app.return_code or 0)  # Textual's own status (1 after an error it ended the app on)


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

    return wrap(text, 80, indent, indent + "  ")


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
