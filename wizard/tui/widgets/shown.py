"""Text on the app's screens, with every secret masked: the screen is an output channel like stdout.

Why one widget: the screens show what the user and the state gave them — a GraphCast source or wheelhouse
URL with a password or a signed query, a history entry's error (history.json can be edited), an installer's
words — and each screen rendered its own text, so one that forgot to mask (the History screen showed an
edited entry's token in clear) leaked what `gc-wizard history` masks. Every `Static` and dialog `Label` of
the app is a `Shown` or `ShownLabel`, which pass their text through `wizard.security.redact_secrets`, the
same pass stdout and the logs get, and show invisible format characters (bidi overrides, zero-width spaces)
as their escapes (`reveal_format_characters`), when made and on every `update`.
"""

from __future__ import annotations

from textual.widgets import Label, Static

from wizard.security import redact_secrets, reveal_format_characters


def masked(content):
    """`content` (text, or a rich/Textual text object) with its secrets masked; other renderables as they are."""
    if isinstance(content, str):
        return reveal_format_characters(redact_secrets(content))
    plain = getattr(content, "plain", None)
    if isinstance(plain, str):
        hidden = reveal_format_characters(redact_secrets(plain))
        return content if hidden == plain else hidden  # styles give way to the mask
    return content


class Shown(Static):
    """A `Static` whose text is masked when made and on every `update`."""

    def __init__(self, content="", *args, **kwargs) -> None:
        super().__init__(masked(content), *args, **kwargs)

    def update(self, content="", *args, **kwargs) -> None:
        super().update(masked(content), *args, **kwargs)


class ShownLabel(Label):
    """A dialog's `Label` (a question quoting an installer or a path), masked like `Shown`."""

    def __init__(self, content="", *args, **kwargs) -> None:
        super().__init__(masked(content), *args, **kwargs)

    def update(self, content="", *args, **kwargs) -> None:
        super().update(masked(content), *args, **kwargs)
