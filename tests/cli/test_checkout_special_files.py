"""A named pipe (or socket, or device node) inside a `--graphcast-src` checkout, through the real CLI.

31st hostile pass (part A) P1: the install's private copy failed with shutil's raw list of triples and "point
GC_WIZARD_HOME at another one", a device node was read into TMPDIR until it was full, and `bundle` blamed its
`--out`. Both routes build from the one copy (`tree_copy`), which refuses the file by its path before anything
is begun."""

from __future__ import annotations

import os

from tests.fixtures.source_tree import buildable_checkout
from tests.fixtures.state import last_json, run_cli


def _pipe_in(tmp_path):
    checkout = buildable_checkout(tmp_path / "graphcast")
    pipe = checkout / "graphcast" / "pipe_in.py"
    os.mkfifo(pipe)
    return checkout, pipe


def test_install_refuses_the_pipe_by_its_path_before_the_environment_is_begun(tmp_path, isolated_state, tiny):
    checkout, pipe = _pipe_in(tmp_path)
    proc = run_cli("install", "tiny-a", "--yes", "--recipes-dir", str(tiny.recipes), "--find-links",
                   str(tiny.house.path), "--offline", "--graphcast-src", str(checkout), "--no-verify", "--force",
                   timeout=120)
    assert proc.returncode == 2, proc.stderr
    assert f"{pipe} (a named pipe)" in proc.stderr, proc.stderr
    assert "[('" not in proc.stderr and "GC_WIZARD_HOME" not in proc.stderr, proc.stderr
    envs = isolated_state / "envs"
    assert not envs.exists() or not any(envs.iterdir()), list(envs.iterdir())


def test_bundle_names_the_checkout_not_its_out(tmp_path, isolated_state, tiny, monkeypatch):
    checkout, pipe = _pipe_in(tmp_path)
    out = tmp_path / "bun"
    proc = tiny.bundle(out, monkeypatch, graphcast_src=checkout)
    assert proc.returncode == 2, proc.stderr
    assert f"{pipe} (a named pipe)" in proc.stderr and "cannot write the bundle" not in proc.stderr, proc.stderr
    assert not out.exists() or not any(out.iterdir())


def test_the_plan_names_what_the_install_refuses(tmp_path, isolated_state, tiny):
    """The plan listed the pipe as "1 new" and exited 0; its checkout caution now says the install's refusal."""
    checkout, pipe = _pipe_in(tmp_path)
    proc = run_cli("plan", "tiny-a", "--recipes-dir", str(tiny.recipes), "--find-links", str(tiny.house.path),
                   "--offline", "--graphcast-src", str(checkout), "--json", timeout=120)
    caution = last_json(proc)["graphcast_source"]["caution"]
    assert f"{pipe} (a named pipe)" in caution and "so `install` refuses it (exit 2)" in caution, caution
