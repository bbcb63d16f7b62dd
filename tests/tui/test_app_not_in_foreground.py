"""The app started outside the terminal's foreground process group (`timeout 25 gc-wizard 2>err.log`: `timeout` puts
its command in a group of its own) was stopped by SIGTTOU when Textual set the terminal's modes: a blank screen that
q and Ctrl-C never reached, until killed (32nd hostile pass (part A) P9). It now says so in one sentence on stdout
and exits 2; in the foreground it draws as before, whatever stderr is."""

from __future__ import annotations

import shlex
import shutil
import sys

import pytest

from tests.fixtures.tmux import exit_code, wizard_env

pytestmark = [pytest.mark.tmux, pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux"),
              pytest.mark.skipif(shutil.which("timeout") is None, reason="needs timeout")]


def test_the_app_in_a_background_group_says_so_and_ends(tmux, tmp_path):
    exit_file = tmp_path / "exit"
    line = f"{shutil.which('timeout')} 60 {shlex.quote(sys.executable)} -m wizard; echo EXIT=$? > {exit_file}; sleep 30"
    tmux.app(["bash", "--norc", "--noprofile", "-c", line], wizard_env(tmp_path, "xterm-256color"))  # no job control
    assert exit_code(exit_file, 45) == "EXIT=2", tmux.screen()
    assert "needs the terminal in the foreground" in " ".join(tmux.screen().split())
