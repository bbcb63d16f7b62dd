"""The app's screen and its notifications are output channels like stdout: a GraphCast source or wheelhouse the
user gave with a password, a signed link's signature or a token in it is shown masked, also where the Plan
screen shortens a long URL in the middle (the cut URL no longer has the shape the redaction knows); so is an
edited history entry's error on the History screen, and a dialog's question (wizard.tui.widgets.shown)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from textual.widgets import Input

from tests.fixtures.pilot import read_when_shown, screen_text, tiny_app, wait_for
from wizard.install.options import InstallOptions
from wizard.recipes.loader import get_recipe
from wizard.tui.screens.confirm import ConfirmScreen
from wizard.tui.screens.history import HistoryScreen
from wizard.tui.screens.machine import MachineScreen
from wizard.tui.screens.plan import PlanScreen
from wizard.tui.screens.prompt import PromptScreen

PASSWORD = "C4r0lPw0rd9zz"
SIGNATURE = "Qm9vYmFyQmF6UXV4MTIzNDU2Nzg5"
TOKEN = "ghp_" + "Zy8Xw7Vu6Ts5Rq4Po3Nm2Lk1Ji0HgFeDcBa"


def _plan_text(app) -> str:
    return str(app.screen.query_one("#plan").render())


def _notifications(app) -> str:
    return "\n".join(str(note.message) for note in app._notifications)


async def test_plan_screen_and_its_toasts_mask_the_secrets_in_sources(tiny):
    source = f"https://carol:{PASSWORD}@127.0.0.1:9/wheels/graphcast-0.1.1-py3-none-any.whl?sig={SIGNATURE}"
    dirs = (str(tiny.recipes),)
    app = tiny_app(tiny)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, MachineScreen) and app.screen.facts is not None)
        options = InstallOptions(recipe_id="tiny-a", recipes_dirs=dirs, graphcast_src=source,
                                 find_links=(str(tiny.house.path),))
        app.push_screen(PlanScreen(get_recipe("tiny-a", list(dirs)), options))
        await wait_for(pilot, lambda: isinstance(app.screen, PlanScreen) and app.screen.plan is not None)
        await wait_for(pilot, lambda: "127.0.0.1" in _plan_text(app))
        shown = _plan_text(app) + screen_text(app)
        assert PASSWORD not in shown and SIGNATURE not in shown
        assert "<redacted>" in _plan_text(app)  # the source is still there, masked

        # g: the dialog's input would show the source in clear, so it starts empty; Escape keeps the source.
        plan_screen = app.screen
        await pilot.press("g")
        await wait_for(pilot, lambda: isinstance(app.screen, PromptScreen))
        assert app.screen.query_one(Input).value == "" and PASSWORD not in screen_text(app)
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is plan_screen)
        assert plan_screen.options.graphcast_src == source

        # w with a wheelhouse path that does not exist and holds a token: asked again, the reason quoting it masked,
        # and the input empty (it would show the token in clear, as g's does).
        await pilot.press("w")
        await wait_for(pilot, lambda: isinstance(app.screen, PromptScreen))
        app.screen.query_one(Input).value = f"/nowhere/{TOKEN}/wheels"
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, PromptScreen) and app.screen.error is not None)
        assert "/nowhere/" in str(app.screen.query_one("#answer-error").render())
        assert app.screen.query_one(Input).value == ""
        assert TOKEN not in _notifications(app) and TOKEN not in screen_text(app)


async def test_history_screen_and_dialogs_mask_what_the_state_and_installers_say(tiny, isolated_state):
    """history.json can be edited: `gc-wizard history` masks an entry's error, and the History screen, which
    rendered its own text, showed the token in clear. A dialog quoting an installer's question is masked too."""
    _, installed = tiny.install("tiny-a")
    state = json.loads((isolated_state / "history.json").read_text())
    state["entries"][-1]["error"] = (f"uv said: https://x:{PASSWORD}@h/?private_token={SIGNATURE} "
                                     f"and HF_TOKEN=hf_{SIGNATURE}")
    (isolated_state / "history.json").write_text(json.dumps(state))
    app = tiny_app(tiny)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, MachineScreen) and app.screen.facts is not None)
        app.push_screen(HistoryScreen())
        shown = await read_when_shown(pilot, HistoryScreen, "uv said")
        assert PASSWORD not in shown and SIGNATURE not in shown, shown
        app.push_screen(ConfirmScreen(f"The installer asks: Token for https://me:{PASSWORD}@idx/ ({TOKEN})?"))
        shown = await read_when_shown(pilot, ConfirmScreen, "The installer asks")
        assert PASSWORD not in shown and TOKEN not in shown


async def test_history_screen_masks_a_login_after_a_colour_code(tiny, isolated_state):
    """37th hostile pass (part B) P2: an entry's error of 50 `https://u:PW@x/ ESC[5m` showed the first URL masked and
    the 49 after a colour code in clear on the History screen (`ESC[5mhttps` read as one word)."""
    _, installed = tiny.install("tiny-a")
    state = json.loads((isolated_state / "history.json").read_text())
    state["entries"][-1]["status"] = "failed"
    state["entries"][-1]["error"] = "uv said: " + "".join(f"https://u:{PASSWORD}@x.example/ \x1b[5m" for _ in range(50))
    (isolated_state / "history.json").write_text(json.dumps(state))
    app = tiny_app(tiny)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, MachineScreen) and app.screen.facts is not None)
        app.push_screen(HistoryScreen())
        shown = await read_when_shown(pilot, HistoryScreen, "uv said")
        assert "x.example" in shown and PASSWORD not in shown, shown


async def test_the_history_tables_cells_show_escape_sequences_and_tokens_as_every_text_does(tiny, isolated_state):
    """Eighth hostile pass U10: a recipe name in history.json holding `ESC[2J ESC]0;TITLE BEL` and a bidi override
    went raw into the History table: the terminal's title changed and the table blanked. The cells are masked
    like every Static (the detail lines below already were), and a `[` in them is text, not markup."""
    from textual.widgets import DataTable

    tiny.install("tiny-a")
    state = json.loads((isolated_state / "history.json").read_text())
    state["entries"][-1]["recipe"] = f"tiny\x1b[2J\x1b]0;PWNTITLE\x07\u202eevil [b]x[/b] hf_{SIGNATURE}"
    (isolated_state / "history.json").write_text(json.dumps(state))
    app = tiny_app(tiny)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, MachineScreen) and app.screen.facts is not None)
        app.push_screen(HistoryScreen())
        await wait_for(pilot, lambda: isinstance(app.screen, HistoryScreen) and app.screen.query(DataTable)
                       and app.screen.query_one(DataTable).row_count > 0)
        table = app.screen.query_one(DataTable)
        cell = table.get_row_at(table.row_count - 1)[-1]
        plain = getattr(cell, "plain", str(cell))
        assert "\x1b" not in plain and "\u202e" not in plain and SIGNATURE not in plain, plain
        assert plain.startswith("tiny\\u001b[2J\\u001b]0;PWNTITLE\\u0007\\u202eevil [b]x[/b] ")


def test_every_text_widget_of_the_app_is_a_masked_one():
    """A screen added later gets the same pass: no bare Static or Label is made anywhere in the app."""
    tui = Path(__file__).resolve().parents[2] / "wizard" / "tui"
    bare = [f"{path.relative_to(tui)}:{n}" for path in sorted(tui.rglob("*.py")) if path.name != "shown.py"
            for n, line in enumerate(path.read_text().splitlines(), 1) if re.search(r"\b(Static|Label)\(", line)]
    assert bare == [], bare
    # Table rows and list options are text on the screen too (eighth hostile pass U10): made through `masked`.
    unmasked = [f"{path.relative_to(tui)}:{n}" for path in sorted(tui.rglob("*.py"))
                for n, line in enumerate(path.read_text().splitlines(), 1)
                if re.search(r"(\.add_row\(|\bOption\()", line) and "masked(" not in line]
    assert unmasked == [], unmasked


def test_the_apps_shown_text_reveals_invisible_format_characters():
    """The screen is an output channel like stdout: a bidi override from a history entry shows as its escape."""
    from wizard.tui.widgets.shown import masked

    assert masked("tiny\u202eupc") == "tiny\\u202eupc" and masked("a\u2066b\u2069") == "a\\u2066b\\u2069"
