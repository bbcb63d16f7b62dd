"""Walk 33 #11: the Not-done screen printed the same Fix twice: in the install's error ("installed, but CUDA found no
usable GPU. Fix: …", as the transaction words it) and right below as the finding's "▶ title / Fix:". The core's
description (`describe_check.failed_check_lines`) says each finding once; a further finding still has its own."""

from __future__ import annotations

from textual.app import App

from tests.fixtures.pilot import SIZE, screen_text, until
from tests.fixtures.results import install_result
from wizard.tui.screens.done import DoneScreen
from wizard.verify.diagnose import Finding

FIX = "Check `nvidia-smi` and that CUDA_VISIBLE_DEVICES is not empty."


def _finding(fid: str, title: str, fix: str) -> Finding:
    return Finding(id=fid, title=title, explanation="", fix=fix, evidence=())


class _NotDoneApp(App):
    def __init__(self, result) -> None:
        super().__init__()
        self.result = result
        self.assets = None
        self.assets_reach = None

    def on_mount(self) -> None:
        self.push_screen(DoneScreen(self.result))


async def test_the_not_done_screen_says_each_fix_once(tmp_path, monkeypatch):
    monkeypatch.setenv("GC_WIZARD_HOME", str(tmp_path / "state"))
    findings = [_finding("no_cuda_device", "CUDA found no usable GPU", FIX),
                _finding("other", "A second cause", "Do the other thing.")]
    result = install_result(ok=False, status="failed", env=str(tmp_path / "env"), mode="new", log="/logs/f.log",
                            error=f"installed, but CUDA found no usable GPU. Fix: {FIX}\nFull log: /logs/f.log",
                            verify={"ok": False, "env": str(tmp_path / "env"), "findings": findings})
    app = _NotDoneApp(result)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, DoneScreen), settle=0.1)
        text = " ".join(screen_text(app).split())
    assert text.count("Check `nvidia-smi`") == 1, text
    assert "▶ CUDA found no usable GPU" not in text, text
    assert "▶ A second cause Fix: Do the other thing." in text, text
    assert "installed, but CUDA found no usable GPU. Fix: Check `nvidia-smi`" in text, text
