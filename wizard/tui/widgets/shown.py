"""Text on the app's screens, with every secret masked: the screen is an output channel like stdout.

Why one widget: the screens show what the user and the state gave them — a GraphCast source or wheelhouse
URL with a password or a signed query, a history entry's error (history.json can be edited), an installer's
words — and each screen rendered its own text, so one that forgot to mask (the History screen showed an
edited entry's token in clear) leaked what `gc-wizard history` masks. Every `Static` and dialog `Label` of
the app is a `Shown` or `ShownLabel`, which pass their text through `wizard.security.redact_secrets`, the
same pass stdout and the logs get, and show invisible format characters (bidi overrides, zero-width spaces)
as their escapes (`reveal_format_characters`), when made and on every `update`.

Both also wrap their lines as the core lays them out (`wizard.wrap.hanging`), at the width they are drawn in: a
label's value, a bullet's paragraph, a quoted "> " line goes on under its own start, not at column 0, and a path is
never cut inside a name where a row can hold it (walk 28 #18). Why at drawing time: the width a screen guessed for its
text (the pane's padding, a scrollbar that comes and goes, a dialog's border) was a column or two off, and Textual's
own wrap then broke the line at the edge, back at column 0.
"""

from __future__ import annotations

from textual.content import Content
from textual.visual import RenderOptions, Visual
from textual.widgets import Input, Label, Static

from wizard.security import one_line, redact_secrets, reveal_format_characters
from wizard.wrap import hanging


def masked(content):
    """`content` (text, or a rich/Textual text object) with its secrets masked; other renderables as they are."""
    if isinstance(content, str):
        return reveal_format_characters(redact_secrets(content))
    plain = getattr(content, "plain", None)
    if isinstance(plain, str):
        hidden = reveal_format_characters(redact_secrets(plain))
        return content if hidden == plain else hidden  # styles give way to the mask
    return content


class Hanging(Visual):
    """Text drawn with its lines wrapped by `wizard.wrap.hanging` at the width it is given, then as Textual draws text.
    Styled text (markup, spans) is drawn as it is: the wrap works on plain lines."""

    def __init__(self, content: Content) -> None:
        self.content = content
        self._fitted: tuple[int, Content] | None = None

    def __str__(self) -> str:
        return str(self.content)

    def at(self, width: int, rules) -> Content:
        """The text with its lines fitted to `width` cells (the same object while the width stays); as it is where the
        widget's style says not to wrap."""
        if self.content.spans or width <= 0 or rules.get("text_wrap", "wrap") == "nowrap":
            return self.content
        if self._fitted is None or self._fitted[0] != width:
            plain = self.content.plain
            fitted = "\n".join(hanging(plain.expandtabs(8), width, tilde=True))  # a tab is as wide as drawn
            self._fitted = (width, self.content if fitted == plain else Content(fitted))
        return self._fitted[1]

    def drawn(self) -> Content:
        """The text as last drawn (its rows as fitted), for a selection's copy."""
        return self._fitted[1] if self._fitted is not None else self.content

    def render_strips(self, width: int, height: int | None, style, options: RenderOptions) -> list:
        fitted = self.at(width - 2 * options.rules.get("line_pad", 0), options.rules)
        return fitted.render_strips(width, height, style, options)

    def get_optimal_width(self, rules, container_width: int) -> int:
        return self.content.get_optimal_width(rules, container_width)

    def get_minimal_width(self, rules) -> int:
        return self.content.get_minimal_width(rules)

    def get_height(self, rules, width: int) -> int:
        return self.at(width - 2 * rules.get("line_pad", 0), rules).get_height(rules, width)


def hung(content, markup: bool):
    """`content` masked (`masked`), a text as a `Hanging` visual; another renderable as it is."""
    content = masked(content)
    if isinstance(content, str):
        return Hanging(Content.from_markup(content) if markup else Content(content))
    return Hanging(content) if isinstance(content, Content) else content


class _Hung:
    """What `Shown` and `ShownLabel` share: their text masked and hung (`hung`) when made and on every `update`, and a
    selection copied from the rows as drawn (Textual copies only from its own text types)."""

    def __init__(self, content="", *args, markup: bool = True, **kwargs) -> None:
        super().__init__(hung(content, markup), *args, markup=markup, **kwargs)
        self.hung_markup = markup

    def update(self, content="", *args, **kwargs) -> None:
        super().update(hung(content, self.hung_markup), *args, **kwargs)

    def get_selection(self, selection):
        visual = self._render()
        if isinstance(visual, Hanging):
            return selection.extract(str(visual.drawn())), "\n"
        return super().get_selection(selection)


class Shown(_Hung, Static):
    """A `Static` whose text is masked and wrapped under its own indents (`hung`)."""


class ShownLabel(_Hung, Label):
    """A dialog's `Label` (a question quoting an installer or a path), masked and wrapped like `Shown`."""


def input_value(value: str | None) -> str:
    """A value from the state, a file or the options, as an input box may start with it: masked as `Shown` text is
    (`masked`), and on one line (`security.one_line`: a newline and a return as their escapes too).

    Why: 37th hostile pass (part A) P2 — Textual's `Input` draws its value's control characters as they are, so a
    forged history entry's `log` (`x\\e]2;TITLE\\a\\e[5m…`) given to the Diagnose screen's path box set the
    terminal's title and made the row blink, where every `Shown` text escapes them. A clean path is left as it is,
    still usable as the path; one that held escapes shows them as text (what is there, never obeyed)."""
    return one_line(redact_secrets(value)) if value else ""


class ShownInput(Input):
    """An `Input` whose first value is cleaned as `Shown` text is (`input_value`): the one input box of the app.
    What the user types is theirs and stays as typed (a password in a URL they give must reach the dialog whole)."""

    def __init__(self, value: str | None = None, *args, **kwargs) -> None:
        super().__init__(input_value(value), *args, **kwargs)
