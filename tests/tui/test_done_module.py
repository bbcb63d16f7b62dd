"""The Done screen writes the Lmod module file beside the Jupyter kernel (key m), from the real app."""

from __future__ import annotations

from pathlib import Path

from tests.tui.test_flow import SIZE, _choose, _tiny_app, screen_text, wait_for
from wizard.tui.screens.done import DoneScreen


async def test_done_offers_the_module_file(gpu_server, tiny, isolated_state):
    gpu_server("no-nvidia")
    app = _tiny_app(tiny)
    async with app.run_test(size=SIZE) as pilot:
        await _choose(pilot, app, "tiny-b")
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, DoneScreen), timeout=120)
        assert app.install_result["ok"], app.install_result
        text = " ".join(screen_text(app).split())
        assert "press m to write a module file" in text and "module load graphcast/tiny-b" in text
        assert app.screen.check_action("module", ()) is True
        await pilot.press("m")
        module = Path(isolated_state) / "modules" / "graphcast" / "tiny-b.lua"
        await wait_for(pilot, module.exists, timeout=30)
    assert f'local env = "{app.install_result["env"]}"' in module.read_text()


def test_the_activate_line_is_cut_for_the_shell_not_wrapped_by_the_screen(tmp_path):
    """Copied off an 80-column Done screen, the activate command must paste as one command."""
    import subprocess

    from wizard.tui.screens.done import summary_text

    command = "GC_WIZARD_HOME=/work/scratch/a-rather-long/state-folder /home/newcomer/gc-wizard/.venv/bin/gc-wizard"
    text = summary_text({"ok": True, "recipe": "jax0.4.23-cpu", "env": "/e", "log": "/l"}, None, command, width=80)
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.strip().startswith("eval "))
    block = lines[start:next(i for i in range(start, len(lines)) if not lines[i].endswith("\\")) + 1]
    assert len(block) > 1 and all(len(line) <= 72 for line in block), block
    shown = "\n".join(block).replace("eval ", "printf '[%s]' ", 1).replace(" activate)", " activate | cat)")
    fake = tmp_path / "bin"
    fake.mkdir()
    script = fake / "show"
    script.write_text('#!/bin/sh\necho "$GC_WIZARD_HOME $0 $*"\n')
    script.chmod(0o755)
    shown = shown.replace("/home/newcomer/gc-wizard/.venv/bin/gc-wizard", str(script))
    out = subprocess.run(["bash", "--norc", "-c", shown], capture_output=True, text=True, check=True).stdout
    assert out == f"[/work/scratch/a-rather-long/state-folder {script} activate]"
