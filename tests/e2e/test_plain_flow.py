"""Bare `gc-wizard` with no terminal: the plain walk-through, never a prompt, a hang or an escape code."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.fixtures.cli import bare_program
from tests.fixtures.state import REPO
from tests.standins import standin_env


def _run_plain(tmp_path: Path, profile: str, *args: str, term: str | None = None) -> tuple[int, str, str, float]:
    env = dict(os.environ)
    env.update(standin_env(profile, tmp_path))
    if term is not None:
        env["TERM"] = term
    out, err = tmp_path / "out.txt", tmp_path / "err.txt"
    started = time.monotonic()
    with open(os.devnull, "rb") as stdin, open(out, "wb") as stdout, open(err, "wb") as stderr:
        proc = subprocess.run([sys.executable, "-m", "wizard", *args], stdin=stdin, stdout=stdout, stderr=stderr,
                              env=env, cwd=REPO, timeout=120)
    seconds = time.monotonic() - started
    return proc.returncode, out.read_bytes().decode(), err.read_bytes().decode(), seconds


@pytest.mark.parametrize("term", [None, "dumb"])
def test_plain_flow_on_a_gpu_server(tmp_path, term):
    rc, out, err, seconds = _run_plain(tmp_path, "a100x2-535", term=term)
    assert rc == 0, err
    assert "\x1b" not in out and "\x1b" not in err, "escape codes written into a file"
    assert "NVIDIA A100-SXM4-80GB" in out and "535.104.05" in out
    assert "RECOMMENDED" in out
    # The recommendation, its plan, and the exact next command.
    assert "== Plan for the recommended recipe: jax0.4.23-cuda12-cudnn89 ==" in out
    assert "Steps (nothing has run yet):" in out
    assert "gc-wizard install jax0.4.23-cuda12-cudnn89 --yes" in bare_program(out)
    assert 'eval "$(' in out and ' activate)"' in out
    assert "Traceback" not in err
    assert seconds < 60, f"the plain flow took {seconds:.1f}s"


def test_plain_flow_on_a_machine_without_nvidia(tmp_path):
    rc, out, err, _ = _run_plain(tmp_path, "no-nvidia", "--no-tui")
    assert rc == 0, err
    assert "\x1b" not in out
    # the facts in `detect`'s words (flows.describe_machine)
    assert any(line.startswith("Driver ") and line.endswith("  none usable") for line in out.splitlines())
    assert "gc-wizard install jax0.4.23-cpu --yes" in bare_program(out)
