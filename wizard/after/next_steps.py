"""What to type next, after an install: the lines both faces print, so they are the same everywhere.

The commands name gc-wizard the way a new login shell can run it (`paths.program_command`), after a line that
exports a chosen state folder, so a block pasted into a fresh SSH session works after the README's Quick start too.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from wizard import paths
from wizard.paths import elsewhere_command, program_command
from wizard.security import expand_home, shell_word
from wizard.self_install import (
    carry_words as carry_words,  # its words live with what they read (one tie each way)
)
from wizard.wrap import command as wrap_command
from wizard.wrap import command_words, wrap


def next_steps(recipe: str, assets: str | None = None, unreachable: str | None = None, slurm=None,
               bundled: str | None = None) -> list[tuple[str, str]]:
    """(command, what it is for) for a newly current environment; `assets`: where its forecast files are;
    `unreachable`: the host of the forecast's files when it does not answer here (`assets_reach`). The commands
    name the program alone: `next_step_lines` exports the state folder first, as the Done screen does. `slurm`: the
    `SlurmTarget` the install's check ran on: the forecast runs there too (walk 24 #3: on the login node it has no
    GPU). `bundled`: the forecast files of the bundle the environment was installed from (its marker's, which
    `forecast` takes by itself): named, and no other source offered (walk 26 #1: after an install from a bundle
    that carried them, the lines sent the offline user to build `bundle --with-assets` on a machine with internet)."""
    me = program_command()
    # Deferred: read only where these lines are drawn.
    from wizard.after.assets_memory import forecast_ran, remembered_assets

    # Walk 24 #9: after three forecasts the lines still offered "a first real forecast".
    why = f"{'another' if forecast_ran() else 'a first real'} forecast: real weights, one rollout"
    if bundled and not assets:
        # Before the remembered folder: a plain `forecast` takes the bundle's files first (`default_assets`).
        why = f"{why} (it uses {bundled}, the files of the bundle this environment came from)"
        unreachable = None  # the bundle's files are here: nothing to gather elsewhere
    elif not assets:
        # walk 23 #4: the folder the last forecast that worked used, named as the GraphCast source
        # the last install used is.

        assets = remembered_assets()
        why = f"{why} (the folder your last forecast used)" if assets else why
    where = f" --assets {shell_word(assets)}" if assets else ""
    forecast = (f"{me} forecast{where or (' --assets DIR/assets' if unreachable else '')}"
                f"{slurm.flags() if slurm is not None else ''}", why)
    return [
        (activate_lines()[-1], "use it in this shell"),
        forecast,
        (f"{me} kernel install", "use it in Jupyter"),
        (f"{me} module install", "use it with Lmod (then the two module lines below)"),
    ]


def gather_command(recipe: str) -> str:
    """The command that gathers the forecast's files on a machine that reaches their host (`paths.elsewhere_command`:
    gc-wizard as installed there)."""
    return elsewhere_command(f"bundle {recipe} --out DIR --with-assets")


def unreachable_lines(host: str, recipe: str, then: str = "give it with --assets DIR/assets") -> list[str]:
    """What every face shows where it offers a forecast whose files' host does not answer here: the host, then the
    gathering command on a line of its own (a screen that wraps a sentence would break it inside), how gc-wizard gets
    onto that machine, the five files by name for a copy by hand, then what to do with the folder (`then`: the
    CLI's option, or the app's key) (walk 21 #4). Why the last three: the Done screen gave only the bundle route,
    with a command that machine could not run (gc-wizard is not on PyPI), and the five files appeared only after
    the forecast failed (walk 22 #5)."""
    # Deferred: the app loads this module before its first frame, and these words are needed only without the host.
    from wizard.after.assets import BUCKET_URL, PREFIXES, first_forecast_files

    return [f"{host} cannot be reached from here, so the forecast cannot fetch its files. On a machine that can "
            "reach it, gather them into DIR/assets:",
            f"    {gather_command(recipe)}",
            f"({carry_words()}), or copy these five files from {BUCKET_URL}{PREFIXES[0]} into DIR/assets by hand, "
            "keeping their folders:",
            *(f"    {name}" for name in first_forecast_files()),
            f"then copy that folder here and {then}."]


def forecast_offer(unreachable: str | None, remembered: str | None = None, ran: str | None = None) -> str:
    """The Done screen's forecast line: `f` offered as it is only where the files can be fetched; else what it needs
    first (the lines under it say how), as f then asks for the folder (walk 22 #5: f was offered, then failed).
    `remembered`: the folder the last forecast used, which f's question fills in — named, rather than "must be
    brought here first" beside a folder that holds them (walk 24 #9). `ran`: where the forecast that ran from this
    screen wrote its output ("" when it wrote none): then it is offered again, not as a first one (walk 25 #8)."""
    if ran is not None:
        # The output on a line of its own, whole, so it can be copied (a path inside the sentence was wrapped at its
        # hyphens on an 80-column screen).
        wrote = f" The last one wrote:\n    {ran}" if ran else ""
        if unreachable and remembered:
            return f"Forecast again: press f; Enter takes {remembered}.{wrote}"
        return f"Forecast again: press f.{wrote}"
    if unreachable and remembered:
        return (f"First forecast (real weights, one rollout): press f; Enter takes {remembered}, the folder your last "
                "forecast used.")
    if unreachable:
        return ("First forecast (real weights, one rollout): its files must be brought here first (how: at the end); "
                "then press f.")
    return "First forecast: press f (real weights, one rollout)."


def assets_question(host: str | None, recipe: str, remembered: str | None = None) -> str:
    """What the app's assets dialog asks: the folder that holds the forecast's files, and why it is asked;
    `remembered`: the folder the last forecast that worked used (`assets_memory`), filled in below the question."""
    why = f"{host} cannot be reached from here, so the forecast takes its files from a folder. " if host else ""
    last = f" Your last forecast used {remembered}: Enter takes it." if remembered else ""
    return (f"{why}Assets folder: DIR/assets from `{gather_command(recipe)}`, or a folder holding the five files "
            f"in their params/, dataset/ and stats/ folders (an http(s) mirror's URL works too).{last}")


def wizard_lines(arguments: str, slurm=None) -> list[str]:
    """A gc-wizard command as lines that each run on their own, as `activate_lines`: `export GC_WIZARD_HOME=…` (when
    a state folder is chosen that way), then the program with `arguments`. The Done screen's commands, so none is
    one long line a screen wraps inside (walk 21 #17). The one builder of a Next line's gc-wizard command (forecast's
    too: walk 24 #4); `slurm`: the `SlurmTarget` the work just done ran on, named again (walk 24 #3)."""
    return [*activate_lines()[:-1], f"{program_command()} {arguments}{slurm.flags() if slurm is not None else ''}"]


def modules_dir() -> Path:
    """Where `module install` writes module files by default (the state folder's `modules/`)."""
    return paths.state_dir() / "modules"


def module_name_for(recipe: str) -> str:
    """`graphcast/<recipe>`, the recipe id made safe for a module name."""
    version = re.sub(r"[^A-Za-z0-9._+-]+", "-", recipe).strip("-.") or "env"
    return f"graphcast/{version}"


def use_problem(root: Path) -> str | None:
    """Why `module use ROOT` cannot be advised, or None: MODULEPATH is a ':'-separated list (`paths.list_entry_problem`,
    the one rule for every folder a printed line puts into such a list)."""
    return paths.list_entry_problem(str(root), "MODULEPATH")


def use_lines(recipe: str, folder: str | os.PathLike[str] | None = None) -> list[str]:
    """The two lines a new shell needs for the module: `module use DIR` (Lmod does not know the wizard's
    folder) and `module load graphcast/<recipe>` — the Done screen and the exit "Next:" lines print both. A folder
    MODULEPATH cannot hold is never advised (35th hostile pass (part A) P1): one comment line says why instead."""
    root = Path(os.path.abspath(expand_home(str(folder)))) if folder else modules_dir()
    problem = use_problem(root)
    if problem:
        return [f"# the module folder {problem}; write the module with `module install --dir DIR`, then `module use` "
                "that DIR"]
    return [f"module use {shell_word(str(root))}", f"module load {module_name_for(recipe)}"]


def activate_lines() -> list[str]:
    """The activate command as lines that each run on their own: `export GC_WIZARD_HOME=…` (when a
    state folder is chosen that way), then `eval "$(… activate)"`.

    Why not one long line: a terminal app wraps it with a real line break, and a copied block then
    pastes as two commands (an unexported `GC_WIZARD_HOME=` assignment, and an activate that looks in
    the default state folder). Backslash continuations do not survive either: a terminal selection
    keeps the app's padding, and `\\ ` is not a continuation. Two complete commands survive both.
    """
    home = paths.chosen_state_folder()  # absolute, as in use (31st hostile pass (part A) P6)
    export = [f"export GC_WIZARD_HOME={shell_word(home)}"] if home else []
    return [*export, f'eval "$({program_command()} activate)"']


#: Past this, a `# why` comment goes on the line above its command, wrapped between words: a terminal that wraps a
#: line breaks it mid-word, and a copied piece of a command no longer runs.
COLUMNS = 80


def next_step_lines(recipe: str, assets: str | None = None, *, done: frozenset[str] = frozenset(),
                    unreachable: str | None = None, slurm=None, bundled: str | None = None) -> list[str]:
    """`Next: <command>   # <why>`, aligned, as the CLI and the app print them on leaving; a line that would
    not fit 80 columns puts its comment above the command, wrapped between words (a command it quotes, between
    backquotes, on a comment line of its own), and a command longer than a line is broken between its words with
    `\\` (`wrap.command`), so it still pastes as one. A chosen state folder is exported first, on a line of its own,
    as the Done screen does (walk 21 #17: the two differed, and the inline form made every line too long).

    `done`: the steps already taken for this env (`steps_done`), left out so "Next:" never asks for
    what the user did a minute ago; the two module lines stay, as a new shell still needs them.
    `unreachable`: the forecast files' host, when it does not answer here (walk 21 #4): its words
    (`unreachable_lines`, as the Done screen shows them) go above the forecast, as comments. `bundled`: the
    environment's bundle's forecast files (`next_steps`)."""
    steps = [(command, why) for command, why in next_steps(recipe, assets, unreachable, slurm, bundled)
             if not any(command.endswith(f" {step} install") for step in done)]
    home = activate_lines()[:-1]
    steps = [(line, "the state folder the commands below use") for line in home] + steps
    width = max(len(command) for command, _ in steps)
    # Said once, above the commands, when they name gc-wizard as `PYTHON -m wizard` (28th hostile pass (part B) P7).
    note = paths.program_note()
    lines = _comment_rows(note, "Next: # ") if note else []
    for i, (command, why) in enumerate(steps):
        head = "Next:" if i == 0 and not lines else "     "
        if unreachable and " forecast --assets DIR/assets" in command:
            lines += [row for note in unreachable_lines(unreachable, recipe)
                      for row in _comment_rows(note, _COMMENT, command=note.strip() == gather_command(recipe))]
            # A comment too, like the gathering it waits for: a block pasted whole ran the placeholder and ended on
            # "--assets DIR/assets: no such folder" (walk 40 #2).
            lines += _comment_rows(f"{why}, once the files are in DIR/assets:", f"{head} # ")
            lines += _comment_rows(f"  {command}", _COMMENT, command=True)
            continue
        line = f"{head} {command.ljust(width)}    # {why}"
        if len(line) <= COLUMNS:
            lines.append(line)
            continue
        lines += _comment_rows(why, f"{head} # ")
        lines += wrap_command(command_words(command), COLUMNS, "      ", "          ", keep=2)
    # Said, so they do not read as part of the step above them (walk 40 #2), as the Done screen says it.
    return lines + _comment_rows("then, in any shell, the module:", _COMMENT) + [
        row for line in use_lines(recipe)
                    for row in (_comment_rows(line[2:], _COMMENT) if line.startswith("# ")
                                else wrap_command(command_words(line), COLUMNS, "      ", "          ", keep=2))]


#: How a comment row of the Next: block starts: under the commands, its `#`, a space.
_COMMENT = "      # "


def _comment_rows(text: str, head: str, *, command: bool = False) -> list[str]:
    """A comment of the Next: block, `text` after `head` (which ends with its "# "), as rows of at most `COLUMNS`, every
    further row starting with `_COMMENT` under the first's text. Why every row: a line left for the terminal to wrap,
    or one folded under spaces alone, went on in column 0 without its `#` (walk 37 #11: a file name with spaces), so a
    copied block held a line that is not a comment. A `text` indented under the comment (a file name, a command)
    keeps its indent and its rows hang under it; a `command` is broken with ` \\` (`wrap.command`), so with its `#`s
    taken away it still pastes as one. A word longer than a row stays whole, after its `#`."""
    indent = text[:len(text) - len(text.lstrip(" "))]
    if len(head + text) <= COLUMNS:
        return [head + text]
    under = _COMMENT + indent + ("    " if command else "  " if indent else "")
    if command:
        return wrap_command(command_words(text.strip()), COLUMNS, head + indent, under)
    rows = wrap(text.strip(), COLUMNS, head + indent, under)
    return [rows[0], *(row if row.startswith(under) else under + row.lstrip() for row in rows[1:])]
