"""Walk 22 #5: where the forecast's files cannot be fetched, the Done screen offered f as if it would work, and after
the forecast failed the only way to give a folder was to quit and start again with --assets. f now asks for the
folder first (checked as `forecast --assets` checks it), and a failed forecast's a asks for one and runs again."""

from __future__ import annotations

from tests.fixtures.cli import bare_program
from tests.fixtures.pilot import SIZE, DoneApp, read_when_shown, screen_text, until
from wizard.after import assets
from wizard.after.forecast import ForecastResult
from wizard.tui.screens.assets import AssetsPromptScreen
from wizard.tui.screens.done import DoneScreen
from wizard.tui.screens.forecast import ForecastScreen

UNREACHABLE = "http://127.0.0.1:9/mirror/"


class _DoneApp(DoneApp):
    CSS_PATH = "../../wizard/tui/app.tcss"


def _files(folder):
    """A folder laid out like the bucket, holding the five files a first forecast reads (names only)."""
    for name in assets.first_forecast_files():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_bytes(b"x")
    return folder


def _forecasts(monkeypatch) -> list:
    """The forecasts the screen runs (their requests), each failing at once as one with no files would."""
    runs = []

    def run(request, **_):
        runs.append(request)
        return ForecastResult(ok=False, env=str(request.env.path), graphcast_version="0.1.1", model="m", dataset="d",
                              steps=1, backend="cpu", error="cannot reach 127.0.0.1")

    monkeypatch.setattr("wizard.tui.screens.forecast.run_forecast", run)
    return runs


def _keys(app) -> set[str]:
    return {binding.binding.action for binding in app.screen.active_bindings.values()}


async def _answer(pilot, app, text: str) -> None:
    await until(pilot, lambda: isinstance(app.screen, AssetsPromptScreen))
    app.screen.query_one("Input").value = text
    await pilot.press("enter")


async def test_f_asks_for_the_files_folder_where_their_host_does_not_answer(isolated_state, tmp_path, monkeypatch):
    runs = _forecasts(monkeypatch)
    monkeypatch.setenv("GC_WIZARD_ASSETS", UNREACHABLE)  # the app's forecast source, whose host does not answer
    app = _DoneApp(None)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, DoneScreen) and app.screen.unreachable, timeout=30, settle=0.2)
        done = app.screen
        shown = " ".join(screen_text(app).split())
        assert "First forecast: press f" not in shown and "its files must be brought here first" in shown
        assert "forecast_from" in _keys(app) and "forecast" not in _keys(app)
        await pilot.press("f")
        # An empty folder is refused in the CLI's words (`forecast --assets`), the text kept to correct.
        empty = tmp_path / "empty"
        empty.mkdir()
        await _answer(pilot, app, str(empty))
        await until(pilot, lambda: app.screen.error is not None and not app.screen.checking)
        said = str(app.screen.query_one("#answer-error").render())
        # Its cause only: the way to gather the files is the question's, and whole it pushed the input off the dialog.
        assert "no params/ files" in said and "bundle" not in said, said
        assert app.screen.query_one("Input").value == str(empty) and not runs
        # Walk 33 #13: in the app's words: there is no --assets in the app.
        assert "--assets" not in said and "give a folder laid out like the bucket" in " ".join(said.split()), said
        above = tmp_path / "lab"
        _files(above / "assets")  # the folder above the files: the one inside is named, as the dialog takes it
        await _answer(pilot, app, str(above))
        await until(pilot, lambda: "inside it does" in str(app.screen.query_one("#answer-error").render()))
        said = " ".join(str(app.screen.query_one("#answer-error").render()).split())
        assert "--assets" not in said and f"{above} holds no params/" in said and f"give {above / 'assets'}" in said
        folder = _files(tmp_path / "assets")
        await _answer(pilot, app, f"  {folder}  ")
        await until(pilot, lambda: isinstance(app.screen, ForecastScreen))
        assert app.assets == str(folder) and app.screen.assets == str(folder)
        await until(pilot, lambda: app.screen.ended, settle=0.2)
        assert runs[-1].assets == str(folder)
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is done, settle=0.2)
        # Given once, kept: f now runs the forecast from it, and the host's words are gone.
        assert "forecast" in _keys(app) and "forecast_from" not in _keys(app)
        assert "cannot be reached" not in screen_text(app)


async def test_a_failed_forecast_takes_a_folder_and_runs_again(isolated_state, tmp_path, monkeypatch):
    runs = _forecasts(monkeypatch)
    screen = ForecastScreen("/envs/a")
    app = _DoneApp(None)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, DoneScreen))
        app.push_screen(screen)
        await until(pilot, lambda: screen.ended, settle=0.2)
        # drawn a frame or more after `ended` (a loaded machine): wait for the words, not a fixed pause
        await read_when_shown(pilot, ForecastScreen, "Press a to give a folder")
        assert "assets" in _keys(app)
        folder = _files(tmp_path / "assets")
        await pilot.press("a")
        await _answer(pilot, app, str(folder))
        await until(pilot, lambda: app.screen is screen and len(runs) == 2 and screen.ended, settle=0.2)
        assert runs[0].assets is None and runs[1].assets == str(folder) and app.assets == str(folder)


async def test_k_asks_first_naming_where_the_kernel_goes(isolated_state, tmp_path, monkeypatch):
    """Walk 22 #10: k wrote into ~/.local/share/jupyter/kernels/ (outside GC_WIZARD_HOME) without asking. It asks,
    naming that folder and how the kernel is taken away; "Not now" writes nothing."""
    from wizard.tui.screens.confirm import ConfirmScreen

    monkeypatch.setenv("JUPYTER_DATA_DIR", str(tmp_path / "jupyter"))
    written = []
    monkeypatch.setattr("wizard.flows.after_install.kernel_install", lambda env: written.append(env) or {})
    app = _DoneApp(str(tmp_path))  # a local assets folder: no host asked
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, DoneScreen), settle=0.2)
        await pilot.press("k")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        question = app.screen.question
        assert f"{tmp_path / 'jupyter' / 'kernels'}/" in question and "outside gc-wizard's state folder" in question
        assert "`gc-wizard kernel remove`" in bare_program(question)  # as a new shell runs it (walk 37 #6)
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, DoneScreen), settle=0.3)
        assert not written


async def test_f_fills_in_the_folder_the_last_forecast_used(isolated_state, tmp_path, monkeypatch):
    """walk 23 #4: the folder the last forecast that worked used (kept in the state folder) is
    named in the question and filled in, so Enter takes it; the CLI names it in its failure and Next: lines."""
    from wizard.after.assets_memory import remember_assets

    runs = _forecasts(monkeypatch)
    monkeypatch.setenv("GC_WIZARD_ASSETS", UNREACHABLE)
    folder = _files(tmp_path / "lab-assets")
    remember_assets(str(folder))
    app = _DoneApp(None)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, DoneScreen) and app.screen.unreachable, timeout=30, settle=0.2)
        await pilot.press("f")
        await until(pilot, lambda: isinstance(app.screen, AssetsPromptScreen))
        assert app.screen.query_one("Input").value == str(folder)
        question = " ".join(str(app.screen.query_one("#question").render()).split())
        assert f"Your last forecast used {folder}: Enter takes it." in question, question
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, ForecastScreen))
        await until(pilot, lambda: app.screen.ended, settle=0.2)
        assert runs[-1].assets == str(folder)


async def test_the_forecast_screen_says_which_model_ran_and_what_next(isolated_state, tmp_path, monkeypatch):
    """walk 23 #5: the app's forecast shows the core's note on a model other than the announced
    one, and the Next: lines (`after.forecast.describe`; the CLI's test runs the real selection)."""
    tiny = "GraphCast_tiny - test - resolution 10.0 - pressure levels 13 - mesh 2to5 - precipitation input and output.npz"

    def run(request, **_):
        return ForecastResult(ok=True, env=str(request.env.path), graphcast_version="0.1.1", model=tiny,
                              dataset="source-era5_date-2016-01-01_res-10.0_levels-13_steps-04.nc", steps=1,
                              backend="cpu", finite=True, output=str(tmp_path / "out.nc"), log="f.log",
                              assets={"source": str(tmp_path), "checked": "none"},
                              note=assets.substitute_words(tiny))

    monkeypatch.setattr("wizard.tui.screens.forecast.run_forecast", run)
    screen = ForecastScreen("/envs/a", str(tmp_path))
    app = _DoneApp(None)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, DoneScreen))
        app.push_screen(screen)
        await until(pilot, lambda: screen.ended, settle=0.2)
        shown = " ".join((await read_when_shown(pilot, ForecastScreen, "GraphCast_tiny, a test model")).split())
        # ...on the first screen, beside the result
        assert "The source has no GraphCast_small; used the only model there (GraphCast_tiny, a test model at 10°)." \
            in shown, shown
        outcome = " ".join(str(screen.query_one("#outcome").render()).split())  # scrolled to, below the output path
        assert "Next: all 4 steps this example dataset holds:" in outcome and "--steps 4" in outcome, outcome
