"""The app whose terminal goes away (tmux kill-session, a dropped SSH connection) ends naming the terminal, not the
state disk (24th hostile pass (part A) P1: "the disk reported an input/output error … point GC_WIZARD_HOME at another
one"). The real app in a real tmux pane, its stderr kept in a file as the tester had it."""

from __future__ import annotations

import shlex
import shutil
import sys
import time

import pytest

from tests.fixtures.tmux import wait_gone, wizard_env

pytestmark = [pytest.mark.flaky(reruns=2, reruns_delay=2), pytest.mark.tmux,
              pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux")]


def test_the_app_whose_terminal_is_killed_names_the_terminal_not_the_disk(tmux, tmp_path, isolated_state):
    err = tmp_path / "err"
    env = wizard_env(tmp_path, "xterm-256color")
    pid = tmux.app(["sh", "-c", f"exec {shlex.quote(sys.executable)} -m wizard --offline 2>{shlex.quote(str(err))}"],
                   env)
    tmux.wait_for("535.104.05", timeout=60)  # the machine screen, as the tester had it
    time.sleep(1.0)
    tmux.close()  # tmux kill-session: the pane's terminal is gone
    assert wait_gone(pid, 30), "the app did not exit after its terminal went away"
    said = " ".join(err.read_text(errors="replace").split())
    assert "GC_WIZARD_HOME" not in said and "disk" not in said and "Traceback" not in said, said
