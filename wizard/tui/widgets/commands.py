"""Text on the app's screens whose command rows are never folded: each stands whole on one row that scrolls sideways.

Why: walk 38 #1 — the Diagnose screen showed "run `…/gc-wizard install jax0.4.23-cpu --graphcast-src
/home/lab2/graphcast` again" with the command longer than the pane, and Textual folded it at the pane's edge: the
terminal (tmux, an SSH client) then holds two rows, and a selection of them pasted as two commands, the first of them
run without its argument. The core lays a command too long for a row on a row of its own (`wizard.wrap.wrap`) and says
which rows those are (`wizard.wrap.lone_command`); this widget shows every other run of rows as `Shown` text, wrapped
under its indents, and each command row as a `CommandRow`: the command alone (no backquotes), never wrapped, in a row
that scrolls sideways when the pane is narrower, so the terminal's rows hold the command whole. ctrl+y (the app's
binding, `copy_command`) copies the focused command row, else the screen's last one, through the terminal's clipboard
(OSC 52, which works over SSH and in tmux).

Each quoted `gc-wizard …` is named as a new login shell runs it (`paths.runnable`), as the CLI's printed lines name
it (walk 38 #2): these texts are the ones that hold commands to run.

`render()` is the whole text, masked, as a `Shown`'s: what was shown can be read back in one piece.
"""

from __future__ import annotations

from textual.binding import Binding
from textual.containers import ScrollableContainer, Vertical
from textual.content import Content
from textual.visual import visualize
from textual.widget import Widget

from wizard.paths import runnable
from wizard.tui.widgets.shown import Shown, masked
from wizard.wrap import lone_command


class CommandRow(ScrollableContainer, can_focus=True):
    """One command on one row, never wrapped; the row scrolls sideways (←/→ when focused) if the pane is narrower."""

    DEFAULT_CSS = """
    CommandRow {
        height: auto;
        overflow-x: auto;
        overflow-y: hidden;
        scrollbar-size-horizontal: 1;
    }
    CommandRow > Shown {
        width: auto;
        text-wrap: nowrap;
        text-style: bold;
    }
    CommandRow:focus > Shown {
        text-style: bold reverse;
    }
    """

    def __init__(self, command: str, indent: str = "") -> None:
        super().__init__()
        self.command = masked(command)
        """The command as shown and copied (secrets masked, as every text on the screens)."""
        self.indent = indent

    def compose(self):
        yield Shown(self.indent + self.command, markup=False)


def _parts(text: str) -> list[tuple[str, str]]:
    """`text` as its runs: ("text", rows) for prose, ("command", row) for a row that is one command alone."""
    parts: list[tuple[str, str]] = []
    for row in text.split("\n"):
        if lone_command(row) is not None:
            parts.append(("command", row))
        elif parts and parts[-1][0] == "text":
            parts[-1] = ("text", parts[-1][1] + "\n" + row)
        else:
            parts.append(("text", row))
    return parts


def _widget(kind: str, text: str) -> Widget:
    if kind == "command":
        command = lone_command(text) or text
        return CommandRow(command, text[:len(text) - len(text.lstrip(" "))])
    return Shown(text, markup=False)


class ShownCommands(Vertical):
    """A `Shown` text (plain, no markup) whose lone command rows are `CommandRow`s; `update` replaces the text."""

    DEFAULT_CSS = """
    ShownCommands {
        height: auto;
    }
    """

    def __init__(self, text: str = "", *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.text = runnable(text)

    def compose(self):
        yield from (_widget(kind, part) for kind, part in _parts(self.text))

    def update(self, text: str = "") -> None:
        """Show `text` instead: rows of the same kinds are updated in place, others built anew."""
        text = runnable(text)
        if text == self.text and self.children:
            return
        self.text = text
        parts = _parts(text)
        kinds = [kind for kind, _ in parts]
        children = list(self.children)
        if "command" not in kinds and [("command" if isinstance(c, CommandRow) else "text") for c in children] == kinds:
            for child, (_kind, part) in zip(children, parts, strict=True):
                child.update(part)
            return
        if self.is_mounted:
            self.remove_children()
            self.mount_all([_widget(kind, part) for kind, part in parts])
        self.refresh(layout=True)
        if self.is_attached:
            self.screen.refresh_bindings()  # ctrl+y is offered only while a command is shown

    def commands(self) -> list[CommandRow]:
        return list(self.query(CommandRow))

    def render(self):
        """The whole text, masked, as its rows show it (what `str(widget.render())` reads back, as for a `Shown`)."""
        return Content(masked(self.text))

    def _render(self):
        return visualize(self, Widget.render(self), markup=False)  # drawn as a container: its rows draw the text


#: The key that copies a command (`CopiesCommands`); a priority binding, so a text box that has the focus (the Diagnose
#: screen's) does not take it first.
COPY_COMMAND = Binding("ctrl+y", "copy_command", "Copy the command", id="copy-command", priority=True,
                       tooltip="Copy the selected command row (Tab to it), else the main one, to the clipboard")


class CopiesCommands:
    """What a screen showing `ShownCommands` adds (with `COPY_COMMAND` in its BINDINGS and `copy_offered` in its
    `check_action`): ctrl+y copies the focused command row, else the screen's last one, exactly as shown."""

    def copy_offered(self) -> bool:
        return bool(self.query(CommandRow))

    def main_command_row(self, rows: list[CommandRow]) -> CommandRow:
        """The row ctrl+y copies when none has the focus: the last one (the command to run again), unless a screen
        says otherwise (the Done screen: its first, the activate command, walk 39 #1)."""
        return rows[-1]

    def action_copy_command(self) -> None:
        rows = list(self.query(CommandRow))
        if not rows:
            return
        focused = self.focused
        row = focused if isinstance(focused, CommandRow) else self.main_command_row(rows)
        self.app.copy_to_clipboard(row.command)
        self.notify(f"Copied to the clipboard: {row.command}", title="ctrl+y")
