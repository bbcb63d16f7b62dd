"""The real app in a real terminal: tmux at 80×24, TERM=xterm (16 colours over SSH) and xterm-256color."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from tests.fixtures.state import REPO
from tests.standins import standin_env

pytestmark = [pytest.mark.tmux, pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux")]


class Tmux:
    def __init__(self, tmp_path: Path) -> None:
        self.name = f"gcw-{uuid.uuid4().hex[:8]}"
        self.tmp = tmp_path
        subprocess.run(["tmux", "new-session", "-d", "-s", self.name, "-x", "80", "-y", "24",
                        "bash", "--norc", "--noprofile"], check=True)

    def run(self, argv: list[str], env: dict[str, str], exit_file: Path) -> None:
        assignments = [f"{k}={v}" for k, v in env.items()]
        line = f"cd {shlex.quote(str(REPO))} && env {shlex.join(assignments + argv)}; echo EXIT=$? > {exit_file}"
        subprocess.run(["tmux", "send-keys", "-t", self.name, line, "Enter"], check=True)

    def keys(self, *keys: str) -> None:
        subprocess.run(["tmux", "send-keys", "-t", self.name, *keys], check=True)

    def screen(self) -> str:
        return subprocess.run(["tmux", "capture-pane", "-p", "-t", self.name], capture_output=True,
                              text=True).stdout

    def wait_for(self, text: str, timeout: float = 30) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            screen = self.screen()
            if text in screen:
                return screen
            time.sleep(0.1)
        raise AssertionError(f"{text!r} never appeared; the screen was:\n{self.screen()}")

    def close(self) -> None:
        subprocess.run(["tmux", "kill-session", "-t", self.name], capture_output=True)


@pytest.fixture
def tmux(tmp_path):
    session = Tmux(tmp_path)
    yield session
    session.close()


def _wizard_env(tmp_path: Path, term: str) -> dict[str, str]:
    env = standin_env("a100x2-535", tmp_path)
    env.update({"TERM": term, "GC_WIZARD_HOME": str(tmp_path / "home"),
                "XDG_CONFIG_HOME": str(tmp_path / "config"), "GC_WIZARD_STARTUP_LOG": str(tmp_path / "startup")})
    return env


@pytest.mark.parametrize("term", ["xterm", "xterm-256color"])
def test_facts_then_recipes_then_ctrl_q_leaves_cleanly(tmux, tmp_path, term):
    exit_file = tmp_path / "exit"
    tmux.run([sys.executable, "-m", "wizard"], _wizard_env(tmp_path, term), exit_file)
    screen = tmux.wait_for("535.104.05")
    assert "A100" in screen and "Step 1 of 5" in screen
    tmux.keys("Enter")
    screen = tmux.wait_for("Choose a recipe")
    assert "jax0.4.23-cuda12-cudnn89" in screen
    tmux.keys("C-q")
    deadline = time.monotonic() + 20
    while not exit_file.exists() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert exit_file.read_text().strip() == "EXIT=0"
    after = tmux.screen()
    assert "Choose a recipe" not in after and "Step 1 of 5" not in after  # the alternate screen is gone
    first_frame = float((tmp_path / "startup").read_text().split("=")[1])
    assert 0 < first_frame < 30


def test_the_live_log_follows_the_tail_of_a_50k_line_step(tmux, tmp_path):
    exit_file = tmp_path / "exit"
    env = {"TERM": "xterm", "PYTHONPATH": str(REPO)}
    tmux.run([sys.executable, str(Path(__file__).parent / "live_log_app.py"), "50000"], env, exit_file)
    screen = tmux.wait_for("FEEDING DONE", timeout=60)
    deadline = time.monotonic() + 20
    while "line 49999 " not in screen and time.monotonic() < deadline:
        time.sleep(0.2)
        screen = tmux.screen()
    assert "line 49999 " in screen, screen
    tmux.keys("C-q")


def test_no_terminal_runs_the_plain_flow_without_escape_codes(tmp_path):
    env = {**os.environ, **_wizard_env(tmp_path, "xterm")}
    out = tmp_path / "out.txt"
    with open(out, "w") as handle:
        proc = subprocess.run([sys.executable, "-m", "wizard"], stdin=subprocess.DEVNULL, stdout=handle,
                              stderr=subprocess.STDOUT, env=env, cwd=REPO, timeout=60)
    assert proc.returncode == 0
    text = out.read_text()
    assert "\x1b" not in text and "jax0.4.23-cuda12-cudnn89" in text
