"""Textual's own file variables (TEXTUAL_LOG, the screenshot ones, TEXTUAL's feature flags) never reach Textual:
with TEXTUAL_LOG set, Textual wrote every posted message's repr (a find-links password, a GitHub token) to that
path, made 0644 and written through a link, and a FIFO there froze the app before its first frame (32nd hostile
pass (part A) P7, P8). Nor do the ones that load code or act for the user: TEXTUAL_DRIVER imported and ran the module
it named, TEXTUAL_PRESS walked the app to an install with nobody at the keyboard (33rd hostile pass (part A) P2). Since
then only an allow-list passes; every Textual read is judged here, so a newer Textual's new variable fails until judged.
`run_tui` drops the rest before Textual loads, and tui.log says so."""

from __future__ import annotations

import ast
import asyncio
import os
import subprocess
import sys
from pathlib import Path

import textual

from tests.fixtures.pilot import SIZE
from wizard.paths import app_log
from wizard.tui.app import WizardApp
from wizard.tui.textual_variables import TEXTUAL_HARMLESS, TEXTUAL_REFUSED, drop_textual_variables

# A stand-in for wizard.tui.app: what Textual read when the app was built, then out (no terminal needed).
_PROBE = """
import argparse, os, sys, types
fake = types.ModuleType("wizard.tui.app")
class WizardApp:
    def __init__(self, **kwargs):
        import textual.constants as c
        print("LOG_FILE=%s SCREENSHOT=%s" % (c.LOG_FILE, c.SCREENSHOT_LOCATION), flush=True)
        print("DRIVER=%s PRESS=%r FPS=%s" % (c.DRIVER, c.PRESS, c.MAX_FPS), flush=True)
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


def test_textual_never_sees_a_driver_or_keys_to_press(tmp_path):
    env = {**os.environ, "TEXTUAL_DRIVER": "this:X", "TEXTUAL_PRESS": "enter,enter", "TEXTUAL_FPS": "30",
           "GC_WIZARD_HOME": str(tmp_path / "home")}
    out = subprocess.run([sys.executable, "-c", _PROBE], capture_output=True, text=True, timeout=120, env=env,
                         stdin=subprocess.DEVNULL)
    assert "DRIVER=None PRESS='' FPS=30" in out.stdout, out.stdout + out.stderr[-2000:]
    assert "Zen of Python" not in out.stdout


def test_only_the_harmless_textual_variables_stay():
    environ = {"TEXTUAL_DRIVER": "this:X", "TEXTUAL_PRESS": "enter", "TEXTUAL_NEW_ONE": "1", "TEXTUAL": "devtools",
               "TEXTUAL_THEME": "nord", "TEXTUAL_ANIMATIONS": "none", "PATH": "/bin", "TEXTUALX": "1"}
    dropped = drop_textual_variables(environ)
    assert dropped == ["TEXTUAL", "TEXTUAL_DRIVER", "TEXTUAL_NEW_ONE", "TEXTUAL_PRESS"]
    assert environ == {"TEXTUAL_THEME": "nord", "TEXTUAL_ANIMATIONS": "none", "PATH": "/bin", "TEXTUALX": "1"}


#: Variables outside Textual's name space that Textual reads, judged harmless (none loads code or acts for the user).
_OTHER_JUDGED = {
    "ESCDELAY": "how long to wait after Esc",
    "NO_COLOR": "draw without colour",
    "COLUMNS": "the web driver's size only", "ROWS": "the web driver's size only",
    "TERM_PROGRAM": "which terminal, for its quirks", "LC_TERMINAL": "which terminal, for its quirks",
}
_READERS = {"get_environ", "getenv", "_get_environ_bool", "_get_environ_int", "_get_environ_port"}


def _environment_reads(tree: ast.AST) -> set[str]:
    """The constant names a Textual module reads from the environment: `os.environ.get(N)`, `os.getenv(N)`,
    `os.environ[N]`, `environ.pop(N)` and constants.py's own `_get_environ*` helpers."""
    names = set()
    for node in ast.walk(tree):
        key = None
        if isinstance(node, ast.Call) and node.args:
            func = node.func
            name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
            on_environ = isinstance(func, ast.Attribute) and "environ" in ast.unparse(func.value)
            if name in _READERS or (on_environ and name in {"get", "pop"}):
                key = node.args[0]
        elif isinstance(node, ast.Subscript) and ast.unparse(node.value).endswith("environ"):
            key = node.slice
        if isinstance(key, ast.Constant) and isinstance(key.value, str):
            names.add(key.value)
    return names


def test_every_variable_textual_reads_is_judged():
    """A newer Textual that reads a new variable fails here until it is put in TEXTUAL_HARMLESS or TEXTUAL_REFUSED
    (or, outside TEXTUAL_*, judged above): anything unjudged in Textual's name space is dropped meanwhile."""
    reads, literals = set(), set()
    for source in Path(textual.__file__).parent.rglob("*.py"):
        tree = ast.parse(source.read_text(encoding="utf-8"))
        reads |= _environment_reads(tree)
        literals |= {node.value for node in ast.walk(tree) if isinstance(node, ast.Constant)
                     and isinstance(node.value, str) and node.value.startswith("TEXTUAL")
                     and (node.value == "TEXTUAL" or node.value[7:8] == "_") and node.value.isupper()}
    assert {"TEXTUAL_DRIVER", "TEXTUAL_PRESS", "TEXTUAL_LOG", "TEXTUAL", "ESCDELAY"} <= reads  # the reader finds them
    judged = set(TEXTUAL_HARMLESS) | set(TEXTUAL_REFUSED) | set(_OTHER_JUDGED)
    assert (reads | literals) - judged == set()
    assert not set(TEXTUAL_HARMLESS) & set(TEXTUAL_REFUSED)
