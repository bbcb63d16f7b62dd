"""The terminal app and the CLI give the same recommendation, with the same reasons, for the same machine.

Both faces call `wizard.flows.session.survey` with the same inputs (the machine's other Pythons included).
The machine is a stand-in profile; one case uses recipes whose Python range leaves out the wizard's
own interpreter, where the faces used to disagree ("uv will download one" against "the environment
will use Python 3.x").
"""

from __future__ import annotations

import json
import platform
import re

import pytest

from tests.fixtures.pilot import SIZE, facts_shown
from tests.fixtures.state import last_json, run_cli
from wizard.paths import builtin_recipes_dir
from wizard.tui.app import WizardApp


def _recipes_without_own_python(folder):
    """The built-in recipes, each needing any Python but the one running the wizard."""
    own = platform.python_version()
    folder.mkdir()
    for recipe in builtin_recipes_dir().glob("*.yaml"):
        text = re.sub(r'(?m)^(\s*python:\s*).*$', rf'\1">=3.8,!={own}"', recipe.read_text())
        (folder / recipe.name).write_text(text)
    return [str(folder)]


def _verdicts(matches) -> list[dict]:
    # By id: `recipes --json` lists the recipes grouped by GraphCast version, the app recommended-first.
    return sorted(({k: m[k] for k in ("id", "compatible", "recommended", "reasons", "warnings")} for m in matches),
                  key=lambda m: m["id"])


@pytest.mark.parametrize(("profile", "own_python_fits"), [
    ("a100x2-535", True), ("v100-470-smi", True), ("a100x2-535", False), ("no-nvidia", False),
])
async def test_tui_and_cli_recommend_the_same_for_the_same_machine(gpu_server, tmp_path, profile, own_python_fits):
    gpu_server(profile)
    dirs = [] if own_python_fits else _recipes_without_own_python(tmp_path / "recipes")
    proc = run_cli("recipes", "--json", *[arg for d in dirs for arg in ("--recipes-dir", d)])
    assert proc.returncode == 0, proc.stderr
    cli = _verdicts(last_json(proc))

    app = WizardApp(recipes_dirs=dirs)
    async with app.run_test(size=SIZE) as pilot:
        await facts_shown(pilot)
        tui = _verdicts([m.to_dict() for m in app.screen.matches])
        await pilot.press("ctrl+q")

    assert tui == cli, json.dumps({"tui": tui, "cli": cli}, indent=1)
    assert any(m["recommended"] for m in cli) or all(not m["compatible"] for m in cli)
    if not own_python_fits:
        # The case the faces used to disagree on: a Python note about the wizard's own interpreter.
        own = platform.python_version()
        assert any(f"Python {own.rsplit('.', 1)[0]}" in note or own in note
                   for m in cli for note in m["warnings"] + m["reasons"]), cli
