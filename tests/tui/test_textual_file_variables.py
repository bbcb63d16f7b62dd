"""Textual's own file variables (TEXTUAL_LOG, the screenshot ones, TEXTUAL's feature flags) never reach Textual:
with TEXTUAL_LOG set, Textual wrote every posted message's repr (a find-links password, a GitHub token) to that
path, made 0644 and written through a link, and a FIFO there froze the app before its first frame (32nd hostile
pass (part A) P7, P8). `run_tui` drops them before Textual loads, and tui.log says so."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys

from tests.fixtures.pilot import SIZE
from wizard.paths import app_log
from wizard.tui.app import WizardApp

# A stand-in for wizard.tui.app: what Textual read when the app was built, then out (no terminal needed).
_PROBE = """
import argparse, os, sys, types
fake = types.ModuleType("wizard.tui.app")
class WizardApp:
    def __init__(self, **kwargs):
        import textual.constants as c
        print("LOG_FILE=%s SCREENSHOT=%s" % (c.LOG_FILE, c.SCREENSHOT_LOCATION), flush=True)
        os._exit(0)
fake.WizardApp = WizardApp
sys.modules["wizard.tui.app"] = fake
from wizard.tui import run_tui
run_tui(argparse.Namespace())
"""


def test_textual_never_sees_its_log_or_screenshot_variables(tmp_path):
    env = {**os.environ, "TEXTUAL_LOG": str(tmp_path / "textual.log"), "TEXTUAL_SCREENSHOT_LOCATION": str(tmp_path),
           "GC_WIZARD_HOME": str(tmp_path / "home")}
    out = subprocess.run([sys.executable, "-c", _PROBE], capture_output=True, text=True, timeout=120, env=env,
                         stdin=subprocess.DEVNULL)
    assert "LOG_FILE=None SCREENSHOT=None" in out.stdout, out.stdout + out.stderr[-2000:]


async def test_tui_log_names_the_variable_it_ignored(isolated_state, monkeypatch):
    monkeypatch.delenv("GC_WIZARD_STARTUP_LOG", raising=False)
    app = WizardApp([])
    app.dropped_variables = ["TEXTUAL_LOG"]
    async with app.run_test(size=SIZE) as pilot:
        async def ready() -> None:
            while app.first_frame_seconds is None:
                await pilot.pause(0.05)
        await asyncio.wait_for(ready(), 30)
    assert "ignored TEXTUAL_LOG" in app_log().read_text()
