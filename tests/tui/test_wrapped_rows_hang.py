"""Walk 28 #18: wherever the app shows a label and its value, a bulleted or indented paragraph or a quoted evidence
line, a long one wrapped back to column 0 or 1, and a path was cut inside its name (`…/envs/jax0.4.23-cpu-20` /
`261128-193636`). Every text widget of the app now wraps its lines as the core lays them out (`wizard.wrap.hanging`,
at the width it is drawn in): each further row starts under its own value, and a path stays whole (spelled with ~ for
the home folder where only that fits). These read the rows of the real screens at 80×24."""

from __future__ import annotations

from pathlib import Path

from textual.app import App

from tests.fixtures.pilot import (
    SIZE,
    ScreenHost,
    facts_shown,
    read_when_shown,
    screen_rows,
    shown_rows,
    until,
)
from wizard.flows.diagnosis import diagnose_file
from wizard.tui.app import WizardApp
from wizard.tui.screens.confirm import ConfirmScreen
from wizard.tui.screens.diagnose import DiagnoseScreen

LOG = Path(__file__).resolve().parents[1] / "logs" / "plugin_no_visible_gpu.log"
CSS = Path(__file__).resolve().parents[2] / "wizard" / "tui" / "app.tcss"
HOME = "/home/newbie"
ENVS = f"{HOME}/.local/share/gc-wizard/envs"


async def test_an_evidence_line_goes_on_under_its_quoted_text(isolated_state):
    """`> jaxlib.xla_extension.XlaRuntimeError: FAILED_PRECONDITION: No visible` / ` GPU devices.` in the app."""
    evidence = diagnose_file(str(LOG)).findings[0].evidence
    assert any(len(line) > 80 for line in evidence)  # lines the pane cannot hold on one row

    class Host(ScreenHost):
        CSS_PATH = str(CSS)

    app = Host(DiagnoseScreen())
    async with app.run_test(size=SIZE) as pilot:
        screen = app.shown
        await until(pilot, lambda: screen.query_one("#log-text") is not None, settle=0.1)
        screen.query_one("#log-text").text = LOG.read_text()
        await pilot.press("ctrl+d")
        await until(pilot, lambda: screen.lines is not None, timeout=60, settle=0.3)
        # The findings are painted after `lines` is set: read the rows once the first evidence line is on them (CI
        # run 46 read the screen before, under load, and found the paste box still there).
        await read_when_shown(pilot, "#diagnosis", f"> {evidence[0]}", timeout=60)
        rows = screen_rows(app)
    for line in evidence:
        shown = shown_rows(rows, f"> {line}")
        assert " ".join(part for _, part in shown) == " ".join(f"> {line}".split()), (line, rows)  # whole, no word cut
        first = shown[0][0]
        assert len(shown) > 1 and all(column == first + 2 for column, _ in shown[1:]), (shown, rows)


async def test_the_roll_back_question_keeps_each_path_whole_and_each_value_under_itself(monkeypatch):
    """`█           /home/newbie/.local/share/gc-wizard/envs/jax0.4.23-cpu-20    █` / `█  261128-193636   █`, and
    `█  target : jax0.4.23-cpu [20261129-005250-946e] — jax 0.4.23, jaxlib        █` / `█  0.4.23, numpy 1.26.4 █`."""
    monkeypatch.setenv("HOME", HOME)
    current = ("current: jax0.4.23-cuda12-cudnn89 [20261128-193405] — jax 0.4.23, jaxlib 0.4.23+cuda12.cudnn89, "
               "cuDNN 8.9.7.29")
    # Walk 33 #6: the `target :` label is padded to line up with `current:`; its value went on at column 3.
    target = "target : jax0.4.23-cpu [20261129-005250-946e] — jax 0.4.23, jaxlib 0.4.23, numpy 1.26.4"
    question = "\n".join([
        "Roll back?", current, f"         {ENVS}/jax0.4.23-cuda12-cudnn89-20261128-193405",
        target, f"         {ENVS}/jax0.4.23-cpu-20261128-193636", "",
        "The target is checked again before it becomes current."])

    class Host(App):
        CSS_PATH = str(CSS)

        def on_mount(self) -> None:
            self.push_screen(ConfirmScreen(question, yes="Roll back", no="Cancel"))

    app = Host()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause(0.3)
        rows = screen_rows(app)
    shown = shown_rows(rows, current)
    assert " ".join(part for _, part in shown) == current and len(shown) > 1, rows
    value = shown[0][0] + len("current: ")
    assert all(column == value for column, _ in shown[1:]), (shown, rows)
    below = shown_rows(rows, target)
    assert " ".join(part for _, part in below) == target and len(below) > 1, rows
    assert all(column == value for column, _ in below[1:]), (below, rows)
    for name in ("jax0.4.23-cpu-20261128-193636", "jax0.4.23-cuda12-cudnn89-20261128-193405"):
        path = f"{ENVS}/{name}"
        assert any(path in row or f"~{path[len(HOME):]}" in row for row in rows), (name, rows)  # whole, on one row


async def test_a_long_fact_value_goes_on_under_its_column(gpu_server, isolated_state, monkeypatch):
    """The Machine screen's `GraphCast env` / ` /home/newbie/…` (walk 29): a value beside its label, a path whole."""
    gpu_server("a100x2-535")
    monkeypatch.setenv("HOME", HOME)
    env = f"{ENVS}/jax0.4.23-cuda12-cudnn89-20261128-193405"
    status = ("jax0.4.23-cuda12-cudnn89 · verified 2026-11-28 19:40, and the check said so for every tier of it: "
              "import, backend, cuDNN, GraphCast")
    monkeypatch.setattr("wizard.flows.history.current_env_text", lambda history=None: f"{env}\n  {status}")
    app = WizardApp()
    async with app.run_test(size=(80, 40)) as pilot:  # 40 rows, where walk 29 saw it: the facts all in view
        await facts_shown(pilot)
        await pilot.pause(0.3)
        rows = screen_rows(app, 40)
    driver = next(row for row in rows if "535.104.05" in row)
    value = driver.index("535.104.05")  # the facts' value column: their longest label, then two spaces
    assert any(env in row or f"~{env[len(HOME):]}" in row for row in rows), rows  # the path whole on one row
    shown = shown_rows(rows, status)
    assert " ".join(part for _, part in shown) == status and len(shown) > 1, rows
    assert {c for c, _ in shown} == {value + 2}, (shown, rows)  # the status's own indent under the value


def test_a_backquoted_command_in_the_apps_prose_is_one_row_whatever_the_width():
    """Walk 37 #3: the Done screen showed `python3` / `-m venv .venv && .venv/bin/pip install ./gc-wizard` on two rows
    (the app's text widgets wrap with `wizard.wrap.hanging`), so a copied command ran as two. The rows the widget
    draws, and copies from, keep each backquoted command on one row; one wider than the pane has a row of its own,
    which Textual folds without a line break."""
    from textual.content import Content

    from wizard.tui.widgets.shown import Hanging

    command = "`python3 -m venv .venv && .venv/bin/pip install ./gc-wizard`"
    long = "`/home/lab2/gc-wizard/.venv/bin/gc-wizard install jax0.4.23-cpu --graphcast-src /home/lab2/graphcast`"
    text = (f"(gc-wizard is not on PyPI: copy it to that machine and, in the folder that holds the copy, install it "
            f"into a venv of its own, {command}). Then run {long} again.")
    for width in range(30, 110, 7):
        visual = Hanging(Content(text))
        visual.at(width, {})
        rows = visual.drawn().plain.split("\n")
        for span in (command, long):
            assert any(span in row for row in rows), (width, rows)
