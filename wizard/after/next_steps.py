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


def shell_lines(command: str, width: int) -> list[str]:
    """`command` cut into lines of at most `width` characters that a shell reads as the one command.

    Why: a terminal app wraps a long line with a real line break, so a user who copies the wrapped
    activate line pastes two commands (the first an unexported `GC_WIZARD_HOME=…` assignment). Each
    line but the last ends in ` \\` (a line continuation, also inside `"$(…)"`); cuts fall only on
    spaces between a command's words (never inside quotes, where the next line's indent would count); a word longer than `width`
    stays whole on its own line.
    """
    words, start = [], 0
    context = ["command"]  # what encloses the character: a command, "$(" included, or quotes
    escaped = False
    for i, char in enumerate(command):
        where = context[-1]
        if escaped:
            escaped = False
        elif where == "single":
            if char == "'":
                context.pop()
        elif char == "\\":
            escaped = True
        elif char == "$" and command[i + 1:i + 2] == "(":
            context.append("command")
        elif where == "double":
            if char == '"':
                context.pop()
        elif char == ")" and len(context) > 1:
            context.pop()
        elif char in "'\"":
            context.append("single" if char == "'" else "double")
        elif char == " ":
            words.append(command[start:i])  # a space between two words of a command: a place to cut
            start = i + 1
    words.append(command[start:])
    lines: list[str] = []
    for word in words:
        if lines and len(lines[-1]) + 1 + len(word) + 2 <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return [line + " \\" for line in lines[:-1]] + lines[-1:]


def next_step_lines(recipe: str) -> list[str]:
    """`Next: <command>   # <why>`, aligned, as the CLI and the app print them on leaving."""
    steps = next_steps(recipe)
    width = max(len(command) for command, _ in steps)
    return [f"{'Next:' if i == 0 else '     '} {command.ljust(width)}    # {why}"
            for i, (command, why) in enumerate(steps)]
