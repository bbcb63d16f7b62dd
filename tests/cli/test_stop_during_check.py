"""Walk 26 #8: the CLI says when a slow tier of the check starts and how long it usually takes, a Ctrl-C during the
check is answered at once with what the stop is doing, and `install --keep-unchecked` keeps the installed
environment (unchecked, not current) as the app's "k" does — the one decision, `errors.keeps_install`.

A real `python -m wizard install` (real uv, a real environment) whose stand-in jax sleeps on import, so its check
runs until stopped; a real SIGINT."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.fixtures.state import REPO
from wizard.flows.describe_check import stopping_words, tier_start_words


def test_the_slow_tiers_are_announced_with_their_usual_time_and_the_quick_ones_not():
    words = tier_start_words("gencast_jit_init", "cpu")
    assert words is not None and words.startswith("GenCast") and "about 2 min on the CPU" in words
    assert "Ctrl-C stops it" in words
    assert tier_start_words("jax_import", "cpu") is None


def _install_until_the_check(tiny, *extra: str) -> tuple[subprocess.Popen, list[str]]:
    tiny.house.add("jax", "0.4.23", module_source="import time\ntime.sleep(300)\n")
    tiny.write("tiny-check", ["pkg-a==1.0", "jax==0.4.23"])
    argv = [sys.executable, "-m", "wizard", "install", "tiny-check", "--yes", "--recipes-dir", str(tiny.recipes),
            "--find-links", str(tiny.house.path), "--offline", "--graphcast-src", str(tiny.graphcast), *extra]
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=REPO,
                            env=dict(os.environ), start_new_session=True)
    seen: list[str] = []
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        seen.append(line)
        if line.startswith("==> Checking that GraphCast runs"):
            return proc, seen
    proc.kill()
    pytest.fail("the install never reached its check:\n" + "".join(seen) + proc.stderr.read())


@pytest.mark.parametrize("keep", [True, False])
def test_ctrl_c_during_the_check_says_what_it_does_at_once_and_keep_unchecked_keeps_the_env(tiny, keep):
    proc, _ = _install_until_the_check(tiny, *(["--keep-unchecked"] if keep else []))
    time.sleep(1.0)  # the probe is importing the sleeping jax
    os.kill(proc.pid, signal.SIGINT)
    out, err = proc.communicate(timeout=120)
    assert f"gc-wizard: {stopping_words(True, keep)}" in err
    assert "Traceback" not in err
    history = tiny.history()
    env = Path(history[-1]["env"])
    if keep:
        assert env.is_dir(), err  # installed, kept unchecked
        assert "verify --env" in out + err
    else:
        assert not env.exists() and proc.returncode == 130
