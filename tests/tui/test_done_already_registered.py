"""Walk 39 #4: the Done screen said "The Jupyter kernel … now runs" the new environment, then "press k to register it
as a kernel", as if it were not. The words over the kernel (and module) command come from the files as they are now
(`flows.next_lines.use_heads`, by `after.follow.steps_done`, which the "Next:" lines read too).

Real parts: the real Done screen and its summary, a kernel.json gc-wizard wrote (its `metadata.gc_wizard` mark) in the
test's own JUPYTER_DATA_DIR, Textual's Pilot at 80 columns."""

from __future__ import annotations

import json
import os

from textual.app import App

from tests.fixtures.pilot import SIZE, until
from tests.fixtures.results import install_result
from wizard.flows import next_lines
from wizard.tui.screens.done import DoneScreen
from wizard.tui.widgets.commands import ShownCommands


def _kernel_for(env) -> None:
    folder = os.path.join(os.environ["JUPYTER_DATA_DIR"], "kernels", "gc-wizard-jax0.4.23-cpu")
    os.makedirs(folder)
    spec = {"argv": [f"{env}/bin/python", "-m", "ipykernel_launcher", "-f", "{connection_file}"],
            "display_name": "GraphCast (jax0.4.23-cpu)", "language": "python",
            "metadata": {"gc_wizard": {"env": str(env), "recipe": "jax0.4.23-cpu"}}}
    with open(os.path.join(folder, "kernel.json"), "w", encoding="utf-8") as handle:
        json.dump(spec, handle)


async def _summary(tmp_path, env) -> str:
    class _App(App):
        CSS_PATH = "../../wizard/tui/app.tcss"

        def __init__(self) -> None:
            super().__init__()
            self.assets, self.assets_reach = str(tmp_path), None  # a local folder: no host asked

        def on_mount(self) -> None:
            self.push_screen(DoneScreen(install_result(ok=True, env=str(env), log="/l")))

    app = _App()
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, DoneScreen), settle=0.3)
        return " ".join(app.screen.query_one("#summary", ShownCommands).text.split())


async def test_a_kernel_that_runs_the_env_already_is_said_registered_and_k_registers_it_again(isolated_state,
                                                                                             tmp_path):
    env = tmp_path / "envs" / "jax0.4.23-cpu-1"
    env.mkdir(parents=True)
    assert "press k to register it as a kernel" in await _summary(tmp_path, env)
    _kernel_for(env)
    text = await _summary(tmp_path, env)
    assert "press k to register it" not in text, text
    assert "it is registered as a kernel already; k registers it again" in text, text


def test_the_module_words_follow_its_file_too(monkeypatch):
    monkeypatch.setattr(next_lines, "steps_done", lambda env: frozenset({"module"}))
    kernel, module = next_lines.use_heads("/e")
    assert "press k to register it as a kernel" in kernel
    assert "module file loads it already; m writes it again" in module and "press m" not in module
    monkeypatch.setattr(next_lines, "steps_done", lambda env: frozenset())
    assert "press m to write a module file" in next_lines.use_heads("/e")[1]
