"""README's part on the terminal app names the key that copies a shown command (walk 39: ctrl+y was offered in the
footers but said nowhere a reader looks first), as the app binds it, and how it reaches a remote clipboard."""

from __future__ import annotations

from pathlib import Path

from wizard.tui.widgets.commands import COPY_COMMAND

README = Path(__file__).resolve().parents[2] / "README.md"


def test_readme_names_the_copy_key_where_the_apps_keys_are():
    text = README.read_text(encoding="utf-8")
    app = text.split("## The terminal app", 1)[1].split("\n## ", 1)[0]
    assert f"**{COPY_COMMAND.key}**" in app and "focused row" in app and "OSC 52" in app, app
    quick = text.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    assert COPY_COMMAND.key not in quick  # the Quick start stays as it is
