"""Walk 38 #2: argparse's hint said "(`gc-wizard install --help` shows the usage)" and the `--json` findings' `fix`
said "`gc-wizard install …`", a bare program a new login shell cannot run, while every other printed command names it
as `paths.wizard_command` does. The usage hint is built through `paths.runnable`, and every `--json` line's strings
pass through it as the printed lines do (`commands.output.json_line`).

Real parts: the real CLI in this process (`run_inproc`), a captured log from tests/logs."""

from __future__ import annotations

import json
from pathlib import Path

from tests.fixtures.cli import run_inproc
from wizard import paths

LOG = Path(__file__).resolve().parents[1] / "logs" / "graphcast_not_installed.log"


def _words(text: str) -> str:
    """`text` with its rows joined (the CLI folds a long sentence at the terminal's width, between words)."""
    return " ".join(text.split())


def test_the_usage_hint_names_the_program_as_a_new_shell_runs_it():
    me = paths.wizard_command()
    proc = run_inproc("install", "jax0.4.23-cpu", "--graphcast-src")
    assert proc.returncode == 2
    assert f"(`{me} install --help` shows the usage)" in _words(proc.stderr), proc.stderr
    proc = run_inproc("instal")
    assert f"(`{me} --help` lists them)" in _words(proc.stderr), proc.stderr
    proc = run_inproc("install", "jax0.4.23-cpu", "--graphcast-src", "--json")
    error = json.loads(proc.stdout.strip().splitlines()[-1])
    assert f"(`{me} install --help` shows the usage)" in error["error"], error


def test_a_json_fix_names_the_program_as_the_printed_fix_does():
    me = paths.wizard_command()
    printed = run_inproc("diagnose", str(LOG))
    assert f"`{me} install jax0.4.23-cuda12-cudnn89`" in _words(printed.stdout)
    proc = run_inproc("diagnose", "--json", str(LOG))
    fix = json.loads(proc.stdout.strip().splitlines()[-1])["findings"][0]["fix"]
    assert f"`{me} install jax0.4.23-cuda12-cudnn89`" in fix and f"`{me} verify --env DIR" in fix, fix
    if me != "gc-wizard":
        assert "`gc-wizard " not in fix
