"""Every recipe, compatible or not, with its reasons; the recommended one preselected."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, OptionList, Static
from textual.widgets.option_list import Option


def describe_match(match) -> str:
    recipe = match.recipe
    lines = [recipe.title, f"id: {recipe.id}", ""]
    if match.compatible:
        lines.append("Compatible with this machine." + ("  RECOMMENDED" if match.recommended else ""))
        if match.summary and match.summary != "compatible":
            lines.append(match.summary[0].upper() + match.summary[1:] + ".")
    else:
        lines.append("Not compatible:")
        lines += [f"  - {reason}" for reason in match.reasons]
    if match.warnings:
        lines.append("")
        lines += [f"! {warning}" for warning in match.warnings]
    lines += ["", " ".join(recipe.description.split())]
    return "\n".join(lines)


def option_label(match, width: int = 74) -> str:
    """One row: a mark (★ recommended, ✓ fits, ✗ does not), the id, and the verdict or first reason."""
    mark = "★" if match.recommended else ("✓" if match.compatible else "✗")
    if match.recommended:
        verdict = "recommended"
    elif match.compatible:
        verdict = "fits this machine"
    else:
        verdict = match.reasons[0] if match.reasons else "does not fit"
    label = f"{mark} {match.recipe.id:<26} {verdict}"
    return label if len(label) <= width else label[: width - 1] + "…"


class RecipeScreen(Screen):
    """Dismisses with the chosen `RecipeMatch`, or None for Back."""

    BINDINGS = [
        Binding("enter", "choose", "Next: plan", id="next", tooltip="See exactly what installing it runs",
                priority=True),
        Binding("escape", "back", "Back", id="back", tooltip="Back to this machine's facts"),
    ]

    def __init__(self, matches: list, selected: str | None = None) -> None:
        super().__init__()
        self.matches = matches
        self.selected = selected
        """The recipe to highlight first (coming back from its plan); else the recommended one."""

    def compose(self) -> ComposeResult:
        yield Static("gc-wizard · Step 2 of 5 · Choose a recipe", classes="title")
        options = [Option(option_label(match), id=match.recipe.id) for match in self.matches]
        yield OptionList(*options, id="recipes", markup=False)
        with VerticalScroll(id="recipe-detail"):
            yield Static("", id="detail", markup=False)
        yield Footer(compact=True)

    def on_mount(self) -> None:
        option_list = self.query_one(OptionList)
        index = next((i for i, m in enumerate(self.matches) if m.recipe.id == self.selected),
                     next((i for i, m in enumerate(self.matches) if m.recommended), 0))
        option_list.highlighted = index
        option_list.focus()
        self._show(index)

    def _show(self, index: int | None) -> None:
        if index is not None and 0 <= index < len(self.matches):
            self.query_one("#detail", Static).update(describe_match(self.matches[index]))

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        self._show(event.option_index)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.action_choose()

    def action_choose(self) -> None:
        index = self.query_one(OptionList).highlighted
        if index is None:
            return
        match = self.matches[index]
        if not match.compatible:
            self.notify("That recipe does not fit this machine; its reasons are listed. Choose another.",
                        severity="warning")
            return
        self.dismiss(match)

    def action_back(self) -> None:
        self.dismiss(None)
