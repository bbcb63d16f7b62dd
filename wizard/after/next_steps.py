"""What to type next, after an install: the lines both faces print, so they are the same everywhere.

The commands name gc-wizard the way a new login shell can run it (`paths.wizard_command`), so a
line pasted into a fresh SSH session works after the README's Quick start too.
"""

from __future__ import annotations

import os
import re
import shlex
from pathlib import Path

from wizard import paths
from wizard.paths import program_command, wizard_command


def next_steps(recipe: str, assets: str | None = None) -> list[tuple[str, str]]:
    """(command, what it is for) for a newly current environment; `assets`: where its forecast files are."""
    me = wizard_command()
    where = f" --assets {shlex.quote(assets)}" if assets else ""
    return [
        (f'eval "$({me} activate)"', "use it in this shell"),
        (f"{me} forecast{where}", "a first real forecast: real weights, one rollout"),
        (f"{me} kernel install", "use it in Jupyter"),
        (f"{me} module install", "use it with Lmod (then the two module lines below)"),
    ]


def modules_dir() -> Path:
    """Where `module install` writes module files by default (the state folder's `modules/`)."""
    return paths.state_dir() / "modules"


def module_name_for(recipe: str) -> str:
    """`graphcast/<recipe>`, the recipe id made safe for a module name."""
    version = re.sub(r"[^A-Za-z0-9._+-]+", "-", recipe).strip("-.") or "env"
    return f"graphcast/{version}"


def use_lines(recipe: str, folder: str | os.PathLike[str] | None = None) -> list[str]:
    """The two lines a new shell needs for the module: `module use DIR` (Lmod does not know the wizard's
    folder) and `module load graphcast/<recipe>` — the Done screen and the exit "Next:" lines print both."""
    root = Path(os.path.abspath(os.path.expanduser(str(folder)))) if folder else modules_dir()
    return [f"module use {shlex.quote(str(root))}", f"module load {module_name_for(recipe)}"]


def activate_lines() -> list[str]:
    """The activate command as lines that each run on their own: `export GC_WIZARD_HOME=…` (when a
    state folder is chosen that way), then `eval "$(… activate)"`.

    Why not one long line: a terminal app wraps it with a real line break, and a copied block then
    pastes as two commands (an unexported `GC_WIZARD_HOME=` assignment, and an activate that looks in
    the default state folder). Backslash continuations do not survive either: a terminal selection
    keeps the app's padding, and `\\ ` is not a continuation. Two complete commands survive both.
    """
    home = os.environ.get("GC_WIZARD_HOME")
    export = [f"export GC_WIZARD_HOME={shlex.quote(home)}"] if home else []
    return [*export, f'eval "$({program_command()} activate)"']


#: Past this, a `# why` comment goes on the line above its command: a terminal that wraps a command breaks it
#: mid-word, and a copied piece no longer runs.
COLUMNS = 80


def next_step_lines(recipe: str, assets: str | None = None, *, done: frozenset[str] = frozenset()) -> list[str]:
    """`Next: <command>   # <why>`, aligned, as the CLI and the app print them on leaving; a line that would
    not fit 80 columns puts its comment on a line of its own, above the command, which stays whole.

    `done`: the steps already taken for this env (`steps_done`), left out so "Next:" never asks for
    what the user did a minute ago; the two module lines stay, as a new shell still needs them."""
    steps = [(command, why) for command, why in next_steps(recipe, assets)
             if not any(command.endswith(f" {step} install") for step in done)]
    width = max(len(command) for command, _ in steps)
    lines = []
    for i, (command, why) in enumerate(steps):
        head = "Next:" if i == 0 else "     "
        line = f"{head} {command.ljust(width)}    # {why}"
        lines += [line] if len(line) <= COLUMNS else [f"{head} # {why}", f"      {command}"]
    return lines + [f"      {line}" for line in use_lines(recipe)]
