"""The next-step commands a user copies off the screen: cut for the terminal, still one command to bash."""

from __future__ import annotations

import shlex
import subprocess

import pytest

from wizard.after.next_steps import shell_lines

HOMES = ("/work/scratch/walk2home", "/tmp/a home with spaces/state", "/srv/it's/here")


def _bash(script: str) -> str:
    return subprocess.run(["bash", "--norc", "-c", script], capture_output=True, text=True, check=True).stdout


@pytest.mark.parametrize("home", HOMES)
@pytest.mark.parametrize("width", [16, 30, 45, 72])
def test_cut_lines_fit_and_read_as_the_same_command(home, width):
    # The shape of the Done screen's activate line, with `echo` standing in for `eval` so bash shows
    # what it would have run.
    command = (f'printf "[%s]" "$(echo GC_WIZARD_HOME={shlex.quote(home)} '
               f'/home/newcomer/projects/gc-wizard/.venv/bin/gc-wizard activate)" {shlex.quote("x y")} end')
    lines = shell_lines(command, width)
    pasted = "\n".join(f"    {line}" for line in lines)  # as shown on the screen: indented
    assert _bash(pasted) == _bash(command)
    longest_word = max(len(word) for word in command.split(" "))
    assert all(len(line) <= max(width, longest_word + 2) for line in lines), lines
    if len(command) > width:
        assert len(lines) > 1 and all(line.endswith(" \\") for line in lines[:-1])


def test_a_short_command_stays_one_line():
    assert shell_lines('eval "$(gc-wizard activate)"', 80) == ['eval "$(gc-wizard activate)"']
