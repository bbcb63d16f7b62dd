"""The Done screen writes the Lmod module file beside the Jupyter kernel (key m), from the real app."""

from __future__ import annotations

from pathlib import Path

from tests.fixtures.pilot import SIZE, choose, screen_text, tiny_app, wait_for
from tests.fixtures.results import install_result
from wizard.tui.screens.done import DoneScreen


async def test_done_offers_the_module_file(gpu_server, tiny, isolated_state, tmp_path):
    gpu_server("no-nvidia")
    app = tiny_app(tiny, assets=str(tmp_path))  # local forecast files: no host asked, the pane stays as scrolled
    async with app.run_test(size=SIZE) as pilot:
        await choose(pilot, app, "tiny-b")
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, DoneScreen), timeout=120)
        assert app.install_result.ok, app.install_result
        # Each install's new environment is kept for the lines left on quitting (walk 24 #6).
        assert app.session_envs == [(app.install_result.env, app.install_result.entry_id)]
        # The module lines are the pane's last ones: scrolled to, as a user would, whatever the paths' length.
        app.screen.query_one("#done-pane").scroll_end(animate=False)
        await pilot.pause()
        text = " ".join(screen_text(app).split())
        assert "press m to write a module file" in text and "module load graphcast/tiny-b" in text
        assert app.screen.check_action("module", ()) is True
        await pilot.press("m")
        module = Path(isolated_state) / "modules" / "graphcast" / "tiny-b.lua"
        await wait_for(pilot, module.exists, timeout=30)
    assert f'local env = "{app.install_result.env}"' in module.read_text()



def test_the_done_screen_shows_the_activate_lines_each_whole(monkeypatch):
    """Each line fits the 80-column screen's pane (no wrapping inside a command) and runs on its own."""
    from wizard.tui.screens.done import summary_text

    monkeypatch.setenv("GC_WIZARD_HOME", "/work/scratch/walk3home")
    monkeypatch.setattr("wizard.after.next_steps.program_command", lambda: "/work/walk3/.venv/bin/gc-wizard")
    text = summary_text(install_result(ok=True, recipe="jax0.4.23-cpu", env="/e", log="/l"), None)
    # Each a command row (walk 39 #1): shown whole on its row, and ctrl+y copies it.
    assert "    `export GC_WIZARD_HOME=/work/scratch/walk3home`\n" in text
    assert '    `eval "$(/work/walk3/.venv/bin/gc-wizard activate)"`\n' in text
    # The kernel and module commands too: the export, then the program, each a line of its own that a screen never
    # wraps inside (walk 21 #17: `… GC_WIZARD_HOME=… /work/…/gc-wizard kernel install` broke across rows).
    kernel = "    `export GC_WIZARD_HOME=/work/scratch/walk3home`\n    `/work/walk3/.venv/bin/gc-wizard kernel install`\n"
    assert kernel in text and kernel.replace("kernel", "module") in text
    assert all(len(line) <= 78 for line in text.splitlines() if "gc-wizard" in line)


def test_a_check_that_never_started_on_a_node_says_so_and_where_the_partition_is_changed():
    from wizard.tui.screens.done import summary_text
    from wizard.verify.check import VerifyResult

    verify = VerifyResult(ok=False, env="/e", backend="cpu", level="quick", tiers=[], findings=[], log="/l",
                          seconds=5.0, started=False)
    text = summary_text(install_result(ok=False, env="/e", log="/l", error="installed, but …", verify=verify), None)
    assert text.startswith("Installed, but the GraphCast check never ran on a node.")
    assert "Escape twice goes back to the machine screen, where o changes the partition and srun options" in text
    started = VerifyResult(ok=False, env="/e", backend="cpu", level="quick", tiers=[], findings=[], log="/l",
                           seconds=5.0)
    assert "o changes the partition" not in summary_text(install_result(ok=False, env="/e", verify=started), None)


async def test_a_keys_outcome_is_kept_whole_in_the_pane_not_only_in_a_toast():
    """A kernel's cautions are paragraphs: a toast cut them mid-sentence; the pane keeps them whole, the latest
    replacing the one before, scrolled into view."""
    from textual.app import App

    done = DoneScreen(install_result(ok=True, env="/e", recipe="jax0.4.23-cpu", log="/l"))

    class Host(App):
        def on_mount(self) -> None:
            self.push_screen(done)

    app = Host()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        done.show_note("Kernel registered: GraphCast (jax0.4.23-cpu), in /k\n! " + "a long caution " * 20)
        await pilot.pause()
        done.show_note("Kernel registered again")
        await pilot.pause()
        notes = done.query("#notes")
        assert len(notes) == 1 and "again" in str(notes.first().render())
        assert "Kernel registered again" in screen_text(app)


def test_the_done_screen_says_which_kernel_or_module_file_the_install_moved():
    """walk 24 #7: a kernel written with `--env` for another environment followed the install without a word."""
    from wizard.tui.screens.done import summary_text

    moved = "The Jupyter kernel gc-wizard-jax0.4.23-cpu now runs /envs/b (it ran /envs/a)."
    text = summary_text(install_result(ok=True, recipe="jax0.4.23-cpu", env="/envs/b", log="/l", moved=[moved]), None)
    assert f"Environment: /envs/b\n{moved}\n" in text
