"""The terminal face of gc-wizard: a Textual app over the same core as the CLI.

Only `run_tui` lives here, and it imports Textual lazily: `wizard.cli` imports this package on the
TUI path alone, and the colour system must be chosen (TEXTUAL_COLOR_SYSTEM) before Textual loads. What stays on the
terminal once the app is gone is `leaving`'s (the app reads its sentences too, so it sits below the app).
"""

from __future__ import annotations

import argparse
import os

from wizard.errors import ExitCode, UserError, say_on_stderr
from wizard.tui.leaving import farewell
from wizard.tui.textual_variables import drop_textual_variables

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
