"""What to type next, after an install: the lines both faces print, so they are the same everywhere.

The commands name gc-wizard the way a new login shell can run it (`paths.wizard_command`), so a
line pasted into a fresh SSH session works after the README's Quick start too.
"""

from __future__ import annotations

from wizard.paths import wizard_command


def next_steps(recipe: str) -> list[tuple[str, str]]:
    """(command, what it is for) for a newly current environment."""
    me = wizard_command()
    return [
        (f'eval "$({me} activate)"', "use it in this shell"),
        (f"{me} kernel install", "use it in Jupyter"),
        (f"{me} module install", f"use it with Lmod: module load graphcast/{recipe}"),
    ]


def activate_lines() -> list[str]:
    """The activate command as lines that each run on their own: `export GC_WIZARD_HOME=…` (when a
    state folder is chosen that way), then `eval "$(… activate)"`.

    Why not one long line: a terminal app wraps it with a real line break, and a copied block then
    pastes as two commands (an unexported `GC_WIZARD_HOME=` assignment, and an activate that looks in
    the default state folder). Backslash continuations do not survive either: a terminal selection
    keeps the app's padding, and `\\ ` is not a continuation. Two complete commands survive both.
    """
    import os
    import shlex

    from wizard.paths import program_command

    home = os.environ.get("GC_WIZARD_HOME")
    export = [f"export GC_WIZARD_HOME={shlex.quote(home)}"] if home else []
    return [*export, f'eval "$({program_command()} activate)"']


def next_step_lines(recipe: str) -> list[str]:
    """`Next: <command>   # <why>`, aligned, as the CLI and the app print them on leaving."""
    steps = next_steps(recipe)
    width = max(len(command) for command, _ in steps)
    return [f"{'Next:' if i == 0 else '     '} {command.ljust(width)}    # {why}"
            for i, (command, why) in enumerate(steps)]
