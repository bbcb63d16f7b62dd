"""Every recipe, compatible or not, with its reasons, grouped by the GraphCast it runs; the recommended
one preselected. `v` switches which GraphCast the recommendation is for (any, v0.1.1, v0.2)."""

from __future__ import annotations

from collections.abc import Callable

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, OptionList, Static
from textual.widgets.option_list import Option

from wizard.flows.history import FAILED_CHECK_MARK, installed_recipes, installed_words, last_failed_checks
from wizard.flows.recipe_list import (
    DEFAULT_GRAPHCAST_VERSION,
    fetched_from_words,
    graphcast_label,
    group_by_graphcast,
    unreachable_headline,
    unreachable_verdict,
)
from wizard.security import cut
from wizard.tui.messages import RecipesRematched
from wizard.tui.problems import problem_text
from wizard.tui.widgets.shown import Shown, masked


def describe_match(match, installed: str | None = None, failed: str | None = None) -> str:
    """The recipe's text; `failed` (`last_failed_checks`): its newest install's failed check, said first."""
    recipe = match.recipe
    lines = [recipe.title, f"id: {recipe.id} · runs {graphcast_label(recipe.graphcast.version)}", ""]
    if failed:
        lines += [f"! {failed}", ""]
    if installed:
        lines += [installed_words(installed) + ": a new install builds another environment beside it (History lists them all).", ""]
    if match.compatible:
        headline = unreachable_headline(match) or f"Compatible with {match.machine}."  # as the list's "!" (walk 37 #10)
        lines.append(headline + ("  RECOMMENDED" if match.recommended else ""))
        if match.summary and match.summary != "compatible":
            lines.append(match.summary[0].upper() + match.summary[1:] + ".")
    else:
        lines.append("Not compatible:")
        lines += [f"  - {reason}" for reason in match.reasons]
    if match.warnings:
        lines.append("")
        lines += [f"! {warning}" for warning in match.warnings]
    fetched = fetched_from_words(recipe)  # walk 23 #3: "fits" said nothing of GitHub
    if fetched:
        lines += ["", fetched]
    lines += ["", " ".join(recipe.description.split())]
    return "\n".join(lines)


def option_label(match, width: int = 74, installed: str | None = None, failed: bool = False) -> str:
    """One row: a mark (★ recommended, ✓ fits, ✗ does not), the id, and the verdict or first reason;
    `installed` ("current"/"installed") is said first; `failed`: its newest install failed its check, said before the
    verdict with the mark "!" (walk 28 #8: it was recommended again as if untroubled)."""
    mark = "★" if match.recommended else ("✓" if match.compatible else "✗")
    unreachable = unreachable_verdict(match)  # walk 25 #2: flagged, not "fits"
    if unreachable:
        mark, verdict = "!", unreachable
    elif match.recommended:
        verdict = "recommended"
    elif match.cautioned:
        verdict = "fits, but not recommended on this GPU"
    elif match.compatible:
        verdict = f"fits {match.machine}"
    else:
        verdict = match.reasons[0] if match.reasons else "does not fit"
    if installed:
        verdict = f"{installed} · {verdict}"
    if failed:
        mark, verdict = "!", f"{FAILED_CHECK_MARK} · {verdict}"
    label = f"{mark} {match.recipe.id:<26} {verdict}"
    return cut(label, width)


def version_line(version: str | None, versions: list[str]) -> str:
    """The line under the title: which GraphCast the recommendation is for, and the key to change it."""
    if version is None:
        what = f"any GraphCast (v{DEFAULT_GRAPHCAST_VERSION} first)"
    else:
        what = f"GraphCast v{version} only"
    # One 80-column line with every version the recipes run (four keys today).
    return f"Recommending for {what} · v: " + " / ".join(["any"] + [f"v{v}" for v in versions])


#: The title of v's notices: one replaces the other (`WizardApp.on_notify`), so v pressed twice shows one toast.
VERSION_NOTICE = "GraphCast version"


class RecipeScreen(Screen):
    """Dismisses with the chosen `RecipeMatch`, or None for Back."""

    BINDINGS = [
        Binding("enter", "choose", "Next: plan", id="next", tooltip="See exactly what installing it runs",
                priority=True),
        Binding("v", "version", "GraphCast version", id="version",
                tooltip="Recommend for any GraphCast, for v0.1.1 (the demo notebook) or for v0.2 (GenCast)"),
        Binding("escape", "back", "Back", id="back", tooltip="Back to this machine's facts"),
        # The list keeps ↑/↓ and the pane takes the page keys, even with the list focused (priority): walk 26 #13 —
        # PageDown moved the list's selection, and the recipe text scrolled only after Tab, which no key said.
        Binding("pagedown", "scroll_detail(1)", "Scroll text", id="page-down", key_display="PgDn/PgUp",
                tooltip="Scroll the recipe's text (PageDown / PageUp)", priority=True),
        Binding("pageup", "scroll_detail(-1)", "Scroll text", id="page-up", show=False, priority=True),
    ]

    def __init__(self, matches: list, selected: str | None = None, *,
                 rematch: Callable[[str | None], list] | None = None, graphcast_version: str | None = None) -> None:
        super().__init__()
        self.matches = matches
        self.selected = selected
        """The recipe to highlight first (coming back from its plan); else the recommended one."""
        self.rematch = rematch
        """Matches the recipes again for a GraphCast version (None: any); without it `v` is off."""
        self.graphcast_version = graphcast_version
        self.rows: list = []
        """The option list's rows: a match, or None for a group heading."""
        self.installed = installed_recipes()
        self.failed = last_failed_checks(named=True)
        """Recipe id -> its newest install's failed check, in words (`last_failed_checks`)."""

    def index_of(self, recipe_id: str) -> int:
        """The option-list row of a recipe (rows include the group headings)."""
        return next(i for i, m in enumerate(self.rows) if m is not None and m.recipe.id == recipe_id)

    @property
    def highlighted_match(self):
        """The match of the highlighted row, or None (a heading, or nothing highlighted)."""
        index = self.query_one(OptionList).highlighted
        return self.rows[index] if index is not None and 0 <= index < len(self.rows) else None

    def _versions(self) -> list[str]:
        return [version for version, _ in group_by_graphcast(self.matches)]

    def _options(self) -> list[Option]:
        self.rows = []
        options = []
        for version, group in group_by_graphcast(self.matches):
            self.rows.append(None)
            options.append(Option(masked(f"── {graphcast_label(version)}"), disabled=True))
            for match in group:
                self.rows.append(match)
                options.append(Option(masked(option_label(match, installed=self.installed.get(match.recipe.id),
                                                           failed=match.recipe.id in self.failed)),
                                      id=match.recipe.id))  # a user recipe's title: shown as every Static is
        return options

    def compose(self) -> ComposeResult:
        yield Shown("gc-wizard · Step 2 of 5 · Choose a recipe", classes="title")
        yield Shown(version_line(self.graphcast_version, self._versions()), id="graphcast-version", markup=False)
        yield OptionList(*self._options(), id="recipes", markup=False)
        with VerticalScroll(id="recipe-detail"):
            yield Shown("", id="detail", markup=False)
        yield Footer(compact=True)

    def _highlight(self) -> None:
        option_list = self.query_one(OptionList)
        rows = self.rows
        index = next((i for i, m in enumerate(rows) if m is not None and m.recipe.id == self.selected),
                     next((i for i, m in enumerate(rows) if m is not None and m.recommended),
                          next((i for i, m in enumerate(rows) if m is not None), 0)))
        option_list.highlighted = index
        option_list.focus()
        self._show(index)

    def on_mount(self) -> None:
        self._highlight()

    def _show(self, index: int | None) -> None:
        """The highlighted recipe's text, from its top (walk 33 #7: a PgDn on one recipe left the next one's text
        scrolled mid-way, its name and header out of view)."""
        if index is not None and 0 <= index < len(self.rows) and self.rows[index] is not None:
            match = self.rows[index]
            self.query_one("#detail", Static).update(describe_match(match, self.installed.get(match.recipe.id),
                                                                          self.failed.get(match.recipe.id)))
            self.query_one("#recipe-detail", VerticalScroll).scroll_home(animate=False, immediate=True)

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        self._show(event.option_index)
        self.call_after_refresh(self._heading_in_view, event.option_index)

    def _heading_in_view(self, index: int) -> None:
        """The group heading right above the highlighted recipe kept in view with it: Home highlighted the first
        recipe and scrolled its `── GraphCast v0.1.1 …` heading out of view (walk 33 #7); a list of several
        versions does the same at each group's first recipe on ↑."""
        found = self.query(OptionList)  # after a refresh: the screen may be leaving by then (ctrl+q), its list gone
        if not found:
            return
        option_list = found.first()
        if option_list.highlighted != index or not 0 < index < len(self.rows) or self.rows[index - 1] is not None:
            return
        if index - 1 == 0:
            option_list.scroll_home(animate=False, immediate=True)
            return
        lines = getattr(option_list, "_index_to_line", {})  # where each row starts (Textual keeps no public map)
        if isinstance(lines, dict) and index - 1 in lines and lines[index - 1] < option_list.scroll_offset.y:
            option_list.scroll_to(y=lines[index - 1], animate=False, immediate=True)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.action_choose()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "version":
            return self.rematch is not None
        return True

    def action_version(self) -> None:
        if self.rematch is None:
            return
        choices: list[str | None] = [None, *self._versions()]
        current = choices.index(self.graphcast_version) if self.graphcast_version in choices else 0
        self.notify("Matching the recipes again…", title=VERSION_NOTICE, timeout=2)
        self._rematch(choices[(current + 1) % len(choices)])

    @work(thread=True, exclusive=True, exit_on_error=False, group="rematch", description="Matching the recipes")
    def _rematch(self, version: str | None) -> None:
        """Off the screen's thread: matching may ask a host whether it answers (no look-up blocks a screen)."""
        try:
            matches = self.rematch(version)
        except Exception as exc:  # a recipe file that broke meanwhile: said, the list stays as it was
            self.post_message(RecipesRematched(version, [], problem_text("match the recipes again", exc)))
        else:
            self.post_message(RecipesRematched(version, matches))

    @on(RecipesRematched)
    def _rematched(self, message: RecipesRematched) -> None:
        message.stop()
        if message.error is not None:
            self.notify(message.error, severity="error")
            return
        self.graphcast_version, self.matches = message.version, message.matches
        self.selected = None
        option_list = self.query_one(OptionList)
        option_list.clear_options()
        option_list.add_options(self._options())
        self.query_one("#graphcast-version", Static).update(version_line(self.graphcast_version, self._versions()))
        self._highlight()
        best = next((m for m in self.matches if m.recommended), None)
        which = f"GraphCast v{self.graphcast_version}" if self.graphcast_version else "any GraphCast"
        self.notify(f"Recommending for {which}: " + (best.recipe.id if best else "no recipe fits"),
                    title=VERSION_NOTICE)

    def action_choose(self) -> None:
        index = self.query_one(OptionList).highlighted
        if index is None or not 0 <= index < len(self.rows) or self.rows[index] is None:
            return
        match = self.rows[index]
        if not match.compatible:
            self.notify(f"That recipe does not fit {match.machine}; its reasons are listed. Choose another.",
                        severity="warning")
            return
        self.dismiss(match)

    def action_scroll_detail(self, direction: int) -> None:
        """PageDown / PageUp: the recipe's text by a page, whichever part of the screen has the focus."""
        pane = self.query_one("#recipe-detail", VerticalScroll)
        if direction > 0:
            pane.scroll_page_down(animate=False)
        else:
            pane.scroll_page_up(animate=False)

    def action_back(self) -> None:
        self.dismiss(None)
