"""The app's rollback question says the Jupyter kernel will move, and warns when it leaves the notebook-ready env
(walk 23 #1: History → r → y moved it without a word in the dialog)."""

from __future__ import annotations

import sysconfig
import venv
from pathlib import Path

import ipykernel
from textual.app import App
from textual.widgets import DataTable

from tests.fixtures.pilot import screen_rows
from wizard.after.kernel import kernel_install
from wizard.history.store import Entry, load_history
from wizard.install.envs import write_marker
from wizard.lock import StateLock
from wizard.paths import envs_dir
from wizard.tui.screens.confirm import ConfirmScreen
from wizard.tui.screens.history import HistoryScreen

RECIPE = "jax0.4.23-cpu"


class _HistoryHost(App):
    CSS_PATH = str(Path(__file__).resolve().parents[2] / "wizard" / "tui" / "app.tcss")  # the app's own layout

    def on_mount(self) -> None:
        self.push_screen(HistoryScreen())


def _env(name: str, notebook: bool, recipe: str = RECIPE) -> Path:
    """A real venv with the wizard's marker and ipykernel (the test env's own, through a .pth)."""
    env = envs_dir() / name
    env.parent.mkdir(parents=True, exist_ok=True)
    venv.create(env, with_pip=False)
    write_marker(env, {"recipe": recipe, "title": "JAX 0.4.23 on the CPU", "backend": "cpu", "notebook": notebook,
                       "graphcast_version": "0.1.1"})
    purelib = sysconfig.get_path("purelib", vars={"base": str(env), "platbase": str(env)})
    Path(purelib, "test-ipykernel.pth").write_text(str(Path(ipykernel.__file__).parents[1]) + "\n")
    return env


async def test_history_r_says_the_kernel_moves_off_the_notebook_env(isolated_state, tmp_path, monkeypatch):
    monkeypatch.setenv("JUPYTER_DATA_DIR", str(tmp_path / "jupyter"))
    plain, notebook = _env(f"{RECIPE}-plain", False), _env(f"{RECIPE}-nb", True)
    name = kernel_install(notebook)["name"]
    with StateLock("test"):
        history = load_history(locked=True)
        entries = [Entry(id=f"e-{i}", kind="install", recipe=RECIPE, env=str(env), status="verified",
                         packages=["jax==0.4.23"]) for i, env in enumerate((plain, notebook))]
        for entry in entries:
            history.add(entry)
        history.make_current(entries[1])
        history.save()
    app = _HistoryHost()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        table = app.screen.query_one(DataTable)
        row = next(i for i, entry in enumerate(app.screen.entries) if entry.id == "e-0")
        table.move_cursor(row=row)
        await pilot.pause()
        await pilot.press("r")
        for _ in range(50):
            await pilot.pause(0.05)
            if isinstance(app.screen, ConfirmScreen):
                break
        question = " ".join(app.screen.question.split())
        assert f"The Jupyter kernel {name} will then run {plain} (it runs {notebook} now)." in question, question
        assert f"! {plain} lacks the notebook's own packages" in question, question
        # walk 27 #7: at 80×24 this question pushed the buttons off the screen, and no key said how to answer
        on_screen = "\n".join(screen_rows(app))
        assert "Roll back (y)" in on_screen and "Cancel (n)" in on_screen, on_screen


def test_the_done_screen_after_a_rollback_says_what_followed_from_the_files(isolated_state, tmp_path, monkeypatch):
    """Walk 27 #8: after History rolled back from this install (b) to a, the Done screen named a as current but kept
    the install's own line "The Jupyter kernel … now runs b" while kernel.json had followed to a, and "f, k and m act
    on it" did not say which. The lines come from the files now (`after.follow.followed_lines`): the kernel runs a
    (it followed), activate follows, and f, k and m are said to act on a by name."""
    from tests.fixtures.results import install_result
    from wizard.after.follow import follow_current
    from wizard.tui.screens.done import summary_text

    monkeypatch.setenv("JUPYTER_DATA_DIR", str(tmp_path / "jupyter"))
    a, b = _env(f"{RECIPE}-a", False), _env(f"{RECIPE}-b", False)
    name = kernel_install(b)["name"]
    install_said = f"The Jupyter kernel {name} now runs {b} (it ran {a})."
    assert follow_current(a) == [f"The Jupyter kernel {name} now runs {a} (it ran {b})."]  # what the rollback did
    result = install_result(ok=True, recipe=RECIPE, env=str(b), log="/l", moved=[install_said])
    text = " ".join(summary_text(result, str(a)).split())
    assert install_said not in text, text
    assert f"The Jupyter kernel {name} runs {a} (it followed)." in text, text
    assert f"f (forecast), k (Jupyter kernel) and m (module file) act on {a}, not on this install's" in text, text
    assert f"activate` follows the current environment: it loads {a}." in text, text
    # without a rollback the install's own line stays, as walk 24 #7 wants
    assert install_said in summary_text(result, str(b))


def test_after_a_rollback_the_other_recipes_kernel_is_said_to_stay(isolated_state, tmp_path, monkeypatch):
    """Walk 27 #8 with walk 26 #11's case: rolled back from another recipe's env, whose kernel stays there; the Done
    screen says so, with the command that adds one for the env now current."""
    from tests.fixtures.results import install_result
    from wizard.tui.screens.done import summary_text

    monkeypatch.setenv("JUPYTER_DATA_DIR", str(tmp_path / "jupyter"))
    a, other = _env(f"{RECIPE}-a", False), _env("jax0.10.2-cpu-b", False, recipe="jax0.10.2-cpu")
    name = kernel_install(other)["name"]
    result = install_result(ok=True, recipe="jax0.10.2-cpu", env=str(other), log="/l",
                            moved=[f"The Jupyter kernel {name} now runs {other}."])
    text = " ".join(summary_text(result, str(a)).split())
    assert f"The Jupyter kernel {name} stays on its own environment;" in text, text
    assert f"kernel install` adds one for {a}." in text and f"now runs {other}" not in text, text
