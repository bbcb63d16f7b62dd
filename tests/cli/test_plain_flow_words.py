"""The plain walk-through's first line says why it is the plain one (walk 22 #10: `gc-wizard --no-tui` was told
"no terminal to draw on", as if something were wrong, when the user had asked for it)."""

from __future__ import annotations

from tests.fixtures.cli import run_inproc


def test_the_plain_flow_says_it_was_asked_for_or_that_there_is_no_terminal(tiny, isolated_state):
    args = ("--recipes-dir", str(tiny.recipes), "--find-links", str(tiny.house.path), "--offline")
    asked = run_inproc("--no-tui", *args)
    assert asked.returncode == 0, asked.stderr
    first = asked.stdout.splitlines()[0]
    assert first == "gc-wizard: as asked (--no-tui), this is the plain walk-through; nothing is installed.", first
    piped = run_inproc(*args).stdout.splitlines()[0]  # stdout not a terminal
    assert piped.startswith("gc-wizard: no terminal to draw on (output is not a terminal, or TERM=dumb)"), piped
